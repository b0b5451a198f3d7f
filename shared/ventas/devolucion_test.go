package ventas_test

import (
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// nota is a valid credit note of the sale ref with the given lines.
func nota(ref int64, lineas ...map[string]any) map[string]any {
	return testenv.With(venta(lineas...), "tipo_comprobante", "nota_credito", "venta_referencia_id", ref,
		"codigo_referencia", "06", "razon_referencia", "Devolución de mercadería")
}

// A credit note's goods come back: a processed entry of type Devolucion
// Cliente into its warehouse at the unit cost the sale's exit took them
// out, shown in its answer and event; the books post it (inventory up,
// cost of sales down) at that value; the kardex shows it. Cancelling the
// note takes them out again from the batch they went back to, at that
// cost, and stock, valuation and books are where the sale left them.
func TestACreditNoteReturnsItsGoodsAtTheSalesCostAndItsCancellationTakesThemOutAgain(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	// The stock comes in through the API, so that the kardex and the books see it.
	f.Must(http.StatusCreated, http.MethodPost, "/api/inventario/entradas", map[string]any{"tipo": "Ajuste Positivo",
		"almacen_id": f.Almacen, "fecha": "2026-03-01", "procesar": true, "detalles": []any{
			map[string]any{"producto_id": p, "cantidad": 3, "costo_unitario": 100, "lote": "A", "fecha_vencimiento": "2027-01-31"},
			map[string]any{"producto_id": p, "cantidad": 3, "costo_unitario": 150, "lote": "B", "fecha_vencimiento": "2027-06-30"}}})
	// 4 sold: 3 of A at 100 and 1 of B at 150 (FIFO), 450 of cost.
	factura := id(f.venderOK(testenv.With(venta(linea(p, 4, 1000)), "almacen_id", f.Almacen)))
	valuacion := func() string {
		return f.Text(`select coalesce(sum(cantidad_disponible * costo_unitario), 0)::numeric(18,2)::text from inventarios where producto_id = $1 and not eliminado`, p)
	}
	lotes := func() string {
		return f.Text(`select string_agg(lote || '=' || cantidad_disponible::numeric(18,0) || '@' || costo_unitario, ',' order by lote) from inventarios where producto_id = $1`, p)
	}
	if f.Existencias(f.Almacen, p) != "2.000" || valuacion() != "300.00" || f.Saldo("5.1.01.001") != "450.00" {
		t.Fatalf("after the sale: stock %s, value %s, cost of sales %s", f.Existencias(f.Almacen, p), valuacion(), f.Saldo("5.1.01.001"))
	}
	antes := lotes()

	// 2 come back, at 450 / 4 = 112.5 each, into B (the batch the last of them came from).
	r := f.venderOK(testenv.With(nota(factura, linea(p, 2, 1000)), "almacen_id", f.Almacen))
	nc := id(r)
	if got := f.movimientos(nc); got != "entrada Devolucion Cliente Procesada" {
		t.Fatalf("credit note's movements %q (an exit takes stock down)", got)
	}
	mov := f.Text(`select numero from movimientos_inventario where venta_id = $1`, nc)
	for path, want := range map[string]string{
		"data.movimiento_inventario.numero": mov, "data.movimiento_inventario.tipo": "Devolucion Cliente",
		"data.movimiento_inventario.clase": "entrada", "data.movimiento_inventario.detalles.0.lote": "B",
		"data.movimiento_inventario.detalles.0.fecha_vencimiento": "2027-06-30",
	} {
		if got := testenv.Str(r.JSON, path); got != want {
			t.Errorf("%s = %q, want %q: %s", path, got, want, r.Raw)
		}
	}
	for path, want := range map[string]string{
		"data.movimiento_inventario.valor_total": "225.00", "data.movimiento_inventario.detalles.0.costo_unitario": "112.5000",
		"data.movimiento_inventario.detalles.0.cantidad": "2.000",
	} {
		if got := testenv.Number(r, path); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	// Its detail view shows the same entry.
	if g := f.Must(http.StatusOK, http.MethodGet, path("ventas", nc), nil); !reflect.DeepEqual(testenv.Get(g.JSON, "data.movimiento_inventario"),
		testenv.Get(r.JSON, "data.movimiento_inventario")) {
		t.Errorf("detail view's movement: %s\nanswer: %s", g.Raw, r.Raw)
	}
	if g := f.Must(http.StatusOK, http.MethodGet, path("ventas", factura), nil); testenv.Get(g.JSON, "data.movimiento_inventario") != nil {
		t.Errorf("a sale shows no movimiento_inventario: %s", g.Raw)
	}
	if got := f.Text(`select payload->'movimiento_inventario'->>'numero' || ' ' || (payload->'movimiento_inventario'->>'valor_total')
		from eventos where tipo = 'VentaCreadaEvent' and (payload->>'id')::bigint = $1`, nc); got != mov+" 225.00" {
		t.Errorf("event's movement %q, want %q", got, mov+" 225.00")
	}
	if got := f.Text(`select d.cantidad::numeric(18,3) || '@' || d.costo_unitario || ' ' || m.observaciones from detalles_movimiento d
		join movimientos_inventario m on m.id = d.movimiento_id where m.venta_id = $1`, nc); got != "2.000@112.5000 Nota de crédito NC-00000001" {
		t.Errorf("entry line %q", got)
	}
	if f.Existencias(f.Almacen, p) != "4.000" || valuacion() != "525.00" {
		t.Errorf("after the credit note: stock %s, value %s; want 4 and 525.00", f.Existencias(f.Almacen, p), valuacion())
	}
	// Its posting: inventory 225 against cost of sales, what the movement is worth.
	if got := f.Text(`select a.total_debe::text from asientos_contables a join movimientos_inventario m on m.id = a.origen_id
		where a.origen = 'inventario' and m.venta_id = $1 and a.estado = 'contabilizado'`, nc); got != "225.00" {
		t.Errorf("entry's posting %q, want 225.00", got)
	}
	if got := f.Saldo("5.1.01.001"); got != "225.00" {
		t.Errorf("cost of sales after the credit note %s, want 225.00", got)
	}
	kardex := func() testenv.Resp {
		return f.Must(http.StatusOK, http.MethodGet, "/api/reportes/kardex?producto_id="+strconv.FormatInt(p, 10)+
			"&almacen_id="+strconv.FormatInt(f.Almacen, 10)+"&fecha_inicio=2026-03-01&fecha_fin=2026-12-31", nil)
	}
	k := kardex()
	n := testenv.Len(k.JSON, "data.secciones.0.filas")
	ultima := "data.secciones.0.filas." + strconv.Itoa(n-1) + "."
	if testenv.Str(k.JSON, ultima+"tipo") != "Devolucion Cliente" || testenv.Number(k, ultima+"entrada") != "2.000" ||
		testenv.Number(k, ultima+"saldo_cantidad") != "4.000" || testenv.Number(k, ultima+"saldo_valor") != "525.00" {
		t.Errorf("kardex: %s", k.Raw)
	}

	// Cancelled: the 2 leave B again at 112.5, and B costs 150 again.
	f.Must(http.StatusOK, http.MethodDelete, path("ventas", nc), nil)
	if got := f.movimientos(nc); got != "entrada Devolucion Cliente Procesada, salida Venta Procesada" {
		t.Fatalf("movements after the cancellation %q", got)
	}
	if f.Existencias(f.Almacen, p) != "2.000" || valuacion() != "300.00" || lotes() != antes {
		t.Errorf("after the cancellation: stock %s, value %s, batches %s (before %s)", f.Existencias(f.Almacen, p), valuacion(), lotes(), antes)
	}
	if got := f.Saldo("5.1.01.001"); got != "450.00" {
		t.Errorf("cost of sales after the cancellation %s, want 450.00", got)
	}
	if got := f.Saldo("1.1.04.001"); got != "300.00" {
		t.Errorf("inventory account after the cancellation %s, want 300.00 (what is in stock)", got)
	}
	// The kardex values each movement at its recorded cost, so it closes at
	// what the stock and the books hold.
	if k := kardex(); testenv.Number(k, "data.totales.saldo_final_cantidad") != "2.000" || testenv.Number(k, "data.totales.saldo_final_valor") != "300.00" {
		t.Errorf("kardex after the cancellation: %s", k.Raw)
	}
}

// A debit note moves no stock, whatever warehouse it names.
func TestADebitNoteMovesNoStock(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "5", "100", "", "")
	factura := id(f.venderOK(testenv.With(venta(linea(p, 1, 1000)), "almacen_id", f.Almacen)))
	nd := id(f.venderOK(testenv.With(nota(factura, linea(p, 1, 50)), "tipo_comprobante", "nota_debito", "codigo_referencia", "10",
		"almacen_id", f.Almacen)))
	if got := f.movimientos(nd); got != "" || f.Existencias(f.Almacen, p) != "4.000" {
		t.Errorf("debit note: movements %q, stock %s", got, f.Existencias(f.Almacen, p))
	}
}

// A credit note recorded as a draft brings its goods back when confirmed;
// one whose goods were sold again cannot be cancelled (422 under estado)
// and changes nothing.
func TestADraftCreditNoteReturnsOnConfirmationAndCannotBeCancelledOnceItsGoodsAreGone(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "2", "80", "", "")
	factura := id(f.venderOK(testenv.With(venta(linea(p, 2, 1000)), "almacen_id", f.Almacen)))
	nc := id(f.venderOK(testenv.With(nota(factura, linea(p, 2, 1000)), "almacen_id", f.Almacen, "estado", "borrador")))
	if got := f.movimientos(nc); got != "" {
		t.Fatalf("a draft moved stock: %q", got)
	}
	f.Must(http.StatusOK, http.MethodPatch, path("ventas", nc), map[string]any{"estado": "pendiente"})
	if got := f.movimientos(nc); got != "entrada Devolucion Cliente Procesada" || f.Existencias(f.Almacen, p) != "2.000" {
		t.Fatalf("confirmed: movements %q, stock %s", got, f.Existencias(f.Almacen, p))
	}
	if got := f.Text(`select d.costo_unitario::text from detalles_movimiento d join movimientos_inventario m on m.id = d.movimiento_id where m.venta_id = $1`, nc); got != "80.0000" {
		t.Errorf("returned at %s, want 80.0000", got)
	}
	f.venderOK(testenv.With(venta(linea(p, 2, 1000)), "almacen_id", f.Almacen))
	r := f.Call(http.MethodPatch, path("ventas", nc), map[string]any{"estado": "anulada"})
	testenv.Expect422(t, r, "estado")
	if got := f.Text(`select estado from ventas where id = $1`, nc); got != "pendiente" || f.Existencias(f.Almacen, p) != "0.000" {
		t.Errorf("refused cancellation changed the note (%s) or the stock (%s)", got, f.Existencias(f.Almacen, p))
	}
}

// A credit note returning 1 line and one returning 20 cost the same round
// trips as a sale (its costs are read with the sale's context, its entry
// travels with the commit), and so do their cancellations.
func TestACreditNotesRoundTripsDoNotGrowWithItsLines(t *testing.T) {
	f := setup(t)
	var prods []int64
	var lineas, devueltas []map[string]any
	for i := 0; i < 20; i++ {
		p := f.Producto(testenv.Prod{Codigo: "P" + strconv.Itoa(i)})
		f.Stock(f.Almacen, p, "100", "10", "L"+strconv.Itoa(i), "")
		prods = append(prods, p)
		lineas = append(lineas, linea(p, 2, 100))
		devueltas = append(devueltas, linea(p, 1, 100))
	}
	factura := id(f.venderOK(testenv.With(venta(lineas...), "almacen_id", f.Almacen)))
	f.E.Get("/api/ventas", f.Admin) // warm up (token bookkeeping)
	queries := func(method, url string, body map[string]any, want int) (int64, testenv.Resp) {
		t.Helper()
		before := f.E.Queries.Load()
		r := f.E.Do(testenv.Req{Method: method, Path: url, Body: body, Token: f.Admin})
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, url, r.Status, r.Raw)
		}
		return f.E.Queries.Load() - before, r
	}
	venta1, _ := queries(http.MethodPost, "/api/ventas", testenv.With(venta(linea(prods[0], 1, 100)), "almacen_id", f.Almacen), http.StatusCreated)
	uno, r1 := queries(http.MethodPost, "/api/ventas", testenv.With(nota(factura, linea(prods[0], 1, 100)), "almacen_id", f.Almacen), http.StatusCreated)
	veinte, r20 := queries(http.MethodPost, "/api/ventas", testenv.With(nota(factura, devueltas...), "almacen_id", f.Almacen), http.StatusCreated)
	if uno != veinte || uno != venta1 {
		t.Errorf("create: a sale %d round trips, a credit note of 1 line %d, of 20 lines %d", venta1, uno, veinte)
	}
	if n := f.Int(`select count(*) from detalles_movimiento d join movimientos_inventario m on m.id = d.movimiento_id
		where m.venta_id = $1 and m.clase = 'entrada'`, id(r20)); n != 20 {
		t.Fatalf("the 20-line credit note's entry has %d lines", n)
	}
	anulada := map[string]any{"estado": "anulada"}
	anular1, _ := queries(http.MethodPut, path("ventas", id(r1)), anulada, http.StatusOK)
	anular20, _ := queries(http.MethodPut, path("ventas", id(r20)), anulada, http.StatusOK)
	if anular1 != anular20 {
		t.Errorf("cancel: a credit note of 1 line %d round trips, of 20 lines %d", anular1, anular20)
	}
	if got := f.Existencias(f.Almacen, prods[0]); got != "97.000" {
		t.Errorf("stock after sales 2+1, notes 1+2 and their cancellations: %s, want 97", got)
	}
}

// With automatic stock deduction on, a credit note that names no
// warehouse returns its goods to the principal one, as a sale takes them
// from it; replayed with its Idempotency-Key, its answer shows the same
// entry, its number resolved, and nothing moves twice.
func TestACreditNoteWithoutWarehouseReturnsToThePrincipalOneAndReplaysTheSameEntry(t *testing.T) {
	f := setup(t)
	f.Ajuste(1, "inventario.descontar_stock_automatico", true)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "5", "40", "", "")
	factura := id(f.venderOK(venta(linea(p, 3, 100))))
	req := testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: f.Admin, Body: nota(factura, linea(p, 1, 100)),
		Headers: map[string]string{"Idempotency-Key": "nc-1"}}
	r1, r2 := f.E.Do(req), f.E.Do(req)
	if r1.Status != http.StatusCreated || r2.Status != http.StatusCreated {
		t.Fatalf("credit note: %d %s / %d %s", r1.Status, r1.Raw, r2.Status, r2.Raw)
	}
	mov := f.Text(`select numero from movimientos_inventario where venta_id = $1`, id(r1))
	for _, r := range []testenv.Resp{r1, r2} {
		if testenv.Str(r.JSON, "data.movimiento_inventario.numero") != mov || testenv.Number(r, "data.movimiento_inventario.detalles.0.costo_unitario") != "40.0000" {
			t.Errorf("answer's movement (want %s at 40.0000): %s", mov, r.Raw)
		}
	}
	if got := f.movimientos(id(r1)); got != "entrada Devolucion Cliente Procesada" || f.Existencias(f.Almacen, p) != "3.000" {
		t.Errorf("movements %q, stock %s (want 5 - 3 + 1)", got, f.Existencias(f.Almacen, p))
	}
}

// Credit notes returning goods into the batches concurrent sales take
// from all succeed (no deadlock, no 5xx): both lock the batches before
// their document counters, in one order.
func TestCreditNotesAndSalesOfOneProductAtOnceAllSucceed(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "10", "20", "A", "2027-01-31")
	f.Stock(f.Almacen, p, "10", "30", "B", "2027-06-30")
	factura := id(f.venderOK(testenv.With(venta(linea(p, 12, 100)), "almacen_id", f.Almacen)))
	rs := testenv.Concurrently(12, func(i int) testenv.Resp {
		body := testenv.With(venta(linea(p, 1, 100)), "almacen_id", f.Almacen)
		if i%2 == 0 {
			body = testenv.With(nota(factura, linea(p, 1, 100)), "almacen_id", f.Almacen)
		}
		return f.Call(http.MethodPost, "/api/ventas", body)
	})
	for i, r := range rs {
		if r.Status != http.StatusCreated {
			t.Errorf("request %d: %d %s", i, r.Status, r.Raw)
		}
	}
	// 20 - 12 - 6 + 6; each note came back at the sale's cost (10 × 20 + 2 × 30) / 12.
	if got := f.Existencias(f.Almacen, p); got != "8.000" {
		t.Errorf("stock %s, want 8", got)
	}
	if got := f.Text(`select string_agg(distinct d.costo_unitario::text, ',') from detalles_movimiento d
		join movimientos_inventario m on m.id = d.movimiento_id where m.tipo = 'Devolucion Cliente'`); got != "21.6667" {
		t.Errorf("returned at %s, want 21.6667", got)
	}
}

// Cancelling one credit note twice at once takes its goods out once: one
// request wins, the other is refused (the note is anulada), no 5xx.
func TestACreditNoteCancelledTwiceAtOnceTakesItsGoodsOutOnce(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "10", "20", "", "")
	factura := id(f.venderOK(testenv.With(venta(linea(p, 5, 100)), "almacen_id", f.Almacen)))
	nc := id(f.venderOK(testenv.With(nota(factura, linea(p, 3, 100)), "almacen_id", f.Almacen)))
	rs := testenv.Concurrently(4, func(int) testenv.Resp {
		return f.Call(http.MethodPatch, path("ventas", nc), map[string]any{"estado": "anulada"})
	})
	ok := 0
	for _, r := range rs {
		switch {
		case r.Status == http.StatusOK:
			ok++
		case r.Status == http.StatusUnprocessableEntity && len(r.FieldErrors("estado")) > 0:
		default:
			t.Errorf("unexpected answer %d %s", r.Status, r.Raw)
		}
	}
	if ok != 1 || f.movimientos(nc) != "entrada Devolucion Cliente Procesada, salida Venta Procesada" || f.Existencias(f.Almacen, p) != "5.000" {
		t.Errorf("%d cancellations won; movements %q, stock %s (want 1, one exit, 5)", ok, f.movimientos(nc), f.Existencias(f.Almacen, p))
	}
}

// A sale whose credit notes stand cannot be cancelled (422 under estado,
// by PUT or DELETE): its goods would come back twice. Once its notes are
// cancelled, it can.
func TestASaleWithStandingCreditNotesCannotBeCancelled(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "10", "20", "", "")
	factura := id(f.venderOK(testenv.With(venta(linea(p, 5, 100)), "almacen_id", f.Almacen)))
	nc := id(f.venderOK(testenv.With(nota(factura, linea(p, 3, 100)), "almacen_id", f.Almacen)))
	borrador := id(f.venderOK(testenv.With(nota(factura, linea(p, 1, 100)), "estado", "borrador")))
	for _, r := range []testenv.Resp{
		f.Call(http.MethodPatch, path("ventas", factura), map[string]any{"estado": "anulada"}),
		f.Call(http.MethodDelete, path("ventas", factura), nil),
	} {
		testenv.Expect422(t, r, "estado")
		if msg := r.FieldErrors("estado"); len(msg) == 0 || msg[0] != "La venta tiene notas de crédito vigentes (NC-00000001, NC-00000002); anúlelas antes de anular la venta." {
			t.Errorf("message %v", msg)
		}
	}
	if got := f.Text(`select estado from ventas where id = $1`, factura); got != "pendiente" || f.Existencias(f.Almacen, p) != "8.000" {
		t.Errorf("refused cancellations changed the sale (%s) or the stock (%s)", got, f.Existencias(f.Almacen, p))
	}
	for _, v := range []int64{nc, borrador} {
		f.Must(http.StatusOK, http.MethodPatch, path("ventas", v), map[string]any{"estado": "anulada"})
	}
	f.Must(http.StatusOK, http.MethodPatch, path("ventas", factura), map[string]any{"estado": "anulada"})
	if got := f.Existencias(f.Almacen, p); got != "10.000" || f.Saldo("5.1.01.001") != "0.00" {
		t.Errorf("after cancelling the notes and the sale: stock %s, cost of sales %s; want 10 and 0.00", got, f.Saldo("5.1.01.001"))
	}
}
