package compras

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
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

// cuentasIndex lists the tenant's payables: filters proveedor_id,
// orden_compra_id, estado, vencidas (pendiente and past due; 0 = the
// others), search on the order's numero_orden.
func listaCuentas(r *http.Request, p auth.Principal) (handler.Query[json.RawMessage], error) {
	order, err := httpx.SortQuery(r, cuentaSorts, "c.id")
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	a := args{nil} // $1 is the company (handler.Query); a[1:] are the filters
	conds := []string{"c.empresa_id = $1", "not c.eliminado"}
	q := httpx.NewFilters(r)
	if n := q.ID("proveedor_id"); n != nil {
		conds = append(conds, "c.proveedor_id = "+a.add(*n))
	}
	if n := q.ID("orden_compra_id"); n != nil {
		conds = append(conds, "c.orden_compra_id = "+a.add(*n))
	}
	if v := strings.TrimSpace(r.URL.Query().Get("estado")); v != "" {
		if !contains(estadosCuenta, v) {
			q.Fail("estado", "El campo estado debe ser uno de: "+strings.Join(estadosCuenta, ", ")+".")
		} else {
			conds = append(conds, "c.estado = "+a.add(v))
		}
	}
	vencida := "(c.estado = 'pendiente' and c.fecha_vencimiento < " + hoy + ")"
	if v, err := httpx.BoolQuery(r, "vencidas"); err != nil {
		q.Fail("vencidas", "El campo vencidas debe ser verdadero o falso.")
	} else if v != nil && *v {
		conds = append(conds, vencida)
	} else if v != nil {
		conds = append(conds, "not "+vencida)
	}
	if s := httpx.SearchQuery(r); s != nil {
		conds = append(conds, `exists (select 1 from ordenes_compra o where o.empresa_id = c.empresa_id and o.id = c.orden_compra_id
			and o.numero_orden ilike `+a.add(*s)+`)`)
	}
	if err := q.Err(); err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	return handler.Query[json.RawMessage]{Cols: cuentaLista, From: `from cuentas_por_pagar c where ` + strings.Join(conds, " and "),
		Order: order + ", c.id", Args: a[1:], Scan: scanJSON}, nil
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
	order, err := httpx.SortQuery(r, ordenSorts, "o.id")
	if err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	a := args{nil} // $1 is the company (handler.Query); a[1:] are the filters
	conds := []string{"o.empresa_id = $1", "not o.eliminado"}
	q := httpx.NewFilters(r)
	if n := q.ID("proveedor_id"); n != nil {
		conds = append(conds, "o.proveedor_id = "+a.add(*n))
	}
	if v := strings.TrimSpace(r.URL.Query().Get("estado")); v != "" {
		if !contains(Estados, v) {
			q.Fail("estado", "El campo estado debe ser uno de: "+strings.Join(Estados, ", ")+".")
		} else {
			conds = append(conds, "o.estado = "+a.add(v))
		}
	}
	if d := q.Date("fecha_inicio"); d != nil {
		conds = append(conds, "o.fecha_orden >= "+a.add(*d))
	}
	if d := q.Date("fecha_fin"); d != nil {
		conds = append(conds, "o.fecha_orden <= "+a.add(*d))
	}
	flags := []struct{ name, yes, no string }{
		{"pendientes", "o.estado not in ('recibida', 'cancelada')", "o.estado in ('recibida', 'cancelada')"},
		{"activas", "o.estado <> 'cancelada'", "o.estado = 'cancelada'"},
		{"activos", "o.activo", "not o.activo"},
	}
	for _, f := range flags {
		v, err := httpx.BoolQuery(r, f.name)
		if err != nil {
			q.Fail(f.name, "El campo "+f.name+" debe ser verdadero o falso.")
			continue
		}
		if v != nil && *v {
			conds = append(conds, f.yes)
		} else if v != nil {
			conds = append(conds, f.no)
		}
	}
	if s := httpx.SearchQuery(r); s != nil {
		conds = append(conds, "o.numero_orden ilike "+a.add(*s))
	}
	if err := q.Err(); err != nil {
		return handler.Query[json.RawMessage]{}, err
	}
	from := `from ordenes_compra o join proveedores p on p.empresa_id = o.empresa_id and p.id = o.proveedor_id where ` + strings.Join(conds, " and ")
	return handler.Query[json.RawMessage]{Cols: ordenLista, From: from, Order: order + ", o.id", Args: a[1:], Scan: scanJSON}, nil
}

func decodeOrden(creating bool) handler.DecodeFunc[ordenBody] {
	return func(in *valid.Input) (ordenBody, error) { return ordenBody{in: in, x: readOrden(in, creating)}, nil }
}

// transicion is an action that locks the order, lets check refuse the
// change, applies sql ($1 tenant, $2 id) and answers the order's detail.
func transicion(check func(*ordenActual) string, sql string) handler.ActionFunc[struct{}, json.RawMessage] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (json.RawMessage, error) {
		cur, err := scanOrden(tx.QueryRow(ctx, lockOrden, tx.EmpresaID(), id))
		if err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, apperr.NewNotFound(msgNoEncontrada)
		}
		if refusal := check(cur); refusal != "" {
			return nil, apperr.InvalidField("estado", refusal)
		}
		if _, err := tx.Exec(ctx, sql, tx.EmpresaID(), id); err != nil {
			return nil, fmt.Errorf("compras: transición de %d: %w", id, err)
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
