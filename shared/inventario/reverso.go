package inventario

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
)

// NoCubierto returns, for every line of a processed exit, the quantity no
// batch covered (negative stock let it through to the product's batch-less
// row), as batch-less entry lines at that row's cost. Consumido plus
// NoCubierto are the lines that undo the exit entirely: a cancelled sale
// gives back what its batches lost and what its batch-less row went below
// zero. Lines fully covered by batches are not returned.
func NoCubierto(ctx context.Context, tx *db.Tx, salidaID int64) ([]Linea, error) {
	empresaID := tx.EmpresaID()
	rows, err := tx.Query(ctx, `select d.producto_id, d.cantidad - x.consumido, coalesce(i.costo_unitario, 0)
		from detalles_movimiento d
		join movimientos_inventario m on m.empresa_id = d.empresa_id and m.id = d.movimiento_id
		cross join lateral (select coalesce(sum(c.cantidad), 0) consumido from consumos_lote c
		  where c.empresa_id = d.empresa_id and c.detalle_id = d.id) x
		left join inventarios i on i.empresa_id = d.empresa_id and i.almacen_id = m.almacen_id and i.producto_id = d.producto_id
		  and i.lote is null and i.fecha_vencimiento is null and not i.eliminado
		where d.empresa_id = $1 and d.movimiento_id = $2 and d.cantidad > x.consumido
		order by d.linea`, empresaID, salidaID)
	if err != nil {
		return nil, fmt.Errorf("inventario: no cubierto: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Linea, error) {
		var l Linea
		var cant, costo pgtype.Numeric
		if err := r.Scan(&l.ProductoID, &cant, &costo); err != nil {
			return l, err
		}
		l.Cantidad, l.CostoUnitario = db.Decimal(cant), db.Decimal(costo)
		return l, nil
	})
}

// costoVendido is what a sale's exit took of one product: the quantity of
// its lines, the value of the batches they consumed, and the batch the
// last of them came from (where returned goods go back).
type costoVendido struct {
	cantidad, valor decimal.Decimal
	lote            string
	vence           *time.Time
	precioCompra    decimal.Decimal
}

// CostosVenta are the costs at which goods of a sale come back (a credit
// note's customer return), per product, read by QueueCostosVenta.
type CostosVenta struct {
	porProducto map[int64]*costoVendido
}

// QueueCostosVenta queues on b the read of what the processed exits of
// type Venta of the sale venta consumed of productos: per exit line its
// quantity, per batch consumed its quantity, cost, lote and expiry (one
// statement whatever the number of products). Available once b is closed.
func QueueCostosVenta(tx *db.Tx, b *pgx.Batch, venta int64, productos []int64) *CostosVenta {
	cv := &CostosVenta{porProducto: map[int64]*costoVendido{}}
	b.Queue(`select p.id, p.precio_compra, d.id, d.cantidad, c.cantidad, c.costo_unitario, i.lote, i.fecha_vencimiento
		from productos p
		left join (movimientos_inventario m
		  join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id)
		  on m.empresa_id = p.empresa_id and d.producto_id = p.id and m.venta_id = $2
		  and m.clase = 'salida' and m.tipo = 'Venta' and m.estado = 'Procesada' and not m.eliminado
		left join consumos_lote c on c.empresa_id = d.empresa_id and c.detalle_id = d.id
		left join inventarios i on i.empresa_id = c.empresa_id and i.id = c.inventario_id
		where p.empresa_id = $1 and p.id = any($3)
		order by p.id, m.id, d.linea, c.id`, tx.EmpresaID(), venta, productos).Query(func(rows pgx.Rows) error {
		lineas := map[int64]bool{}
		for rows.Next() {
			var prod int64
			var detalle *int64
			var precio, cantLinea, cant, costo pgtype.Numeric
			var lote *string
			var vence *time.Time
			if err := rows.Scan(&prod, &precio, &detalle, &cantLinea, &cant, &costo, &lote, &vence); err != nil {
				return fmt.Errorf("inventario: costos de la venta: %w", err)
			}
			c := cv.porProducto[prod]
			if c == nil {
				c = &costoVendido{precioCompra: db.Decimal(precio)}
				cv.porProducto[prod] = c
			}
			if detalle == nil {
				continue
			}
			if !lineas[*detalle] {
				lineas[*detalle] = true
				c.cantidad = c.cantidad.Add(db.Decimal(cantLinea))
			}
			if cant.Valid {
				c.valor = c.valor.Add(db.Decimal(cant).Mul(db.Decimal(costo)))
				c.lote, c.vence = "", vence
				if lote != nil {
					c.lote = *lote
				}
			}
		}
		return rows.Err()
	})
	return cv
}

// Devolucion turns the lines of goods of the sale coming back into entry
// lines at the cost the sale's exit took them out: the value its batches
// gave per unit of its lines of that product (so that crediting all of it
// gives back exactly what the exit cost the books), into the batch the
// exit took the last of them from. A product the sale took out of no
// warehouse comes back at its precio_compra, batch-less.
func (cv *CostosVenta) Devolucion(lineas []Linea) []Linea {
	out := make([]Linea, len(lineas))
	for i, l := range lineas {
		out[i] = l
		c := cv.porProducto[l.ProductoID]
		switch {
		case c == nil:
		case c.cantidad.IsPositive():
			out[i].CostoUnitario = c.valor.DivRound(c.cantidad, 4)
			out[i].Lote, out[i].FechaVencimiento = c.lote, c.vence
		default:
			out[i].CostoUnitario = c.precioCompra
		}
	}
	return out
}

// Revertir undoes a processed entry with a processed exit of the same
// lines from its warehouse (m names the exit's type, sale, customer, user
// and notes; its warehouse and lines are the entry's): what the entry
// added leaves the batches it went to first, at the entry's cost, and
// those batches get back the cost they had before the entry averaged into
// them, so that stock, its valuation and the books return to where they
// were; what those batches no longer hold leaves FIFO from the product's
// other batches at their cost. It returns *FaltaStock when the warehouse
// no longer holds it (unless the company allows negative stock). Three
// round trips whatever the number of lines.
func Revertir(ctx context.Context, tx *db.Tx, entradaID int64, m Movimiento) (int64, error) {
	empresaID := tx.EmpresaID()
	b := &pgx.Batch{}
	var lineas []Linea
	b.Queue(`select d.producto_id, d.cantidad, d.costo_unitario, coalesce(d.lote, ''), d.fecha_vencimiento from detalles_movimiento d
		where d.empresa_id = $1 and d.movimiento_id = $2 order by d.linea`, empresaID, entradaID).Query(func(rows pgx.Rows) error {
		var err error
		lineas, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Linea, error) {
			var l Linea
			var cant, costo pgtype.Numeric
			err := r.Scan(&l.ProductoID, &cant, &costo, &l.Lote, &l.FechaVencimiento)
			l.Cantidad, l.CostoUnitario = db.Decimal(cant), db.Decimal(costo)
			return l, err
		})
		return err
	})
	b.Queue(sqlPermiteNegativo, empresaID).QueryRow(func(r pgx.Row) error { return r.Scan(&m.PermitirNegativo) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, fmt.Errorf("inventario: revertir %d: %w", entradaID, err)
	}
	if len(lineas) == 0 {
		return 0, nil
	}
	b = &pgx.Batch{}
	lotes := QueueLotes(tx, b, m.AlmacenID, lineas)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, err
	}
	costoDe := primeroLosDe(lotes, lineas)
	m.Clase, m.Procesar, m.Lineas = Salida, true, make([]Linea, len(lineas))
	for i, l := range lineas {
		m.Lineas[i] = Linea{ProductoID: l.ProductoID, Cantidad: l.Cantidad}
	}
	p, err := Preparar(m, lotes)
	if err != nil {
		return 0, err
	}
	// What leaves the entry's batches leaves at the entry's cost.
	type salida struct{ toma, valor decimal.Decimal }
	porLote := map[int64]salida{}
	var orden []int64
	for i, inv := range p.plan.cInventario {
		costo, ok := costoDe[inv]
		if !ok {
			continue
		}
		p.plan.cCosto[i] = db.Numeric(costo)
		q := db.Decimal(p.plan.cCantidad[i])
		s, visto := porLote[inv]
		if !visto {
			orden = append(orden, inv)
		}
		porLote[inv] = salida{toma: s.toma.Add(q), valor: s.valor.Add(q.Mul(costo))}
	}
	b = &pgx.Batch{}
	p.Queue(tx, b)
	if len(orden) > 0 {
		ids, tomas, valores := make([]int64, len(orden)), make([]pgtype.Numeric, len(orden)), make([]pgtype.Numeric, len(orden))
		for i, id := range orden {
			ids[i], tomas[i], valores[i] = id, db.Numeric(porLote[id].toma), db.Numeric(porLote[id].valor)
		}
		// After the exit's update (so the rows keep the order in which
		// their deferred triggers queue): each batch's cost without what
		// left it, (what it held × its cost − what left's value) ÷ what it
		// holds now; the inverse of the entry's weighted average.
		b.Queue(`update inventarios i set costo_unitario = greatest(round(((i.cantidad_disponible + x.toma) * i.costo_unitario - x.valor)
			  / i.cantidad_disponible, 4), 0)
			from unnest($2::bigint[], $3::numeric[], $4::numeric[]) as x(id, toma, valor)
			where i.empresa_id = $1 and i.id = x.id and i.cantidad_disponible > 0`, empresaID, ids, tomas, valores)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, fmt.Errorf("inventario: revertir %d: %w", entradaID, err)
	}
	return p.ID, nil
}

// primeroLosDe puts, within each product (the batches stay locked in
// their order), the batches the lines went into ahead of the others, so
// that the exit planned from them takes those first; it returns those
// batches' ids with the cost the lines entered them at.
func primeroLosDe(lotes *Lotes, lineas []Linea) map[int64]decimal.Decimal {
	type clave struct {
		producto int64
		lote     string
		vence    string
	}
	destino := map[clave]decimal.Decimal{}
	for _, l := range lineas {
		k := clave{producto: l.ProductoID, lote: l.Lote}
		if l.FechaVencimiento != nil {
			k.vence = l.FechaVencimiento.Format(time.DateOnly)
		}
		destino[k] = l.CostoUnitario
	}
	costoDe := map[int64]decimal.Decimal{}
	for _, f := range lotes.filas {
		if c, ok := destino[clave{producto: f.producto, lote: f.nombre, vence: f.vence}]; ok {
			costoDe[f.id] = c
		}
	}
	es := func(f lote) bool { _, ok := costoDe[f.id]; return ok }
	slices.SortStableFunc(lotes.filas, func(a, b lote) int {
		if c := cmp.Compare(a.producto, b.producto); c != 0 {
			return c // the order they were read (and locked) in
		}
		switch {
		case es(a) && !es(b):
			return -1
		case es(b) && !es(a):
			return 1
		}
		return 0
	})
	return costoDe
}
