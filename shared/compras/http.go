package compras

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	update := handler.Action(s.DB, "Orden de compra actualizada correctamente.", decodeOrden(false), actualizarOrden)
	return lambdahttp.Handlers{
		"ordenes-compra.index":    handler.List(s.DB, listaOrdenes),
		"ordenes-compra.store":    handler.Create(s.DB, "Orden de compra creada correctamente.", decodeOrden(true), crearOrden),
		"ordenes-compra.show":     handler.Show(s.DB, buscarOrden),
		"ordenes-compra.update":   update,
		"ordenes-compra.patch":    update,
		"ordenes-compra.destroy":  handler.Action(s.DB, "Orden de compra eliminada correctamente.", handler.NoBody, eliminarOrden),
		"ordenes-compra.aprobar":  handler.Action(s.DB, "Orden de compra aprobada correctamente.", handler.NoBody, transicion(rechazoAprobar, sqlAprobar)),
		"ordenes-compra.recibir":  handler.Action(s.DB, "", decodeRecepcion, recibir),
		"ordenes-compra.cancelar": handler.Action(s.DB, "Orden de compra cancelada correctamente.", handler.NoBody, transicion(rechazoCancelar, sqlCancelar)),
		"cuentas-por-pagar.index": handler.List(s.DB, listaCuentas),
		"cuentas-por-pagar.show":  handler.Show(s.DB, buscarCuenta),
		"cuentas-por-pagar.pagos": handler.CreateUnder(s.DB, "Pago registrado correctamente.", decodePago, pagar),
	}
}

// listaCuentas lists the tenant's payables: filters proveedor_id,
// orden_compra_id, estado, vencidas (pendiente and past due; 0 = the
// others), search on the order's numero_orden.
func listaCuentas(r *http.Request, p auth.Principal) (handler.Query[json.RawMessage], error) {
	f := nuevosFiltros(r, "c.empresa_id = $1", "not c.eliminado")
	si(f, "c.proveedor_id = %s", f.ID("proveedor_id"))
	si(f, "c.orden_compra_id = %s", f.ID("orden_compra_id"))
	si(f, "c.estado = %s", f.OneOf("estado", estadosCuenta))
	vencida := "(c.estado = 'pendiente' and c.fecha_vencimiento < " + horacr.HoySQL + ")"
	f.bandera("vencidas", vencida, "not "+vencida)
	si(f, `exists (select 1 from ordenes_compra o where o.empresa_id = c.empresa_id and o.id = c.orden_compra_id
			and o.numero_orden ilike %s)`, httpx.SearchQuery(r))
	return f.consulta(cuentaLista, `from cuentas_por_pagar c`, cuentaSorts, "c.id", cuentaVacia)
}

// The shapes of an empty export: a row's keys over records of NULLs, the
// nested objects its subqueries read as their keys.
var (
	cuentaVacia = handler.Forma(cuentaLista, []string{"cuentas_por_pagar c"},
		handler.Anidado{Clave: "proveedor", Valor: proveedorJSON, Tabla: "proveedores p"},
		handler.Anidado{Clave: "orden_compra", Valor: ordenRefJSON, Tabla: "ordenes_compra o"})
	ordenVacia = handler.Forma(ordenLista, []string{"ordenes_compra o", "proveedores p"})
)

// filtros builds a list's where clause from its query parameters: conds
// joined with "and", their values numbered from $2 ($1 is the company,
// handler.Query), and a 422 message per bad parameter (httpx.Filters).
type filtros struct {
	*httpx.Filters
	r     *http.Request
	args  args
	conds []string
}

func nuevosFiltros(r *http.Request, conds ...string) *filtros {
	return &filtros{Filters: httpx.NewFilters(r), r: r, args: args{nil}, conds: conds}
}

// si adds cond (%s: v's placeholder) when the parameter v was sent and valid.
func si[T any](f *filtros, cond string, v *T) {
	if v != nil {
		f.conds = append(f.conds, fmt.Sprintf(cond, f.args.add(*v)))
	}
}

// bandera adds verdadero or falso when the boolean parameter name is
// true or false.
func (f *filtros) bandera(name, verdadero, falso string) {
	if v := f.Bool(name); v != nil && *v {
		f.conds = append(f.conds, verdadero)
	} else if v != nil {
		f.conds = append(f.conds, falso)
	}
}

// consulta is the list query: cols of from where the conditions hold, in
// the ?sort= order among sorts (id by default) and then by id. A bad sort
// is answered with the bad filters (Filters.Sort).
func (f *filtros) consulta(cols, from string, sorts map[string]string, id string,
	vacia func(context.Context, *db.Tx) (json.RawMessage, error)) (handler.Query[json.RawMessage], error) {
	order, err := f.Sort(sorts, id)
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: cols, From: from + " where " + strings.Join(f.conds, " and "),
		Order: order + ", " + id, Args: f.args[1:], Scan: handler.ScanJSON, Vacia: vacia}, nil
}

func decodePago(in *valid.Input) (pagoIn, error) {
	x := pagoIn{in: in}
	x.monto, x.okMonto = in.Decimal("monto", valid.Dec{Required: true, Positive: true, Scale: 2, Limit: limiteMonto})
	x.fecha, _ = in.Date("fecha", true)
	x.forma, x.okForma = in.Int("forma_pago_id", valid.Int{Required: true, Min: valid.Min(1)})
	x.cuentaBancaria, x.caja = in.OptionalID("cuenta_bancaria_id"), in.OptionalID("caja_id")
	if v, ok := in.String("referencia", valid.Str{Max: 100}); ok {
		x.referencia = &v
	}
	return x, nil
}

// index lists the tenant's orders: filters proveedor_id, estado,
// pendientes (not recibida nor cancelada), activas (not cancelada), activos,
// fecha_inicio/fecha_fin (fecha_orden), search on numero_orden; empresa_id
// is ignored (the tenant decides).
func listaOrdenes(r *http.Request, p auth.Principal) (handler.Query[json.RawMessage], error) {
	f := nuevosFiltros(r, "o.empresa_id = $1", "not o.eliminado")
	si(f, "o.proveedor_id = %s", f.ID("proveedor_id"))
	si(f, "o.estado = %s", f.OneOf("estado", Estados))
	si(f, "o.fecha_orden >= %s", f.Date("fecha_inicio"))
	si(f, "o.fecha_orden <= %s", f.Date("fecha_fin"))
	f.bandera("pendientes", "o.estado not in ('recibida', 'cancelada')", "o.estado in ('recibida', 'cancelada')")
	f.bandera("activas", "o.estado <> 'cancelada'", "o.estado = 'cancelada'")
	f.bandera("activos", "o.activo", "not o.activo")
	si(f, "o.numero_orden ilike %s", httpx.SearchQuery(r))
	return f.consulta(ordenLista, `from ordenes_compra o join proveedores p on p.empresa_id = o.empresa_id and p.id = o.proveedor_id`, ordenSorts, "o.id", ordenVacia)
}

func decodeOrden(creating bool) handler.DecodeFunc[ordenBody] {
	return func(in *valid.Input) (ordenBody, error) { return ordenBody{in: in, x: readOrden(in, creating)}, nil }
}

// transicion is an action that locks the order, lets check refuse the
// change, applies sql ($1 tenant, $2 id) and answers the order's detail.
func transicion(check func(*ordenActual) string, sql string) handler.ActionFunc[struct{}, json.RawMessage] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (json.RawMessage, error) {
		if err := cambiar(ctx, tx, id, check, sql); err != nil {
			return nil, err
		}
		data, _, err := findOrden(ctx, tx, id)
		return data, err
	}
}

func decodeRecepcion(in *valid.Input) (recepcionBody, error) {
	return recepcionBody{in: in, x: readRecepcion(in)}, nil
}

// recibir records a receipt of an approved order (recibirOrden) and
// answers the order's detail view.
func recibir(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, b recepcionBody) (handler.Respuesta[json.RawMessage], error) {
	completa, err := recibirOrden(ctx, tx, p, id, b.in, recepcion{x: b.x})
	if err != nil {
		return handler.Respuesta[json.RawMessage]{}, err
	}
	data, _, err := findOrden(ctx, tx, id)
	msg := "Recepción parcial registrada correctamente."
	if completa {
		msg = "Orden de compra recibida por completo."
	}
	return handler.Respuesta[json.RawMessage]{Mensaje: msg, Datos: data}, err
}

// Grupo is the "compras" function group (functions/compras/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB}).Handlers()
}
