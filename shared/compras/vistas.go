package compras

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
)

// The API's shapes are built as jsonb by PostgreSQL, one statement per
// response: numbers keep their scale (1130.00, 2.500) and a view costs one
// round trip whatever the number of lines, payments or entries.

// proveedorJSON is the nested supplier (alias p).
const proveedorJSON = `jsonb_build_object('id', p.id, 'nombre', p.nombre, 'razon_social', p.razon_social, 'nit_ruc', p.nit_ruc,
	'email', p.email, 'telefono', p.telefono, 'dias_credito', p.dias_credito)`

// pagosJSON lists payments (alias x) matching cond, oldest first.
func pagosJSON(cond string) string {
	return `coalesce((select jsonb_agg((to_jsonb(x) - 'cuenta_por_cobrar_id') || jsonb_build_object('forma_pago',
			(select jsonb_build_object('id', f.id, 'codigo', f.codigo, 'nombre', f.nombre) from formas_pago f where f.id = x.forma_pago_id))
			order by x.fecha, x.id)
		from pagos x where ` + cond + ` and not x.eliminado), '[]'::jsonb)`
}

// ordenLista is an order as listed (alias o, supplier joined as p).
const ordenLista = `to_jsonb(o) || jsonb_build_object('proveedor', ` + proveedorJSON + `,
	'detalles_count', (select count(*) from detalles_orden_compra d where d.empresa_id = o.empresa_id and d.orden_compra_id = o.id))`

// ordenDetalle is an order with its supplier, warehouse, user, lines (with
// their product), payable, payments, inventory entries (with their lines)
// and saldo_pendiente: its total minus the payments made (0 once cancelled).
var ordenDetalle = `to_jsonb(o) || jsonb_build_object(
	'saldo_pendiente', (case when o.estado = 'cancelada' then 0 else o.monto_total - coalesce((select sum(x.monto) from pagos x
		join cuentas_por_pagar c on c.empresa_id = x.empresa_id and c.id = x.cuenta_por_pagar_id
		where c.empresa_id = o.empresa_id and c.orden_compra_id = o.id and not x.eliminado), 0) end)::numeric(18,2),
	'proveedor', (select ` + proveedorJSON + ` from proveedores p where p.empresa_id = o.empresa_id and p.id = o.proveedor_id),
	'almacen', (select jsonb_build_object('id', a.id, 'nombre', a.nombre, 'codigo', a.codigo)
		from almacenes a where a.empresa_id = o.empresa_id and a.id = o.almacen_id),
	'usuario', (select jsonb_build_object('id', u.id, 'nombre', u.nombre, 'apellidos', u.apellidos, 'email', u.email)
		from usuarios u where u.id = o.usuario_id),
	'detalles', coalesce((select jsonb_agg(to_jsonb(d) || jsonb_build_object(
			'cantidad_pendiente', d.cantidad - d.cantidad_recibida,
			'producto', jsonb_build_object('id', pr.id, 'nombre', pr.nombre, 'codigo', pr.codigo, 'codigo_barras', pr.codigo_barras,
				'tipo', pr.tipo, 'precio_compra', pr.precio_compra, 'tipo_impuesto_id', pr.tipo_impuesto_id,
				'gestionado_inventario', pr.gestionado_inventario)) order by d.linea)
		from detalles_orden_compra d join productos pr on pr.empresa_id = d.empresa_id and pr.id = d.producto_id
		where d.empresa_id = o.empresa_id and d.orden_compra_id = o.id), '[]'::jsonb),
	'cuenta_por_pagar', (select to_jsonb(c) from cuentas_por_pagar c
		where c.empresa_id = o.empresa_id and c.orden_compra_id = o.id and not c.eliminado),
	'pagos', ` + pagosJSON(`x.empresa_id = o.empresa_id and x.cuenta_por_pagar_id in
		(select c.id from cuentas_por_pagar c where c.empresa_id = o.empresa_id and c.orden_compra_id = o.id)`) + `,
	'entradas_inventario', coalesce((select jsonb_agg(to_jsonb(m) || jsonb_build_object('detalles',
			coalesce((select jsonb_agg(to_jsonb(dm) || jsonb_build_object('producto',
					(select jsonb_build_object('id', pm.id, 'nombre', pm.nombre, 'codigo', pm.codigo)
					 from productos pm where pm.empresa_id = dm.empresa_id and pm.id = dm.producto_id)) order by dm.linea)
				from detalles_movimiento dm where dm.empresa_id = m.empresa_id and dm.movimiento_id = m.id), '[]'::jsonb)) order by m.id)
		from movimientos_inventario m
		where m.empresa_id = o.empresa_id and m.orden_compra_id = o.id and m.clase = 'entrada' and not m.eliminado), '[]'::jsonb))`

// findOrden loads one order's detail view; found is false when the tenant
// has no such order (or it was deleted).
func findOrden(ctx context.Context, q *db.Tx, id int64) (json.RawMessage, bool, error) {
	return detalle(ctx, q, `select `+ordenDetalle+` from ordenes_compra o where o.empresa_id = $1 and o.id = $2 and not o.eliminado`,
		id, "orden")
}

// detalle reads one record's detail view: sql takes the company as $1 and
// the id as $2 and returns one jsonb column; found is false when there is
// no row. que names the record in errors.
func detalle(ctx context.Context, q *db.Tx, sql string, id int64, que string) (json.RawMessage, bool, error) {
	var raw []byte
	err := q.QueryRow(ctx, sql, q.EmpresaID(), id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("compras: %s %d: %w", que, id, err)
	}
	return raw, true, nil
}

// cuentaLista is a payable as listed (alias c): with vencida (pending and
// past due), monto_pagado, its supplier and its order.
const cuentaLista = `to_jsonb(c) || jsonb_build_object(
	'vencida', c.estado = 'pendiente' and c.fecha_vencimiento < ` + horacr.HoySQL + `,
	'monto_pagado', c.monto - c.saldo,
	'proveedor', (select ` + proveedorJSON + ` from proveedores p where p.empresa_id = c.empresa_id and p.id = c.proveedor_id),
	'orden_compra', (select ` + ordenRefJSON + `
		from ordenes_compra o where o.empresa_id = c.empresa_id and o.id = c.orden_compra_id))`

// ordenRefJSON is the order nested in a payable (alias o).
const ordenRefJSON = `jsonb_build_object('id', o.id, 'numero_orden', o.numero_orden, 'fecha_orden', o.fecha_orden,
		'estado', o.estado, 'monto_total', o.monto_total)`

// cuentaDetalle adds the payments.
var cuentaDetalle = cuentaLista + ` || jsonb_build_object('pagos', ` + pagosJSON(`x.empresa_id = c.empresa_id and x.cuenta_por_pagar_id = c.id`) + `)`

// findCuenta loads one payable's detail view.
func findCuenta(ctx context.Context, q *db.Tx, id int64) (json.RawMessage, bool, error) {
	return detalle(ctx, q, `select `+cuentaDetalle+` from cuentas_por_pagar c where c.empresa_id = $1 and c.id = $2 and not c.eliminado`,
		id, "cuenta por pagar")
}
