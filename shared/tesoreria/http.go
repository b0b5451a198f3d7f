package tesoreria

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the tesoreria group's handlers keyed by route name.
func Handlers(d *db.DB) lambdahttp.Handlers {
	decodeCuentaNueva, decodeCuentaCambio := decoders(readCuenta)
	decodeCajaNueva, decodeCajaCambio := decoders(readCaja)
	decodePresupuestoNuevo, decodePresupuestoCambio := decoders(readPresupuesto)
	cuentaUpdate := handler.Action(d, "Cuenta bancaria actualizada correctamente.", decodeCuentaCambio, ActualizarCuenta)
	cajaUpdate := handler.Action(d, "Caja actualizada correctamente.", decodeCajaCambio, ActualizarCaja)
	presupuestoUpdate := handler.Action(d, "Presupuesto actualizado correctamente.", decodePresupuestoCambio, ActualizarPresupuesto)
	return lambdahttp.Handlers{
		"cuentas-bancarias.index":                handler.List(d, listaCuentas),
		"cuentas-bancarias.store":                handler.Create(d, "Cuenta bancaria creada correctamente.", decodeCuentaNueva, CrearCuenta),
		"cuentas-bancarias.show":                 handler.Get(d, parseVistaCuenta, MostrarCuenta),
		"cuentas-bancarias.update":               cuentaUpdate,
		"cuentas-bancarias.patch":                cuentaUpdate,
		"cuentas-bancarias.destroy":              handler.Action(d, "Cuenta bancaria eliminada correctamente.", handler.NoBody, EliminarCuenta),
		"cuentas-bancarias.conciliaciones.index": handler.List(d, listaConciliaciones),
		"cuentas-bancarias.conciliaciones.store": handler.CreateUnder(d, "Conciliación bancaria registrada correctamente.",
			decodeConciliacion, Conciliar),
		"cajas.index":                  handler.List(d, listaCajas),
		"cajas.store":                  handler.Create(d, "Caja creada correctamente.", decodeCajaNueva, CrearCaja),
		"cajas.show":                   handler.Show(d, BuscarCaja),
		"cajas.update":                 cajaUpdate,
		"cajas.patch":                  cajaUpdate,
		"cajas.destroy":                handler.Action(d, "Caja eliminada correctamente.", handler.NoBody, EliminarCaja),
		"cajas.abrir":                  handler.Action(d, "Caja abierta correctamente.", decodeApertura, Abrir),
		"cajas.cerrar":                 handler.Action(d, "Caja cerrada correctamente.", decodeCierre, Cerrar),
		"presupuestos.index":           handler.List(d, listaPresupuestos),
		"presupuestos.store":           handler.Create(d, "Presupuesto creado correctamente.", decodePresupuestoNuevo, CrearPresupuesto),
		"presupuestos.show":            handler.Show(d, BuscarPresupuesto),
		"presupuestos.update":          presupuestoUpdate,
		"presupuestos.patch":           presupuestoUpdate,
		"presupuestos.destroy":         handler.Action(d, "Presupuesto eliminado correctamente.", handler.NoBody, EliminarPresupuesto),
		"reportes.presupuesto_vs_real": handler.Get(d, parseConsultaPresupuesto, PresupuestoVsReal),
	}
}

// Grupo is the "tesoreria" function group (functions/tesoreria/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers { return Handlers(d.DB) }

// ---- decoders ---------------------------------------------------------------

// obligatorios refuses, in a change, an explicit null for the fields a
// record cannot be without (a creation requires them through their rules).
func obligatorios(in *valid.Input, creando bool, keys ...string) {
	for _, k := range keys {
		if !creando && in.IsNull(k) {
			in.Fail(k, "El campo "+k+" es obligatorio.")
		}
	}
}

// text reads an optional text; clear reports an explicit null (to empty it).
func text(in *valid.Input, key string, rule valid.Str) (v *string, clear bool) {
	if s, ok := in.String(key, rule); ok {
		return &s, false
	}
	return nil, in.IsNull(key) && !rule.Required
}

// leerComunes reads descripcion and activo, alike in every record body.
func leerComunes(in *valid.Input) (c comunes) {
	c.Descripcion, c.limpiarDescripcion = text(in, "descripcion", valid.Str{Max: 1000})
	c.Activo = in.OptionalBool("activo")
	return c
}

func readCuenta(in *valid.Input, creando bool) DatosCuenta {
	d := DatosCuenta{in: in}
	d.Banco, _ = text(in, "banco", valid.Str{Required: creando, Max: 255})
	d.Numero, _ = text(in, "numero", valid.Str{Required: creando, Max: 50})
	if v, ok := in.String("iban", valid.Str{Required: creando, Max: 64}); ok {
		iban := NormalizarIBAN(v)
		if msg := ValidarIBAN(iban); msg != "" {
			in.Fail("iban", msg)
		} else {
			d.IBAN = &iban
		}
	} else if !creando && in.IsNull("iban") {
		in.Fail("iban", "El campo iban es obligatorio.")
	}
	d.Moneda = valid.Opt(in.OneOf("moneda", false, Monedas))
	d.Titular, d.limpiarTitular = text(in, "titular", valid.Str{Max: 255})
	d.comunes = leerComunes(in)
	d.CuentaContableID = in.OptionalID("cuenta_contable_id")
	obligatorios(in, creando, "banco", "numero")
	return d
}

// saldoRegla is a statement's balance: any sign (an overdraft), 2 decimals.
var saldoRegla = valid.Dec{Required: true, Scale: 2, Negative: true}

func decodeConciliacion(in *valid.Input) (DatosConciliacion, error) {
	d := DatosConciliacion{in: in}
	d.FechaCorte, _ = in.Date("fecha_corte", true)
	d.SaldoEstado, _ = in.Decimal("saldo_estado_cuenta", saldoRegla)
	if items, ok := in.List("movimientos", true); ok {
		d.Movimientos = make([]int64, 0, len(items))
		for i, raw := range items {
			n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
			if err != nil || n < 1 {
				in.Fail("movimientos."+strconv.Itoa(i), "Cada movimiento es el id (entero positivo) de una línea de asiento.")
				continue
			}
			d.Movimientos = append(d.Movimientos, n)
		}
	}
	d.Observaciones, _ = text(in, "observaciones", valid.Str{Max: 1000})
	return d, in.Err()
}

func readCaja(in *valid.Input, creando bool) DatosCaja {
	d := DatosCaja{in: in}
	if n, ok := in.Int("sucursal_id", valid.Int{Required: creando, Min: valid.Min(1)}); ok {
		d.SucursalID = &n
	}
	d.Nombre, _ = text(in, "nombre", valid.Str{Required: creando, Max: 255})
	d.Codigo, d.limpiarCodigo = text(in, "codigo", valid.Str{Max: 50})
	d.comunes = leerComunes(in)
	d.CuentaContableID = in.OptionalID("cuenta_contable_id")
	obligatorios(in, creando, "sucursal_id", "nombre")
	return d
}

// montoRegla is cash: >= 0, 2 decimals, within numeric(18,2).
var montoRegla = valid.Dec{Required: true, Scale: 2, Min: valid.D("0")}

func readSesion(in *valid.Input, key string) (DatosSesion, error) {
	var d DatosSesion
	d.Monto, _ = in.Decimal(key, montoRegla)
	d.Observaciones, _ = text(in, "observaciones", valid.Str{Max: 1000})
	return d, in.Err()
}

func decodeApertura(in *valid.Input) (DatosSesion, error) { return readSesion(in, "monto_inicial") }
func decodeCierre(in *valid.Input) (DatosSesion, error)   { return readSesion(in, "monto_contado") }

// presupuestoRegla is a monthly amount: >= 0, 2 decimals.
var presupuestoRegla = valid.Dec{Required: true, Scale: 2, Min: valid.D("0")}

func readPresupuesto(in *valid.Input, creando bool) DatosPresupuesto {
	d := DatosPresupuesto{in: in}
	if n, ok := in.Int("anio", valid.Int{Required: creando, Min: valid.Min(1900), Max: valid.Min(2999)}); ok {
		d.Anio = &n
	}
	if n, ok := in.Int("cuenta_contable_id", valid.Int{Required: creando, Min: valid.Min(1)}); ok {
		d.CuentaContableID = &n
	}
	if items, ok := in.List("montos", creando); ok {
		if len(items) != 12 {
			in.Fail("montos", "El campo montos debe tener 12 montos, uno por mes (enero a diciembre).")
		} else {
			d.Montos = make([]decimal.Decimal, 12)
			for i, raw := range items {
				one := valid.NewInput(map[string]json.RawMessage{"monto": raw})
				v, _ := one.Decimal("monto", presupuestoRegla)
				d.Montos[i] = v
				for _, msg := range failures(one, "monto") {
					in.Fail("montos."+strconv.Itoa(i), msg)
				}
			}
		}
	}
	d.comunes = leerComunes(in)
	obligatorios(in, creando, "anio", "cuenta_contable_id", "montos")
	return d
}

// failures are the messages one field of in got.
func failures(in *valid.Input, key string) []string {
	var e *apperr.Error
	if err := in.Err(); err != nil && errors.As(err, &e) {
		return e.Fields[key]
	}
	return nil
}

// decoders are the create decoder (the required fields present) and the
// change decoder of a body that read reads.
func decoders[T any](read func(in *valid.Input, creando bool) T) (nuevo, cambio handler.DecodeFunc[T]) {
	decoder := func(creando bool) handler.DecodeFunc[T] {
		return func(in *valid.Input) (T, error) { return read(in, creando), in.Err() }
	}
	return decoder(true), decoder(false)
}

// parseVistaCuenta reads GET /cuentas-bancarias/{id}[?movimientos_pagina=N].
func parseVistaCuenta(r *http.Request) (VistaCuenta, error) {
	id, err := httpx.PathID(r)
	if err != nil {
		return VistaCuenta{}, err
	}
	f := httpx.NewFilters(r)
	v := VistaCuenta{ID: id, Pagina: 1}
	if n := f.ID("movimientos_pagina"); n != nil {
		v.Pagina = *n
	}
	return v, f.Err()
}

// parseConsultaPresupuesto reads ?anio= (required) and ?mes= (1-12).
func parseConsultaPresupuesto(r *http.Request) (ConsultaPresupuesto, error) {
	f := httpx.NewFilters(r)
	var q ConsultaPresupuesto
	if anio := f.Year("anio", true, 1900); anio != nil {
		q.Anio = *anio
	}
	if v := f.Value("mes"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 1 || n > 12 {
			f.Fail("mes", "El campo mes debe ser un número del 1 al 12.")
		} else {
			q.Mes = &n
		}
	}
	return q, f.Err()
}

// ---- lists ------------------------------------------------------------------

// lista is a list of JSON rows of from (its $1 the tenant, args from $2)
// once f has read its filters cleanly, ordered by ?sort among sorts with
// the id breaking ties; vacia is its rows' shape (handler.Forma).
func lista(f *httpx.Filters, sorts map[string]string, id, cols string, vacia func(context.Context, *db.Tx) (json.RawMessage, error),
	from string, args ...any) (handler.Query[json.RawMessage], error) {
	order, err := f.Sort(sorts, id)
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: cols, From: from, Order: order + ", " + id, Args: args, Scan: handler.ScanJSON,
		Vacia: vacia}, nil
}

// The shapes of an empty export: a row's keys over records of NULLs, the
// nested objects its subqueries read as their keys (a box's open session
// too, as a box with one shows it), a budget's montos a list.
var (
	cuentaVacia = handler.Forma(cuentaJSON, []string{"cuentas_bancarias b"},
		handler.Anidado{Clave: "cuenta_contable", Valor: cuentaRefJSON, Tabla: "cuentas_contables k"})
	conciliacionVacia = handler.Forma(conciliacionJSON, []string{"conciliaciones_bancarias r"})
	cajaVacia         = handler.Forma(cajaJSON, []string{"cajas c"},
		handler.Anidado{Clave: "sucursal", Valor: sucursalRefJSON, Tabla: "sucursales x"},
		handler.Anidado{Clave: "cuenta_contable", Valor: cuentaRefJSON, Tabla: "cuentas_contables k"},
		handler.Anidado{Clave: "sesion_abierta", Valor: sesionJSON, Tabla: "caja_sesiones s"})
	presupuestoVacia = handler.Forma(presupuestoJSON, []string{"presupuestos p"},
		handler.Anidado{Clave: "montos", Valor: `'[]'::jsonb`},
		handler.Anidado{Clave: "cuenta_contable", Valor: presupuestoCuentaJSON, Tabla: "cuentas_contables k"})
)

var cuentaSorts = map[string]string{"id": "b.id", "banco": "b.banco", "numero": "b.numero", "moneda": "b.moneda",
	"creado_en": "b.creado_en", "actualizado_en": "b.actualizado_en"}

// listaCuentas lists bank accounts: search (bank, number, IBAN), moneda, activos.
func listaCuentas(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	f := httpx.NewFilters(r)
	moneda := f.OneOf("moneda", Monedas)
	activos := f.Bool("activos")
	return lista(f, cuentaSorts, "b.id", cuentaJSON, cuentaVacia, `from cuentas_bancarias b where b.empresa_id = $1 and not b.eliminado
		and ($2::text is null or b.banco ilike $2 or b.numero ilike $2 or b.iban ilike $2)
		and ($3::text is null or b.moneda = $3) and ($4::boolean is null or b.activo = $4)`,
		httpx.SearchQuery(r), moneda, activos)
}

var conciliacionSorts = map[string]string{"id": "r.id", "fecha_corte": "r.fecha_corte", "creado_en": "r.creado_en"}

// listaConciliaciones lists a bank account's reconciliations, newest cut-off
// first; 404 for an account the tenant does not have.
func listaConciliaciones(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	id, err := httpx.PathID(r)
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	order, err := httpx.NewFilters(r).SortNewest(conciliacionSorts, "r.fecha_corte")
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: conciliacionJSON,
		From:  `from conciliaciones_bancarias r where r.empresa_id = $1 and r.cuenta_bancaria_id = $2`,
		Order: order + ", r.id desc", Args: []any{id}, Scan: handler.ScanJSON, Vacia: conciliacionVacia,
		Check: func(ctx context.Context, tx *db.Tx) error {
			return existe(ctx, tx, "cuentas_bancarias", id, "cuenta bancaria", msgCuentaNoEncontrada)
		}}, nil
}

var cajaSorts = map[string]string{"id": "c.id", "nombre": "c.nombre", "codigo": "c.codigo", "creado_en": "c.creado_en",
	"actualizado_en": "c.actualizado_en"}

// listaCajas lists cash boxes: sucursal_id, abierta (with an open session),
// search (name, code), activos.
func listaCajas(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	f := httpx.NewFilters(r)
	sucursal := f.ID("sucursal_id")
	abierta := f.Bool("abierta")
	activos := f.Bool("activos")
	return lista(f, cajaSorts, "c.id", cajaJSON, cajaVacia, `from cajas c where c.empresa_id = $1 and not c.eliminado
		and ($2::bigint is null or c.sucursal_id = $2)
		and ($3::boolean is null or $3 = exists (select 1 from caja_sesiones s where s.empresa_id = c.empresa_id and s.caja_id = c.id and s.estado = 'abierta'))
		and ($4::text is null or c.nombre ilike $4 or c.codigo ilike $4) and ($5::boolean is null or c.activo = $5)`,
		sucursal, abierta, httpx.SearchQuery(r), activos)
}

var presupuestoSorts = map[string]string{"id": "p.id", "anio": "p.anio", "creado_en": "p.creado_en", "actualizado_en": "p.actualizado_en"}

// listaPresupuestos lists budgets: anio, cuenta_contable_id, activos.
func listaPresupuestos(r *http.Request, _ auth.Principal) (handler.Query[json.RawMessage], error) {
	f := httpx.NewFilters(r)
	anio := f.ID("anio")
	cuenta := f.ID("cuenta_contable_id")
	activos := f.Bool("activos")
	return lista(f, presupuestoSorts, "p.id", presupuestoJSON, presupuestoVacia, `from presupuestos p where p.empresa_id = $1 and not p.eliminado
		and ($2::bigint is null or p.anio = $2) and ($3::bigint is null or p.cuenta_contable_id = $3)
		and ($4::boolean is null or p.activo = $4)`,
		anio, cuenta, activos)
}
