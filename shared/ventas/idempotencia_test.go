package ventas_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestIdempotencyKeyReplaysTheFirstResponse(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	a2 := f.Producto(testenv.Prod{Empresa: 2, Codigo: "A"})
	f.Stock(f.Almacen, a, "10", "100", "", "")
	body := testenv.With(venta(linea(a, 2, 100)), "almacen_id", f.Almacen)
	post := func(tok, key string, b any) testenv.Resp {
		return f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: tok, Body: b,
			Headers: map[string]string{"Idempotency-Key": key}})
	}
	first := post(f.Admin, "venta-123", body)
	if first.Status != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %s", first.Status, first.Raw)
	}
	again := post(f.Admin, "venta-123", body)
	if again.Status != http.StatusCreated || !bytes.Equal(again.Raw, first.Raw) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s", again.Status, again.Raw)
	}
	// Nothing was created twice: one sale, one stock exit, one number, one event.
	if n := f.Int(`select count(*) from ventas`); n != 1 {
		t.Errorf("%d sales", n)
	}
	if f.Existencias(f.Almacen, a) != "8.000" {
		t.Errorf("stock %s", f.Existencias(f.Almacen, a))
	}
	if n := f.Int(`select count(*) from eventos where tipo = 'VentaCreadaEvent'`); n != 1 {
		t.Errorf("%d events", n)
	}
	// The same key with another body.
	r := post(f.Admin, "venta-123", testenv.With(body, "observaciones", "otra"))
	testenv.Expect422(t, r, "Idempotency-Key")
	// Another key creates the next sale.
	if r := post(f.Admin, "venta-124", body); r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000002" {
		t.Errorf("other key: %d %s", r.Status, r.Raw)
	}
	// A refused request does not burn its key.
	testenv.Expect422(t, post(f.Admin, "venta-125", testenv.With(venta(linea(a, 100, 1)), "almacen_id", f.Almacen)), "detalles.0.cantidad")
	if r := post(f.Admin, "venta-125", body); r.Status != http.StatusCreated {
		t.Errorf("key of a refused request: %d %s", r.Status, r.Raw)
	}
	// Keys are per tenant: company 2 may use the same key.
	admin2 := f.E.Admin(2)
	if r := post(admin2, "venta-123", venta(linea(a2, 1, 100))); r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.empresa_id") != 2 ||
		r.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("company 2 with company 1's key: %d %s", r.Status, r.Raw)
	}
	// Too long a key is a 400.
	long := make([]byte, 256)
	for i := range long {
		long[i] = 'k'
	}
	if r := post(f.Admin, string(long), body); r.Status != http.StatusBadRequest {
		t.Errorf("long key: %d", r.Status)
	}
	// Payments honour the key too.
	cliente := f.Cliente(1, "101110111", 30)
	s := f.venderOK(testenv.With(venta(linea(a, 1, 100)), "cliente_id", cliente))
	pagos := path("cuentas-por-cobrar", cuentaDe(s), "/pagos")
	pay := func(key string, monto any) testenv.Resp {
		return f.E.Do(testenv.Req{Method: http.MethodPost, Path: pagos, Token: f.Admin, Body: map[string]any{"monto": monto},
			Headers: map[string]string{"Idempotency-Key": key}})
	}
	p1, p2 := pay("pago-1", 40), pay("pago-1", 40)
	if p1.Status != http.StatusCreated || !bytes.Equal(p1.Raw, p2.Raw) || f.Int(`select count(*) from pagos`) != 1 {
		t.Errorf("payment replay: %d %s / %s", p1.Status, p1.Raw, p2.Raw)
	}
	testenv.Expect422(t, pay("pago-1", 41), "Idempotency-Key")
	// A sale's key used on a payment is another request.
	testenv.Expect422(t, pay("venta-123", 40), "Idempotency-Key")
}

func TestVentaCreadaEventCarriesTheSaleAsTheAPIShowsIt(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	cliente := f.Cliente(1, "101110111", 0)
	r := f.venderOK(testenv.With(venta(linea(p, 3, "99.99")), "cliente_id", cliente))
	payload := f.Text(`select payload::text from eventos where tipo = 'VentaCreadaEvent'`)
	var got, want map[string]any
	if err := json.Unmarshal([]byte(payload), &got); err != nil {
		t.Fatal(err)
	}
	want = r.JSON["data"].(map[string]any)
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("payload differs from the response:\n%s\n%s", gotJSON, wantJSON)
	}
	// Refused sales write no event.
	f.vender(venta(linea(p, 0, 1)))
	if n := f.Int(`select count(*) from eventos where tipo = 'VentaCreadaEvent'`); n != 1 {
		t.Errorf("%d events", n)
	}
	// The Administrador sees it in /api/eventos.
	ev := f.E.Get("/api/eventos?tipo=VentaCreadaEvent", f.Admin)
	if testenv.Str(ev.JSON, "data.0.payload.numero_comprobante") != "FAC-00000001" || testenv.Len(ev.JSON, "data.0.payload.detalles") != 1 {
		t.Errorf("eventos: %s", ev.Raw)
	}
}

// reordered writes v as JSON with every object's keys in reverse order and
// generous white space: the same request as json.Marshal(v) writes it.
func reordered(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q :  %s", k, reordered(x[k]))
		}
		return "{\n  " + strings.Join(parts, ",\n  ") + "\n}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = reordered(e)
		}
		return "[ " + strings.Join(parts, " , ") + " ]"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func TestIdempotencyKeyComparesBodiesAsJSONAndIsScopedPerUser(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "10", "100", "", "")
	var body map[string]any
	raw, _ := json.Marshal(testenv.With(venta(linea(a, 1, 100)), "almacen_id", f.Almacen, "observaciones", "orden"))
	_ = json.Unmarshal(raw, &body)
	post := func(tok, key string, b any) testenv.Resp {
		return f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: tok, Body: b,
			Headers: map[string]string{"Idempotency-Key": key}})
	}
	first := post(f.Admin, "k-1", string(raw))
	if first.Status != http.StatusCreated {
		t.Fatalf("first: %d %s", first.Status, first.Raw)
	}
	// Other key order, other white space: the same request, replayed.
	again := post(f.Admin, "k-1", reordered(body))
	if again.Status != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Raw, first.Raw) {
		t.Fatalf("reordered body: %d replayed=%q %s", again.Status, again.Header.Get("Idempotent-Replayed"), again.Raw)
	}
	// A different value is still another request.
	testenv.Expect422(t, post(f.Admin, "k-1", strings.Replace(string(raw), `"orden"`, `"otra"`, 1)), "Idempotency-Key")

	// Another user of the same company may use the same key value: its own
	// request, neither a replay of the administrator's nor a conflict.
	f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/usuarios", Token: f.Admin, Body: map[string]any{
		"nombre": "Vera", "email": "vera@demo.cr", "password": "Segura123!", "roles": []any{"vendedor"}}})
	vera := f.E.Login("vera@demo.cr", "Segura123!")
	r := post(vera, "k-1", string(raw))
	if r.Status != http.StatusCreated || r.Header.Get("Idempotent-Replayed") != "" || testenv.Num(r.JSON, "data.id") == testenv.Num(first.JSON, "data.id") {
		t.Errorf("another user's key k-1: %d replayed=%q %s", r.Status, r.Header.Get("Idempotent-Replayed"), r.Raw)
	}
	// Vera's own replay still works.
	if r := post(vera, "k-1", string(raw)); r.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("vera's replay: %d %s", r.Status, r.Raw)
	}
	if n := f.Int(`select count(*) from ventas`); n != 2 {
		t.Errorf("%d sales, want 2 (one per user)", n)
	}
}
