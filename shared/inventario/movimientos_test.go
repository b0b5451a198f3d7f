package inventario_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestAnEntryIsPendingUntilProcessedAndThenAddsItsBatches(t *testing.T) {
	f := newFx(t)
	arroz := f.producto(t, f.admin, "ARZ", 0)
	f.entrar(t, f.alm, linea(arroz, 10, "costo_unitario", 400)) // ENT-00000001, processed
	r := f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "Compra", "almacen_id": f.alm, "fecha": "2026-03-15",
		"observaciones": "Factura 1234 del proveedor", "detalles": []obj{
			linea(arroz, "10", "costo_unitario", "450.5", "lote", "L-01", "fecha_vencimiento", "2027-01-31"),
			linea(arroz, 2.5, "costo_unitario", 500),
		}})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Entrada de inventario registrada correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	expectExact(t, r.Raw, map[string]string{
		"data.numero": `"ENT-00000002"`, "data.clase": `"entrada"`, "data.tipo": `"Compra"`, "data.estado": `"Pendiente"`,
		"data.fecha": `"2026-03-15"`, "data.almacen_id": fmt.Sprint(f.alm), "data.almacen.nombre": `"Almacén Principal"`,
		"data.procesado_en": "null", "data.detalles_count": "2", "data.cantidad_total": "12.500", "data.costo_total": "5755.00",
		"data.observaciones": `"Factura 1234 del proveedor"`, "data.usuario.id": "1",
		"data.detalles.0.linea": "1", "data.detalles.0.producto.codigo": `"ARZ"`, "data.detalles.0.cantidad": "10.000",
		"data.detalles.0.costo_unitario": "450.5000", "data.detalles.0.costo_total": "4505.00", "data.detalles.0.lote": `"L-01"`,
		"data.detalles.0.fecha_vencimiento": `"2027-01-31"`, "data.detalles.1.lote": "null", "data.detalles.1.costo_unitario": "500.0000",
	})
	if testenv.Get(r.JSON, "data.detalles.0.consumos") != nil {
		t.Errorf("an entry line shows consumos: %s", r.Raw)
	}
	// Pending: no stock yet.
	if got := f.stock(t, f.alm, arroz); got != 10 {
		t.Fatalf("a pending entry changed stock: %v", got)
	}
	p := f.e.Call(f.admin, "POST", item(entradasPath, id)+"/procesar", nil)
	if p.Status != http.StatusOK || testenv.Str(p.JSON, "data.estado") != "Procesada" || testenv.Str(p.JSON, "data.procesado_en") == "" ||
		testenv.Str(p.JSON, "message") != "Entrada de inventario procesada correctamente." {
		t.Fatalf("procesar: %d %s", p.Status, p.Raw)
	}
	if got := f.stock(t, f.alm, arroz); got != 22.5 {
		t.Errorf("stock after processing: %v", got)
	}
	// Processing twice, or cancelling a processed entry, is refused under estado.
	again := f.e.Call(f.admin, "POST", item(entradasPath, id)+"/procesar", nil)
	testenv.Expect422(t, again, "estado")
	if msg := again.FieldErrors("estado")[0]; msg != "La entrada ya fue procesada." {
		t.Errorf("message %q", msg)
	}
	c := f.e.Call(f.admin, "POST", item(entradasPath, id)+"/cancelar", nil)
	testenv.Expect422(t, c, "estado")
	if msg := c.FieldErrors("estado")[0]; msg != "No se puede cancelar una entrada procesada." {
		t.Errorf("message %q", msg)
	}
	if got := f.stock(t, f.alm, arroz); got != 22.5 {
		t.Errorf("stock changed by refused operations: %v", got)
	}
	show := f.e.Get(item(entradasPath, id), f.admin)
	if show.Status != http.StatusOK || testenv.Str(show.JSON, "data.estado") != "Procesada" || testenv.Len(show.JSON, "data.detalles") != 2 {
		t.Errorf("show: %d %s", show.Status, show.Raw)
	}
	// An entry is not an exit.
	if r := f.e.Get(item(salidasPath, id), f.admin); r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") != "Salida de inventario no encontrada." {
		t.Errorf("entry shown as exit: %d %s", r.Status, r.Raw)
	}
	for _, op := range []string{"/procesar", "/cancelar"} {
		if r := f.e.Call(f.admin, "POST", item(salidasPath, id)+op, nil); r.Status != http.StatusNotFound {
			t.Errorf("entry %s as exit: %d %s", op, r.Status, r.Raw)
		}
	}
	if r := f.e.Get(entradasPath+"/999999", f.admin); r.Status != http.StatusNotFound {
		t.Errorf("unknown id: %d", r.Status)
	}
}

func TestAnEntryWithoutCostTakesThePurchasePriceAndTypesIgnoreCaseAndAccents(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0) // precio_compra 400
	r := f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "devolución  CLIENTE", "almacen_id": f.alm, "procesar": true,
		"detalles": []obj{linea(p, 3)}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	expectExact(t, r.Raw, map[string]string{"data.tipo": `"Devolucion Cliente"`, "data.estado": `"Procesada"`,
		"data.detalles.0.costo_unitario": "400.0000", "data.costo_total": "1200.00"})
	if testenv.Str(r.JSON, "message") != "Entrada de inventario registrada y procesada correctamente." {
		t.Errorf("message: %s", r.Raw)
	}
}

func TestAnExitConsumesFirstExpiringBatchesAndShowsTheCostOfEach(t *testing.T) {
	f := newFx(t)
	leche := f.producto(t, f.admin, "LECHE", 0)
	f.entrar(t, f.alm,
		linea(leche, 10, "costo_unitario", 500, "lote", "TARDE", "fecha_vencimiento", "2027-06-01"),
		linea(leche, 4, "costo_unitario", 450, "lote", "PRONTO", "fecha_vencimiento", "2027-01-01"))
	r := f.e.Call(f.admin, "POST", salidasPath, obj{"tipo": "Consumo Interno", "almacen_id": f.alm, "detalles": []obj{linea(leche, 6)}})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.estado") != "Pendiente" {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	// A pending exit has no cost yet and consumed nothing.
	expectExact(t, r.Raw, map[string]string{"data.numero": `"SAL-00000001"`, "data.costo_total": "null",
		"data.detalles.0.costo_unitario": "null", "data.detalles.0.consumos": "[]"})
	id := int(testenv.Num(r.JSON, "data.id"))
	p := f.e.Must(t, http.StatusOK, f.admin, "POST", item(salidasPath, id)+"/procesar", nil)
	// 4 x 450 from PRONTO, then 2 x 500 from TARDE.
	expectExact(t, p.Raw, map[string]string{
		"data.estado": `"Procesada"`, "data.costo_total": "2800.00",
		"data.detalles.0.costo_unitario": "466.6667", "data.detalles.0.costo_total": "2800.00",
		"data.detalles.0.consumos.0.lote": `"PRONTO"`, "data.detalles.0.consumos.0.fecha_vencimiento": `"2027-01-01"`,
		"data.detalles.0.consumos.0.cantidad": "4.000", "data.detalles.0.consumos.0.costo_unitario": "450.0000",
		"data.detalles.0.consumos.0.costo_total": "1800.00",
		"data.detalles.0.consumos.1.lote":        `"TARDE"`, "data.detalles.0.consumos.1.cantidad": "2.000",
		"data.detalles.0.consumos.1.costo_unitario": "500.0000",
	})
	show := f.e.Get(item(salidasPath, id), f.admin)
	if testenv.Exact(t, show.Raw, "data.detalles.0.consumos") != testenv.Exact(t, p.Raw, "data.detalles.0.consumos") {
		t.Errorf("show differs from the procesar answer: %s", show.Raw)
	}
	x := f.existencia(t, f.alm, leche)
	if x["cantidad_disponible"] != 8.0 || testenv.Len(x, "lotes") != 1 || testenv.Str(x, "lotes.0.lote") != "TARDE" {
		t.Errorf("stock after the exit: %v", x)
	}
}

func TestCancellingAPendingMovementAndTheRefusedTransitions(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	f.entrar(t, f.alm, linea(p, 5, "costo_unitario", 10))
	for _, c := range []struct{ path, nombre string }{{entradasPath, "entrada"}, {salidasPath, "salida"}} {
		tipo := "Ajuste Positivo"
		if c.path == salidasPath {
			tipo = "Ajuste Negativo"
		}
		id := f.e.Create(t, f.admin, c.path, obj{"tipo": tipo, "almacen_id": f.alm, "detalles": []obj{linea(p, 2, "costo_unitario", 10)}})
		r := f.e.Call(f.admin, "POST", item(c.path, id)+"/cancelar", nil)
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "Cancelada" || testenv.Str(r.JSON, "data.cancelado_en") == "" ||
			!strings.Contains(testenv.Str(r.JSON, "message"), "cancelada correctamente") {
			t.Fatalf("cancelar %s: %d %s", c.nombre, r.Status, r.Raw)
		}
		again := f.e.Call(f.admin, "POST", item(c.path, id)+"/cancelar", nil)
		testenv.Expect422(t, again, "estado")
		if msg := again.FieldErrors("estado")[0]; msg != "La "+c.nombre+" ya está cancelada." {
			t.Errorf("message %q", msg)
		}
		proc := f.e.Call(f.admin, "POST", item(c.path, id)+"/procesar", nil)
		testenv.Expect422(t, proc, "estado")
		if msg := proc.FieldErrors("estado")[0]; msg != "La "+c.nombre+" está cancelada y no puede procesarse." {
			t.Errorf("message %q", msg)
		}
	}
	if got := f.stock(t, f.alm, p); got != 5 {
		t.Errorf("cancelled movements changed stock: %v", got)
	}
	l := f.e.Get(entradasPath+"?estado=cancelada", f.admin)
	if testenv.Num(l.JSON, "total") != 1 {
		t.Errorf("cancelled entries: %s", l.Raw)
	}
}

func TestAnExitBeyondStockIsRefusedOnItsLineUnlessNegativeStockIsAllowed(t *testing.T) {
	f := newFx(t)
	a, b := f.producto(t, f.admin, "A", 0), f.producto(t, f.admin, "B", 0)
	f.entrar(t, f.alm, linea(a, 5, "costo_unitario", 100), linea(b, 1, "costo_unitario", 100))

	r := f.sacar(t, f.alm, linea(a, 2), linea(b, 1), linea(a, 4))
	testenv.Expect422(t, r, "detalles.2.cantidad")
	if msg := r.FieldErrors("detalles.2.cantidad")[0]; msg != "Stock insuficiente: disponible 3, solicitado 4." {
		t.Errorf("message %q", msg)
	}
	// Recorded pending, then processed: the same refusal, and it stays pending.
	id := f.e.Create(t, f.admin, salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(a, 6)}})
	testenv.Expect422(t, f.e.Call(f.admin, "POST", item(salidasPath, id)+"/procesar", nil), "detalles.0.cantidad")
	if r := f.e.Get(item(salidasPath, id), f.admin); testenv.Str(r.JSON, "data.estado") != "Pendiente" {
		t.Errorf("a refused exit changed state: %s", r.Raw)
	}
	if f.stock(t, f.alm, a) != 5 || f.stock(t, f.alm, b) != 1 {
		t.Errorf("refused exits changed stock")
	}
	// With inventario.permitir_stock_negativo the same exit goes through.
	f.permitirNegativo(1)
	p := f.e.Must(t, http.StatusOK, f.admin, "POST", item(salidasPath, id)+"/procesar", nil)
	// Only the 5 units of a batch carry a cost; the missing one went below zero.
	expectExact(t, p.Raw, map[string]string{"data.detalles.0.consumos.0.cantidad": "5.000", "data.costo_total": "500.00"})
	if got := f.stock(t, f.alm, a); got != -1 {
		t.Errorf("stock %v, want -1", got)
	}
	// A later entry covers it again.
	f.entrar(t, f.alm, linea(a, 3, "costo_unitario", 100))
	if got := f.stock(t, f.alm, a); got != 2 {
		t.Errorf("stock %v, want 2", got)
	}
}

func TestCreateValidation(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	ajeno := f.producto(t, f.admin2, "AJENO", 0)
	servicio := f.e.Create(t, f.admin, productosPath, obj{"categoria_id": f.cat, "unidad_medida_id": f.unid, "nombre": "Instalación",
		"tipo": "servicio", "precio_venta": 5000})
	proveedorAjeno := testenv.Scalar[int](t, f.e, `insert into proveedores (empresa_id, nombre) values (2, 'Ajeno') returning id`)
	ok := func() obj {
		return obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{linea(p, 1, "costo_unitario", 10)}}
	}
	with := func(k string, v any) obj { return testenv.With(ok(), k, v) }
	line := func(k string, v any) obj {
		l := testenv.With(linea(p, 1, "costo_unitario", 10), k, v)
		return with("detalles", []obj{linea(p, 1), l})
	}
	cases := []struct {
		name  string
		path  string
		body  any
		field string
	}{
		{"tipo is required", entradasPath, with("tipo", testenv.Absent), "tipo"},
		{"tipo must be an entry type", entradasPath, with("tipo", "Venta"), "tipo"},
		{"tipo must be an exit type", salidasPath, with("tipo", "Compra"), "tipo"},
		{"tipo must be text", entradasPath, with("tipo", 5), "tipo"},
		{"almacen_id is required", entradasPath, with("almacen_id", testenv.Absent), "almacen_id"},
		{"almacen_id must be an integer", entradasPath, with("almacen_id", "uno"), "almacen_id"},
		{"almacen_id of another company", entradasPath, with("almacen_id", f.almB), "almacen_id"},
		{"almacen_id that does not exist", entradasPath, with("almacen_id", 999999), "almacen_id"},
		{"fecha must be a date", entradasPath, with("fecha", "15/03/2026"), "fecha"},
		{"observaciones max 2000", entradasPath, with("observaciones", strings.Repeat("x", 2001)), "observaciones"},
		{"proveedor_id of another company", entradasPath, with("proveedor_id", proveedorAjeno), "proveedor_id"},
		{"cliente_id that does not exist", salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "cliente_id": 999999, "detalles": []obj{linea(p, 1)}}, "cliente_id"},
		{"procesar must be boolean", entradasPath, with("procesar", "quizás"), "procesar"},
		{"detalles is required", entradasPath, with("detalles", testenv.Absent), "detalles"},
		{"detalles cannot be empty", entradasPath, with("detalles", []obj{}), "detalles"},
		{"detalles must be a list", entradasPath, with("detalles", obj{"producto_id": p}), "detalles"},
		{"a line must be an object", entradasPath, with("detalles", []any{linea(p, 1), 7}), "detalles.1"},
		{"producto_id is required", entradasPath, line("producto_id", testenv.Absent), "detalles.1.producto_id"},
		{"producto_id of another company", entradasPath, line("producto_id", ajeno), "detalles.1.producto_id"},
		{"producto_id that does not exist", salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(999999, 1)}}, "detalles.0.producto_id"},
		{"a service keeps no stock", entradasPath, line("producto_id", servicio), "detalles.1.producto_id"},
		{"cantidad is required", entradasPath, line("cantidad", testenv.Absent), "detalles.1.cantidad"},
		{"cantidad must be positive", entradasPath, line("cantidad", 0), "detalles.1.cantidad"},
		{"cantidad cannot be negative", salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(p, -1)}}, "detalles.0.cantidad"},
		{"cantidad must be a number", entradasPath, line("cantidad", "mucho"), "detalles.1.cantidad"},
		{"cantidad has at most 3 decimals", entradasPath, line("cantidad", 1.2345), "detalles.1.cantidad"},
		{"cantidad is bounded", entradasPath, line("cantidad", 1e15), "detalles.1.cantidad"},
		{"costo_unitario cannot be negative", entradasPath, line("costo_unitario", -1), "detalles.1.costo_unitario"},
		{"costo_unitario has at most 4 decimals", entradasPath, line("costo_unitario", "1.23456"), "detalles.1.costo_unitario"},
		{"lote max 100", entradasPath, line("lote", strings.Repeat("L", 101)), "detalles.1.lote"},
		{"fecha_vencimiento must be a date", entradasPath, line("fecha_vencimiento", "2027-02-30"), "detalles.1.fecha_vencimiento"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			testenv.Expect422(t, f.e.Call(f.admin, "POST", c.path, c.body), c.field)
		})
	}
	// Several mistakes are all reported at once, each under its own key.
	r := f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "Nada", "almacen_id": f.alm,
		"detalles": []obj{linea(p, 0), linea(0, 1), linea(p, 1, "costo_unitario", -5)}})
	for _, k := range []string{"tipo", "detalles.0.cantidad", "detalles.1.producto_id", "detalles.2.costo_unitario"} {
		if len(r.FieldErrors(k)) == 0 {
			t.Errorf("no errors[%q]: %s", k, r.Raw)
		}
	}
	// Nothing was written and no number was used.
	for _, path := range []string{entradasPath, salidasPath} {
		if l := f.e.Get(path, f.admin); testenv.Num(l.JSON, "total") != 0 {
			t.Errorf("%s after refused requests: %s", path, l.Raw)
		}
	}
	if r := f.e.Call(f.admin, "POST", entradasPath, ok()); testenv.Str(r.JSON, "data.numero") != "ENT-00000001" {
		t.Errorf("first entry after refusals: %s", r.Raw)
	}
}

// A failure on line 37 of 50 leaves nothing behind: no movement, no stock
// change, no consumed number.
func TestAFailureOnLine37Of50WritesNothing(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	ajeno := f.producto(t, f.admin2, "AJENO", 0)
	f.entrar(t, f.alm, linea(p, 36, "costo_unitario", 10)) // ENT-00000001

	lines := func(fn func(i int) obj) []obj {
		out := make([]obj, 50)
		for i := range out {
			out[i] = fn(i)
		}
		return out
	}
	// Insufficient stock: 36 units cover lines 1..36, line 37 fails.
	r := f.e.Call(f.admin, "POST", salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "procesar": true,
		"detalles": lines(func(int) obj { return linea(p, 1) })})
	testenv.Expect422(t, r, "detalles.36.cantidad")
	// A product of another company on line 37 (of an entry and of an exit).
	for _, path := range []string{entradasPath, salidasPath} {
		tipo := map[string]string{entradasPath: "Compra", salidasPath: "Venta"}[path]
		r := f.e.Call(f.admin, "POST", path, obj{"tipo": tipo, "almacen_id": f.alm, "procesar": true,
			"detalles": lines(func(i int) obj {
				if i == 36 {
					return linea(ajeno, 1)
				}
				return linea(p, 1, "costo_unitario", 10)
			})})
		testenv.Expect422(t, r, "detalles.36.producto_id")
		if n := len(r.JSON["errors"].(map[string]any)); n != 1 {
			t.Errorf("%s: %d error keys, want only line 37's: %s", path, n, r.Raw)
		}
	}
	// The company 2 product's stock and company 2's counters are untouched too.
	if got := f.stock(t, f.alm, p); got != 36 {
		t.Errorf("stock %v, want 36", got)
	}
	if l := f.e.Get(salidasPath, f.admin); testenv.Num(l.JSON, "total") != 0 {
		t.Errorf("exits after refusals: %s", l.Raw)
	}
	if l := f.e.Get(entradasPath, f.admin); testenv.Num(l.JSON, "total") != 1 {
		t.Errorf("entries after refusals: %s", l.Raw)
	}
	if n := testenv.Scalar[int](t, f.e, `select count(*) from detalles_movimiento`); n != 1 {
		t.Errorf("%d detail lines stored, want 1", n)
	}
	if n := testenv.Scalar[int](t, f.e, `select count(*) from consumos_lote`); n != 0 {
		t.Errorf("%d batch consumptions stored", n)
	}
	// The next movements take the next numbers: none was consumed.
	if r := f.sacar(t, f.alm, linea(p, 36)); r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero") != "SAL-00000001" {
		t.Errorf("next exit: %d %s", r.Status, r.Raw)
	}
	r = f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}})
	if testenv.Str(r.JSON, "data.numero") != "ENT-00000002" {
		t.Errorf("next entry: %s", r.Raw)
	}
}

// A movement costs the same number of database round trips whatever its
// number of lines: create+process, process alone and show.
func TestRoundTripsDoNotGrowWithLines(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 5)
	q := f.producto(t, f.admin, "P2", 5)
	count := func(method, path string, body any) int64 {
		t.Helper()
		before := f.e.Queries.Load()
		r := f.e.Call(f.admin, method, path, body)
		if r.Status >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Raw)
		}
		return f.e.Queries.Load() - before
	}
	body := func(tipo string, n int, procesar bool, cantidad int) obj {
		ls := make([]obj, n)
		for i := range ls {
			prod := p
			if i%2 == 1 {
				prod = q
			}
			ls[i] = linea(prod, cantidad, "costo_unitario", 10+i, "lote", fmt.Sprintf("L%02d", i), "fecha_vencimiento", fmt.Sprintf("2027-01-%02d", i%28+1))
		}
		return obj{"tipo": tipo, "almacen_id": f.alm, "procesar": procesar, "detalles": ls}
	}
	type counts struct{ entry, exit, pending, process, show, transfer int64 }
	measure := func(n int) counts {
		var c counts
		c.entry = count("POST", entradasPath, body("Compra", n, true, 2))
		c.exit = count("POST", salidasPath, body("Venta", n, true, 1))
		before := f.e.Queries.Load()
		r := f.e.Call(f.admin, "POST", salidasPath, body("Venta", n, false, 1))
		c.pending = f.e.Queries.Load() - before
		id := int(testenv.Num(r.JSON, "data.id"))
		c.process = count("POST", item(salidasPath, id)+"/procesar", nil)
		c.show = count("GET", item(salidasPath, id), nil)
		ls := make([]obj, n)
		for i := range ls {
			ls[i] = linea(p, 0.5)
		}
		f.entrar(t, f.alm, linea(p, n, "costo_unitario", 1))
		c.transfer = count("POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": ls})
		return c
	}
	one, fifty := measure(1), measure(50)
	t.Logf("round trips per request (incl. authorizer): %+v", one)
	if one != fifty {
		t.Errorf("round trips with 1 line %+v, with 50 lines %+v", one, fifty)
	}
}

func TestListsFilterSortAndPaginate(t *testing.T) {
	f := newFx(t)
	p, q := f.producto(t, f.admin, "P1", 0), f.producto(t, f.admin, "P2", 0)
	mk := func(tipo string, almacen int, fecha string, prod int, procesar bool) int {
		return f.e.Create(t, f.admin, entradasPath, obj{"tipo": tipo, "almacen_id": almacen, "fecha": fecha, "procesar": procesar,
			"observaciones": "lote de " + tipo, "detalles": []obj{linea(prod, 1, "costo_unitario", 5)}})
	}
	a := mk("Compra", f.alm, "2026-01-10", p, true)
	b := mk("Produccion", f.alm2, "2026-02-10", q, false)
	c := mk("Compra", f.alm2, "2026-03-10", p, false)
	f.e.Call(f.admin, "POST", item(entradasPath, c)+"/cancelar", nil)

	r := f.e.Get(entradasPath, f.admin)
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 3 || testenv.Num(r.JSON, "per_page") != 15 ||
		testenv.Num(r.JSON, "current_page") != 1 || testenv.Num(r.JSON, "last_page") != 1 {
		t.Fatalf("list: %d %s", r.Status, r.Raw)
	}
	// Newest first by default; lists carry totals and relations but no lines.
	if got := strings.Join(testenv.Strs(r, "numero"), ","); got != "ENT-00000003,ENT-00000002,ENT-00000001" {
		t.Errorf("default order %s", got)
	}
	if testenv.Get(r.JSON, "data.0.detalles") != nil || testenv.Num(r.JSON, "data.2.detalles_count") != 1 ||
		testenv.Str(r.JSON, "data.0.almacen.nombre") != "Bodega Norte" || testenv.Num(r.JSON, "data.2.costo_total") != 5 {
		t.Errorf("list row: %s", r.Raw)
	}
	cases := []struct {
		query string
		want  []int
	}{
		{"almacen_id=" + fmt.Sprint(f.alm2), []int{c, b}},
		{"tipo=Compra", []int{c, a}},
		{"tipo=produccion", []int{b}},
		{"estado=Pendiente", []int{b}},
		{"estado=Procesada", []int{a}},
		{"fecha_inicio=2026-02-01", []int{c, b}},
		{"fecha_fin=2026-02-10", []int{b, a}},
		{"fecha_inicio=2026-02-01&fecha_fin=2026-02-28", []int{b}},
		{"producto_id=" + fmt.Sprint(q), []int{b}},
		{"search=ENT-00000002", []int{b}},
		{"sort=fecha", []int{a, b, c}},
		{"sort=numero&order=desc", []int{c, b, a}},
		{"per_page=2&page=2", []int{a}},
	}
	for _, tc := range cases {
		r := f.e.Get(entradasPath+"?"+tc.query, f.admin)
		var got []int
		for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
			got = append(got, int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("?%s -> %v, want %v (%s)", tc.query, got, tc.want, r.Raw)
		}
	}
	for q, field := range map[string]string{
		"almacen_id=x": "almacen_id", "tipo=Venta": "tipo", "estado=Abierta": "estado", "fecha_inicio=2026-13-01": "fecha_inicio",
		"fecha_inicio=2026-03-01&fecha_fin=2026-02-01": "fecha_fin", "sort=costo": "sort", "per_page=500": "per_page",
		"producto_id=-1": "producto_id",
	} {
		testenv.Expect422(t, f.e.Get(entradasPath+"?"+q, f.admin), field)
	}
	// Exits are another list.
	if r := f.e.Get(salidasPath, f.admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("exits list shows entries: %s", r.Raw)
	}
}

// Lists of 10 and of 100 movements cost the same round trips.
func TestListRoundTripsDoNotGrowWithPageSize(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	f.entrar(t, f.alm, linea(p, 1000, "costo_unitario", 3))
	prov := testenv.Scalar[int](t, f.e, `insert into proveedores (empresa_id, nombre) values (1, 'Proveedor') returning id`)
	// 120 processed entries and 120 processed exits, written directly.
	f.e.Exec(`insert into movimientos_inventario (empresa_id, clase, tipo, estado, numero, almacen_id, usuario_id, proveedor_id)
		select 1, c, case c when 'entrada' then 'Compra' else 'Venta' end, 'Procesada', upper(left(c, 3)) || '-X' || g, $1, 1, $2
		from generate_series(1, 120) g, unnest(array['entrada', 'salida']) c`, f.alm, prov)
	f.e.Exec(`insert into detalles_movimiento (empresa_id, movimiento_id, linea, producto_id, cantidad, costo_unitario)
		select 1, m.id, l, $1, 1, 3 from movimientos_inventario m, generate_series(1, 3) l where m.numero like '%-X%'`, p)
	f.e.Exec(`insert into consumos_lote (empresa_id, detalle_id, inventario_id, cantidad, costo_unitario)
		select 1, d.id, i.id, 1, 3 from detalles_movimiento d join movimientos_inventario m on m.id = d.movimiento_id
		cross join inventarios i where m.clase = 'salida' and i.empresa_id = 1`)
	queries := func(path string) int64 {
		before := f.e.Queries.Load()
		r := f.e.Get(path, f.admin)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
		}
		return f.e.Queries.Load() - before
	}
	for _, path := range []string{entradasPath, salidasPath} {
		ten, hundred := queries(path+"?per_page=10"), queries(path+"?per_page=100")
		if ten != hundred {
			t.Errorf("%s: %d round trips for 10, %d for 100", path, ten, hundred)
		}
		if r := f.e.Get(path+"?per_page=100", f.admin); testenv.Len(r.JSON, "data") != 100 || testenv.Str(r.JSON, "data.99.proveedor.nombre") != "Proveedor" {
			t.Errorf("%s page of 100: %d rows", path, testenv.Len(r.JSON, "data"))
		}
	}
	// Stock lists too, with their batches.
	f.e.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, codigo, tipo, precio_venta)
		select 1, $1, $2, 'Masivo ' || g, 'M' || g, 'producto', 10 from generate_series(1, 110) g`, f.cat, f.unid)
	f.e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, cantidad_disponible, costo_unitario)
		select 1, $1, p.id, l, 2, 7 from productos p, unnest(array['A', 'B']) l where p.codigo like 'M%'`, f.alm2)
	ten, hundred := queries(existPath+"?per_page=10&lotes=1"), queries(existPath+"?per_page=100&lotes=1")
	if ten != hundred {
		t.Errorf("existencias: %d round trips for 10, %d for 100", ten, hundred)
	}
}
