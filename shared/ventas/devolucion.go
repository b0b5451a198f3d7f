package ventas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/montos"
)

// MovimientoRef is the inventory movement a credit note made, as its
// answer and its VentaCreadaEvent show it: the goods that came back.
type MovimientoRef struct {
	Numero     string            `json:"numero"`
	Clase      string            `json:"clase"`
	Tipo       string            `json:"tipo"`
	Estado     string            `json:"estado"`
	AlmacenID  int64             `json:"almacen_id"`
	ValorTotal Numero            `json:"valor_total"`
	Detalles   []MovimientoLinea `json:"detalles"`

	venta int64 // the credit note's id, to hang it on the note
}

// MovimientoLinea is a line of a MovimientoRef.
type MovimientoLinea struct {
	ProductoID       int64   `json:"producto_id"`
	Cantidad         Numero  `json:"cantidad"`
	CostoUnitario    Numero  `json:"costo_unitario"`
	Lote             *string `json:"lote"`
	FechaVencimiento *string `json:"fecha_vencimiento"`
}

// devolucion is a credit note's customer return ready to be queued in its
// commit's round trip, with what its answer shows of it.
type devolucion struct {
	*inventario.Preparado
	ref *MovimientoRef
}

// movimientoDevolucion is the processed entry of type Devolucion Cliente
// that brings a credit note's stock-managed lines back into almacen, at
// the cost the exit of the sale it corrects took them out (costos).
func movimientoDevolucion(p auth.Principal, almacen int64, numero string, fecha time.Time, clienteID *int64,
	lineas []inventario.Linea, costos *inventario.CostosVenta) inventario.Movimiento {
	obs := "Nota de crédito " + numero
	return inventario.Movimiento{
		Clase: inventario.Entrada, Tipo: "Devolucion Cliente", AlmacenID: almacen, Fecha: fecha, UsuarioID: p.UsuarioID,
		ClienteID: clienteID, Observaciones: &obs, Lineas: costos.Devolucion(lineas), Procesar: true,
	}
}

// prepararDevolucion prepares the entry of a credit note being created
// (nil when none of its lines keeps stock). The note's id and number are
// not known yet: the entry names the sale the commit's batch inserted
// (VentaNueva), and its own number, taken at the commit, is a marker in
// the answer.
func prepararDevolucion(tx *db.Tx, p auth.Principal, almacen int64, x ventaIn, lineas []lineaCalculada, costos *inventario.CostosVenta) (*devolucion, error) {
	var ls []inventario.Linea
	for _, l := range lineas {
		if l.gestionado {
			ls = append(ls, inventario.Linea{ProductoID: l.productoID, Cantidad: l.cantidad})
		}
	}
	if len(ls) == 0 || costos == nil {
		return nil, nil
	}
	numero, err := tx.Marcador()
	if err != nil {
		return nil, err
	}
	m := movimientoDevolucion(p, almacen, "", x.fecha, x.clienteID, ls, costos)
	m.VentaNueva, m.Numero = true, numero
	prep, err := inventario.Preparar(m, nil)
	if err != nil {
		return nil, err
	}
	ref := &MovimientoRef{Numero: numero.Token, Clase: m.Clase, Tipo: m.Tipo, Estado: inventario.Procesada, AlmacenID: almacen,
		Detalles: make([]MovimientoLinea, len(m.Lineas))}
	valor := decimal.Zero
	for i, l := range m.Lineas {
		cant, costo := l.Cantidad.Round(3), l.CostoUnitario.Round(4)
		valor = valor.Add(cant.Mul(costo))
		ml := MovimientoLinea{ProductoID: l.ProductoID, Cantidad: montos.NuevoNumero(cant), CostoUnitario: montos.NuevoNumero(costo)}
		if l.Lote != "" {
			lote := l.Lote
			ml.Lote = &lote
		}
		if l.FechaVencimiento != nil {
			f := l.FechaVencimiento.Format(time.DateOnly)
			ml.FechaVencimiento = &f
		}
		ref.Detalles[i] = ml
	}
	// What the entry's posting values it at (contabilidad_sync_movimiento).
	ref.ValorTotal = montos.NuevoNumero(valor.Round(2))
	return &devolucion{Preparado: prep, ref: ref}, nil
}

// devolverGuardada records the entry of a saved credit note (a draft
// being confirmed) into its warehouse: its stock-managed lines, at the
// cost the exit of the sale it corrects took them out.
func devolverGuardada(ctx context.Context, tx *db.Tx, p auth.Principal, cur actual) error {
	if cur.referenciaID == nil {
		return nil
	}
	vs, err := stockGuardado(ctx, tx, cur)
	if err != nil || len(vs.lineas) == 0 {
		return err
	}
	ls := make([]inventario.Linea, len(vs.lineas))
	productos := make([]int64, len(vs.lineas))
	for i, l := range vs.lineas {
		ls[i] = inventario.Linea{ProductoID: l.productoID, Cantidad: l.cantidad}
		productos[i] = l.productoID
	}
	b := &pgx.Batch{}
	costos := inventario.QueueCostosVenta(tx, b, *cur.referenciaID, productos)
	// A credit note of a debit note moves no stock: that note moved none.
	var refTipo string
	b.Queue(`select tipo_comprobante from ventas where empresa_id = $1 and id = $2`, tx.EmpresaID(), *cur.referenciaID).
		QueryRow(func(r pgx.Row) error { return r.Scan(&refTipo) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	if refTipo == "nota_debito" {
		return nil
	}
	m := movimientoDevolucion(p, vs.almacenID, cur.numero, cur.fecha, cur.clienteID, ls, costos)
	venta := cur.id
	m.VentaID = &venta
	_, err = inventario.Crear(ctx, tx, m)
	return err
}

// revertirDevolucion undoes the entry a credit note being cancelled made:
// the goods leave the warehouse again, from the batches they came back
// to, with a processed exit of type Venta (its posting takes the cost of
// sales back as the entry's gave it). When the warehouse no longer holds
// them (sold again) and the company does not allow negative stock, the
// cancellation is refused (422 under estado).
func revertirDevolucion(ctx context.Context, tx *db.Tx, p auth.Principal, cur actual, entradaID, almacen int64) error {
	venta, par := cur.id, entradaID
	obs := "Anulación de la nota de crédito " + cur.numero
	_, err := inventario.Revertir(ctx, tx, entradaID, inventario.Movimiento{
		Tipo: "Venta", AlmacenID: almacen, UsuarioID: p.UsuarioID, VentaID: &venta, ClienteID: cur.clienteID,
		MovimientoParID: &par, Observaciones: &obs,
	})
	var falta *inventario.FaltaStock
	if errors.As(err, &falta) {
		return apperr.InvalidField("estado", fmt.Sprintf("No se puede anular la nota de crédito: el almacén ya no tiene lo que devolvió "+
			"(producto %d: disponible %s, a retirar %s).", falta.ProductoID, falta.Disponible.String(), falta.Pedido.String()))
	}
	return err
}

// movimientoRefSQL reads the entries that brought back the goods of the
// credit notes $2 (not their cancellations' exits), with their lines.
const movimientoRefSQL = `select m.venta_id, m.numero, m.clase, m.tipo, m.estado, m.almacen_id,
	  round(coalesce(sum(d.cantidad * d.costo_unitario), 0), 2),
	  coalesce(json_agg(json_build_object('producto_id', d.producto_id, 'cantidad', d.cantidad, 'costo_unitario', d.costo_unitario,
	    'lote', d.lote, 'fecha_vencimiento', d.fecha_vencimiento) order by d.linea) filter (where d.id is not null), '[]')
	from movimientos_inventario m
	left join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id
	where m.empresa_id = $1 and m.venta_id = any($2) and m.clase = 'entrada' and m.tipo = 'Devolucion Cliente'
	  and m.movimiento_par_id is null and not m.eliminado
	group by m.id order by m.id`

// scanMovimientoRef reads a row of movimientoRefSQL.
func scanMovimientoRef(r pgx.CollectableRow) (MovimientoRef, error) {
	var m MovimientoRef
	var detalles []byte
	if err := r.Scan(&m.venta, &m.Numero, &m.Clase, &m.Tipo, &m.Estado, &m.AlmacenID, &m.ValorTotal, &detalles); err != nil {
		return m, err
	}
	if err := json.Unmarshal(detalles, &m.Detalles); err != nil {
		return m, fmt.Errorf("ventas: líneas del movimiento: %w", err)
	}
	return m, nil
}
