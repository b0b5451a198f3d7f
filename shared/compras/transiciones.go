package compras

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/valid"
)

// Transitions of a purchase order:
//
//	borrador <-> pendiente        PUT/PATCH with estado
//	pendiente -> aprobada         POST /{id}/aprobar (aprobado_en)
//	aprobada  -> aprobada         POST /{id}/recibir, partial receipt
//	aprobada  -> recibida         POST /{id}/recibir, the last pending quantity (recibido_en, payable)
//	borrador, pendiente, aprobada -> cancelada   POST /{id}/cancelar (cancelado_en), unless goods were received
//	borrador, pendiente -> aprobada, recibida, cancelada
//	                              PUT/PATCH with estado (and POST with estado at creation):
//	                              the same as aprobar, aprobar + recibir everything, cancelar
//
// Anything else is a 422 under estado.

// The writes of approving and cancelling, shared by the action routes and
// by estado in a create or an edit, and of deleting ($1 tenant, $2 id).
const (
	sqlAprobar  = `update ordenes_compra set estado = 'aprobada', aprobado_en = now() where empresa_id = $1 and id = $2`
	sqlCancelar = `update ordenes_compra set estado = 'cancelada', cancelado_en = now() where empresa_id = $1 and id = $2`
	sqlEliminar = `update ordenes_compra set activo = false, eliminado = true where empresa_id = $1 and id = $2`
)

// cambiar locks order id (a 404 when the tenant has none), lets rechazo
// refuse the change under estado and applies sql ($1 tenant, $2 id): the
// one shape of approving, cancelling and deleting by their routes.
func cambiar(ctx context.Context, tx *db.Tx, id int64, rechazo func(*ordenActual) string, sql string) error {
	cur, err := scanOrden(tx.QueryRow(ctx, lockOrden, tx.EmpresaID(), id))
	if err != nil {
		return err
	}
	if cur == nil {
		return apperr.NewNotFound(msgNoEncontrada)
	}
	if refusal := rechazo(cur); refusal != "" {
		return apperr.InvalidField("estado", refusal)
	}
	if _, err := tx.Exec(ctx, sql, tx.EmpresaID(), id); err != nil {
		return fmt.Errorf("compras: transición de %d: %w", id, err)
	}
	return nil
}

// rechazoEliminar is why an order cannot be deleted ("" when it can).
func rechazoEliminar(o *ordenActual) string {
	if o.estado != Borrador {
		return msgEliminar
	}
	return ""
}

// rechazoCancelar is why an order cannot be cancelled ("" when it can).
func rechazoCancelar(o *ordenActual) string {
	switch {
	case o.estado == Recibida:
		return "No se puede cancelar una orden de compra recibida."
	case o.estado == Cancelada:
		return "La orden de compra ya está cancelada."
	case o.recibido:
		// Received goods are in stock and owed to the supplier; cancelling
		// would leave them without a payable.
		return "No se puede cancelar una orden de compra con mercadería ya recibida."
	}
	return ""
}

// moverA moves order cur, in borrador or pendiente, to estado (given in a
// create or an edit) with the effects of the action routes: aprobada
// approves (aprobado_en); recibida approves and receives everything pending
// into the order's warehouse, else the company's principal one (entry of
// type Compra, batches, payable, recibido_en); cancelada cancels under
// cancelar's rules; borrador and pendiente need nothing more. b holds
// writes not sent yet (an edit): they go first, in the same round trip.
// The caller's transaction makes it all or nothing.
func moverA(ctx context.Context, tx *db.Tx, p auth.Principal, cur *ordenActual, estado string, in *valid.Input, b *pgx.Batch) error {
	switch estado {
	case Aprobada:
		b.Queue(sqlAprobar, tx.EmpresaID(), cur.id)
	case Cancelada:
		if refusal := rechazoCancelar(cur); refusal != "" {
			return apperr.InvalidField("estado", refusal)
		}
		b.Queue(sqlCancelar, tx.EmpresaID(), cur.id)
	case Recibida:
		b.Queue(sqlAprobar, tx.EmpresaID(), cur.id)
		_, err := recibirOrden(ctx, tx, p, cur.id, in, recepcion{antes: b, principal: true})
		return err
	}
	if b.Len() == 0 {
		return nil
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("compras: estado %s de %d: %w", estado, cur.id, err)
	}
	return nil
}

func rechazoAprobar(o *ordenActual) string {
	if o.estado != Pendiente {
		return "Solo se pueden aprobar órdenes en estado pendiente (estado actual: " + o.estado + ")."
	}
	return ""
}

// recepcionLinea is one line of a receipt as sent.
type recepcionLinea struct {
	detalleID, productoID int64
	cantidad              decimal.Decimal
	lote                  string
	vence                 *time.Time
	costo                 *decimal.Decimal
}

// recepcionInput is a receipt body: the warehouse, and the lines received
// (none: everything still pending).
type recepcionInput struct {
	almacenID *int64
	key       string // "detalles" (or its alias "lineas")
	lineas    []recepcionLinea
}

func readRecepcion(in *valid.Input) recepcionInput {
	var x recepcionInput
	if v, ok := in.Int("almacen_id", valid.Int{Min: valid.Min(1)}); ok {
		x.almacenID = &v
	}
	x.key = "detalles"
	if !in.Has("detalles") && in.Has("lineas") {
		x.key = "lineas"
	}
	items, ok := in.List(x.key, false)
	if !ok {
		return x
	}
	if len(items) == 0 {
		in.Fail(x.key, "El campo "+x.key+" debe tener al menos 1 elemento (o no enviarlo para recibir todo lo pendiente).")
		return x
	}
	if len(items) > MaxLineas {
		in.Fail(x.key, "El campo "+x.key+" no debe tener más de "+strconv.Itoa(MaxLineas)+" elementos.")
		return x
	}
	x.lineas = make([]recepcionLinea, len(items))
	for i, raw := range items {
		li, ok := in.Elemento(x.key, i, raw, "Cada línea debe ser un objeto.")
		if !ok {
			continue
		}
		l := &x.lineas[i]
		l.detalleID, _ = li.Int("detalle_id", valid.Int{Min: valid.Min(1)})
		l.productoID, _ = li.Int("producto_id", valid.Int{Min: valid.Min(1)})
		if l.detalleID == 0 && l.productoID == 0 && !li.Failed("detalle_id") && !li.Failed("producto_id") {
			li.Fail("detalle_id", "Indique el detalle_id o el producto_id de la línea recibida.")
		}
		l.cantidad, _ = li.Decimal("cantidad", valid.Dec{Required: true, Positive: true, Scale: 3, Limit: limiteCantidad})
		l.lote, _ = li.String("lote", valid.Str{Max: 100})
		if d, ok := li.Date("fecha_vencimiento", false); ok {
			l.vence = &d
		}
		if c, ok := li.Decimal("costo_unitario", valid.Dec{Scale: 4, Limit: limiteCosto}); ok {
			l.costo = &c
		}
		in.Merge(x.key+"."+strconv.Itoa(i)+".", li)
	}
	return x
}

// lineaOrden is a stored line being received.
type lineaOrden struct {
	id, productoID int64
	precio         decimal.Decimal
	gestionado     bool // products outside inventory (services) enter no stock
	pendiente      decimal.Decimal
	agregar        decimal.Decimal
}

// recepcionBody is a receipt body as read; in keeps collecting the field
// errors only the transaction can find.
type recepcionBody struct {
	in *valid.Input
	x  recepcionInput
}

// recepcion is a receipt to record.
type recepcion struct {
	x recepcionInput
	// antes are writes not sent yet (an edit, the approval of an order
	// moved to recibida); they go first, in the receipt's first round trip.
	antes *pgx.Batch
	// principal: without almacen_id in the body nor on the order, receive
	// into the company's principal warehouse (instead of requiring it).
	principal bool
}

// msgSinPrincipal refuses a receipt that has no warehouse to go to.
const msgSinPrincipal = "La orden de compra no tiene almacén y la empresa no tiene un almacén principal: indique almacen_id para recibirla."

// recibirOrden records, in tx, a receipt of an approved order: a processed
// inventory entry of type Compra (batches, expiry, unit costs) into the
// warehouse, the received quantities, and, when nothing remains pending
// (completa), the state recibida, recibido_en and the payable (monto = the
// order's total, due today + the supplier's dias_credito). Refusals are
// httpx errors (404, 422 under estado, almacen_id or the lines); the
// caller's transaction makes it all or nothing. A constant number of round
// trips whatever the number of lines.
func recibirOrden(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, in *valid.Input, rc recepcion) (completa bool, err error) {
	x := rc.x
	b := rc.antes
	if b == nil {
		b = &pgx.Batch{}
	}
	antes := b.Len()
	b.Queue(lockOrden, tx.EmpresaID(), id)
	// A line's unit cost is its price less its share of the line's
	// discount: what the payable (monto_total) charges per unit, so the
	// books' inventory, IVA acreditable and payables equal the order's.
	b.Queue(`select d.id, d.producto_id, d.cantidad - d.cantidad_recibida,
			round(d.precio_unitario - coalesce(d.descuento / nullif(d.cantidad, 0), 0), 4), pr.gestionado_inventario
		from detalles_orden_compra d join productos pr on pr.empresa_id = d.empresa_id and pr.id = d.producto_id
		where d.empresa_id = $1 and d.orden_compra_id = $2 order by d.linea`, tx.EmpresaID(), id)
	b.Queue(`select a.id, a.activo from almacenes a where a.empresa_id = $1 and not a.eliminado
		and a.id = coalesce($2, (select o.almacen_id from ordenes_compra o where o.empresa_id = $1 and o.id = $3),
			(select pa.id from almacenes pa where $4 and pa.empresa_id = $1 and pa.es_principal and not pa.eliminado order by pa.id limit 1))`,
		tx.EmpresaID(), x.almacenID, id, rc.principal)
	br := tx.SendBatch(ctx, b)
	for i := 0; i < antes; i++ {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return false, fmt.Errorf("compras: recepción de %d: %w", id, err)
		}
	}
	cur, err := scanOrden(br.QueryRow())
	if err != nil {
		br.Close()
		return false, err
	}
	rows, _ := br.Query()
	lineas, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*lineaOrden, error) {
		var l lineaOrden
		var pend, precio pgtype.Numeric
		err := row.Scan(&l.id, &l.productoID, &pend, &precio, &l.gestionado)
		l.pendiente, l.precio = db.Decimal(pend), db.Decimal(precio)
		return &l, err
	})
	if err != nil {
		br.Close()
		return false, fmt.Errorf("compras: líneas de %d: %w", id, err)
	}
	var almacenID int64
	var almacenActivo bool
	almErr := br.QueryRow().Scan(&almacenID, &almacenActivo)
	if err := br.Close(); err != nil {
		return false, fmt.Errorf("compras: recepción de %d: %w", id, err)
	}
	if cur == nil {
		return false, apperr.NewNotFound(msgNoEncontrada)
	}
	switch cur.estado {
	case Aprobada:
	case Recibida:
		return false, apperr.InvalidField("estado", "La orden de compra ya fue recibida por completo.")
	default:
		return false, apperr.InvalidField("estado", "Solo se pueden recibir órdenes aprobadas (estado actual: "+cur.estado+").")
	}
	switch {
	case errors.Is(almErr, pgx.ErrNoRows) && x.almacenID == nil && cur.almacenID == nil && rc.principal:
		in.Fail("almacen_id", msgSinPrincipal)
	case errors.Is(almErr, pgx.ErrNoRows) && x.almacenID == nil && cur.almacenID == nil:
		in.Required("almacen_id")
	case errors.Is(almErr, pgx.ErrNoRows):
		in.Fail("almacen_id", msgAlmacen)
	case almErr != nil:
		return false, fmt.Errorf("compras: almacén: %w", almErr)
	case !almacenActivo:
		in.Fail("almacen_id", msgAlmacenInact)
	}
	entradas := asignar(in, x, lineas)
	if err := in.Err(); err != nil {
		return false, err
	}
	if len(entradas) > 0 {
		oc, prov, obs := id, cur.proveedorID, "Recepción de la orden de compra "+cur.numero
		_, err := inventario.Crear(ctx, tx, inventario.Movimiento{
			Clase: inventario.Entrada, Tipo: "Compra", AlmacenID: almacenID, Fecha: horacr.Hoy(),
			UsuarioID: p.UsuarioID, OrdenCompraID: &oc, ProveedorID: &prov, Observaciones: &obs,
			Lineas: entradas, Procesar: true,
		})
		if err != nil {
			return false, err
		}
	}
	completa = true
	var ids []int64
	var cantidades []pgtype.Numeric
	for _, l := range lineas {
		if l.pendiente.IsPositive() {
			completa = false
		}
		if l.agregar.IsPositive() {
			ids, cantidades = append(ids, l.id), append(cantidades, db.Numeric(l.agregar))
		}
	}
	b = &pgx.Batch{}
	b.Queue(`update detalles_orden_compra d set cantidad_recibida = d.cantidad_recibida + x.cantidad
		from unnest($2::bigint[], $3::numeric[]) as x(id, cantidad) where d.empresa_id = $1 and d.id = x.id`,
		tx.EmpresaID(), ids, cantidades)
	b.Queue(`update ordenes_compra set almacen_id = coalesce(almacen_id, $3),
			estado = case when $4 then 'recibida' else estado end,
			recibido_en = case when $4 then now() else recibido_en end
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, almacenID, completa)
	if completa {
		b.Queue(`insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento, estado)
			select o.empresa_id, o.proveedor_id, o.id, o.monto_total, o.monto_total, `+horacr.HoySQL+`, `+horacr.HoySQL+` + p.dias_credito,
				case when o.monto_total = 0 then 'pagada' else 'pendiente' end
			from ordenes_compra o join proveedores p on p.empresa_id = o.empresa_id and p.id = o.proveedor_id
			where o.empresa_id = $1 and o.id = $2`, tx.EmpresaID(), id)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return false, fmt.Errorf("compras: recepción de %d: %w", id, err)
	}
	return completa, nil
}

// asignar assigns the received quantities to the order's lines (by
// detalle_id, or by producto_id across that product's lines in order),
// refusing more than is pending, and returns the inventory entry's lines.
// Without lines, everything pending is received at the lines' prices.
func asignar(in *valid.Input, x recepcionInput, lineas []*lineaOrden) []inventario.Linea {
	var entradas []inventario.Linea
	take := func(l *lineaOrden, q decimal.Decimal, rl recepcionLinea) {
		l.pendiente, l.agregar = l.pendiente.Sub(q), l.agregar.Add(q)
		if !l.gestionado {
			return
		}
		costo := l.precio
		if rl.costo != nil {
			costo = *rl.costo
		}
		entradas = append(entradas, inventario.Linea{ProductoID: l.productoID, Cantidad: q, CostoUnitario: costo, Lote: rl.lote, FechaVencimiento: rl.vence})
	}
	if len(x.lineas) == 0 {
		for _, l := range lineas {
			if l.pendiente.IsPositive() {
				take(l, l.pendiente, recepcionLinea{})
			}
		}
		return entradas
	}
	byID := map[int64]*lineaOrden{}
	byProducto := map[int64][]*lineaOrden{}
	for _, l := range lineas {
		byID[l.id] = l
		byProducto[l.productoID] = append(byProducto[l.productoID], l)
	}
	for i, rl := range x.lineas {
		prefix := x.key + "." + strconv.Itoa(i) + "."
		if !rl.cantidad.IsPositive() {
			continue // already refused
		}
		if rl.detalleID > 0 {
			l := byID[rl.detalleID]
			switch {
			case l == nil:
				in.Fail(prefix+"detalle_id", "El detalle indicado no pertenece a esta orden de compra.")
			case rl.productoID > 0 && rl.productoID != l.productoID:
				in.Fail(prefix+"producto_id", "El producto no corresponde al detalle indicado.")
			case rl.cantidad.GreaterThan(l.pendiente):
				in.Fail(prefix+"cantidad", "La cantidad supera lo pendiente de recibir del detalle ("+l.pendiente.String()+").")
			default:
				take(l, rl.cantidad, rl)
			}
			continue
		}
		if rl.productoID == 0 {
			continue // already refused
		}
		ls := byProducto[rl.productoID]
		if len(ls) == 0 {
			in.Fail(prefix+"producto_id", "El producto no forma parte de esta orden de compra.")
			continue
		}
		pendiente := decimal.Zero
		for _, l := range ls {
			pendiente = pendiente.Add(l.pendiente)
		}
		if rl.cantidad.GreaterThan(pendiente) {
			in.Fail(prefix+"cantidad", "La cantidad supera lo pendiente de recibir del producto ("+pendiente.String()+").")
			continue
		}
		rest := rl.cantidad
		for _, l := range ls {
			if q := decimal.Min(rest, l.pendiente); q.IsPositive() {
				take(l, q, rl)
				rest = rest.Sub(q)
			}
		}
	}
	return entradas
}
