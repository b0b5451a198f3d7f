package compras

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/documentos"
	"github.com/erpcr/erp/shared/valid"
)

// SerieOrden is the document series (counter key and prefix) of purchase
// orders: OC-000001, per company.
const SerieOrden = "OC"

var ordenSorts = map[string]string{
	"id": "o.id", "numero_orden": "o.numero_orden", "fecha_orden": "o.fecha_orden",
	"fecha_entrega_estimada": "o.fecha_entrega_estimada", "estado": "o.estado", "monto_total": "o.monto_total",
	"creado_en": "o.creado_en", "actualizado_en": "o.actualizado_en", "proveedor": "p.nombre",
}

// buscarOrden is the detail view of an order of the tenant, or a 404.
func buscarOrden(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (json.RawMessage, error) {
	data, found, err := findOrden(ctx, tx, id)
	return data, apperr.NotFoundUnless(found, err, msgNoEncontrada)
}

// puedeMover: creating an order already aprobada, recibida or cancelada
// does what the action routes do, so it also needs their permission
// (compras.actualizar), as an edit does; a role that may only create orders
// cannot approve or receive them by creating them so.
func puedeMover(p auth.Principal, estado *string) error {
	if estado == nil || *estado == Borrador || *estado == Pendiente || p.Can("compras.actualizar") {
		return nil
	}
	return apperr.NewForbidden("No tiene permiso para crear órdenes de compra en estado " + *estado + " (compras.actualizar).")
}

// store creates an order and its lines in one transaction: the number
// (OC-NNNNNN) comes from the company's counter in the same transaction, so
// a refused or failed order gives it back and concurrent orders get
// distinct consecutive numbers. An estado other than borrador or pendiente
// runs, in the same transaction, what the action routes do (moverA).
// ordenBody is an order body as read; in keeps collecting the field errors
// only the transaction can find. Its own errors are reported inside the
// transaction too, after the permission check, as before.
type ordenBody struct {
	in *valid.Input
	x  ordenInput
}

func crearOrden(ctx context.Context, tx *db.Tx, p auth.Principal, b ordenBody) (json.RawMessage, error) {
	in, x := b.in, b.x
	if err := puedeMover(p, x.estado); err != nil {
		return nil, err
	}
	if err := in.Err(); err != nil {
		return nil, err
	}

	_, productos, err := referencias(ctx, tx, 0, &x, in)
	if err != nil {
		return nil, err
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	c := calcular(x.lineas, productos)
	n, err := documentos.Siguiente(ctx, tx, SerieOrden)
	if err != nil {
		return nil, err
	}
	// An order created in aprobada, recibida or cancelada is written
	// pendiente (where the action routes start) and moved there below.
	estado := *x.estado
	if estado != Borrador {
		estado = Pendiente
	}
	a := []any{tx.EmpresaID(), *x.proveedorID, p.UsuarioID, x.almacenID, documentos.Numero(SerieOrden, n, 6), *x.fechaOrden,
		x.fechaEntrega, estado, x.observaciones, db.Numeric(c.total.Subtotal), db.Numeric(c.total.Descuento),
		db.Numeric(c.total.Impuesto), db.Numeric(c.total.Total)}
	var id int64
	err = tx.QueryRow(ctx, `with o as (
			insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, almacen_id, numero_orden, fecha_orden,
				fecha_entrega_estimada, estado, observaciones, monto_subtotal, monto_descuentos, monto_impuestos, monto_total)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id
		), d as (`+insertLineas("(select id from o)", 14)+`)
		select id from o`, append(a, c.args()...)...).Scan(&id)
	if err != nil {
		return nil, fmt.Errorf("compras: insert: %w", err)
	}
	if err := moverA(ctx, tx, p, &ordenActual{id: id, estado: estado}, *x.estado, in, &pgx.Batch{}); err != nil {
		return nil, err
	}
	data, _, err := findOrden(ctx, tx, id)
	return data, err
}

// update edits an order in borrador or pendiente (PUT and PATCH are both
// partial). Sending detalles replaces every line; the totals are always
// recomputed from the lines. An estado of aprobada, recibida or cancelada
// applies the edit and then, in the same transaction, what the action
// routes do (moverA).
func actualizarOrden(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, body ordenBody) (json.RawMessage, error) {
	in, x := body.in, body.x

	// The order is looked up (and locked) before the body is judged, so
	// another company's order is a 404 whatever the body says.
	cur, productos, err := referencias(ctx, tx, id, &x, in)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		return nil, apperr.NewNotFound(msgNoEncontrada)
	}
	if cur.estado != Borrador && cur.estado != Pendiente {
		return nil, apperr.InvalidField("estado", msgEditar)
	}
	proveedor, almacen, fecha, entrega, estado, obs := cur.proveedorID, cur.almacenID, cur.fechaOrden, cur.fechaEntrega, cur.estado, cur.observaciones
	if x.proveedorID != nil {
		proveedor = *x.proveedorID
	}
	if x.almacenID != nil || x.clearAlmacen {
		almacen = x.almacenID
	}
	if x.fechaOrden != nil {
		fecha = *x.fechaOrden
	}
	if x.fechaEntrega != nil || x.clearEntrega {
		entrega = x.fechaEntrega
	}
	destino := estado
	if x.estado != nil {
		destino = *x.estado
	}
	if destino == Borrador || destino == Pendiente {
		estado = destino
	}
	if x.observaciones != nil || x.clearObs {
		obs = x.observaciones
	}
	if entrega != nil && entrega.Before(fecha) && !in.Failed("fecha_entrega_estimada") {
		in.Fail("fecha_entrega_estimada", msgEntregaAnterior)
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	b := &pgx.Batch{}
	b.Queue(`update ordenes_compra set proveedor_id = $3, almacen_id = $4, fecha_orden = $5, fecha_entrega_estimada = $6,
		estado = $7, observaciones = $8 where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), id, proveedor, almacen, fecha, entrega, estado, obs)
	if x.lineasSent {
		c := calcular(x.lineas, productos)
		b.Queue(`update ordenes_compra set monto_subtotal = $3, monto_descuentos = $4, monto_impuestos = $5, monto_total = $6
			where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, db.Numeric(c.total.Subtotal), db.Numeric(c.total.Descuento),
			db.Numeric(c.total.Impuesto), db.Numeric(c.total.Total))
		b.Queue(`delete from detalles_orden_compra where empresa_id = $1 and orden_compra_id = $2`, tx.EmpresaID(), id)
		b.Queue(insertLineas("$2", 3), append([]any{tx.EmpresaID(), id}, c.args()...)...)
	}
	if destino != estado {
		// The edit goes with the state change's first round trip.
		if err := moverA(ctx, tx, p, cur, destino, in, b); err != nil {
			return nil, err
		}
	} else if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("compras: update %d: %w", id, err)
	}
	data, _, err := findOrden(ctx, tx, id)
	return data, err
}

// eliminarOrden soft-deletes an order in borrador.
func eliminarOrden(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	return nil, cambiar(ctx, tx, id, rechazoEliminar, sqlEliminar)
}
