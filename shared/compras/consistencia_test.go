package compras_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func lineas(prods []int64, n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = linea(prods[i%len(prods)], 2, "10.25", "descuento", "0.50")
	}
	return out
}

// receiptOf lists every line of the order as an explicit receipt line of 1.
func receiptOf(t *testing.T, f *fixture, id int64) []any {
	r := f.do(http.MethodGet, ordenPath(id), nil)
	var out []any
	for i := 0; i < testenv.Len(r.JSON, "data.detalles"); i++ {
		out = append(out, map[string]any{"detalle_id": testenv.Num(r.JSON, fmt.Sprintf("data.detalles.%d.id", i)), "cantidad": 1,
			"lote": fmt.Sprintf("L%d", i), "fecha_vencimiento": "2027-12-31"})
	}
	return out
}

func TestRoundTripsDoNotGrowWithLinesOrRows(t *testing.T) {
	e, f := nuevo(t)
	prods := newProductos(t, e, 1, 50, 25)
	count := func(method, path string, body any, status int) (int64, testenv.Resp) {
		t.Helper()
		before := e.Queries.Load()
		r := f.do(method, path, body)
		n := e.Queries.Load() - before
		if r.Status != status {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Raw)
		}
		return n, r
	}
	count(http.MethodGet, "/api/ordenes-compra", nil, 200) // warm-up (token bookkeeping)
	type pair struct {
		name     string
		one, big int64
		limit    int64
	}
	var pairs []pair
	// create
	n1, r1 := count(http.MethodPost, "/api/ordenes-compra", f.orden(lineas(prods, 1)...), 201)
	n50, r50 := count(http.MethodPost, "/api/ordenes-compra", f.orden(lineas(prods, 50)...), 201)
	pairs = append(pairs, pair{"create", n1, n50, 8})
	one, big := int64(testenv.Num(r1.JSON, "data.id")), int64(testenv.Num(r50.JSON, "data.id"))
	if testenv.Len(r50.JSON, "data.detalles") != 50 {
		t.Fatalf("50 lines: %s", r50.Raw)
	}
	// update (lines replaced)
	n1, _ = count(http.MethodPut, ordenPath(one), map[string]any{"estado": "pendiente", "detalles": lineas(prods, 1)}, 200)
	n50, _ = count(http.MethodPut, ordenPath(big), map[string]any{"estado": "pendiente", "detalles": lineas(prods, 50)}, 200)
	pairs = append(pairs, pair{"update", n1, n50, 8})
	// show
	n1, _ = count(http.MethodGet, ordenPath(one), nil, 200)
	n50, _ = count(http.MethodGet, ordenPath(big), nil, 200)
	pairs = append(pairs, pair{"show", n1, n50, 5})
	// aprobar
	n1, _ = count(http.MethodPost, ordenPath(one, "aprobar"), nil, 200)
	n50, _ = count(http.MethodPost, ordenPath(big, "aprobar"), nil, 200)
	pairs = append(pairs, pair{"aprobar", n1, n50, 6})
	// partial receipt with explicit lines (batches, expiry)
	n1, _ = count(http.MethodPost, ordenPath(one, "recibir"), map[string]any{"almacen_id": f.almacen, "detalles": receiptOf(t, f, one)}, 200)
	n50, _ = count(http.MethodPost, ordenPath(big, "recibir"), map[string]any{"almacen_id": f.almacen, "detalles": receiptOf(t, f, big)}, 200)
	pairs = append(pairs, pair{"recibir (parcial)", n1, n50, 16})
	// final receipt: entry, state, payable
	n1, r1 = count(http.MethodPost, ordenPath(one, "recibir"), nil, 200)
	n50, r50 = count(http.MethodPost, ordenPath(big, "recibir"), nil, 200)
	pairs = append(pairs, pair{"recibir (completa)", n1, n50, 16})
	if testenv.Str(r50.JSON, "data.estado") != "recibida" || testenv.Len(r50.JSON, "data.entradas_inventario.1.detalles") != 50 {
		t.Fatalf("final receipt of 50 lines: %s", r50.Raw)
	}
	// payment
	c1, c50 := int64(testenv.Num(r1.JSON, "data.cuenta_por_pagar.id")), int64(testenv.Num(r50.JSON, "data.cuenta_por_pagar.id"))
	n1, _ = count(http.MethodPost, cuentaPath(c1, "pagos"), map[string]any{"monto": 1, "fecha": "2026-04-01", "forma_pago_id": 1}, 201)
	n50, _ = count(http.MethodPost, cuentaPath(c50, "pagos"), map[string]any{"monto": 1, "fecha": "2026-04-01", "forma_pago_id": 1}, 201)
	pairs = append(pairs, pair{"pago", n1, n50, 6})
	// create already recibida (approval, entry into the principal
	// warehouse, payable), and an edit from pendiente to recibida
	n1, r1 = count(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(lineas(prods, 1)...), "estado", "recibida"), 201)
	n50, r50 = count(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(lineas(prods, 50)...), "estado", "recibida"), 201)
	pairs = append(pairs, pair{"create recibida", n1, n50, 12})
	if testenv.Str(r50.JSON, "data.estado") != "recibida" || testenv.Len(r50.JSON, "data.entradas_inventario.0.detalles") != 50 ||
		testenv.Get(r1.JSON, "data.cuenta_por_pagar.id") == nil {
		t.Fatalf("create recibida: %s", r50.Raw)
	}
	one = f.create(testenv.With(f.orden(lineas(prods, 1)...), "estado", "pendiente"))
	big = f.create(testenv.With(f.orden(lineas(prods, 50)...), "estado", "pendiente"))
	n1, _ = count(http.MethodPatch, ordenPath(one), map[string]any{"estado": "recibida"}, 200)
	n50, r50 = count(http.MethodPatch, ordenPath(big), map[string]any{"estado": "recibida"}, 200)
	pairs = append(pairs, pair{"update to recibida", n1, n50, 10})
	if testenv.Str(r50.JSON, "data.estado") != "recibida" || testenv.Len(r50.JSON, "data.entradas_inventario.0.detalles") != 50 {
		t.Fatalf("update to recibida: %s", r50.Raw)
	}

	// Lists of 10 and 100 rows (with lines and payables).
	e.Exec(`insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado, monto_total)
		select 1, $1, 1, 'OC-B' || lpad(g::text, 5, '0'), '2026-01-01', 'recibida', 100 from generate_series(1, 120) g`, f.proveedor)
	e.Exec(`insert into detalles_orden_compra (empresa_id, orden_compra_id, linea, producto_id, cantidad, precio_unitario, subtotal, monto_impuesto, total)
		select 1, o.id, 1, $1, 1, 100, 100, 0, 100 from ordenes_compra o where o.numero_orden like 'OC-B%'`, prods[0])
	e.Exec(`insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento)
		select 1, o.proveedor_id, o.id, 100, 100, current_date, current_date + 30 from ordenes_compra o where o.numero_orden like 'OC-B%'`)
	for _, q := range []string{"", "&pendientes=0", "&search=OC-B", "&proveedor_id=" + itoa(f.proveedor) + "&sort=monto_total"} {
		n1, r1 = count(http.MethodGet, "/api/ordenes-compra?per_page=10"+q, nil, 200)
		n50, r50 = count(http.MethodGet, "/api/ordenes-compra?per_page=100"+q, nil, 200)
		if testenv.Len(r1.JSON, "data") != 10 || testenv.Len(r50.JSON, "data") != 100 {
			t.Fatalf("list%s: %d and %d rows", q, testenv.Len(r1.JSON, "data"), testenv.Len(r50.JSON, "data"))
		}
		pairs = append(pairs, pair{"list ordenes-compra" + q, n1, n50, 5})
	}
	for _, q := range []string{"", "&estado=pendiente", "&vencidas=0"} {
		n1, r1 = count(http.MethodGet, "/api/cuentas-por-pagar?per_page=10"+q, nil, 200)
		n50, r50 = count(http.MethodGet, "/api/cuentas-por-pagar?per_page=100"+q, nil, 200)
		if testenv.Len(r1.JSON, "data") != 10 || testenv.Len(r50.JSON, "data") != 100 {
			t.Fatalf("payables%s: %d and %d rows", q, testenv.Len(r1.JSON, "data"), testenv.Len(r50.JSON, "data"))
		}
		pairs = append(pairs, pair{"list cuentas-por-pagar" + q, n1, n50, 5})
	}
	n1, _ = count(http.MethodGet, cuentaPath(c1), nil, 200)
	n50, _ = count(http.MethodGet, cuentaPath(c50), nil, 200)
	pairs = append(pairs, pair{"show cuenta", n1, n50, 5})

	for _, p := range pairs {
		t.Logf("%-40s %2d round trips (1 line / 10 rows) and %2d (50 lines / 100 rows)", p.name, p.one, p.big)
		if p.one != p.big {
			t.Errorf("%s: %d round trips for the small request, %d for the large one", p.name, p.one, p.big)
		}
		if p.big > p.limit {
			t.Errorf("%s: %d round trips, more than %d", p.name, p.big, p.limit)
		}
	}
}

// A failure anywhere in an order (line 37 of 50) leaves no order, no line
// and no consumed number; the same for an edit and a receipt.
func TestAFailureInLine37LeavesNothingHalfWritten(t *testing.T) {
	e, f := nuevo(t)
	f2 := setup(t, e, 2)
	prods := newProductos(t, e, 1, 50, 10)
	first := f.create(f.orden()) // OC-000001
	state := func() string {
		return testenv.Scalar[string](t, e, `select (select count(*) from ordenes_compra)::text || '/' || (select count(*) from detalles_orden_compra)::text
			|| '/' || (select valor from contadores where empresa_id = 1 and clave = 'OC')::text
			|| '/' || (select count(*) from movimientos_inventario)::text || '/' || (select count(*) from cuentas_por_pagar)::text
			|| '/' || coalesce((select sum(cantidad_disponible) from inventarios), 0)::numeric(10,1)::text`)
	}
	before := state()
	if before != "1/1/1/0/0/0.0" {
		t.Fatalf("initial state %s", before)
	}

	// Refused by validation: a product of another company on line 37.
	ls := lineas(prods, 50)
	ls[36] = linea(f2.productos[0], 1, 1)
	r := f.do(http.MethodPost, "/api/ordenes-compra", f.orden(ls...))
	testenv.Expect422(t, r, "detalles.36.producto_id")
	if len(r.JSON["errors"].(map[string]any)) != 1 {
		t.Errorf("only line 37 is wrong: %s", r.Raw)
	}
	if got := state(); got != before {
		t.Errorf("after a refused order: %s, want %s", got, before)
	}

	// Failing in the database after the number was drawn: a trigger refuses
	// the 37th line while the lines are written.
	e.Exec(`create function falla_linea_37() returns trigger language plpgsql as $$
		begin if new.linea = 37 then raise exception 'falla simulada en la linea 37'; end if; return new; end $$`)
	e.Exec(`create trigger falla_37 before insert on detalles_orden_compra for each row execute function falla_linea_37()`)
	r = f.do(http.MethodPost, "/api/ordenes-compra", f.orden(lineas(prods, 50)...))
	interno(t, r, "falla simulada")
	if got := state(); got != before {
		t.Errorf("after a failed order: %s, want %s", got, before)
	}
	// An edit replacing the lines that fails keeps the old lines and totals.
	old := f.do(http.MethodGet, ordenPath(first), nil)
	if r := f.do(http.MethodPut, ordenPath(first), map[string]any{"observaciones": "nueva", "detalles": lineas(prods, 50)}); r.Status != http.StatusInternalServerError {
		t.Fatalf("failed edit: %d %s", r.Status, r.Raw)
	}
	if now := f.do(http.MethodGet, ordenPath(first), nil); string(now.Raw) != string(old.Raw) {
		t.Errorf("a failed edit changed the order:\n%s\n%s", old.Raw, now.Raw)
	}
	e.Exec(`drop trigger falla_37 on detalles_orden_compra`)

	// The next order takes the next number: none was lost.
	r = f.do(http.MethodPost, "/api/ordenes-compra", f.orden(lineas(prods, 50)...))
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_orden") != "OC-000002" {
		t.Fatalf("next order: %d %s", r.Status, r.Raw)
	}
	big := int64(testenv.Num(r.JSON, "data.id"))
	f.to(big, "aprobada")
	before = state()

	// A receipt whose inventory entry fails at line 37 leaves no entry, no
	// stock, no received quantity and no payable.
	e.Exec(`create trigger falla_37 before insert on detalles_movimiento for each row execute function falla_linea_37()`)
	if r := f.do(http.MethodPost, ordenPath(big, "recibir"), map[string]any{"almacen_id": f.almacen}); r.Status != http.StatusInternalServerError {
		t.Fatalf("failed receipt: %d %s", r.Status, r.Raw)
	}
	if got := state(); got != before {
		t.Errorf("after a failed receipt: %s, want %s", got, before)
	}
	r = f.do(http.MethodGet, ordenPath(big), nil)
	if testenv.Str(r.JSON, "data.estado") != "aprobada" || testenv.Num(r.JSON, "data.detalles.36.cantidad_recibida") != 0 || testenv.Get(r.JSON, "data.almacen_id") != nil {
		t.Errorf("order after a failed receipt: %s", r.Raw)
	}
	e.Exec(`drop trigger falla_37 on detalles_movimiento`)
	r = f.do(http.MethodPost, ordenPath(big, "recibir"), map[string]any{"almacen_id": f.almacen})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.entradas_inventario.0.numero") != "ENT-00000001" {
		t.Errorf("receipt after the failure: %d %s", r.Status, r.Raw)
	}
}

func TestConcurrentRequestsKeepNumbersAndBalancesRight(t *testing.T) {
	e, f := nuevo(t)

	t.Run("creates get distinct consecutive numbers", func(t *testing.T) {
		const n = 16
		rs := testenv.Concurrently(n, func(int) testenv.Resp { return f.do(http.MethodPost, "/api/ordenes-compra", f.orden()) })
		testenv.Gapless(t, rs, "data.numero_orden", func(n int) string { return fmt.Sprintf("OC-%06d", n) })
	})

	t.Run("a payable is never overdrawn", func(t *testing.T) {
		_, cuenta := f.recibida(f.proveedor, 1000)
		created := len(testenv.Created(t, testenv.Concurrently(8, func(int) testenv.Resp {
			return f.do(http.MethodPost, cuentaPath(cuenta, "pagos"), map[string]any{"monto": 250, "fecha": "2026-04-01", "forma_pago_id": 1})
		}), "monto"))
		r := f.do(http.MethodGet, cuentaPath(cuenta), nil)
		if created != 4 || testenv.Num(r.JSON, "data.saldo") != 0 || testenv.Str(r.JSON, "data.estado") != "pagada" || testenv.Len(r.JSON, "data.pagos") != 4 {
			t.Errorf("%d payments accepted: %s", created, r.Raw)
		}
	})

	t.Run("an order is received once", func(t *testing.T) {
		id := f.create(f.orden(linea(f.productos[3], 7, 1)))
		f.to(id, "aprobada")
		ok := 0
		for _, r := range testenv.Concurrently(6, func(int) testenv.Resp {
			return f.dar(id, f.recibir())
		}) {
			if r.Status == http.StatusOK {
				ok++
			} else if r.Status != http.StatusUnprocessableEntity {
				t.Errorf("concurrent receipt: %d %s", r.Status, r.Raw)
			}
		}
		stock := testenv.Scalar[string](t, e, `select sum(cantidad_disponible)::numeric(10,1)::text from inventarios where producto_id = $1`, f.productos[3])
		payables := testenv.Column[int64](t, e, `select count(*) from cuentas_por_pagar where orden_compra_id = $1`, id)[0]
		if ok != 1 || stock != "7.0" || payables != 1 {
			t.Errorf("%d receipts accepted, stock %s, %d payables", ok, stock, payables)
		}
	})
}

func TestIdempotencyKeyCreatesAnOrderOnce(t *testing.T) {
	e, f := nuevo(t)
	post := func(body any, key string) testenv.Resp {
		return e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ordenes-compra", Token: f.tok, Body: body,
			Headers: map[string]string{"Idempotency-Key": key}})
	}
	first := post(f.orden(), "oc-abc")
	again := post(f.orden(), "oc-abc")
	if first.Status != http.StatusCreated || again.Status != http.StatusCreated || string(first.Raw) != string(again.Raw) ||
		again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s / %d %s", first.Status, first.Raw, again.Status, again.Raw)
	}
	testenv.Expect422(t, post(f.orden(linea(f.productos[0], 9, 9)), "oc-abc"), "Idempotency-Key")
	// A refused request does not keep its key.
	testenv.Expect422(t, post(testenv.With(f.orden(), "proveedor_id", 999999), "oc-def"), "proveedor_id")
	if r := post(f.orden(), "oc-def"); r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_orden") != "OC-000002" {
		t.Errorf("key of a refused request: %d %s", r.Status, r.Raw)
	}
	if n := testenv.Column[int64](t, e, `select count(*) from ordenes_compra`)[0]; n != 2 {
		t.Errorf("%d orders", n)
	}
}
