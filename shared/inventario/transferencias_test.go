package inventario_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestATransferMovesTheExactBatchesAndCostsTheExitConsumed(t *testing.T) {
	f := newFx(t)
	leche := f.producto(t, f.admin, "LECHE", 0)
	queso := f.producto(t, f.admin, "QUESO", 0)
	f.entrar(t, f.alm,
		linea(leche, 10, "costo_unitario", 500, "lote", "TARDE", "fecha_vencimiento", "2027-06-01"),
		linea(leche, 4, "costo_unitario", 450, "lote", "PRONTO", "fecha_vencimiento", "2027-01-01"),
		linea(queso, 3, "costo_unitario", "1200.25"))
	valorAntes := testenv.Num(f.e.Get(item("/api/almacenes", f.alm), f.admin).JSON, "data.valor_total_inventario")

	r := f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2,
		"observaciones": "Reposición de la bodega norte", "detalles": []obj{linea(leche, 6), linea(queso, 1)}})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Transferencia registrada y procesada correctamente." {
		t.Fatalf("transfer: %d %s", r.Status, r.Raw)
	}
	salida, entrada := int(testenv.Num(r.JSON, "data.salida.id")), int(testenv.Num(r.JSON, "data.entrada.id"))
	expectExact(t, r.Raw, map[string]string{
		"data.salida.clase": `"salida"`, "data.salida.tipo": `"Transferencia"`, "data.salida.estado": `"Procesada"`,
		"data.salida.almacen_id": fmt.Sprint(f.alm), "data.salida.movimiento_par_id": fmt.Sprint(entrada),
		"data.salida.numero": `"SAL-00000001"`, "data.salida.movimiento_par.almacen.nombre": `"Bodega Norte"`,
		"data.entrada.clase": `"entrada"`, "data.entrada.tipo": `"Transferencia"`, "data.entrada.estado": `"Procesada"`,
		"data.entrada.almacen_id": fmt.Sprint(f.alm2), "data.entrada.movimiento_par_id": fmt.Sprint(salida),
		"data.entrada.numero": `"ENT-00000002"`, "data.entrada.observaciones": `"Reposición de la bodega norte"`,
		// 4 x 450 (PRONTO) + 2 x 500 (TARDE) + 1 x 1200.25: both sides carry the same value.
		"data.salida.costo_total": "4000.25", "data.entrada.costo_total": "4000.25",
		// The entry has one line per consumed batch, with its batch, expiry and cost.
		"data.entrada.detalles.0.lote": `"PRONTO"`, "data.entrada.detalles.0.fecha_vencimiento": `"2027-01-01"`,
		"data.entrada.detalles.0.cantidad": "4.000", "data.entrada.detalles.0.costo_unitario": "450.0000",
		"data.entrada.detalles.1.lote": `"TARDE"`, "data.entrada.detalles.1.cantidad": "2.000", "data.entrada.detalles.1.costo_unitario": "500.0000",
		"data.entrada.detalles.2.lote": "null", "data.entrada.detalles.2.cantidad": "1.000", "data.entrada.detalles.2.costo_unitario": "1200.2500",
	})
	if testenv.Len(r.JSON, "data.entrada.detalles") != 3 || testenv.Len(r.JSON, "data.salida.detalles.0.consumos") != 2 {
		t.Errorf("lines: %s", r.Raw)
	}
	// Both show up in their lists and shows, and are linked.
	if s := f.e.Get(item(entradasPath, entrada), f.admin); testenv.Num(s.JSON, "data.movimiento_par.id") != float64(salida) ||
		testenv.Str(s.JSON, "data.movimiento_par.clase") != "salida" {
		t.Errorf("entry show: %s", s.Raw)
	}
	if l := f.e.Get(salidasPath+"?tipo=Transferencia", f.admin); testenv.Num(l.JSON, "total") != 1 {
		t.Errorf("exits of type Transferencia: %s", l.Raw)
	}
	// Stock moved batch by batch, at the same cost; the company's total is the same.
	norte := f.e.Get(fmt.Sprintf("%s?almacen_id=%d&producto_id=%d&lotes=1", existPath, f.alm2, leche), f.admin)
	expectExact(t, norte.Raw, map[string]string{"total": "1", "data.0.cantidad_disponible": "6.0000", "data.0.valor": "2800.00",
		"data.0.costo_promedio": "466.6667", "data.0.lotes.0.lote": `"PRONTO"`, "data.0.lotes.0.costo_unitario": "450.0000",
		"data.0.lotes.1.lote": `"TARDE"`, "data.0.lotes.1.cantidad_disponible": "2.0000"})
	if f.stock(t, f.alm, leche) != 8 || f.stock(t, f.alm, queso) != 2 || f.stock(t, f.alm2, queso) != 1 {
		t.Errorf("stock after the transfer")
	}
	if got := testenv.Num(f.e.Get(item(productosPath, leche), f.admin).JSON, "data.stock_total"); got != 14 {
		t.Errorf("a transfer changed the product's stock_total: %v", got)
	}
	despues := testenv.Num(f.e.Get(item("/api/almacenes", f.alm), f.admin).JSON, "data.valor_total_inventario")
	norteValor := testenv.Num(f.e.Get(item("/api/almacenes", f.alm2), f.admin).JSON, "data.valor_total_inventario")
	if despues != valorAntes-4000.25 || norteValor != 4000.25 {
		t.Errorf("warehouse values: origin %v -> %v, destination %v", valorAntes, despues, norteValor)
	}
	// Neither half can be cancelled or processed again.
	testenv.Expect422(t, f.e.Call(f.admin, "POST", item(salidasPath, salida)+"/cancelar", nil), "estado")
	testenv.Expect422(t, f.e.Call(f.admin, "POST", item(entradasPath, entrada)+"/procesar", nil), "estado")
}

func TestATransferThatCannotBeCoveredWritesNothing(t *testing.T) {
	f := newFx(t)
	p, q := f.producto(t, f.admin, "P1", 0), f.producto(t, f.admin, "P2", 0)
	f.entrar(t, f.alm, linea(p, 5, "costo_unitario", 10), linea(q, 1, "costo_unitario", 10))
	// Negative stock allowed for sales does not let a transfer invent batches.
	f.permitirNegativo(1)
	r := f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2,
		"detalles": []obj{linea(p, 5), linea(q, 2)}})
	testenv.Expect422(t, r, "detalles.1.cantidad")
	if f.stock(t, f.alm, p) != 5 || f.stock(t, f.alm2, p) != 0 || f.stock(t, f.alm, q) != 1 {
		t.Errorf("a refused transfer moved stock")
	}
	if l := f.e.Get(salidasPath, f.admin); testenv.Num(l.JSON, "total") != 0 {
		t.Errorf("exits after a refused transfer: %s", l.Raw)
	}
	if l := f.e.Get(entradasPath, f.admin); testenv.Num(l.JSON, "total") != 1 {
		t.Errorf("entries after a refused transfer: %s", l.Raw)
	}
	r = f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": []obj{linea(p, 5)}})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.salida.numero") != "SAL-00000001" || testenv.Str(r.JSON, "data.entrada.numero") != "ENT-00000002" {
		t.Errorf("next transfer: %d %s", r.Status, r.Raw)
	}
}

func TestTransferValidation(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	ajeno := f.producto(t, f.admin2, "AJENO", 0)
	f.entrar(t, f.alm, linea(p, 5, "costo_unitario", 10))
	ok := func() obj {
		return obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": []obj{linea(p, 1)}}
	}
	with := func(k string, v any) obj { return testenv.With(ok(), k, v) }
	cases := []testenv.Invalid{
		{"origin is required", with("almacen_origen_id", testenv.Absent), "almacen_origen_id"},
		{"destination is required", with("almacen_destino_id", testenv.Absent), "almacen_destino_id"},
		{"destination differs from origin", with("almacen_destino_id", f.alm), "almacen_destino_id"},
		{"origin of another company", with("almacen_origen_id", f.almB), "almacen_origen_id"},
		{"destination of another company", with("almacen_destino_id", f.almB), "almacen_destino_id"},
		{"detalles cannot be empty", with("detalles", []obj{}), "detalles"},
		{"product of another company", with("detalles", []obj{linea(p, 1), linea(ajeno, 1)}), "detalles.1.producto_id"},
		{"cantidad must be positive", with("detalles", []obj{linea(p, 0)}), "detalles.0.cantidad"},
		{"observaciones max 2000", with("observaciones", strings.Repeat("x", 2001)), "observaciones"},
	}
	f.e.ExpectInvalid(t, f.admin, "POST", transferPath, cases)
	if f.stock(t, f.alm, p) != 5 {
		t.Errorf("refused transfers moved stock")
	}
}

// Transfers, entries into either warehouse, pending entries processed
// later and exits of the same product, all at once, lock in one order
// (batches, then counters, then at COMMIT the books, the reports' and the
// dashboard's versions): none is a deadlock victim, so none fails (retries
// used to give up with 500s) and none waits a deadlock timeout.
func TestTransfersEntriesAndExitsOfOneProductAtOnceNeverDeadlock(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	f.entrar(t, f.alm, linea(p, 100, "costo_unitario", 10))
	f.entrar(t, f.alm2, linea(p, 100, "costo_unitario", 10))
	pendientes := make([]int, 8)
	for i := range pendientes {
		pendientes[i] = f.e.Create(t, f.admin, entradasPath, obj{"tipo": "Ajuste Positivo", "almacen_id": f.alm2, "detalles": []obj{linea(p, 1, "costo_unitario", 10)}})
	}
	const n = 40
	rs := testenv.Concurrently(n, func(i int) testenv.Resp {
		switch i % 5 {
		case 0:
			return f.e.Call(f.admin, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": []obj{linea(p, 1)}})
		case 1:
			return f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "Ajuste Positivo", "almacen_id": f.alm2, "procesar": true,
				"detalles": []obj{linea(p, 1, "costo_unitario", 10)}})
		case 2:
			return f.e.Call(f.admin, "POST", entradasPath, obj{"tipo": "Ajuste Positivo", "almacen_id": f.alm, "procesar": true,
				"detalles": []obj{linea(p, 1, "costo_unitario", 10)}})
		case 3:
			return f.e.Call(f.admin, "POST", item(entradasPath, pendientes[i/5])+"/procesar", nil)
		default:
			return f.sacar(t, f.alm2, linea(p, 1))
		}
	})
	st := map[int]int{}
	for _, r := range rs {
		st[r.Status]++
	}
	if st[http.StatusCreated]+st[http.StatusOK] != n {
		t.Fatalf("statuses %v", st)
	}
	// 200 + 8 transfers in and out, 8 + 8 entries, 8 processed, 8 exits.
	if a, b := f.stock(t, f.alm, p), f.stock(t, f.alm2, p); a+b != 216 || a != 100 {
		t.Errorf("stock %v + %v", a, b)
	}
}
