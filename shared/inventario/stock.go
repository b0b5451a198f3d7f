// Package inventario moves stock: entries and exits of a warehouse with
// their lines, applied to per-batch stock rows (inventarios). Exits consume
// batches first-expiring-first (then oldest), recording what each line
// consumed and at which cost; entries add to their batch. Sales, purchase
// receipts and transfers call Crear inside their own transaction, and every
// operation costs a constant number of round trips whatever the number of
// lines.
package inventario

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/documentos"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/horacr"
)

// Classes of movement.
const (
	Entrada = "entrada"
	Salida  = "salida"
)

// Types of entries and exits (SPEC.md "Inventory movements").
var (
	TiposEntrada = []string{"Compra", "Ajuste Positivo", "Devolucion Cliente", "Transferencia", "Produccion"}
	TiposSalida  = []string{"Venta", "Ajuste Negativo", "Devolucion Proveedor", "Transferencia", "Consumo Interno"}
)

// States of a movement.
const (
	Pendiente = "Pendiente"
	Procesada = "Procesada"
	Cancelada = "Cancelada"
)

// Linea is one product line of a movement.
type Linea struct {
	ProductoID       int64
	Cantidad         decimal.Decimal
	CostoUnitario    decimal.Decimal // entries: the batch's unit cost
	Lote             string
	FechaVencimiento *time.Time
}

// Movimiento is an entry or exit to record.
type Movimiento struct {
	Clase, Tipo      string
	AlmacenID        int64
	Fecha            time.Time
	UsuarioID        int64
	OrdenCompraID    *int64
	VentaID          *int64
	ProveedorID      *int64
	ClienteID        *int64
	MovimientoParID  *int64
	Observaciones    *string
	Lineas           []Linea
	Procesar         bool
	PermitirNegativo bool
	// VentaNueva: the sale's number, read from its row when the movement
	// is written, follows Observaciones; with VentaID nil the sale is the
	// one inserted earlier in the same batch (its id and number are not
	// known when the batch is queued).
	VentaNueva bool
	// Numero, when set, receives the movement's number (taken in the
	// statement that inserts it): its token stands for it in an answer
	// encoded before that statement ran (db.Marcador).
	Numero *db.Marcador
}

// FaltaStock reports the first line of an exit that the warehouse cannot
// cover (Linea is the 0-based index of the line).
type FaltaStock struct {
	Linea      int
	ProductoID int64
	Disponible decimal.Decimal
	Pedido     decimal.Decimal
}

func (e *FaltaStock) Error() string {
	return fmt.Sprintf("Stock insuficiente: disponible %s, solicitado %s.", e.Disponible.String(), e.Pedido.String())
}

// ErrEstado is returned when a movement is not Pendiente.
var ErrEstado = errors.New("inventario: el movimiento no está pendiente")

// Crear records a movement and its lines and, when m.Procesar, applies it.
// It returns the movement's id. A processed exit first reads and locks the
// batches it consumes (one round trip; FaltaStock before anything is
// written); then the document's number, the movement, its lines and their
// effect on stock travel as one pipelined batch. The counter's row lock is
// thus the last lock an exit takes, after its stock rows, in the order
// sales and transfers take them too (so they do not deadlock), and it is
// held for the rest of the transaction only, not from its first round trip.
func Crear(ctx context.Context, tx *db.Tx, m Movimiento) (int64, error) {
	var lotes *Lotes
	if m.Clase == Salida && m.Procesar {
		b := &pgx.Batch{}
		lotes = QueueLotes(tx, b, m.AlmacenID, m.Lineas)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return 0, err
		}
	}
	p, err := Preparar(m, lotes)
	if err != nil {
		return 0, err
	}
	b := &pgx.Batch{}
	p.Queue(tx, b)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, fmt.Errorf("inventario: movimiento: %w", err)
	}
	return p.ID, nil
}

type detalle struct {
	id          int64
	linea       int32
	producto    int64
	cantidad    decimal.Decimal
	costo       decimal.Decimal
	lote        *string
	vencimiento *time.Time
}

// Preparado is a movement ready to be queued in a caller's batch: its
// lines rounded to their columns' scales and, for a processed exit, what
// each line takes from which batch. After the batch is closed without
// error, ID is the movement's id.
type Preparado struct {
	m    Movimiento
	ds   []detalle
	plan *consumo
	ID   int64
	// verificado: the check-and-lock of a plan made from a snapshot
	// (QueueVerificacion) is queued.
	verificado bool
}

// Preparar computes a movement's statements without sending anything. A
// processed exit needs the batches of its warehouse, read before: locked
// (QueueLotes) or a snapshot (QueueLotesSinBloqueo, checked and locked
// when queued); it returns *FaltaStock when they cannot cover a line
// (unless m.PermitirNegativo).
func Preparar(m Movimiento, lotes *Lotes) (*Preparado, error) {
	p := &Preparado{m: m, ds: make([]detalle, len(m.Lineas))}
	for i, l := range m.Lineas {
		// The columns' scales, rounded as PostgreSQL does (half away from
		// zero), so that what is applied is exactly what is stored.
		d := detalle{linea: int32(i + 1), producto: l.ProductoID, cantidad: l.Cantidad.Round(3), costo: l.CostoUnitario.Round(4), vencimiento: l.FechaVencimiento}
		if l.Lote != "" {
			lote := l.Lote
			d.lote = &lote
		}
		p.ds[i] = d
	}
	if m.Clase == Salida && m.Procesar {
		if lotes == nil {
			return nil, errors.New("inventario: a processed exit needs its locked batches")
		}
		plan, err := planear(lotes.filas, p.ds, m.PermitirNegativo)
		if err != nil {
			return nil, err
		}
		plan.instantanea = lotes.instantanea
		p.plan = plan
	}
	return p, nil
}

// QueueVerificacion queues, for an exit planned from a snapshot of its
// batches (QueueLotesSinBloqueo), the locking of the batches it takes from
// (in the order every exit locks them: product, then FIFO) and the check
// that each still holds what the plan takes from it at the plan's cost;
// otherwise the statement fails with db.PlanVencido and the transaction
// is to be run again on a fresh read. Queue queues it when the caller did
// not before (a caller queues it earlier to take these locks before
// others of its own).
//
// For a processed entry it queues the lock of the existing batches it adds
// to (bloquearEntrada), which must come before the document counters the
// caller takes (the sale's, then ENT).
func (p *Preparado) QueueVerificacion(tx *db.Tx, b *pgx.Batch) {
	if p.verificado {
		return
	}
	if p.m.Procesar && p.m.Clase == Entrada {
		p.verificado = true
		bloquearEntrada(tx, b, p.m.AlmacenID, p.ds)
		return
	}
	if p.plan == nil || !p.plan.instantanea {
		return
	}
	p.verificado = true
	// The batch-less rows negative stock goes to are locked in the same
	// ordered statement as the batches (an exit locks them there too; a
	// sale that upserted them only after its counters deadlocked with an
	// exit holding them and waiting for SAL), asking nothing of their
	// quantity (a lower bound no row reaches) but their cost.
	ids, tomar, costos := slices.Clone(p.plan.ids), slices.Clone(p.plan.tomar), slices.Clone(p.plan.costos)
	for i, id := range p.plan.negLotes {
		if !slices.Contains(ids, id) {
			ids, tomar, costos = append(ids, id), append(tomar, sinLimite), append(costos, p.plan.negCostos[i])
		}
	}
	b.Queue(`select inventario_tomar_lotes($1, $2, $3, $4)`, tx.EmpresaID(), ids, tomar, costos)
}

// sinLimite is a quantity below any stock a row can hold (numeric(18,4)).
var sinLimite = db.Numeric(decimal.New(-1, 18))

// Queue queues the movement on b: its number (the counter's row lock),
// the movement and its lines in one statement, then, when processed, its
// effect on stock and (for an exit) the low-stock events. With
// m.VentaNueva, venta_id is the sale the same batch inserted before.
func (p *Preparado) Queue(tx *db.Tx, b *pgx.Batch) {
	m := p.m
	empresaID := tx.EmpresaID()
	prefix := "ENT"
	if m.Clase == Salida {
		prefix = "SAL"
	}
	fecha := m.Fecha
	if fecha.IsZero() {
		// Today in Costa Rica, as the API dates a movement sent without
		// fecha: the server's clock is UTC, a day ahead every evening.
		fecha = horacr.Hoy()
	}
	var usuario *int64
	if m.UsuarioID > 0 {
		usuario = &m.UsuarioID
	}
	estado := Pendiente
	if m.Procesar {
		estado = Procesada
	}
	k := len(p.ds)
	lineas := make([]int32, k)
	productos := make([]int64, k)
	cantidades := make([]pgtype.Numeric, k)
	costos := make([]pgtype.Numeric, k)
	lotes := make([]*string, k)
	vencimientos := make([]*time.Time, k)
	for i, d := range p.ds {
		lineas[i], productos[i] = d.linea, d.producto
		cantidades[i], costos[i], lotes[i], vencimientos[i] = db.Numeric(d.cantidad), db.Numeric(d.costo), d.lote, d.vencimiento
	}
	// The batches first, then the counter: the order of every exit, and of
	// a processed entry too (bloquearEntrada).
	p.QueueVerificacion(tx, b)
	numeroGuardado := "numero"
	if m.Numero != nil {
		numeroGuardado = m.Numero.Guardar("numero")
	}
	// A processed movement is born Procesada (the insert fires the same
	// triggers as the update to Procesada did).
	b.Queue(`with `+documentos.NumeroCTE("$1", "$4", 8)+`,
		m as (
			insert into movimientos_inventario (empresa_id, clase, tipo, numero, almacen_id, fecha, usuario_id,
				orden_compra_id, venta_id, proveedor_id, cliente_id, movimiento_par_id, observaciones, estado, procesado_en)
			values ($1, $2, $3, (select numero from numero), $5, $6, $7, $8,
				coalesce($9::bigint, case when $20::boolean then currval('ventas_id_seq') end), $10, $11, $12,
				case when $20::boolean then $13::text || (select numero_comprobante from ventas where empresa_id = $1 and id = coalesce($9::bigint, (select currval('ventas_id_seq'))))
				else $13::text end,
				$21::text, case when $21::text = 'Procesada' then now() end)
			returning id, numero),
		d as (
			insert into detalles_movimiento (empresa_id, movimiento_id, linea, producto_id, cantidad, costo_unitario, lote, fecha_vencimiento)
			select $1, m.id, x.linea, x.producto, x.cantidad, x.costo, x.lote, x.vence
			from m, unnest($14::int[], $15::bigint[], $16::numeric[], $17::numeric[], $18::text[], $19::date[])
			  as x(linea, producto, cantidad, costo, lote, vence))
		select id, `+numeroGuardado+` from m`,
		empresaID, m.Clase, m.Tipo, prefix, m.AlmacenID, fecha, usuario,
		m.OrdenCompraID, m.VentaID, m.ProveedorID, m.ClienteID, m.MovimientoParID, m.Observaciones,
		lineas, productos, cantidades, costos, lotes, vencimientos, m.VentaNueva, estado).QueryRow(func(r pgx.Row) error {
		var numero string
		if err := r.Scan(&p.ID, &numero); err != nil {
			return err
		}
		if m.Numero != nil {
			m.Numero.Fijar(numero)
		}
		return nil
	})
	if !m.Procesar {
		return
	}
	if m.Clase == Entrada {
		entrar(tx, b, m.AlmacenID, p.ds)
		return
	}
	p.plan.queue(tx, b, nil, m.AlmacenID)
	avisarBajoMinimo(tx, b, m.AlmacenID, p.ds)
}

// Procesar applies a Pendiente movement to stock and marks it Procesada.
// An exit that the stock cannot cover returns *FaltaStock unless
// permitirNegativo, in which case the missing quantity is taken from a
// batch-less row that goes negative.
func Procesar(ctx context.Context, tx *db.Tx, id int64, permitirNegativo bool) error {
	empresaID := tx.EmpresaID()
	// The movement (locked, so that a concurrent Procesar or Cancelar waits)
	// with its lines, in one read.
	rows, err := tx.Query(ctx, `select m.clase, m.estado, m.almacen_id,
			d.id, d.linea, d.producto_id, d.cantidad, d.costo_unitario, d.lote, d.fecha_vencimiento
		from movimientos_inventario m
		left join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id
		where m.empresa_id = $1 and m.id = $2 and not m.eliminado
		order by d.linea
		for update of m`, empresaID, id)
	if err != nil {
		return fmt.Errorf("inventario: procesar %d: %w", id, err)
	}
	var clase, estado string
	var almacen int64
	var ds []detalle
	found := false
	for rows.Next() {
		found = true
		var detalleID, producto *int64
		var linea *int32
		var cant, costo pgtype.Numeric
		var d detalle
		if err := rows.Scan(&clase, &estado, &almacen, &detalleID, &linea, &producto, &cant, &costo, &d.lote, &d.vencimiento); err != nil {
			rows.Close()
			return fmt.Errorf("inventario: procesar %d: %w", id, err)
		}
		if detalleID != nil {
			d.id, d.linea, d.producto, d.cantidad, d.costo = *detalleID, *linea, *producto, db.Decimal(cant), db.Decimal(costo)
			ds = append(ds, d)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("inventario: procesar %d: %w", id, err)
	}
	if !found {
		return fmt.Errorf("inventario: procesar %d: %w", id, pgx.ErrNoRows)
	}
	if estado != Pendiente {
		return ErrEstado
	}
	return aplicar(ctx, tx, id, clase, almacen, ds, permitirNegativo)
}

// aplicar writes a saved movement's effect on stock, its new state and
// (for an exit) the low-stock events in one pipelined batch; an exit first
// reads and locks the batches it consumes.
func aplicar(ctx context.Context, tx *db.Tx, id int64, clase string, almacen int64, ds []detalle, permitirNegativo bool) error {
	empresaID := tx.EmpresaID()
	b := &pgx.Batch{}
	// The new state first: its posting (a deferred trigger) is then queued
	// before the batches' dashboard version, the order in which every
	// transaction takes the company's rows at COMMIT (the books' counter,
	// then the dashboard's version); the other order deadlocked with a
	// sale committing at the same time.
	b.Queue(`update movimientos_inventario set estado = 'Procesada', procesado_en = now() where empresa_id = $1 and id = $2`, empresaID, id)
	if clase == Entrada {
		entrar(tx, b, almacen, ds)
	} else {
		lb := &pgx.Batch{}
		lotes := queueLotes(tx, lb, almacen, productosDe(ds))
		if err := tx.SendBatch(ctx, lb).Close(); err != nil {
			return err
		}
		plan, err := planear(lotes.filas, ds, permitirNegativo)
		if err != nil {
			return err
		}
		plan.queue(tx, b, &id, almacen)
	}
	if clase == Salida {
		// Queued after the stock writes: it reads the stock they leave.
		avisarBajoMinimo(tx, b, almacen, ds)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("inventario: %s %d: %w", clase, id, err)
	}
	return nil
}

// bloquearEntrada queues the lock of the batches a processed entry adds
// to that already exist, in the order exits lock them (product, then
// FIFO), ahead of its number. Locked only by its upsert, after the ENT
// counter, an entry holding the counter waited for a destination batch
// that a transfer had locked and the transfer waited for the counter: a
// deadlock. The upsert itself stays after the movement's insert, so the
// deferred triggers run in the order every transaction takes them at
// COMMIT (the books' counter before the dashboard's version: the
// movement's posting is queued before its batches' version bump). A
// batch that does not exist yet is not locked here: another transaction
// inserting it too waits at the upsert, and nothing waits for this one
// in between.
func bloquearEntrada(tx *db.Tx, b *pgx.Batch, almacen int64, ds []detalle) {
	productos := make([]int64, len(ds))
	lotes := make([]*string, len(ds))
	vencimientos := make([]*time.Time, len(ds))
	for i, d := range ds {
		productos[i], lotes[i], vencimientos[i] = d.producto, d.lote, d.vencimiento
	}
	b.Queue(`select 1 from inventarios i
		where i.empresa_id = $1 and i.almacen_id = $2 and not i.eliminado
		  and (i.producto_id, coalesce(i.lote, ''), coalesce(i.fecha_vencimiento, 'infinity'::date)) in
		    (select x.producto, coalesce(x.lote, ''), coalesce(x.vence, 'infinity'::date)
		     from unnest($3::bigint[], $4::text[], $5::date[]) as x(producto, lote, vence))
		order by i.producto_id, i.fecha_vencimiento nulls last, i.creado_en, i.id
		for update`, tx.EmpresaID(), almacen, productos, lotes, vencimientos)
}

// entrar queues the addition of each line to its batch; a batch entered
// again at another cost takes the weighted average cost.
func entrar(tx *db.Tx, b *pgx.Batch, almacen int64, ds []detalle) {
	empresaID := tx.EmpresaID()
	k := len(ds)
	productos := make([]int64, k)
	cantidades := make([]pgtype.Numeric, k)
	costos := make([]pgtype.Numeric, k)
	lotes := make([]*string, k)
	vencimientos := make([]*time.Time, k)
	for i, d := range ds {
		productos[i], cantidades[i], costos[i], lotes[i], vencimientos[i] = d.producto, db.Numeric(d.cantidad), db.Numeric(d.costo), d.lote, d.vencimiento
	}
	// Lines of the same batch are summed first: one row may be upserted only
	// once per statement. Rows are written product by product (the order in
	// which exits lock them, so the two do not deadlock across products) and,
	// within a product, in line order: batches of one entry are equally old,
	// and FIFO then takes them in the order of its lines.
	b.Queue(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, fecha_vencimiento, cantidad_disponible, costo_unitario)
		select $1, $2, x.producto, x.lote, x.vence, sum(x.cantidad),
		       case when sum(x.cantidad) = 0 then max(x.costo) else round(sum(x.cantidad * x.costo) / sum(x.cantidad), 4) end
		from unnest($3::bigint[], $4::numeric[], $5::numeric[], $6::text[], $7::date[]) with ordinality as x(producto, cantidad, costo, lote, vence, n)
		group by x.producto, x.lote, x.vence
		order by x.producto, min(x.n)
		on conflict (empresa_id, almacen_id, producto_id, coalesce(lote, ''), coalesce(fecha_vencimiento, 'infinity'::date)) where not eliminado
		do update set
		  costo_unitario = case when inventarios.cantidad_disponible + excluded.cantidad_disponible <= 0 then excluded.costo_unitario
		    else round((greatest(inventarios.cantidad_disponible, 0) * inventarios.costo_unitario + excluded.cantidad_disponible * excluded.costo_unitario)
		      / (greatest(inventarios.cantidad_disponible, 0) + excluded.cantidad_disponible), 4) end,
		  cantidad_disponible = inventarios.cantidad_disponible + excluded.cantidad_disponible`,
		empresaID, almacen, productos, cantidades, costos, lotes, vencimientos)
}

type lote struct {
	id         int64
	producto   int64
	disponible decimal.Decimal
	costo      decimal.Decimal
	// sinLote: the product's batch-less row, where negative stock goes.
	sinLote bool
	// nombre and vence (YYYY-MM-DD) name the batch ('' when none).
	nombre, vence string
}

// Lotes are the batches of a warehouse's products, read and locked
// (QueueLotes) or only read (QueueLotesSinBloqueo) for an exit planned
// ahead (Preparar).
type Lotes struct {
	filas []lote
	// instantanea: read without locking; the plan is checked when queued.
	instantanea bool
}

// QueueLotes queues on b the locking read of the batches of the lines'
// products in almacen, in the order exits consume them (and lock them:
// product by product, so two exits do not deadlock). They are available
// once the batch is closed.
func QueueLotes(tx *db.Tx, b *pgx.Batch, almacen int64, lineas []Linea) *Lotes {
	return queueLotes(tx, b, almacen, productosDeLineas(lineas))
}

// productosDeLineas are the products of lines, in their order.
func productosDeLineas(lineas []Linea) []int64 {
	productos := make([]int64, len(lineas))
	for i, l := range lineas {
		productos[i] = l.ProductoID
	}
	return productos
}

// QueueLotesSinBloqueo is QueueLotes without the lock: a snapshot of the
// batches (READ COMMITTED) to plan an exit from while another may be
// taking from them. Preparado.Queue then locks the batches the plan takes
// from and checks that they still hold what it takes, so a transaction
// holds them only from its last round trip on.
func QueueLotesSinBloqueo(tx *db.Tx, b *pgx.Batch, almacen int64, lineas []Linea) *Lotes {
	return queueLeerLotes(tx, b, almacen, productosDeLineas(lineas), "")
}

func queueLotes(tx *db.Tx, b *pgx.Batch, almacen int64, productos []int64) *Lotes {
	return queueLeerLotes(tx, b, almacen, productos, "for update")
}

func queueLeerLotes(tx *db.Tx, b *pgx.Batch, almacen int64, productos []int64, bloqueo string) *Lotes {
	ls := &Lotes{instantanea: bloqueo == ""}
	b.Queue(`select id, producto_id, cantidad_disponible, costo_unitario, coalesce(lote, '') = '' and fecha_vencimiento is null,
		coalesce(lote, ''), coalesce(fecha_vencimiento::text, '') from inventarios
		where empresa_id = $1 and almacen_id = $2 and producto_id = any($3) and not eliminado
		order by producto_id, fecha_vencimiento nulls last, creado_en, id
		`+bloqueo, tx.EmpresaID(), almacen, productos).Query(func(rows pgx.Rows) error {
		var err error
		ls.filas, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (lote, error) {
			var l lote
			var disp, costo pgtype.Numeric
			if err := r.Scan(&l.id, &l.producto, &disp, &costo, &l.sinLote, &l.nombre, &l.vence); err != nil {
				return l, err
			}
			l.disponible, l.costo = db.Decimal(disp), db.Decimal(costo)
			return l, nil
		})
		if err != nil {
			return fmt.Errorf("inventario: lotes: %w", err)
		}
		return nil
	})
	return ls
}

func productosDe(ds []detalle) []int64 {
	productos := make([]int64, len(ds))
	for i, d := range ds {
		productos[i] = d.producto
	}
	return productos
}

// consumo is what an exit takes: per line, from which batch, how much and
// at which cost; per batch taken from, how much in all and at which cost;
// and what negative stock lets through per product.
type consumo struct {
	cLinea                  []int32
	cInventario             []int64
	cCantidad, cCosto       []pgtype.Numeric
	ids                     []int64
	tomar, costos           []pgtype.Numeric
	negProductos            []int64
	negCantidades, negCosto []pgtype.Numeric
	// negLotes are the existing batch-less rows the negative remainders go
	// to, with their costs: locked (not checked) with the batches taken
	// from when the plan comes from a snapshot (QueueVerificacion).
	negLotes  []int64
	negCostos []pgtype.Numeric
	// instantanea: planned from unlocked batches (Lotes.instantanea).
	instantanea bool
}

// planear consumes the locked batches FIFO for every line at once (the
// arithmetic here; the writes are queued by consumo.queue).
func planear(orig []lote, ds []detalle, permitirNegativo bool) (*consumo, error) {
	lotes := append([]lote(nil), orig...)
	byProduct := map[int64][]*lote{}
	for i := range lotes {
		byProduct[lotes[i].producto] = append(byProduct[lotes[i].producto], &lotes[i])
	}
	c := &consumo{}
	for i, d := range ds {
		need := d.cantidad
		for _, l := range byProduct[d.producto] {
			if need.IsZero() {
				break
			}
			if !l.disponible.IsPositive() {
				continue
			}
			take := decimal.Min(need, l.disponible)
			l.disponible = l.disponible.Sub(take)
			need = need.Sub(take)
			c.cLinea, c.cInventario = append(c.cLinea, d.linea), append(c.cInventario, l.id)
			c.cCantidad, c.cCosto = append(c.cCantidad, db.Numeric(take)), append(c.cCosto, db.Numeric(l.costo))
		}
		if need.IsPositive() {
			if !permitirNegativo {
				have := d.cantidad.Sub(need)
				return nil, &FaltaStock{Linea: i, ProductoID: d.producto, Disponible: have, Pedido: d.cantidad}
			}
			costo := decimal.Zero
			if ls := byProduct[d.producto]; len(ls) > 0 {
				costo = ls[len(ls)-1].costo
			}
			for _, l := range byProduct[d.producto] {
				if l.sinLote && !slices.Contains(c.negLotes, l.id) {
					c.negLotes, c.negCostos = append(c.negLotes, l.id), append(c.negCostos, db.Numeric(l.costo))
				}
			}
			c.negProductos, c.negCantidades, c.negCosto = append(c.negProductos, d.producto), append(c.negCantidades, db.Numeric(need)), append(c.negCosto, db.Numeric(costo))
		}
	}
	// Per batch taken from, in the order the batches were read (the order
	// exits lock them): what it gives in all, at its cost.
	for i, l := range lotes {
		if antes := orig[i].disponible; !l.disponible.Equal(antes) {
			c.ids = append(c.ids, l.id)
			c.tomar, c.costos = append(c.tomar, db.Numeric(antes.Sub(l.disponible))), append(c.costos, db.Numeric(l.costo))
		}
	}
	return c, nil
}

// queue queues the exit's writes: what the batches keep, what each line
// consumed (by line number of the movement id, or of the movement the same
// batch inserted before when id is nil) and the negative remainders.
func (c *consumo) queue(tx *db.Tx, b *pgx.Batch, id *int64, almacen int64) {
	empresaID := tx.EmpresaID()
	// What each batch gives is taken from what it holds now: the same as
	// writing what the plan left when the batches were locked for the plan,
	// and what a plan from a snapshot needs (QueueVerificacion checked that
	// each batch holds at least that).
	b.Queue(`update inventarios i set cantidad_disponible = i.cantidad_disponible - x.toma
		from unnest($2::bigint[], $3::numeric[]) as x(id, toma)
		where i.empresa_id = $1 and i.id = x.id`, empresaID, c.ids, c.tomar)
	// In line order, then FIFO order: the order Consumido reads them back.
	b.Queue(`insert into consumos_lote (empresa_id, detalle_id, inventario_id, cantidad, costo_unitario)
		select $1, d.id, x.inventario, x.cantidad, x.costo
		from unnest($3::int[], $4::bigint[], $5::numeric[], $6::numeric[]) with ordinality as x(linea, inventario, cantidad, costo, n)
		join detalles_movimiento d on d.empresa_id = $1 and d.linea = x.linea
		  and d.movimiento_id = (select coalesce($2::bigint, currval('movimientos_inventario_id_seq')))
		order by x.n`,
		empresaID, id, c.cLinea, c.cInventario, c.cCantidad, c.cCosto)
	if len(c.negProductos) > 0 {
		// The uncovered remainder goes to the product's batch-less row, below zero.
		b.Queue(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
			select $1, $2, x.producto, -sum(x.cantidad), max(x.costo)
			from unnest($3::bigint[], $4::numeric[], $5::numeric[]) as x(producto, cantidad, costo) group by x.producto
			on conflict (empresa_id, almacen_id, producto_id, coalesce(lote, ''), coalesce(fecha_vencimiento, 'infinity'::date)) where not eliminado
			do update set cantidad_disponible = inventarios.cantidad_disponible + excluded.cantidad_disponible`,
			empresaID, almacen, c.negProductos, c.negCantidades, c.negCosto)
	}
}

// avisarBajoMinimo queues an InventarioBajoEvent for every product of the
// exit whose stock in the warehouse is now below its stock_minimo.
func avisarBajoMinimo(tx *db.Tx, b *pgx.Batch, almacen int64, ds []detalle) {
	empresaID := tx.EmpresaID()
	productos := make([]int64, len(ds))
	for i, d := range ds {
		productos[i] = d.producto
	}
	b.Queue(`insert into eventos (empresa_id, tipo, payload)
		select $1, $4, jsonb_build_object('producto_id', p.id, 'codigo', p.codigo, 'nombre', p.nombre, 'almacen_id', $2::bigint,
		  'stock_actual', coalesce(s.total, 0), 'stock_minimo', p.stock_minimo)
		from productos p
		left join (select producto_id, sum(cantidad_disponible) total from inventarios
		           where empresa_id = $1 and almacen_id = $2 and producto_id = any($3) and not eliminado group by producto_id) s on s.producto_id = p.id
		where p.empresa_id = $1 and p.id = any($3) and p.gestionado_inventario and coalesce(s.total, 0) < p.stock_minimo`,
		empresaID, almacen, productos, eventos.InventarioBajo)
}

// Cancelar moves a Pendiente movement to Cancelada (a processed one cannot
// be cancelled: ErrEstado).
func Cancelar(ctx context.Context, tx *db.Tx, id int64) error {
	empresaID := tx.EmpresaID()
	tag, err := tx.Exec(ctx, `update movimientos_inventario set estado = 'Cancelada', cancelado_en = now()
		where empresa_id = $1 and id = $2 and estado = 'Pendiente' and not eliminado`, empresaID, id)
	if err != nil {
		return fmt.Errorf("inventario: cancelar: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrEstado
	}
	return nil
}

// Consumido returns what a processed exit consumed, batch by batch, as entry
// lines (same batch, same cost): the lines of its reversal (a customer
// return when a sale is cancelled) or of a transfer's entry.
func Consumido(ctx context.Context, tx *db.Tx, salidaID int64) ([]Linea, error) {
	empresaID := tx.EmpresaID()
	rows, err := tx.Query(ctx, `select d.producto_id, c.cantidad, c.costo_unitario, i.lote, i.fecha_vencimiento
		from consumos_lote c
		join detalles_movimiento d on d.empresa_id = c.empresa_id and d.id = c.detalle_id
		join inventarios i on i.empresa_id = c.empresa_id and i.id = c.inventario_id
		where c.empresa_id = $1 and d.movimiento_id = $2 order by d.linea, c.id`, empresaID, salidaID)
	if err != nil {
		return nil, fmt.Errorf("inventario: consumos: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Linea, error) {
		var l Linea
		var cant, costo pgtype.Numeric
		var lote *string
		if err := r.Scan(&l.ProductoID, &cant, &costo, &lote, &l.FechaVencimiento); err != nil {
			return l, err
		}
		l.Cantidad, l.CostoUnitario = db.Decimal(cant), db.Decimal(costo)
		if lote != nil {
			l.Lote = *lote
		}
		return l, nil
	})
}
