package ventas_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A credit note credits at most what the sale it corrects still has
// uncredited, per product, in quantity and in amount, across the sale's
// earlier credit notes that are not cancelled (drafts count: they may be
// confirmed), and only at a tax rate the sale charged on the product; the
// offending line's field gets a 422 with a Spanish message.
func TestACreditNoteCannotCreditMoreThanItsSaleHasUncredited(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	q := f.Producto(testenv.Prod{Codigo: "Q"})
	otro := f.Producto(testenv.Prod{Codigo: "OTRO"})
	// 1 P at 100 and 3 Q at 50, untaxed (the products have no tax type).
	factura := id(f.venderOK(venta(linea(p, 1, 100), linea(q, 3, 50))))
	nota := func(lineas ...map[string]any) map[string]any {
		return testenv.With(venta(lineas...), "tipo_comprobante", "nota_credito", "venta_referencia_id", factura,
			"codigo_referencia", "06", "razon_referencia", "Devolución")
	}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/ventas", []testenv.Invalid{
		{"2 units of a line of 1", nota(linea(p, 2, 100)), "detalles.0.cantidad"},
		{"two lines of one product adding up to more", nota(linea(q, 2, 50), linea(q, 2, 50)), "detalles.1.cantidad"},
		{"the quantity sold at a higher price", nota(linea(q, 3, 60)), "detalles.0.precio_unitario"},
		{"a product the sale does not have", nota(linea(otro, 1, 10)), "detalles.0.producto_id"},
		// The sale charged no tax on them: the note cannot give any back.
		{"a tax rate the sale did not charge", nota(linea(p, 1, 100, "porcentaje_impuesto", 1)), "detalles.0.porcentaje_impuesto"},
		{"13 % on goods sold untaxed", nota(linea(q, 1, 50, "porcentaje_impuesto", 13)), "detalles.0.porcentaje_impuesto"},
	})
	r := f.vender(nota(linea(p, 2, 100)))
	if msg := strings.Join(r.FieldErrors("detalles.0.cantidad"), " "); !strings.Contains(msg, "sin acreditar") || !strings.Contains(msg, "quedan 1") {
		t.Errorf("message: %s", r.Raw)
	}

	// Partial credits add up: 2 Q, then 1 Q (a draft), then nothing is left.
	f.venderOK(nota(linea(q, 2, 50)))
	borrador := id(f.venderOK(testenv.With(nota(linea(q, 1, 50)), "estado", "borrador")))
	testenv.Expect422(t, f.vender(nota(linea(q, 1, 50))), "detalles.0.cantidad")
	// A cancelled credit note gives its quantity back.
	f.Must(http.StatusOK, http.MethodPatch, path("ventas", borrador), map[string]any{"estado": "anulada"})
	f.venderOK(nota(linea(q, 1, 50)))
	// Crediting the unit of P at a lower price credits the unit: nothing of
	// P is left, in quantity.
	f.venderOK(nota(linea(p, 1, 60)))
	testenv.Expect422(t, f.vender(nota(linea(p, "0.01", 1))), "detalles.0.cantidad")
	if n := f.Int(`select count(*) from ventas where tipo_comprobante = 'nota_credito' and estado <> 'anulada'`); n != 3 {
		t.Errorf("%d live credit notes, want 3", n)
	}
	// Debit notes are not limited by this rule.
	f.venderOK(testenv.With(nota(linea(p, 5, 100)), "tipo_comprobante", "nota_debito", "codigo_referencia", "10"))
}

// Credit notes against one sale sent at once do not together credit more
// than it has: the sale is locked while each is checked, so of 8 notes of
// one unit against a sale of 5 exactly 5 are created and 3 refused (422),
// none failing.
func TestConcurrentCreditNotesDoNotTogetherExceedTheirSale(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	factura := id(f.venderOK(venta(linea(p, 5, 100))))
	rs := testenv.Concurrently(8, func(int) testenv.Resp {
		return f.Call(http.MethodPost, "/api/ventas", testenv.With(venta(linea(p, 1, 100)), "tipo_comprobante", "nota_credito",
			"venta_referencia_id", factura, "codigo_referencia", "06", "razon_referencia", "Devolución"))
	})
	creadas, rechazadas := 0, 0
	for _, r := range rs {
		switch {
		case r.Status == http.StatusCreated:
			creadas++
		case r.Status == http.StatusUnprocessableEntity && len(r.FieldErrors("detalles.0.cantidad")) > 0:
			rechazadas++
		default:
			t.Errorf("unexpected answer %d %s", r.Status, r.Raw)
		}
	}
	if creadas != 5 || rechazadas != 3 {
		t.Fatalf("%d created, %d refused; want 5 and 3", creadas, rechazadas)
	}
	if n := f.Int(`select coalesce(sum(d.cantidad), 0)::int from detalles_venta d join ventas v on v.id = d.venta_id
		where v.tipo_comprobante = 'nota_credito' and v.venta_referencia_id = $1`, factura); n != 5 {
		t.Errorf("credited %d units of 5", n)
	}
}

// A note corrects an issued document: one of a draft (which moved no
// stock and owes nothing) is refused, and so is a credit note of a credit
// note (its goods would come back twice); a credit note of a debit note
// is allowed and moves no stock, as that note moved none; a note whose
// reason or reference is sent blank is refused like one without them,
// and one dated before the document it corrects under fecha_venta.
// Nothing is written by a refused note.
func TestANoteReferencesOnlyAnIssuedDocumentThatCanTakeIt(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "20", "10", "", "")
	conAlmacen := func(b map[string]any) map[string]any { return testenv.With(b, "almacen_id", f.Almacen) }
	factura := id(f.venderOK(conAlmacen(venta(linea(p, 5, 100)))))
	borrador := id(f.venderOK(testenv.With(conAlmacen(venta(linea(p, 5, 100))), "estado", "borrador")))
	nc := id(f.venderOK(conAlmacen(nota(factura, linea(p, 1, 100)))))
	nd := id(f.venderOK(testenv.With(conAlmacen(nota(factura, linea(p, 2, 100))), "tipo_comprobante", "nota_debito", "codigo_referencia", "10")))
	antes, ventas := f.Existencias(f.Almacen, p), f.Int(`select count(*) from ventas`)
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/ventas", []testenv.Invalid{
		{"a credit note of a draft", conAlmacen(nota(borrador, linea(p, 1, 100))), "venta_referencia_id"},
		{"a debit note of a draft", testenv.With(nota(borrador, linea(p, 1, 100)), "tipo_comprobante", "nota_debito"), "venta_referencia_id"},
		{"a credit note of a credit note", conAlmacen(nota(nc, linea(p, 1, 100))), "venta_referencia_id"},
		{"a blank reason", testenv.With(nota(factura, linea(p, 1, 100)), "razon_referencia", "   "), "razon_referencia"},
		{"an empty reference code", testenv.With(nota(factura, linea(p, 1, 100)), "codigo_referencia", ""), "codigo_referencia"},
		// The sale is of 2026-03-15: a note of the day before would be
		// posted before it.
		{"a credit note dated before its sale", testenv.With(nota(factura, linea(p, 1, 100)), "fecha_venta", "2026-03-14"), "fecha_venta"},
		{"a debit note dated before its sale", testenv.With(nota(factura, linea(p, 1, 100)), "tipo_comprobante", "nota_debito",
			"fecha_venta", "2026-01-10"), "fecha_venta"},
	})
	if got, n := f.Existencias(f.Almacen, p), f.Int(`select count(*) from ventas`); got != antes || n != ventas {
		t.Fatalf("refused notes changed the stock (%s, was %s) or the sales (%d, were %d)", got, antes, n, ventas)
	}
	// A credit note of the debit note, created or confirmed from a draft,
	// returns no goods.
	f.venderOK(conAlmacen(nota(nd, linea(p, 1, 100))))
	guardada := id(f.venderOK(testenv.With(conAlmacen(nota(nd, linea(p, 1, 100))), "estado", "borrador")))
	f.Must(http.StatusOK, http.MethodPatch, path("ventas", guardada), map[string]any{"estado": "pendiente"})
	if got := f.Existencias(f.Almacen, p); got != antes {
		t.Errorf("credit notes of a debit note moved the stock to %s (was %s)", got, antes)
	}
	if n := f.Int(`select count(*) from movimientos_inventario m join ventas v on v.id = m.venta_id where v.venta_referencia_id = $1`, nd); n != 0 {
		t.Errorf("%d movements of credit notes of a debit note", n)
	}
}
