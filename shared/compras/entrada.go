package compras

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/montos"
	"github.com/erpcr/erp/shared/valid"
)

// MaxLineas bounds the lines of one order (the body limit would otherwise
// allow thousands).
const MaxLineas = 500

// Messages of the order's rules.
const (
	msgNoEncontrada    = "Orden de compra no encontrada."
	msgEditar          = "Solo se pueden editar órdenes en estado borrador o pendiente."
	msgEliminar        = "Solo se pueden eliminar órdenes en estado borrador."
	msgEstadoValido    = "El campo estado debe ser uno de: borrador, pendiente, aprobada, recibida, cancelada."
	msgDetallesMin     = "El campo detalles debe tener al menos 1 elemento."
	msgProveedor       = "El proveedor seleccionado no existe en esta empresa."
	msgProveedorInact  = "El proveedor seleccionado está inactivo."
	msgAlmacen         = "El almacén seleccionado no existe en esta empresa."
	msgAlmacenInact    = "El almacén seleccionado está inactivo."
	msgProducto        = "El producto seleccionado no existe en esta empresa."
	msgProductoInact   = "El producto seleccionado está inactivo."
	msgEntregaAnterior = "La fecha de entrega estimada debe ser igual o posterior a la fecha de la orden."
)

// ordenInput is a validated create/update body; nil pointers were not sent.
type ordenInput struct {
	proveedorID   *int64
	almacenID     *int64
	clearAlmacen  bool
	fechaOrden    *time.Time
	fechaEntrega  *time.Time
	clearEntrega  bool
	estado        *string
	observaciones *string
	clearObs      bool
	lineas        []lineaInput
	lineasSent    bool
}

// lineaInput is one line as sent; porcentaje nil means "the product's rate".
type lineaInput struct {
	productoID  int64
	cantidad    decimal.Decimal
	precio      decimal.Decimal
	descuento   decimal.Decimal
	porcentaje  *decimal.Decimal
	descripcion *string
}

// readOrden reads the order body. creating applies required fields and
// defaults; updating reads only what was sent (partial, PUT and PATCH alike).
func readOrden(in *valid.Input, creating bool) ordenInput {
	var x ordenInput
	if v, ok := in.Int("proveedor_id", valid.Int{Required: creating, Min: valid.Min(1)}); ok {
		x.proveedorID = &v
	} else if !creating && in.IsNull("proveedor_id") {
		in.Required("proveedor_id")
	}
	if v, ok := in.Int("almacen_id", valid.Int{Min: valid.Min(1)}); ok {
		x.almacenID = &v
	} else if in.IsNull("almacen_id") {
		x.clearAlmacen = true
	}
	if v, ok := in.Date("fecha_orden", creating); ok {
		x.fechaOrden = &v
	} else if !creating && in.IsNull("fecha_orden") {
		in.Required("fecha_orden")
	}
	if v, ok := in.Date("fecha_entrega_estimada", false); ok {
		x.fechaEntrega = &v
	} else if in.Has("fecha_entrega_estimada") && !in.Failed("fecha_entrega_estimada") {
		x.clearEntrega = true // null or ""
	}
	if x.fechaOrden != nil && x.fechaEntrega != nil && x.fechaEntrega.Before(*x.fechaOrden) {
		in.Fail("fecha_entrega_estimada", msgEntregaAnterior)
	}
	// Required on create (SPEC), any of the five states; an edit may move a
	// borrador or pendiente order to any of them too.
	if v, ok := in.String("estado", valid.Str{Required: creating, Max: 50}); ok {
		if contains(Estados, v) {
			x.estado = &v
		} else {
			in.Fail("estado", msgEstadoValido)
		}
	} else if !creating && in.Has("estado") && !in.Failed("estado") {
		in.Required("estado") // null or blank
	}
	if v, ok := in.String("observaciones", valid.Str{Max: 2000}); ok {
		x.observaciones = &v
	} else if in.Has("observaciones") && !in.Failed("observaciones") {
		x.clearObs = true
	}
	items, ok := in.List("detalles", creating)
	switch {
	case ok:
		x.lineasSent = true
		x.lineas = readLineas(in, items)
	case !creating && in.IsNull("detalles"):
		in.Fail("detalles", msgDetallesMin)
	}
	return x
}

func readLineas(in *valid.Input, items []json.RawMessage) []lineaInput {
	if len(items) == 0 {
		in.Fail("detalles", msgDetallesMin)
		return nil
	}
	if len(items) > MaxLineas {
		in.Fail("detalles", "El campo detalles no debe tener más de "+strconv.Itoa(MaxLineas)+" elementos.")
		return nil
	}
	lineas := make([]lineaInput, len(items))
	suma := decimal.Zero
	for i, raw := range items {
		prefix := "detalles." + strconv.Itoa(i) + "."
		li, ok := in.Elemento("detalles", i, raw, "Cada detalle debe ser un objeto.")
		if !ok {
			continue
		}
		l := &lineas[i]
		pid, _ := li.Int("producto_id", valid.Int{Required: true, Min: valid.Min(1)})
		cant, okC := li.Decimal("cantidad", valid.Dec{Required: true, Positive: true, Scale: 3, Limit: limiteCantidad})
		precio, okU := li.Decimal("precio_unitario", valid.Dec{Required: true, Scale: 2, Limit: limiteMonto})
		desc, okD := li.Decimal("descuento", valid.Dec{Scale: 2, Limit: limiteMonto})
		if !li.Has("descuento") || li.IsNull("descuento") {
			okD = true
		}
		if pct, ok := li.Decimal("porcentaje_impuesto", valid.Dec{Max: &cien, Scale: 2, Limit: limiteMonto}); ok {
			l.porcentaje = &pct
		}
		if v, ok := li.String("descripcion", valid.Str{Max: 1000}); ok {
			l.descripcion = &v
		}
		l.productoID, l.cantidad, l.precio, l.descuento = pid, cant, precio, desc
		if okC && okU {
			sub := cant.Mul(precio).Round(2)
			switch {
			case sub.GreaterThanOrEqual(limiteOrden):
				li.Fail("precio_unitario", "El subtotal de la línea (cantidad por precio unitario) es demasiado grande.")
			case okD && desc.GreaterThan(sub):
				li.Fail("descuento", "El descuento no puede ser mayor que el subtotal de la línea ("+sub.StringFixed(2)+").")
			default:
				suma = suma.Add(sub)
			}
		}
		in.Merge(prefix, li)
	}
	if suma.GreaterThanOrEqual(limiteOrden) {
		in.Fail("detalles", "El total de la orden es demasiado grande.")
	}
	return lineas
}

// ordenActual is the stored state of an order being changed.
type ordenActual struct {
	id            int64
	estado        string
	proveedorID   int64
	almacenID     *int64
	numero        string
	fechaOrden    time.Time
	fechaEntrega  *time.Time
	observaciones *string
	total         decimal.Decimal
	recibido      bool // some line has a received quantity
	diasCredito   int
}

// lockOrden is the locking read of an order (queued first in a batch, so
// the rest of the batch runs under the lock).
const lockOrden = `select o.id, o.estado, o.proveedor_id, o.almacen_id, o.numero_orden, o.fecha_orden, o.fecha_entrega_estimada,
		o.observaciones, o.monto_total,
		exists (select 1 from detalles_orden_compra d where d.empresa_id = o.empresa_id and d.orden_compra_id = o.id and d.cantidad_recibida > 0),
		coalesce((select p.dias_credito from proveedores p where p.empresa_id = o.empresa_id and p.id = o.proveedor_id), 0)
	from ordenes_compra o where o.empresa_id = $1 and o.id = $2 and not o.eliminado for update of o`

// scanOrden reads lockOrden's row; nil when there is none.
func scanOrden(row pgx.Row) (*ordenActual, error) {
	var o ordenActual
	var total pgtype.Numeric
	err := row.Scan(&o.id, &o.estado, &o.proveedorID, &o.almacenID, &o.numero, &o.fechaOrden, &o.fechaEntrega,
		&o.observaciones, &total, &o.recibido, &o.diasCredito)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("compras: orden: %w", err)
	}
	o.total = db.Decimal(total)
	return &o, nil
}

// producto is what an order needs of a product.
type producto struct {
	activo     bool
	porcentaje decimal.Decimal // its tax type's rate, else 0
}

// referencias checks, in one pipelined round trip, the order to change
// (locked, when id > 0) and the supplier, warehouse and products the body
// names, recording Spanish messages in in. It returns the order (nil when
// id > 0 and it does not exist) and the products found.
func referencias(ctx context.Context, tx *db.Tx, id int64, x *ordenInput, in *valid.Input) (*ordenActual, map[int64]producto, error) {
	empresaID := tx.EmpresaID()
	b := &pgx.Batch{}
	if id > 0 {
		b.Queue(lockOrden, empresaID, id)
	}
	if x.proveedorID != nil {
		b.Queue(`select activo from proveedores where empresa_id = $1 and id = $2 and not eliminado`, empresaID, *x.proveedorID)
	}
	if x.almacenID != nil {
		b.Queue(`select activo from almacenes where empresa_id = $1 and id = $2 and not eliminado`, empresaID, *x.almacenID)
	}
	var ids []int64
	for _, l := range x.lineas {
		if l.productoID > 0 {
			ids = append(ids, l.productoID)
		}
	}
	if len(ids) > 0 {
		b.Queue(`select p.id, p.activo, coalesce(ti.porcentaje, 0) from productos p
			left join tipos_impuesto ti on ti.id = p.tipo_impuesto_id
			where p.empresa_id = $1 and p.id = any($2) and not p.eliminado`, empresaID, ids)
	}
	if b.Len() == 0 {
		return nil, nil, nil
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var cur *ordenActual
	if id > 0 {
		var err error
		if cur, err = scanOrden(br.QueryRow()); err != nil {
			return nil, nil, err
		}
	}
	active := func(field, missing, inactive string) error {
		var activo bool
		err := br.QueryRow().Scan(&activo)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			in.Fail(field, missing)
		case err != nil:
			return fmt.Errorf("compras: %s: %w", field, err)
		case !activo:
			in.Fail(field, inactive)
		}
		return nil
	}
	if x.proveedorID != nil {
		if err := active("proveedor_id", msgProveedor, msgProveedorInact); err != nil {
			return nil, nil, err
		}
	}
	if x.almacenID != nil {
		if err := active("almacen_id", msgAlmacen, msgAlmacenInact); err != nil {
			return nil, nil, err
		}
	}
	productos := map[int64]producto{}
	if len(ids) > 0 {
		rows, _ := br.Query()
		for rows.Next() {
			var pid int64
			var p producto
			var pct pgtype.Numeric
			if err := rows.Scan(&pid, &p.activo, &pct); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("compras: productos: %w", err)
			}
			p.porcentaje = db.Decimal(pct)
			productos[pid] = p
		}
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("compras: productos: %w", err)
		}
		for i, l := range x.lineas {
			if l.productoID <= 0 {
				continue
			}
			key := "detalles." + strconv.Itoa(i) + ".producto_id"
			if p, ok := productos[l.productoID]; !ok {
				in.Fail(key, msgProducto)
			} else if !p.activo {
				in.Fail(key, msgProductoInact)
			}
		}
	}
	return cur, productos, nil
}

// lineasCalculadas are the lines to store, as column arrays, and the
// order's totals.
type lineasCalculadas struct {
	lineas                                                        []int32
	productos                                                     []int64
	descripciones                                                 []*string
	cantidades, precios, descuentos, porcentajes, subs, imps, tot []pgtype.Numeric
	total                                                         montos.Importe
}

// calcular computes every line (montos: half-up to 2 decimals per line
// amount) and the order's totals (sums of the rounded line amounts). A line
// without porcentaje_impuesto takes its product's tax rate.
func calcular(ls []lineaInput, productos map[int64]producto) lineasCalculadas {
	k := len(ls)
	c := lineasCalculadas{
		lineas: make([]int32, k), productos: make([]int64, k), descripciones: make([]*string, k),
		cantidades: make([]pgtype.Numeric, k), precios: make([]pgtype.Numeric, k), descuentos: make([]pgtype.Numeric, k),
		porcentajes: make([]pgtype.Numeric, k), subs: make([]pgtype.Numeric, k), imps: make([]pgtype.Numeric, k), tot: make([]pgtype.Numeric, k),
	}
	importes := make([]montos.Importe, k)
	for i, l := range ls {
		pct := productos[l.productoID].porcentaje
		if l.porcentaje != nil {
			pct = *l.porcentaje
		}
		imp := montos.Calcular(montos.Linea{Cantidad: l.cantidad, PrecioUnitario: l.precio, Descuento: l.descuento, PorcentajeImpuesto: pct})
		importes[i] = imp
		c.lineas[i], c.productos[i], c.descripciones[i] = int32(i+1), l.productoID, l.descripcion
		c.cantidades[i], c.precios[i], c.descuentos[i], c.porcentajes[i] = db.Numeric(l.cantidad), db.Numeric(l.precio), db.Numeric(imp.Descuento), db.Numeric(pct)
		c.subs[i], c.imps[i], c.tot[i] = db.Numeric(imp.Subtotal), db.Numeric(imp.Impuesto), db.Numeric(imp.Total)
	}
	c.total = montos.Sumar(importes)
	return c
}

// insertLineas writes every line in one statement. %s is the order's id
// expression; the arrays are $first..$first+9, the tenant is $1. A line
// without descripcion takes its product's name.
func insertLineas(ordenExpr string, first int) string {
	p := make([]any, 0, 11)
	p = append(p, ordenExpr)
	for i := 0; i < 10; i++ {
		p = append(p, first+i)
	}
	return fmt.Sprintf(`insert into detalles_orden_compra (empresa_id, orden_compra_id, linea, producto_id, descripcion, cantidad,
			precio_unitario, descuento, porcentaje_impuesto, subtotal, monto_impuesto, total)
		select $1, %s, x.linea, x.producto, coalesce(x.descripcion, p.nombre), x.cantidad, x.precio, x.descuento, x.porcentaje,
			x.subtotal, x.impuesto, x.total
		from unnest($%d::int[], $%d::bigint[], $%d::text[], $%d::numeric[], $%d::numeric[], $%d::numeric[], $%d::numeric[],
			$%d::numeric[], $%d::numeric[], $%d::numeric[])
			as x(linea, producto, descripcion, cantidad, precio, descuento, porcentaje, subtotal, impuesto, total)
		join productos p on p.empresa_id = $1 and p.id = x.producto`, p...)
}

func (c lineasCalculadas) args() []any {
	return []any{c.lineas, c.productos, c.descripciones, c.cantidades, c.precios, c.descuentos, c.porcentajes, c.subs, c.imps, c.tot}
}
