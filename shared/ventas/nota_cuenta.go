package ventas

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// A credit note never opens a receivable of its own. The books
// (contabilidad_sync_venta) credit the note's whole total to receivables
// when it is on credit, and to the money's account (a refund) when it is
// contado; the receivables follow them:
//   - credito: the note lowers the open balance of its sale's receivable
//     by its total (estado pagada at 0), and only when that balance covers
//     it, in the sale's currency; so the receivables account and the open
//     balances move together;
//   - contado: the money goes back to the customer; no receivable moves.
//
// A note whose total exceeds the open balance (the sale was already paid,
// or partly) is therefore contado by default and refused on credit (422
// under condicion_venta): what exceeds the balance is a refund, and the
// part that lowers the balance and the part given back are two notes.
// Cancelling a note on credit gives its total back to that balance.
//
// The balance is read and changed under the lock of the sale the note
// corrects (FOR NO KEY UPDATE, taken by leerContexto at creation and by
// bloquearReferencia at a draft's confirmation or a cancellation): the
// payments of that receivable and the cancellation of that sale lock the
// sale first, so they and the notes of one sale run one after the other.

// queueSaldoReferencia queues the read of the open balance of the
// receivable of the sale ref (nil when it has none open). Queued after the
// statement that locks ref, it reads what every payment committed before
// that lock left.
func queueSaldoReferencia(b *pgx.Batch, empresaID, ref int64, out **Numero) {
	b.Queue(`select saldo from cuentas_por_cobrar where empresa_id = $1 and venta_id = $2 and estado = 'pendiente' and not eliminado`,
		empresaID, ref).QueryRow(func(r pgx.Row) error {
		var s Numero
		if err := r.Scan(&s); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return fmt.Errorf("ventas: saldo de la venta de referencia: %w", err)
		}
		*out = &s
		return nil
	})
}

// divisa is the currency of a document and its rate to colones.
type divisa struct {
	moneda     string
	tipoCambio decimal.Decimal
}

// sinSaldoParaNota is why a credit note of total (in nota's currency)
// cannot lower the open balance saldo (in ref's) of its sale's
// receivable, or "". The note must carry the sale's rate too: the books
// carry that receivable at the sale's rate (its payments are valued at
// it) and post the note at its own, so a note at another rate would lower
// the balance by one amount of colones and the receivables account by
// another.
func sinSaldoParaNota(saldo *Numero, ref, nota divisa, total decimal.Decimal) string {
	switch {
	case saldo == nil:
		return "La venta de referencia no tiene saldo pendiente por cobrar: una nota de crédito a crédito rebaja ese saldo; " +
			"registre la devolución del dinero con condición de venta contado."
	case nota.moneda != ref.moneda:
		return "Una nota de crédito a crédito debe estar en la moneda de la venta de referencia (" + ref.moneda + ")."
	case !nota.tipoCambio.Equal(ref.tipoCambio):
		return "Una nota de crédito a crédito debe usar el tipo de cambio de la venta de referencia (" + ref.tipoCambio.String() +
			"): rebaja su cuenta por cobrar, registrada a ese tipo de cambio."
	case total.GreaterThan(saldo.Decimal()):
		return "El total de la nota (" + total.StringFixed(2) + ") supera el saldo pendiente (" + saldo.Decimal().StringFixed(2) +
			") de la cuenta por cobrar de la venta de referencia; acredite a crédito hasta ese saldo y devuelva el resto con una nota de contado."
	}
	return ""
}

// condicionNota is the condicion_venta of a credit note: the one sent
// (credito refused, under condicion_venta, when the open balance of its
// sale does not cover its total, and under cliente_id when the note names
// another customer than the sale's: the balance is that customer's),
// else credito when the balance covers it, the note names the sale's
// customer and is not created pagada, and contado (a refund) otherwise.
func condicionNota(in *valid.Input, x ventaIn, c contexto, total decimal.Decimal) string {
	motivo := sinSaldoParaNota(c.refSaldo, c.refDivisa, divisa{x.moneda, x.tipoCambio}, total)
	mismoCliente := x.clienteID != nil && c.refCliente != nil && *x.clienteID == *c.refCliente
	switch {
	case x.condicion == "" && motivo == "" && mismoCliente && x.estado != Pagada:
		// (A note created pagada is a refund already made: contado.)
		return Credito
	case x.condicion == "":
		return Contado
	case x.condicion != Credito:
	case motivo != "":
		in.Fail("condicion_venta", motivo)
	case x.clienteID != nil && !mismoCliente:
		in.Fail("cliente_id", "Una nota de crédito a crédito rebaja la cuenta por cobrar de la venta de referencia: su cliente debe ser el de esa venta.")
	}
	return x.condicion
}

// queueAplicarNota queues the change a credit note on credit (id, or with
// nil the note the same batch inserted before) makes to its sale's
// receivable: signo 1 lowers the balance by the note's total (applying
// it), -1 gives it back (cancelling it). Checked beforehand (the balance
// covers it); a note that opened a receivable of its own (before this
// rule) changes nothing here: cancelling it cancels that one.
//
// The sale follows its receivable as a payment makes it: pagada when the
// balance reaches 0, pendiente again when a cancelled note reopens it (a
// sale left pagada owed the note's total).
func queueAplicarNota(tx *db.Tx, b *pgx.Batch, id *int64, signo int) {
	b.Queue(`with c as (
		  update cuentas_por_cobrar c set saldo = c.saldo - $3 * n.monto_total,
		    estado = case when c.saldo - $3 * n.monto_total = 0 then 'pagada' else 'pendiente' end, actualizado_en = now()
		  from ventas n
		  where n.empresa_id = $1 and n.id = (select coalesce($2::bigint, currval('ventas_id_seq')))
		    and n.tipo_comprobante = 'nota_credito' and n.condicion_venta = 'credito'
		    and c.empresa_id = $1 and c.venta_id = n.venta_referencia_id and c.estado in ('pendiente', 'pagada') and not c.eliminado
		    and not exists (select 1 from cuentas_por_cobrar o where o.empresa_id = $1 and o.venta_id = n.id)
		  returning c.venta_id, c.estado
		)
		update ventas v set estado = c.estado from c
		where v.empresa_id = $1 and v.id = c.venta_id and v.estado in ('pendiente', 'pagada') and v.estado <> c.estado`,
		tx.EmpresaID(), id, signo)
}

// queueBloquearReferencia queues the lock a credit note takes on the sale
// it corrects (as leerContexto does at its creation).
func queueBloquearReferencia(tx *db.Tx, b *pgx.Batch, ref int64) {
	b.Queue(`select id from ventas where empresa_id = $1 and id = $2 for no key update`, tx.EmpresaID(), ref)
}

// aplicarNotaGuardada applies a confirmed draft credit note on credit to
// its sale's receivable: under the sale's lock (taken first, before the
// note's goods come back: the order of a note's creation), the balance is
// read and checked (422 under estado when it no longer covers the note),
// and lowered. aplicar runs between the check and the change.
func aplicarNotaGuardada(ctx context.Context, tx *db.Tx, cur actual, aplicar func() error) error {
	empresaID := tx.EmpresaID()
	var ref, nota divisa
	var total, refCambio, notaCambio Numero
	var saldo *Numero
	b := &pgx.Batch{}
	b.Queue(`select moneda, tipo_cambio from ventas where empresa_id = $1 and id = $2 for no key update`, empresaID, *cur.referenciaID).
		QueryRow(func(r pgx.Row) error { return r.Scan(&ref.moneda, &refCambio) })
	queueSaldoReferencia(b, empresaID, *cur.referenciaID, &saldo)
	b.Queue(`select monto_total, moneda, tipo_cambio from ventas where empresa_id = $1 and id = $2`, empresaID, cur.id).
		QueryRow(func(r pgx.Row) error { return r.Scan(&total, &nota.moneda, &notaCambio) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("ventas: saldo de la venta de referencia: %w", err)
	}
	ref.tipoCambio, nota.tipoCambio = refCambio.Decimal(), notaCambio.Decimal()
	if motivo := sinSaldoParaNota(saldo, ref, nota, total.Decimal()); motivo != "" {
		return apperr.InvalidField("estado", motivo)
	}
	if err := aplicar(); err != nil {
		return err
	}
	b = &pgx.Batch{}
	id := cur.id
	queueAplicarNota(tx, b, &id, 1)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("ventas: saldo de la venta de referencia: %w", err)
	}
	return nil
}
