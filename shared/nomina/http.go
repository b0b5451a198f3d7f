// Package nomina is Costa Rican payroll (issue 15, "Payroll"): planillas
// of a period with one line per employee, their calculation (calculo.go,
// pure, over the legal rates of nomina_tarifas), approval, payment with
// its journal entry and outbox event, pay slips, the CCSS (SICERE) report
// and the December aguinaldo; the rates themselves (global, edited by a
// platform administrator) and the company's vacation provision.
package nomina

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the nomina group's handlers keyed by route name.
func Handlers(d *plataforma.Deps) lambdahttp.Handlers {
	db := d.DB
	return lambdahttp.Handlers{
		"nomina.tarifas.index":        handler.List(db, listaTarifas),
		"nomina.tarifas.store":        handler.Create(db, "Tarifa de nómina creada correctamente.", decodeTarifaNueva, CrearTarifa),
		"nomina.tarifas.update":       handler.Action(db, "Tarifa de nómina actualizada correctamente.", decodeTarifaCambio, ActualizarTarifa),
		"nomina.configuracion.show":   handler.Get(db, handler.NoQuery, LeerConfiguracion),
		"nomina.configuracion.update": handler.Put(db, "Configuración de nómina actualizada correctamente.", decodeConfiguracion, GuardarConfiguracion),
		"planillas.index":             handler.List(db, listaPlanillas),
		"planillas.store":             handler.Create(db, "Planilla creada correctamente.", decodePlanilla, CrearPlanilla),
		"planillas.show":              handler.Show(db, BuscarPlanilla),
		"planillas.lineas.update":     handler.Action(db, "Líneas de la planilla actualizadas correctamente.", decodeLineas, ActualizarLineas),
		"planillas.calcular":          handler.Action(db, "Planilla calculada correctamente.", handler.NoBody, Calcular),
		"planillas.aprobar":           handler.Action(db, "Planilla aprobada correctamente.", handler.NoBody, Aprobar),
		"planillas.anular":            handler.Action(db, "Planilla anulada correctamente.", handler.NoBody, Anular),
		"planillas.marcar-pagada":     handler.Action(db, "Planilla marcada como pagada y contabilizada.", decodePago, MarcarPagada),
		"planillas.comprobantes.show": handler.Get(db, parseComprobante, Comprobante),
		"planillas.reporte-ccss":      handler.Get(db, parseCCSS, ReporteCCSS),
		"planillas.aguinaldo":         handler.Get(db, parseAnio, CalcularAguinaldo),
	}
}

// Grupo is the "nomina" function group (functions/nomina/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers { return Handlers(d) }

// ---- decoders ---------------------------------------------------------------

func decodePlanilla(in *valid.Input) (DatosPlanilla, error) {
	var d DatosPlanilla
	d.Tipo, _ = in.OneOf("tipo", true, Tipos)
	ini, okIni := in.Date("fecha_inicio", true)
	fin, okFin := in.Date("fecha_fin", true)
	d.Inicio, d.Fin = ini, fin
	if okIni && okFin && fin.Before(ini) {
		in.Fail("fecha_fin", "La fecha_fin no puede ser anterior a fecha_inicio.")
	}
	if s, ok := in.String("descripcion", valid.Str{Max: 1000}); ok {
		d.Descripcion = &s
	}
	return d, in.Err()
}

// montoRegla is an amount of a line: >= 0, 2 decimals.
var montoRegla = valid.Dec{Scale: 2, Min: valid.D("0")}

// decodeLineas reads {lineas: [{empleado_id, horas_extra?, bonificaciones?,
// comisiones?, dias_incapacidad?, otras_deducciones?}, ...]}.
func decodeLineas(in *valid.Input) ([]LineaEntrada, error) {
	items, ok := in.List("lineas", true)
	if ok && len(items) == 0 {
		in.Fail("lineas", "Indique al menos una línea.")
	}
	vistos := map[int64]bool{}
	out := valid.Elementos(in, "lineas", items, "Cada línea es un objeto con empleado_id y los valores a cambiar.", func(one *valid.Input, _ int) LineaEntrada {
		var l LineaEntrada
		l.EmpleadoID, _ = one.Int("empleado_id", valid.Int{Required: true, Min: valid.Min(1)})
		if l.EmpleadoID > 0 {
			if vistos[l.EmpleadoID] {
				one.Fail("empleado_id", "El empleado aparece dos veces.")
			}
			vistos[l.EmpleadoID] = true
		}
		if v, ok := one.Decimal("horas_extra", valid.Dec{Scale: 2, Min: valid.D("0"), Max: valid.D("744")}); ok {
			l.HorasExtra = &v
		}
		for _, f := range []struct {
			key string
			dst **decimal.Decimal
		}{{"bonificaciones", &l.Bonificaciones}, {"comisiones", &l.Comisiones}, {"otras_deducciones", &l.OtrasDeducciones}} {
			if v, ok := one.Decimal(f.key, montoRegla); ok {
				*f.dst = &v
			}
		}
		if n, ok := one.Int("dias_incapacidad", valid.Int{Min: valid.Min(0), Max: valid.Min(31)}); ok {
			l.DiasIncapacidad = &n
		}
		return l
	})
	return out, in.Err()
}

func decodePago(in *valid.Input) (DatosPago, error) {
	var d DatosPago
	if t, ok := in.Date("fecha_pago", false); ok {
		d.FechaPago = &t
	}
	return d, in.Err()
}

func decodeConfiguracion(in *valid.Input) (DatosConfiguracion, error) {
	var d DatosConfiguracion
	d.PorcentajeVacaciones, _ = in.Decimal("porcentaje_vacaciones", valid.Dec{Required: true, Scale: 4, Min: valid.D("0"), Max: valid.D("100")})
	return d, in.Err()
}

func pathInt(r *http.Request, key, msg string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue(key), 10, 64)
	if err != nil || n <= 0 {
		return 0, apperr.NewNotFound(msg)
	}
	return n, nil
}

func parseComprobante(r *http.Request) (ConsultaComprobante, error) {
	var q ConsultaComprobante
	var err error
	if q.PlanillaID, err = httpx.PathID(r); err != nil {
		return q, err
	}
	if q.EmpleadoID, err = pathInt(r, "empleado_id", "Empleado no encontrado."); err != nil {
		return q, err
	}
	f := httpx.NewFilters(r)
	if v := f.Value("formato"); v != "" && v != "pdf" {
		f.Fail("formato", "El comprobante se emite en formato pdf.")
	}
	return q, f.Err()
}

func parseCCSS(r *http.Request) (ConsultaCCSS, error) {
	var q ConsultaCCSS
	var err error
	if q.PlanillaID, err = httpx.PathID(r); err != nil {
		return q, err
	}
	f := httpx.NewFilters(r)
	q.Formato = "csv"
	if v := f.OneOf("formato", []string{"csv", "excel"}); v != nil {
		q.Formato = *v
	}
	return q, f.Err()
}

// parseAnio reads the required ?anio= of the aguinaldo (1901 to 2999, as
// its schema says).
func parseAnio(r *http.Request) (int64, error) {
	f := httpx.NewFilters(r)
	anio := f.Year("anio", true, 1901)
	if err := f.Err(); err != nil {
		return 0, err
	}
	return *anio, nil
}

// ---- lists ------------------------------------------------------------------

var planillaSorts = map[string]string{"id": "p.id", "numero": "p.numero", "fecha_inicio": "p.fecha_inicio",
	"fecha_fin": "p.fecha_fin", "estado": "p.estado", "creado_en": "p.creado_en", "actualizado_en": "p.actualizado_en"}

// listaPlanillas lists planillas, newest period first: estado, tipo, anio
// (of fecha_fin).
func listaPlanillas(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	f := httpx.NewFilters(r)
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo", Tipos)
	anio := f.Year("anio", false, 1900)
	order, err := f.SortNewest(planillaSorts, "p.fecha_fin")
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: planillaJSON, From: `from planillas p where p.empresa_id = $1
		and ($2::text is null or p.estado = $2) and ($3::text is null or p.tipo = $3)
		and ($4::integer is null or extract(year from p.fecha_fin) = $4)`,
		Order: order + ", p.id desc", Args: []any{estado, tipo, anio}, Scan: handler.ScanJSON, Vacia: planillaVacia}, nil
}

// planillaVacia is a planilla's shape for an empty export: its keys over a
// record of NULLs (its period and totals are objects of its own columns).
var planillaVacia = handler.Forma(planillaJSON, []string{"planillas p"})

var tarifaSorts = map[string]string{"id": "t.id", "tipo": "t.tipo", "concepto": "t.concepto", "vigente_desde": "t.vigente_desde"}

// listaTarifas lists the rates (global): tipo, concepto, vigente_en (a date:
// the rates in force on it).
func listaTarifas(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	f := httpx.NewFilters(r)
	tipo := f.OneOf("tipo", TiposTarifa)
	vigente := f.Date("vigente_en")
	concepto := f.Text("concepto")
	order, err := f.SortNewest(tarifaSorts, "t.vigente_desde")
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: tarifaJSON, Global: true, From: `from nomina_tarifas t
		where ($1::text is null or t.tipo = $1) and ($2::text is null or lower(t.concepto) = lower($2))
		and ($3::date is null or (t.vigente_desde <= $3 and (t.vigente_hasta is null or t.vigente_hasta >= $3)))`,
		Order: order + ", t.tipo, t.desde nulls first, t.concepto, t.id", Args: []any{tipo, concepto, vigente}, Scan: handler.ScanJSON}, nil
}
