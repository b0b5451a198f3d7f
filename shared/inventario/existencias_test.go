package inventario_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestStockIsListedPerWarehouseAndProduct(t *testing.T) {
	f := newFx(t)
	arroz := f.producto(t, f.admin, "ARZ", 10)
	frijol := f.producto(t, f.admin, "FRJ", 2)
	f.entrar(t, f.alm,
		linea(arroz, 4, "costo_unitario", 100, "lote", "A1"),
		linea(arroz, 2, "costo_unitario", 130, "lote", "A2", "fecha_vencimiento", "2027-01-01"),
		linea(frijol, 5, "costo_unitario", "33.3333"))
	f.entrar(t, f.alm2, linea(arroz, 20, "costo_unitario", 90))

	r := f.e.Get(existPath, f.admin)
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 3 || testenv.Num(r.JSON, "per_page") != 15 {
		t.Fatalf("existencias: %d %s", r.Status, r.Raw)
	}
	// Sorted by product name, then warehouse; lotes only when asked for.
	expectExact(t, r.Raw, map[string]string{
		"data.0.producto.codigo": `"ARZ"`, "data.0.almacen_id": fmt.Sprint(f.alm), "data.0.almacen.nombre": `"Almacén Principal"`,
		"data.0.cantidad_disponible": "6.0000", "data.0.valor": "660.00", "data.0.costo_promedio": "110.0000",
		"data.0.stock_minimo": "10", "data.0.bajo_minimo": "true", "data.0.lotes_count": "2", "data.0.lotes": "null",
		"data.1.producto.codigo": `"ARZ"`, "data.1.almacen_id": fmt.Sprint(f.alm2), "data.1.cantidad_disponible": "20.0000",
		"data.1.bajo_minimo": "false", "data.1.valor": "1800.00",
		"data.2.producto.codigo": `"FRJ"`, "data.2.valor": "166.67", "data.2.bajo_minimo": "false",
	})
	cases := []struct {
		query string
		want  []string // producto codigo @ almacen id
	}{
		{fmt.Sprintf("almacen_id=%d", f.alm2), []string{fmt.Sprintf("ARZ@%d", f.alm2)}},
		{fmt.Sprintf("producto_id=%d", frijol), []string{fmt.Sprintf("FRJ@%d", f.alm)}},
		{"bajo_minimo=1", []string{fmt.Sprintf("ARZ@%d", f.alm)}},
		{"bajo_minimo=0", []string{fmt.Sprintf("ARZ@%d", f.alm2), fmt.Sprintf("FRJ@%d", f.alm)}},
		{"search=frj", []string{fmt.Sprintf("FRJ@%d", f.alm)}},
		{"sort=cantidad&order=desc", []string{fmt.Sprintf("ARZ@%d", f.alm2), fmt.Sprintf("ARZ@%d", f.alm), fmt.Sprintf("FRJ@%d", f.alm)}},
		{"per_page=1&page=3", []string{fmt.Sprintf("FRJ@%d", f.alm)}},
	}
	for _, c := range cases {
		r := f.e.Get(existPath+"?"+c.query, f.admin)
		var got []string
		for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
			got = append(got, fmt.Sprintf("%s@%d", testenv.Str(r.JSON, fmt.Sprintf("data.%d.producto.codigo", i)),
				int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.almacen_id", i)))))
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("?%s -> %v, want %v", c.query, got, c.want)
		}
	}
	// Batches in the order exits take them: first expiring, then oldest.
	l := f.e.Get(fmt.Sprintf("%s?almacen_id=%d&lotes=1", existPath, f.alm), f.admin)
	expectExact(t, l.Raw, map[string]string{"data.0.lotes.0.lote": `"A2"`, "data.0.lotes.0.fecha_vencimiento": `"2027-01-01"`,
		"data.0.lotes.0.cantidad_disponible": "2.0000", "data.0.lotes.0.costo_unitario": "130.0000", "data.0.lotes.0.valor": "260.00",
		"data.0.lotes.1.lote": `"A1"`, "data.1.lotes.0.lote": "null"})
	for q, field := range map[string]string{"almacen_id=abc": "almacen_id", "producto_id=0": "producto_id", "bajo_minimo=tal_vez": "bajo_minimo",
		"lotes=x": "lotes", "sort=precio": "sort"} {
		testenv.Expect422(t, f.e.Get(existPath+"?"+q, f.admin), field)
	}
	// A batch emptied by exits leaves the pair listed at zero, without batches.
	f.sacar(t, f.alm, linea(frijol, 5))
	x := f.existencia(t, f.alm, frijol)
	if x["cantidad_disponible"] != 0.0 || x["bajo_minimo"] != true || testenv.Len(x, "lotes") != 0 || x["lotes_count"] != 0.0 {
		t.Errorf("emptied stock: %v", x)
	}
}

// The declarative resources compute stock_total and valor_total_inventario
// from the same stock rows: movements show up there.
func TestProductAndWarehouseTotalsReflectProcessedMovements(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	q := f.producto(t, f.admin, "P2", 0)
	totals := func() (stock, valor, valor2 float64, count float64) {
		t.Helper()
		prod := f.e.Get(item(productosPath, p), f.admin)
		alm := f.e.Get(item("/api/almacenes", f.alm), f.admin)
		alm2 := f.e.Get(item("/api/almacenes", f.alm2), f.admin)
		if prod.Status != 200 || alm.Status != 200 || alm2.Status != 200 {
			t.Fatalf("shows: %d %d %d", prod.Status, alm.Status, alm2.Status)
		}
		return testenv.Num(prod.JSON, "data.stock_total"), testenv.Num(alm.JSON, "data.valor_total_inventario"),
			testenv.Num(alm2.JSON, "data.valor_total_inventario"), testenv.Num(alm.JSON, "data.inventarios_count")
	}
	if s, v, v2, n := totals(); s != 0 || v != 0 || v2 != 0 || n != 0 {
		t.Fatalf("before any movement: %v %v %v %v", s, v, v2, n)
	}
	// A pending entry changes nothing; processing it does.
	id := f.e.Create(t, f.admin, entradasPath, obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{
		linea(p, 10, "costo_unitario", 250, "lote", "X"), linea(p, 5, "costo_unitario", 300), linea(q, 1, "costo_unitario", 99.99)}})
	if s, v, _, _ := totals(); s != 0 || v != 0 {
		t.Errorf("pending entry: stock_total %v, valor %v", s, v)
	}
	f.e.Call(f.admin, "POST", item(entradasPath, id)+"/procesar", nil)
	if s, v, _, n := totals(); s != 15 || v != 4099.99 || n != 3 {
		t.Errorf("processed entry: stock_total %v, valor %v, inventarios_count %v", s, v, n)
	}
	// An exit of 12: no batch expires, so the oldest goes first, and rows of
	// one entry are as old as their lines are in order: 10 of "X" at 250,
	// then 2 of the batch-less row at 300.
	if r := f.sacar(t, f.alm, linea(p, 12)); r.Status != http.StatusCreated {
		t.Fatalf("exit: %d %s", r.Status, r.Raw)
	}
	if s, v, _, _ := totals(); s != 3 || v != 999.99 {
		t.Errorf("after the exit: stock_total %v, valor %v", s, v)
	}
	f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": []obj{linea(p, 3)}})
	if s, v, v2, _ := totals(); s != 3 || v != 99.99 || v2 != 900 {
		t.Errorf("after the transfer: stock_total %v, valor %v / %v", s, v, v2)
	}
}

func TestAnExitThatLeavesAProductBelowItsMinimumWritesInventarioBajoEvent(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "MIN5", 5)
	sinMinimo := f.producto(t, f.admin, "SINMIN", 0)
	f.entrar(t, f.alm, linea(p, 8, "costo_unitario", 10), linea(sinMinimo, 8, "costo_unitario", 10))
	eventos := func(tok string) testenv.Resp {
		t.Helper()
		r := f.e.Get("/api/eventos?tipo=InventarioBajoEvent", tok)
		if r.Status != http.StatusOK {
			t.Fatalf("eventos: %d %s", r.Status, r.Raw)
		}
		return r
	}
	// 8 -> 5: not below the minimum yet; the other product has none.
	f.sacar(t, f.alm, linea(p, 3), linea(sinMinimo, 8))
	if r := eventos(f.admin); testenv.Num(r.JSON, "total") != 0 {
		t.Fatalf("events above the minimum: %s", r.Raw)
	}
	// A pending exit writes nothing; processing it (5 -> 4) does.
	id := f.e.Create(t, f.admin, salidasPath, obj{"tipo": "Ajuste Negativo", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}})
	if r := eventos(f.admin); testenv.Num(r.JSON, "total") != 0 {
		t.Fatalf("event for a pending exit: %s", r.Raw)
	}
	f.e.Call(f.admin, "POST", item(salidasPath, id)+"/procesar", nil)
	r := eventos(f.admin)
	if testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("events: %s", r.Raw)
	}
	if testenv.Num(r.JSON, "data.0.payload.producto_id") != float64(p) || testenv.Num(r.JSON, "data.0.payload.almacen_id") != float64(f.alm) ||
		testenv.Num(r.JSON, "data.0.payload.stock_actual") != 4 || testenv.Num(r.JSON, "data.0.payload.stock_minimo") != 5 ||
		testenv.Str(r.JSON, "data.0.payload.codigo") != "MIN5" || testenv.Num(r.JSON, "data.0.empresa_id") != 1 {
		t.Errorf("event payload: %s", r.Raw)
	}
	// Entries never warn; a refused exit writes no event; company 2 sees none.
	f.entrar(t, f.alm, linea(p, 0.5, "costo_unitario", 10))
	testenv.Expect422(t, f.sacar(t, f.alm, linea(p, 100)), "detalles.0.cantidad")
	if r := eventos(f.admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("events after an entry and a refused exit: %s", r.Raw)
	}
	if r := eventos(f.admin2); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 sees company 1's events: %s", r.Raw)
	}
}

// Concurrent exits never sell the same unit twice and take consecutive numbers.
func TestConcurrentExitsNeverOversell(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	f.entrar(t, f.alm, linea(p, 5, "costo_unitario", 10))
	const n = 10
	rs := testenv.Concurrently(n, func(int) testenv.Resp { return f.sacar(t, f.alm, linea(p, 1)) })
	created := testenv.Created(t, rs)
	ok, seen := len(created), map[string]bool{}
	for _, r := range created {
		seen[testenv.Str(r.JSON, "data.numero")] = true
	}
	if ok != 5 || f.stock(t, f.alm, p) != 0 {
		t.Errorf("%d exits went through, stock %v", ok, f.stock(t, f.alm, p))
	}
	for i := 1; i <= ok; i++ {
		if !seen[fmt.Sprintf("SAL-%08d", i)] {
			t.Errorf("numbers %v are not SAL-00000001..%d", seen, ok)
		}
	}
	// Transfers in opposite directions at once both go through (no deadlock).
	f.entrar(t, f.alm, linea(p, 10, "costo_unitario", 10))
	f.entrar(t, f.alm2, linea(p, 10, "costo_unitario", 10))
	rs = testenv.Concurrently(2*n, func(i int) testenv.Resp {
		from, to := f.alm, f.alm2
		if i%2 == 1 {
			from, to = to, from
		}
		return f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": from, "almacen_destino_id": to,
			"detalles": []obj{linea(p, 1)}})
	})
	for i, r := range rs {
		if r.Status != http.StatusCreated {
			t.Errorf("transfer %d: %d", i, r.Status)
		}
	}
	if a, b := f.stock(t, f.alm, p), f.stock(t, f.alm2, p); a != 10 || b != 10 {
		t.Errorf("stock after crossing transfers: %v / %v", a, b)
	}
}
