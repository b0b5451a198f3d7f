package contabilidad

import (
	"context"
	"net/http"
	"strconv"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
)

// Handlers returns the group's handlers keyed by route name.
func Handlers(d *db.DB) lambdahttp.Handlers {
	updCuenta := handler.Action(d, "Cuenta contable actualizada correctamente.", decodeCuenta(false), ActualizarCuenta)
	updAsiento := handler.Action(d, "Asiento contable actualizado correctamente.", decodeAsiento(false), ActualizarAsiento)
	hs := lambdahttp.Handlers{
		"cuentas-contables.index":   handler.List(d, listaCuentas),
		"cuentas-contables.store":   handler.Create(d, "Cuenta contable creada correctamente.", decodeCuenta(true), CrearCuenta),
		"cuentas-contables.show":    handler.Show(d, BuscarCuenta),
		"cuentas-contables.update":  updCuenta,
		"cuentas-contables.patch":   updCuenta,
		"cuentas-contables.destroy": handler.Action(d, "Cuenta contable eliminada correctamente.", handler.NoBody, EliminarCuenta),

		"asientos-contables.index":        handler.List(d, listaAsientos),
		"asientos-contables.store":        handler.Create(d, "Asiento contable registrado correctamente.", decodeAsiento(true), CrearAsiento),
		"asientos-contables.show":         handler.Show(d, BuscarAsiento),
		"asientos-contables.update":       updAsiento,
		"asientos-contables.patch":        updAsiento,
		"asientos-contables.destroy":      handler.Action(d, "Asiento contable eliminado correctamente.", handler.NoBody, EliminarAsiento),
		"asientos-contables.contabilizar": handler.Action(d, "Asiento contable contabilizado correctamente.", handler.NoBody, Contabilizar),
		"asientos-contables.anular": handler.Action(d, "Asiento contable anulado: se registró el asiento de reversión.",
			decodeAnular, Anular),

		"periodos-contables.index":   handler.List(d, listaPeriodos),
		"periodos-contables.cerrar":  enPeriodo(d, "Período contable cerrado correctamente.", CerrarPeriodo),
		"periodos-contables.reabrir": enPeriodo(d, "Período contable reabierto correctamente.", ReabrirPeriodo),

		"contabilidad.configuracion.show": handler.Get(d, handler.NoQuery, BuscarConfiguracion),
		"contabilidad.configuracion.update": handler.Put(d, "Configuración contable actualizada correctamente.",
			decodeConfiguracion, ActualizarConfiguracion),
	}
	for name, h := range recurso.Handlers(TiposCambio, d) {
		hs[name] = h
	}
	return hs
}

// Grupo is the "contabilidad" function group (functions/contabilidad/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers { return Handlers(d.DB) }

// enPeriodo is an action on the month the path names (/{anio}/{mes}/...),
// on handler.Put once the path is read.
func enPeriodo(d *db.DB, msg string, do func(context.Context, *db.Tx, auth.Principal, PeriodoRef) (Periodo, error)) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ref, err := parsePeriodo(r)
		if err != nil {
			return err
		}
		return handler.Put(d, msg, handler.NoBody, func(ctx context.Context, tx *db.Tx, p auth.Principal, _ struct{}) (Periodo, error) {
			return do(ctx, tx, p, ref)
		})(w, r)
	}
}

// parsePeriodo reads {anio} and {mes}: numbers that cannot name a month are
// not found, like a bad {id}.
func parsePeriodo(r *http.Request) (PeriodoRef, error) {
	anio, err1 := strconv.Atoi(r.PathValue("anio"))
	mes, err2 := strconv.Atoi(r.PathValue("mes"))
	if err1 != nil || err2 != nil || anio < 1900 || anio > 2999 || mes < 1 || mes > 12 {
		return PeriodoRef{}, apperr.NewNotFound("Período contable no encontrado.")
	}
	return PeriodoRef{anio, mes}, nil
}

var periodoSorts = map[string]string{"anio": "x.anio", "estado": "x.estado"}

// listaPeriodos lists the months (filters anio, estado), newest first.
func listaPeriodos(r *http.Request, _ auth.Principal) (handler.Query[Periodo], error) {
	f := httpx.NewFilters(r)
	anio := f.Year("anio", false, 1900)
	estado := f.OneOf("estado", []string{"abierto", "cerrado"})
	order, err := f.SortNewest(periodoSorts, "x.anio")
	if err != nil {
		return handler.Query[Periodo]{}, err
	}
	return handler.Query[Periodo]{Cols: periodoCols, From: periodosFrom, Order: order + ", x.anio desc, x.mes desc",
		Args: []any{anio, estado}, Scan: scanPeriodo}, nil
}

var cuentaSorts = map[string]string{"id": "c.id", "codigo": "c.codigo", "nombre": "c.nombre", "nivel": "c.nivel",
	"tipo": "c.tipo", "creado_en": "c.creado_en", "actualizado_en": "c.actualizado_en"}

// listaCuentas lists the chart: a flat page in code order (filters search on
// codigo and nombre, tipo, padre_id, nivel, acepta_movimientos, activos), or
// with arbol=true a page of top-level accounts with their subaccounts nested
// in hijos (filters tipo and activos); fecha_corte adds each account's
// balance at that date.
func listaCuentas(r *http.Request, _ auth.Principal) (handler.Query[*Cuenta], error) {
	f := httpx.NewFilters(r)
	tipo := f.OneOf("tipo", Tipos)
	padre := f.ID("padre_id")
	nivel := f.ID("nivel")
	acepta := f.Bool("acepta_movimientos")
	activos := f.Bool("activos")
	arbol := f.Bool("arbol")
	corte := f.Date("fecha_corte")
	order, err := f.Sort(cuentaSorts, "c.codigo")
	if err != nil {
		return handler.Query[*Cuenta]{}, err
	}
	filtro := CuentaFiltro{Arbol: arbol != nil && *arbol, FechaCorte: corte}
	from := `from cuentas_contables c where c.empresa_id = $1 and not c.eliminado
		and ($2::text is null or c.tipo = $2)
		and ($3::boolean is null or c.activo = $3)`
	args := []any{tipo, activos}
	if filtro.Arbol {
		from += ` and c.padre_id is null`
	} else {
		from += ` and ($4::bigint is null or c.padre_id = $4)
			and ($5::bigint is null or c.nivel = $5)
			and ($6::boolean is null or c.acepta_movimientos = $6)
			and ($7::text is null or c.codigo ilike $7 or f_unaccent(c.nombre) ilike f_unaccent($7))`
		args = append(args, padre, nivel, acepta, httpx.SearchQuery(r))
	}
	return handler.Query[*Cuenta]{Cols: cuentaCols, From: from, Order: order + ", c.id", Args: args, Scan: scanCuenta,
		Load: func(ctx context.Context, tx *db.Tx, cs []*Cuenta) error {
			return cargarCuentas(ctx, tx, cs, filtro, false)
		}}, nil
}

var asientoSorts = map[string]string{"id": "a.id", "fecha": "a.fecha", "numero": "a.numero", "total_debe": "a.total_debe",
	"creado_en": "a.creado_en", "actualizado_en": "a.actualizado_en"}

// listaAsientos lists entries, newest first (filters fecha_inicio,
// fecha_fin, estado, origen, origen_id, cuenta_id — entries with a line on
// that account —, search on numero and descripcion).
func listaAsientos(r *http.Request, _ auth.Principal) (handler.Query[Asiento], error) {
	f := httpx.NewFilters(r)
	desde, hasta := f.Range("fecha_inicio", "fecha_fin")
	estado := f.OneOf("estado", EstadosAsiento)
	origen := f.OneOf("origen", Origenes)
	origenID := f.ID("origen_id")
	cuenta := f.ID("cuenta_id")
	order, err := f.SortNewest(asientoSorts, "a.fecha")
	if err != nil {
		return handler.Query[Asiento]{}, err
	}
	return handler.Query[Asiento]{Cols: asientoCols, From: `from asientos_contables a where a.empresa_id = $1 and not a.eliminado
		and ($2::date is null or a.fecha >= $2)
		and ($3::date is null or a.fecha <= $3)
		and ($4::text is null or a.estado = $4)
		and ($5::text is null or a.origen = $5)
		and ($6::bigint is null or a.origen_id = $6)
		and ($7::bigint is null or exists (select 1 from asiento_lineas l where l.empresa_id = a.empresa_id and l.asiento_id = a.id and l.cuenta_id = $7))
		and ($8::text is null or a.numero ilike $8 or f_unaccent(a.descripcion) ilike f_unaccent($8))`,
		Order: order + ", a.id desc", Args: []any{desde, hasta, estado, origen, origenID, cuenta, httpx.SearchQuery(r)}, Scan: scanAsiento}, nil
}
