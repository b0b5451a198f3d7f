package ventas

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// acreditable is what a credit note may still credit of one product of
// the sale it corrects: what that sale has of it (its lines' cantidad and
// total, in colones) and what the earlier credit notes of the sale that
// are not cancelled (drafts included: they may still be confirmed)
// already credit of it.
type acreditable struct {
	vendido, vendidoMonto       decimal.Decimal
	acreditado, acreditadoMonto decimal.Decimal
	// tasas are the tax rates the sale charged on the product: a credit
	// note gives back the tax as it was charged.
	tasas []decimal.Decimal
}

// queueAcreditable queues the read of what each product of the sale ref
// may still be credited. It runs after the statement that locks ref (FOR
// NO KEY UPDATE, see leerContexto) in the same pipeline: under READ
// COMMITTED it sees every credit note of ref committed before that lock
// was granted, so two credit notes of one sale are checked one after the
// other and cannot together credit more than it has. Amounts are compared
// in colones (total × tipo_cambio), as a note may be in another currency
// than its sale.
func queueAcreditable(b *pgx.Batch, empresaID, ref int64, out map[int64]acreditable) {
	b.Queue(`select d.producto_id,
			coalesce(sum(d.cantidad) filter (where v.id = $2), 0), coalesce(sum(d.total * v.tipo_cambio) filter (where v.id = $2), 0),
			coalesce(sum(d.cantidad) filter (where v.id <> $2), 0), coalesce(sum(d.total * v.tipo_cambio) filter (where v.id <> $2), 0),
			coalesce(array_agg(distinct d.porcentaje_impuesto) filter (where v.id = $2), '{}')
		from ventas v join detalles_venta d on d.empresa_id = v.empresa_id and d.venta_id = v.id
		where v.empresa_id = $1 and not v.eliminado
		  and (v.id = $2 or (v.venta_referencia_id = $2 and v.tipo_comprobante = 'nota_credito' and v.estado <> 'anulada'))
		group by d.producto_id`, empresaID, ref).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var id int64
			var n [4]pgtype.Numeric
			var tasas []pgtype.Numeric
			if err := rows.Scan(&id, &n[0], &n[1], &n[2], &n[3], &tasas); err != nil {
				return fmt.Errorf("ventas: saldo acreditable de la venta de referencia: %w", err)
			}
			a := acreditable{vendido: db.Decimal(n[0]), vendidoMonto: db.Decimal(n[1]), acreditado: db.Decimal(n[2]), acreditadoMonto: db.Decimal(n[3])}
			for _, t := range tasas {
				a.tasas = append(a.tasas, db.Decimal(t))
			}
			out[id] = a
		}
		return rows.Err()
	})
}

// checkAcreditable refuses (422 under detalles.N.*) a credit note line
// that credits a product its sale does not have, or more of it, in
// quantity or in amount, than the sale still has uncredited, or at a tax
// rate the sale did not charge on it (the note would give back tax that
// was never charged: 13 % on goods sold at 1 %); the note's lines of one
// product add up.
func checkAcreditable(in *valid.Input, lineas []lineaCalculada, tipoCambio decimal.Decimal, saldos map[int64]acreditable) {
	type suma struct{ cantidad, monto decimal.Decimal }
	sumas := map[int64]suma{}
	for i, l := range lineas {
		if l.productoID == 0 {
			continue // the line already failed (unknown or inactive product)
		}
		prefix := "detalles." + strconv.Itoa(i) + "."
		s, ok := saldos[l.productoID]
		if !ok {
			in.Fail(prefix+"producto_id", "El producto no está en la venta de referencia; una nota de crédito solo acredita lo vendido en ella.")
			continue
		}
		if !slices.ContainsFunc(s.tasas, l.tasa.Equal) {
			in.Fail(prefix+"porcentaje_impuesto", "La tarifa de impuesto de la línea ("+l.tasa.String()+" %) no es la que la venta de referencia cobró por este producto ("+
				tasasTexto(s.tasas)+"); una nota de crédito devuelve el impuesto como se cobró.")
		}
		t := sumas[l.productoID]
		t.cantidad = t.cantidad.Add(l.cantidad)
		t.monto = t.monto.Add(l.importe.Total.Mul(tipoCambio))
		sumas[l.productoID] = t
		quedaCantidad := s.vendido.Sub(s.acreditado)
		quedaMonto := s.vendidoMonto.Sub(s.acreditadoMonto)
		switch {
		case t.cantidad.GreaterThan(quedaCantidad):
			in.Fail(prefix+"cantidad", "La cantidad supera lo que queda sin acreditar de este producto en la venta de referencia (quedan "+
				decimal.Max(quedaCantidad, decimal.Zero).String()+").")
		case t.monto.GreaterThan(quedaMonto):
			in.Fail(prefix+"precio_unitario", "El monto de la línea supera lo que queda sin acreditar de este producto en la venta de referencia (quedan "+
				decimal.Max(quedaMonto, decimal.Zero).Div(tipoCambio).StringFixed(2)+", impuestos incluidos).")
		}
	}
}

// checkReferenciaNota refuses (422 under venta_referencia_id) a note of a
// sale that was never issued (a draft: it moved no stock and owes
// nothing, so a credit note would bring back goods that never left and
// give back money never charged) and a credit note of a credit note (the
// goods it returned would come back a second time; it is cancelled
// instead). A credit note of a debit note is allowed: it takes back what
// that note charged, and moves no stock, as that note moved none. A note
// dated before the document it corrects is refused under fecha_venta: the
// books would post it (receivables, revenue, stock) before that document,
// and at a cut between the two the trial balance and the receivables
// aging would disagree.
func checkReferenciaNota(in *valid.Input, x ventaIn, c contexto) {
	if !c.referencia.existe || !c.referencia.activo || in.Failed("venta_referencia_id") {
		return
	}
	tipo := x.tipo
	if !in.Failed("fecha_venta") && x.fecha.Before(c.refFecha) {
		in.Fail("fecha_venta", "La fecha de la nota no puede ser anterior a la de la venta de referencia ("+c.refFecha.Format(time.DateOnly)+").")
	}
	switch {
	case c.refEstado == Borrador:
		in.Fail("venta_referencia_id", "La venta de referencia es un borrador: una nota solo corrige un comprobante confirmado.")
	case tipo == "nota_credito" && c.refTipo == "nota_credito":
		in.Fail("venta_referencia_id", "Una nota de crédito no puede referirse a otra nota de crédito; para deshacerla, anúlela.")
	}
}

// tasasTexto lists tax rates as a message shows them ("13 %, 1 %").
func tasasTexto(tasas []decimal.Decimal) string {
	out := make([]string, len(tasas))
	for i, t := range tasas {
		out[i] = t.String() + " %"
	}
	return strings.Join(out, ", ")
}
