package compras_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// recibida creates an order of total (one untaxed line) for the supplier,
// receives it and returns the order and its payable.
func (f *fixture) recibida(proveedor int64, total any) (orden, cuenta int64) {
	f.e.T.Helper()
	orden = f.create(testenv.With(f.orden(linea(f.productos[2], 1, total)), "proveedor_id", proveedor))
	f.to(orden, "recibida")
	r := f.do(http.MethodGet, ordenPath(orden), nil)
	return orden, int64(testenv.Num(r.JSON, "data.cuenta_por_pagar.id"))
}

func TestPayablesListFiltersAndShow(t *testing.T) {
	e, f := nuevo(t)
	otro := newProveedor(t, e, 1, 0)
	_, c1 := f.recibida(f.proveedor, 1000)
	_, c2 := f.recibida(f.proveedor, 500)
	o3, c3 := f.recibida(otro, 300)
	// c2 is overdue; c3 is paid.
	e.Exec(`update cuentas_por_pagar set fecha_vencimiento = (now() at time zone 'America/Costa_Rica')::date - 1 where id = $1`, c2)
	if r := f.do(http.MethodPost, cuentaPath(c3, "pagos"), map[string]any{"monto": 300, "fecha": "2026-04-01", "forma_pago_id": 1}); r.Status != http.StatusCreated {
		t.Fatalf("pay c3: %d %s", r.Status, r.Raw)
	}
	// An order not yet received has no payable.
	f.create(f.orden())
	cases := []struct {
		query string
		want  []int64
	}{
		{"", []int64{c1, c2, c3}},
		{"?proveedor_id=" + itoa(otro), []int64{c3}},
		{"?estado=pendiente", []int64{c1, c2}},
		{"?estado=pagada", []int64{c3}},
		{"?estado=anulada", nil},
		{"?vencidas=1", []int64{c2}},
		{"?vencidas=0", []int64{c1, c3}},
		{"?orden_compra_id=" + itoa(o3), []int64{c3}},
		{"?search=000002", []int64{c2}},
		{"?empresa_id=2", []int64{c1, c2, c3}},
		{"?sort=monto&order=desc", []int64{c1, c2, c3}},
		{"?sort=saldo", []int64{c3, c2, c1}},
		{"?per_page=2&page=2", []int64{c3}},
	}
	for _, c := range cases {
		r := f.do(http.MethodGet, "/api/cuentas-por-pagar"+c.query, nil)
		if got := testenv.IDs64(r); r.Status != http.StatusOK || !slices.Equal(got, c.want) && len(got)+len(c.want) > 0 {
			t.Errorf("%s: %v, want %v (%d %s)", c.query, got, c.want, r.Status, r.Raw)
		}
	}
	r := f.do(http.MethodGet, "/api/cuentas-por-pagar?vencidas=1", nil)
	if testenv.Get(r.JSON, "data.0.vencida") != true || testenv.Str(r.JSON, "data.0.orden_compra.numero_orden") != "OC-000002" ||
		testenv.Str(r.JSON, "data.0.proveedor.nombre") == "" || testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("overdue row: %s", r.Raw)
	}
	for q, field := range map[string]string{
		"?estado=abierta": "estado", "?vencidas=tal-vez": "vencidas", "?proveedor_id=x": "proveedor_id",
		"?sort=nombre": "sort", "?per_page=500": "per_page",
	} {
		testenv.Expect422(t, f.do(http.MethodGet, "/api/cuentas-por-pagar"+q, nil), field)
	}
	r = f.do(http.MethodGet, cuentaPath(c3), nil)
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "pagada" || testenv.Len(r.JSON, "data.pagos") != 1 ||
		testenv.Num(r.JSON, "data.pagos.0.monto") != 300 || testenv.Str(r.JSON, "data.pagos.0.forma_pago.nombre") != "Efectivo" ||
		testenv.Num(r.JSON, "data.proveedor.id") != float64(otro) || testenv.Get(r.JSON, "data.vencida") != false {
		t.Errorf("show: %d %s", r.Status, r.Raw)
	}
	for _, p := range []string{"999999", "0", "abc"} {
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			path := "/api/cuentas-por-pagar/" + p
			if m == http.MethodPost {
				path += "/pagos"
			}
			r := f.do(m, path, map[string]any{"monto": 1, "fecha": "2026-04-01", "forma_pago_id": 1})
			if r.Status != http.StatusNotFound || (p == "999999" && testenv.Str(r.JSON, "message") != "Cuenta por pagar no encontrada.") {
				t.Errorf("%s %s: %d %s", m, path, r.Status, r.Raw)
			}
		}
	}
}

func TestPaymentRules(t *testing.T) {
	e, f := nuevo(t)
	orden, cuenta := f.recibida(f.proveedor, "1000.50")
	pay := func(body any, headers ...string) testenv.Resp {
		t.Helper()
		h := map[string]string{}
		for i := 0; i+1 < len(headers); i += 2 {
			h[headers[i]] = headers[i+1]
		}
		return e.Do(testenv.Req{Method: http.MethodPost, Path: cuentaPath(cuenta, "pagos"), Token: f.tok, Body: body, Headers: h})
	}
	ok := map[string]any{"monto": 100, "fecha": "2026-04-01", "forma_pago_id": 6, "referencia": "SINPE-1"}
	e.ExpectInvalid(t, f.tok, http.MethodPost, cuentaPath(cuenta, "pagos"), []testenv.Invalid{
		{"monto required", testenv.With(ok, "monto", testenv.Absent), "monto"},
		{"monto zero", testenv.With(ok, "monto", 0), "monto"},
		{"monto negative", testenv.With(ok, "monto", -5), "monto"},
		{"monto not a number", testenv.With(ok, "monto", "cien"), "monto"},
		{"monto with 3 decimals", testenv.With(ok, "monto", "1.005"), "monto"},
		{"monto above the balance", testenv.With(ok, "monto", "1000.51"), "monto"},
		{"fecha required", testenv.With(ok, "fecha", testenv.Absent), "fecha"},
		{"fecha invalid", testenv.With(ok, "fecha", "2026-02-29"), "fecha"},
		{"forma_pago_id required", testenv.With(ok, "forma_pago_id", testenv.Absent), "forma_pago_id"},
		{"forma_pago_id unknown", testenv.With(ok, "forma_pago_id", 999), "forma_pago_id"},
		{"forma_pago_id not a number", testenv.With(ok, "forma_pago_id", "efectivo"), "forma_pago_id"},
		{"referencia over 100", testenv.With(ok, "referencia", strings.Repeat("r", 101)), "referencia"},
		{"empty body", "", "monto"},
	})
	if r := pay(testenv.With(ok, "monto", "1000.51")); !strings.Contains(r.FieldErrors("monto")[0], "1000.50") {
		t.Errorf("the balance is not in the message: %s", r.Raw)
	}
	if n := testenv.Column[int64](t, e, `select count(*) from pagos`)[0]; n != 0 {
		t.Fatalf("%d payments written by refused requests", n)
	}

	// Idempotency-Key: the same payment sent twice is recorded once.
	r := pay(ok, "Idempotency-Key", "pago-1")
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") != 900.5 || testenv.Str(r.JSON, "data.referencia") != "SINPE-1" ||
		testenv.Str(r.JSON, "message") != "Pago registrado correctamente." || testenv.Num(r.JSON, "data.usuario_id") != 1 {
		t.Fatalf("payment: %d %s", r.Status, r.Raw)
	}
	again := pay(ok, "Idempotency-Key", "pago-1")
	if again.Status != http.StatusCreated || string(again.Raw) != string(r.Raw) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %s", again.Status, again.Raw)
	}
	testenv.Expect422(t, pay(testenv.With(ok, "monto", 5), "Idempotency-Key", "pago-1"), "Idempotency-Key")
	if n := testenv.Column[int64](t, e, `select count(*) from pagos`)[0]; n != 1 {
		t.Errorf("%d payments after a replay", n)
	}

	// Paying the exact balance settles it; nothing more can be paid.
	r = pay(testenv.With(ok, "monto", "900.50"))
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pagada" || testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") != 0 {
		t.Fatalf("settling payment: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, pay(testenv.With(ok, "monto", "0.01")), "monto")
	r = f.do(http.MethodGet, ordenPath(orden), nil)
	if testenv.Num(r.JSON, "data.saldo_pendiente") != 0 || testenv.Len(r.JSON, "data.pagos") != 2 {
		t.Errorf("order after settling: %s", r.Raw)
	}
	// An annulled payable takes no payment.
	_, anulada := f.recibida(f.proveedor, 10)
	e.Exec(`update cuentas_por_pagar set estado = 'anulada' where id = $1`, anulada)
	testenv.Expect422(t, e.Call(f.tok, http.MethodPost, cuentaPath(anulada, "pagos"), ok), "estado")
}
