package ventas_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/testenv"
)

func TestCreditSalesOpenAReceivable(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	quince := f.Cliente(1, "101110111", 15)
	contado := f.Cliente(1, "101110112", 0)
	cases := []struct {
		name      string
		body      map[string]any
		condicion string
		vence     string // "" = no receivable
		estadoCxc string
	}{
		{"customer with credit days", testenv.With(venta(linea(p, 2, 500)), "cliente_id", quince), "credito", "2026-03-30", "pendiente"},
		{"customer with credit days, payment method given", testenv.With(venta(linea(p, 2, 500)), "cliente_id", quince, "forma_pago_id", 1), "credito", "2026-03-30", "pendiente"},
		{"explicit contado for a credit customer", testenv.With(venta(linea(p, 2, 500)), "cliente_id", quince, "condicion_venta", "contado"), "contado", "", ""},
		{"cash customer", testenv.With(venta(linea(p, 2, 500)), "cliente_id", contado, "forma_pago_id", 2), "contado", "", ""},
		{"explicit credit, customer without days: 30", testenv.With(venta(linea(p, 2, 500)), "cliente_id", contado, "condicion_venta", "credito"), "credito", "2026-04-14", "pendiente"},
		{"no customer", venta(linea(p, 2, 500)), "contado", "", ""},
		{"credit of total 0 is born paid", testenv.With(venta(linea(p, 1, 0)), "cliente_id", quince), "credito", "2026-03-30", "pagada"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.sub(t).venderOK(c.body)
			if got := testenv.Str(r.JSON, "data.condicion_venta"); got != c.condicion {
				t.Errorf("condicion %s, want %s", got, c.condicion)
			}
			if c.vence == "" {
				if testenv.Get(r.JSON, "data.cuenta_por_cobrar") != nil {
					t.Errorf("a cash sale opened a receivable: %s", r.Raw)
				}
				return
			}
			if testenv.Str(r.JSON, "data.cuenta_por_cobrar.fecha_vencimiento") != c.vence ||
				testenv.Str(r.JSON, "data.cuenta_por_cobrar.estado") != c.estadoCxc || num(r, "data.cuenta_por_cobrar.saldo") != num(r, "data.monto_total") {
				t.Errorf("receivable: %s", r.Raw)
			}
		})
	}
	// A cash sale may be created pagada; a credit one may not.
	if r := f.venderOK(testenv.With(venta(linea(p, 1, 10)), "estado", "pagada")); testenv.Str(r.JSON, "data.estado") != "pagada" {
		t.Errorf("cash sale pagada: %s", r.Raw)
	}
	testenv.Expect422(t, f.vender(testenv.With(venta(linea(p, 1, 10)), "estado", "pagada", "cliente_id", quince)), "estado")
	// A credit draft opens its receivable when confirmed.
	d := f.venderOK(testenv.With(venta(linea(p, 1, 10)), "estado", "borrador", "cliente_id", quince))
	if testenv.Get(d.JSON, "data.cuenta_por_cobrar") != nil {
		t.Errorf("a draft opened a receivable: %s", d.Raw)
	}
	u := f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(d)), map[string]any{"estado": "pendiente"})
	if u.Status != http.StatusOK || testenv.Str(u.JSON, "data.cuenta_por_cobrar.estado") != "pendiente" {
		t.Errorf("confirmed credit draft: %d %s", u.Status, u.Raw)
	}
	// A pending credit sale with a balance cannot be marked pagada by hand.
	testenv.Expect422(t, f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(d)), map[string]any{"estado": "pagada"}), "estado")
}

func TestPaymentsReduceTheBalanceAndSettleTheSale(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	cliente := f.Cliente(1, "101110111", 30)
	r := f.venderOK(testenv.With(venta(linea(p, 1, 1000, "porcentaje_impuesto", 13)), "cliente_id", cliente))
	ventaID := id(r)
	cxc := cuentaDe(r)
	pagar := func(body map[string]any) testenv.Resp {
		return f.E.Call(f.Admin, http.MethodPost, path("cuentas-por-cobrar", cxc, "/pagos"), body)
	}
	// Validation.
	testenv.Expect422(t, pagar(map[string]any{}), "monto")
	testenv.Expect422(t, pagar(map[string]any{"monto": 0}), "monto")
	testenv.Expect422(t, pagar(map[string]any{"monto": -5}), "monto")
	testenv.Expect422(t, pagar(map[string]any{"monto": "1.001"}), "monto")
	testenv.Expect422(t, pagar(map[string]any{"monto": "1130.01"}), "monto")
	testenv.Expect422(t, pagar(map[string]any{"monto": 10, "fecha": "2026-13-01"}), "fecha")
	testenv.Expect422(t, pagar(map[string]any{"monto": 10, "fecha": "2026-03-14"}), "fecha")
	testenv.Expect422(t, pagar(map[string]any{"monto": 10, "forma_pago_id": 999}), "forma_pago_id")
	testenv.Expect422(t, pagar(map[string]any{"monto": 10, "referencia": fmt.Sprintf("%0101d", 1)}), "referencia")
	if n := f.Int(`select count(*) from pagos`); n != 0 {
		t.Fatalf("%d payments after refusals", n)
	}
	// A partial payment.
	pg := pagar(map[string]any{"monto": "130.00", "fecha": "2026-03-20", "forma_pago_id": 4, "referencia": "TRF-1"})
	if pg.Status != http.StatusCreated || testenv.Str(pg.JSON, "message") != "Pago registrado correctamente." ||
		num(pg, "data.monto") != "130.00" || testenv.Str(pg.JSON, "data.fecha") != "2026-03-20" || testenv.Str(pg.JSON, "data.forma_pago.codigo") != "04" ||
		num(pg, "data.cuenta_por_cobrar.saldo") != "1000.00" || testenv.Str(pg.JSON, "data.cuenta_por_cobrar.estado") != "pendiente" {
		t.Fatalf("partial payment: %d %s", pg.Status, pg.Raw)
	}
	if s := f.E.Get(path("ventas", ventaID), f.Admin); testenv.Str(s.JSON, "data.estado") != "pendiente" || num(s, "data.cuenta_por_cobrar.saldo") != "1000.00" {
		t.Errorf("sale after a partial payment: %s", s.Raw)
	}
	// More than the balance.
	testenv.Expect422(t, pagar(map[string]any{"monto": "1000.01"}), "monto")
	// The rest (fecha defaults to today).
	pg = pagar(map[string]any{"monto": 1000})
	if pg.Status != http.StatusCreated || num(pg, "data.cuenta_por_cobrar.saldo") != "0.00" || testenv.Str(pg.JSON, "data.cuenta_por_cobrar.estado") != "pagada" ||
		testenv.Str(pg.JSON, "data.fecha") != horacr.Hoy().Format(time.DateOnly) { // today in Costa Rica
		t.Fatalf("final payment: %d %s", pg.Status, pg.Raw)
	}
	if s := f.E.Get(path("ventas", ventaID), f.Admin); testenv.Str(s.JSON, "data.estado") != "pagada" {
		t.Errorf("a settled receivable leaves its sale %s", testenv.Str(s.JSON, "data.estado"))
	}
	// Show lists the payments.
	s := f.E.Get(path("cuentas-por-cobrar", cxc), f.Admin)
	if s.Status != http.StatusOK || testenv.Len(s.JSON, "data.pagos") != 2 || num(s, "data.pagos.0.monto") != "130.00" ||
		testenv.Str(s.JSON, "data.pagos.0.referencia") != "TRF-1" || testenv.Str(s.JSON, "data.venta.numero_comprobante") != "FAC-00000001" ||
		testenv.Num(s.JSON, "data.cliente.id") != float64(cliente) || num(s, "data.monto") != "1130.00" {
		t.Errorf("show: %d %s", s.Status, s.Raw)
	}
	// A paid receivable takes no more payments.
	testenv.Expect422(t, pagar(map[string]any{"monto": 1}), "monto")
	// Two PagoRecibidoEvents with the payment as the API shows it.
	if n := f.Int(`select count(*) from eventos where tipo = 'PagoRecibidoEvent' and (payload->>'cuenta_por_cobrar_id')::bigint = $1`, cxc); n != 2 {
		t.Errorf("%d PagoRecibidoEvent", n)
	}
	if got := f.Text(`select payload->'cuenta_por_cobrar'->>'estado' from eventos where tipo = 'PagoRecibidoEvent' order by secuencia desc limit 1`); got != "pagada" {
		t.Errorf("event payload %s", got)
	}
	// A cancelled sale's receivable takes no payment either.
	r = f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", cliente))
	f.E.Call(f.Admin, http.MethodDelete, path("ventas", id(r)), nil)
	cxc2 := cuentaDe(r)
	testenv.Expect422(t, f.E.Call(f.Admin, http.MethodPost, path("cuentas-por-cobrar", cxc2, "/pagos"), map[string]any{"monto": 1}), "monto")
	// Unknown receivables.
	for _, x := range []string{"999999", "0", "abc"} {
		if r := f.E.Call(f.Admin, http.MethodPost, "/api/cuentas-por-cobrar/"+x+"/pagos", map[string]any{"monto": 1}); r.Status != http.StatusNotFound {
			t.Errorf("pay %s: %d", x, r.Status)
		}
	}
}

func TestReceivableListFilters(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	ana := f.Cliente(1, "101110111", 10)
	beto := f.Cliente(1, "101110112", 60)
	old := f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", ana, "fecha_venta", "2020-01-01")) // overdue
	anaNueva := f.venderOK(testenv.With(venta(linea(p, 1, 200)), "cliente_id", ana, "fecha_venta", time.Now().Format(time.DateOnly)))
	betoVieja := f.venderOK(testenv.With(venta(linea(p, 1, 300)), "cliente_id", beto, "fecha_venta", "2020-01-01")) // overdue, then paid
	cxc := func(r testenv.Resp) int64 { return cuentaDe(r) }
	if pg := f.E.Call(f.Admin, http.MethodPost, path("cuentas-por-cobrar", cxc(betoVieja), "/pagos"), map[string]any{"monto": 300}); pg.Status != http.StatusCreated {
		t.Fatalf("pay: %d %s", pg.Status, pg.Raw)
	}
	list := func(q string) []int64 {
		t.Helper()
		r := f.E.Get("/api/cuentas-por-cobrar"+q, f.Admin)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
		var out []int64
		for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
			out = append(out, int64(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
		}
		return out
	}
	eq := func(q string, want ...int64) {
		t.Helper()
		if got := list(q); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	// Newest first by default.
	eq("", cxc(betoVieja), cxc(anaNueva), cxc(old))
	eq(fmt.Sprintf("?cliente_id=%d", ana), cxc(anaNueva), cxc(old))
	eq("?estado=pagada", cxc(betoVieja))
	eq("?estado=pendiente", cxc(anaNueva), cxc(old))
	eq("?vencidas=1", cxc(old))
	eq("?vencidas=0", cxc(betoVieja), cxc(anaNueva), cxc(old))
	eq(fmt.Sprintf("?venta_id=%d", id(anaNueva)), cxc(anaNueva))
	eq("?sort=saldo&order=desc", cxc(anaNueva), cxc(old), cxc(betoVieja))
	eq("?per_page=1&page=2", cxc(anaNueva))
	// The rows carry the sale, the customer and vencida.
	r := f.E.Get("/api/cuentas-por-cobrar?vencidas=1", f.Admin)
	if testenv.Get(r.JSON, "data.0.vencida") != true || testenv.Str(r.JSON, "data.0.venta.numero_comprobante") != "FAC-00000001" ||
		testenv.Num(r.JSON, "data.0.cliente.id") != float64(ana) || testenv.Get(r.JSON, "data.0.pagos") != nil || testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("row: %s", r.Raw)
	}
	for _, q := range []string{"?estado=vieja", "?vencidas=quizas", "?cliente_id=x", "?sort=nombre", "?per_page=1000"} {
		if r := f.E.Get("/api/cuentas-por-cobrar"+q, f.Admin); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", q, r.Status)
		}
	}
}
