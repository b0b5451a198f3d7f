package ventas_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/testenv"
)

// concurrent sends n sales at once and returns the responses.
func (f *fx) concurrent(n int, body func(i int) map[string]any) []testenv.Resp {
	return testenv.Concurrently(n, func(i int) testenv.Resp { return f.Call(http.MethodPost, "/api/ventas", body(i)) })
}

func TestFiftyConcurrentSalesGetFiftyConsecutiveNumbers(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "1000", "10", "", "")
	rs := f.concurrent(50, func(i int) map[string]any {
		return testenv.With(venta(linea(p, 1, 100+i)), "almacen_id", f.Almacen)
	})
	testenv.Gapless(t, rs, "data.numero_comprobante", func(n int) string { return fmt.Sprintf("FAC-%08d", n) })
	if got := f.Existencias(f.Almacen, p); got != "950.000" {
		t.Errorf("stock %s after 50 concurrent sales of 1", got)
	}
	if n := f.Int(`select valor from contadores where empresa_id = 1 and clave = 'FAC'`); n != 50 {
		t.Errorf("counter %d", n)
	}
}

func TestTwoConcurrentSalesOfTheLastUnitOneWins(t *testing.T) {
	f := setup(t)
	for round := 0; round < 5; round++ {
		p := f.Producto(testenv.Prod{Codigo: fmt.Sprintf("U%d", round)})
		f.Stock(f.Almacen, p, "1", "10", "", "")
		rs := f.concurrent(2, func(int) map[string]any { return testenv.With(venta(linea(p, 1, 100)), "almacen_id", f.Almacen) })
		created := len(testenv.Created(t, rs, "detalles.0.cantidad"))
		if created != 1 || f.Existencias(f.Almacen, p) != "0.000" {
			t.Errorf("round %d: %d created, stock %s", round, created, f.Existencias(f.Almacen, p))
		}
	}
	// The refused sales gave their numbers back: 5 sales, FAC-1..5.
	if got := f.Text(`select string_agg(numero_comprobante, ',' order by numero_comprobante) from ventas`); got !=
		"FAC-00000001,FAC-00000002,FAC-00000003,FAC-00000004,FAC-00000005" {
		t.Errorf("numbers %s", got)
	}
}

func TestAFailureInLine37Of50LeavesNothingHalfWritten(t *testing.T) {
	f := setup(t)
	ajeno := f.Producto(testenv.Prod{Empresa: 2, Codigo: "AJ"})
	var prods []int64
	for i := 0; i < 50; i++ {
		p := f.Producto(testenv.Prod{Codigo: fmt.Sprintf("P%02d", i)})
		cantidad := "10"
		if i == 36 {
			cantidad = "1" // line 37 asks for 2
		}
		f.Stock(f.Almacen, p, cantidad, "10", "", "")
		prods = append(prods, p)
	}
	f.venderOK(testenv.With(venta(linea(prods[0], 1, 1)), "almacen_id", f.Almacen)) // FAC-00000001
	before := f.Text(`select string_agg(cantidad_disponible::text, ',' order by id) from inventarios`)
	counts := func() string {
		return f.Text(`select (select count(*) from ventas) || ' ' || (select count(*) from detalles_venta) || ' ' ||
			(select count(*) from movimientos_inventario) || ' ' || (select count(*) from eventos) || ' ' ||
			(select count(*) from cuentas_por_cobrar)`)
	}
	countsBefore := counts()
	cliente := f.Cliente(1, "101110111", 30)
	body := func(line37 map[string]any) map[string]any {
		ls := make([]map[string]any, 50)
		for i := range ls {
			ls[i] = linea(prods[i], 2, 100, "porcentaje_impuesto", 13)
		}
		if line37 != nil {
			ls[36] = line37
		}
		return testenv.With(venta(ls...), "almacen_id", f.Almacen, "cliente_id", cliente)
	}
	for _, c := range []struct {
		name  string
		line  map[string]any
		field string
	}{
		{"insufficient stock", nil, "detalles.36.cantidad"},
		{"product of another company", linea(ajeno, 1, 100), "detalles.36.producto_id"},
		{"discount above its subtotal", linea(prods[36], 1, 100, "descuento", 101), "detalles.36.descuento"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := f.vender(body(c.line))
			testenv.Expect422(t, r, c.field)
			if len(r.FieldErrors("detalles.35.cantidad"))+len(r.FieldErrors("detalles.37.cantidad")) > 0 {
				t.Errorf("other lines blamed: %s", r.Raw)
			}
			if got := f.Text(`select string_agg(cantidad_disponible::text, ',' order by id) from inventarios`); got != before {
				t.Errorf("stock changed")
			}
			if got := counts(); got != countsBefore {
				t.Errorf("rows (ventas detalles movimientos eventos cxc) %s, before %s", got, countsBefore)
			}
		})
	}
	// The next sale gets the next consecutive number.
	if r := f.venderOK(testenv.With(venta(linea(prods[1], 1, 1)), "almacen_id", f.Almacen)); testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000002" {
		t.Errorf("next number: %s", testenv.Str(r.JSON, "data.numero_comprobante"))
	}
	if n := f.Int(`select count(*) from movimientos_inventario where numero like 'SAL-%'`); n != 2 {
		t.Errorf("%d exits (their numbers are given back too)", n)
	}
}

func TestConcurrentPaymentsAndCancellationsStayConsistent(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	cliente := f.Cliente(1, "101110111", 30)
	for round := 0; round < 5; round++ {
		r := f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", cliente))
		cxc := cuentaDe(r)
		// Two payments of the whole balance and a cancellation at once.
		reqs := []testenv.Req{
			{Method: http.MethodPost, Path: path("cuentas-por-cobrar", cxc, "/pagos"), Token: f.Admin, Body: map[string]any{"monto": 100}},
			{Method: http.MethodPost, Path: path("cuentas-por-cobrar", cxc, "/pagos"), Token: f.Admin, Body: map[string]any{"monto": 100}},
			{Method: http.MethodPut, Path: path("ventas", id(r)), Token: f.Admin, Body: map[string]any{"estado": "anulada"}},
		}
		out := testenv.Concurrently(len(reqs), func(i int) testenv.Resp { return f.E.Do(reqs[i]) })
		paid := 0
		for i, o := range out {
			switch {
			case o.Status >= 500:
				t.Fatalf("round %d request %d: %d %s", round, i, o.Status, o.Raw)
			case i < 2 && o.Status == http.StatusCreated:
				paid++
			case i < 2 && o.Status != http.StatusUnprocessableEntity:
				t.Errorf("payment: %d %s", o.Status, o.Raw)
			case i == 2 && o.Status != http.StatusOK:
				t.Errorf("cancel: %d %s", o.Status, o.Raw)
			}
		}
		if paid > 1 {
			t.Errorf("round %d: the balance was paid %d times", round, paid)
		}
		if got := f.Text(`select estado || ' ' || saldo from cuentas_por_cobrar where id = $1`, cxc); got != "anulada 0.00" {
			t.Errorf("round %d: receivable %s", round, got)
		}
		if n := f.Int(`select count(*) from pagos where cuenta_por_cobrar_id = $1`, cxc); n != int64(paid) {
			t.Errorf("round %d: %d payments stored, %d answered 201", round, n, paid)
		}
	}
}

// A sale plans its exit from an unlocked read of the batches and locks and
// checks them only in its commit's round trip. Here another transaction
// changes the batch between the two: it holds the batch's row lock (so the
// sale's commit waits on it) and commits once the sale waits.
func TestABatchChangedBeforeTheSaleCommitsIsCheckedAtCommit(t *testing.T) {
	f := setup(t)
	for _, c := range []struct {
		name, cambio string
		// status and stock of the sale of 3 (stock 5 at cost 10 when read).
		status int
		stock  string
		costo  string
	}{
		// Still enough: the sale takes its 3 from what the batch holds now.
		{"stock lowered but enough", `cantidad_disponible = 4`, http.StatusCreated, "1.000", "10.0000"},
		// Not enough any more: the sale runs again on a fresh read, where
		// the shortage is the usual 422 (and no number is spent).
		{"stock taken meanwhile", `cantidad_disponible = 1`, http.StatusUnprocessableEntity, "1.000", ""},
		// Another cost: run again, and the exit is valued at the new cost.
		{"cost changed meanwhile", `costo_unitario = 12`, http.StatusCreated, "2.000", "12.0000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := f.Producto(testenv.Prod{Codigo: "B" + strconv.Itoa(len(c.name))})
			f.Stock(f.Almacen, p, "5", "10", "", "")
			ventas := f.Int(`select count(*) from ventas`)
			// The sale reads 5 without waiting and then waits for the
			// batch's lock in its commit's check.
			r := f.conBloqueo(t, `update inventarios set `+c.cambio+` where producto_id = $1`, []any{p}, "%inventario_tomar_lotes%", nil,
				func() testenv.Resp {
					return f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: f.Admin,
						Body: testenv.With(venta(linea(p, 3, 100)), "almacen_id", f.Almacen)})
				})
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if got := f.Existencias(f.Almacen, p); got != c.stock {
				t.Errorf("stock %s, want %s", got, c.stock)
			}
			if c.status != http.StatusCreated {
				testenv.Expect422(t, r, "detalles.0.cantidad")
				if n := f.Int(`select count(*) from ventas`); n != ventas {
					t.Errorf("%d sales, %d before", n, ventas)
				}
				return
			}
			numero := testenv.Str(r.JSON, "data.numero_comprobante")
			if want := fmt.Sprintf("FAC-%08d", f.Int(`select valor from contadores where empresa_id = 1 and clave = 'FAC'`)); numero != want {
				t.Errorf("number %q, want %q", numero, want)
			}
			if got := f.Text(`select observaciones || ' ' || c.costo_unitario from movimientos_inventario m
				join detalles_movimiento d on d.movimiento_id = m.id join consumos_lote c on c.detalle_id = d.id
				where m.venta_id = $1`, id(r)); got != "Venta "+numero+" "+c.costo {
				t.Errorf("exit %q", got)
			}
		})
	}
}

// A sale whose plan goes stale at every commit runs three times: twice
// planned from an unlocked read and checked at commit, and the last time
// locking the batches when it reads them (no check), so that it ends. Here
// the check always finds the batches changed (and counts its calls).
func TestASaleWhosePlanGoesStaleTwiceLocksOnItsLastRun(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "S"})
	f.Stock(f.Almacen, p, "5", "10", "", "")
	f.E.Exec(`create sequence chequeos; grant usage on sequence chequeos to erp_app;
		create or replace function inventario_tomar_lotes(p_empresa bigint, p_ids bigint[], p_tomar numeric[], p_costos numeric[]) returns void
		language plpgsql as $$ begin perform nextval('chequeos'); raise exception 'lotes cambiados' using errcode = 'ZS001'; end $$`)
	r := f.venderOK(testenv.With(venta(linea(p, 3, 100)), "almacen_id", f.Almacen))
	if n := f.Int(`select last_value from chequeos`); n != 2 {
		t.Errorf("%d checks, want 2 (the last run locks instead)", n)
	}
	if testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000001" || f.Existencias(f.Almacen, p) != "2.000" {
		t.Errorf("number %s, stock %s", testenv.Str(r.JSON, "data.numero_comprobante"), f.Existencias(f.Almacen, p))
	}
	if n := f.Int(`select count(*) from ventas`); n != 1 {
		t.Errorf("%d sales", n)
	}
}

// A credit note racing the cancellation of the sale it corrects waits for
// it and is then refused (422 on venta_referencia_id), as it is once the
// sale is anulada: the reference is read with a lock that a cancellation's
// row lock holds back, not read freely and only locked by the note's
// insert (which let the note through, referencing a cancelled sale). The
// cancellation is simulated by an owner transaction holding the sale's row
// lock until the note waits for it.
func TestACreditNoteRacingTheCancellationOfItsSaleIsRefused(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	factura := id(f.venderOK(venta(linea(p, 1, 100))))
	anular := func(ctx context.Context, tx pgx.Tx) {
		if _, err := tx.Exec(ctx, `update ventas set estado = 'anulada', anulado_en = now() where id = $1`, factura); err != nil {
			t.Fatal(err)
		}
	}
	r := f.conBloqueo(t, `select 1 from ventas where id = $1 for update`, []any{factura}, "%", anular,
		func() testenv.Resp {
			return f.Call(http.MethodPost, "/api/ventas", testenv.With(venta(linea(p, 1, 100)), "tipo_comprobante", "nota_credito",
				"venta_referencia_id", factura, "codigo_referencia", "01", "razon_referencia", "Anula la factura"))
		})
	testenv.Expect422(t, r, "venta_referencia_id")
	if n := f.Int(`select count(*) from ventas where tipo_comprobante = 'nota_credito'`); n != 0 {
		t.Errorf("%d credit notes", n)
	}
}

// conBloqueo runs sql (with args) in an owner transaction, sends req while
// that transaction holds the row locks it took, waits until an application
// query whose text is like the pattern waits for a lock, runs mientras (if
// any) with that transaction, commits it and returns req's answer: the
// interleaving of a race, made deterministic.
func (f *fx) conBloqueo(t *testing.T, sql string, args []any, like string, mientras func(context.Context, pgx.Tx), req func() testenv.Resp) testenv.Resp {
	t.Helper()
	b := f.E.Bloquear(t, sql, args...)
	done := make(chan testenv.Resp, 1)
	go func() { done <- req() }()
	b.HastaQueEsperen(like, 1)
	if mientras != nil {
		mientras(context.Background(), b.Tx)
	}
	b.Confirmar()
	return <-done
}

// A cancellation takes the company's rows at COMMIT in the order a sale
// does: the day's sales summary (the dashboard's rows) before the
// dashboard's version. It used to bump the version first (queued by the
// returned stock) and deadlocked with a sale committing beside it. Shown
// by holding the version's row: the cancellation, waiting for it at
// COMMIT, already holds the day's summary.
func TestACancellationTakesTheDashboardRowsBeforeItsVersionAtCommit(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "10", "10", "", "")
	s := id(f.venderOK(testenv.With(venta(linea(p, 1, 100)), "almacen_id", f.Almacen)))
	resumenTomado := func(ctx context.Context, _ pgx.Tx) {
		otra, err := pgx.Connect(ctx, f.E.AdminURL)
		if err != nil {
			t.Fatal(err)
		}
		defer otra.Close(ctx)
		_, err = otra.Exec(ctx, `select 1 from resumen_ventas_dia where empresa_id = 1 for update nowait`)
		if err == nil || !strings.Contains(err.Error(), "55P03") {
			t.Errorf("the day's summary was not held by the cancellation waiting for the version: %v", err)
		}
	}
	r := f.conBloqueo(t, `select 1 from dashboard_versiones where empresa_id = 1 for update`, nil, "%", resumenTomado,
		func() testenv.Resp {
			return f.Call(http.MethodPut, path("ventas", s), map[string]any{"estado": "anulada"})
		})
	if r.Status != http.StatusOK || f.Existencias(f.Almacen, p) != "10.000" {
		t.Fatalf("cancellation: %d %s (stock %s)", r.Status, r.Raw, f.Existencias(f.Almacen, p))
	}
}

// With negative stock allowed, a sale going below zero locks the product's
// batch-less row (where the shortfall goes) with its batches, before its
// number: it used to reach that row only after taking the FAC and SAL
// counters, and deadlocked with an exit holding the row and waiting for
// SAL (40 sales and exits at once: 30-39 deadlocks, some 500s). Shown by
// holding the row: the sale waits for it without holding its counter.
func TestASaleGoingNegativeLocksTheBatchlessRowBeforeItsNumber(t *testing.T) {
	f := setup(t)
	f.Ajuste(1, "inventario.permitir_stock_negativo", true)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "0", "10", "A", "2026-12-31")
	f.Stock(f.Almacen, p, "-5", "10", "", "")
	f.venderOK(testenv.With(venta(linea(p, 1, 100)), "almacen_id", f.Almacen)) // FAC's counter exists
	contadorLibre := func(ctx context.Context, _ pgx.Tx) {
		otra, err := pgx.Connect(ctx, f.E.AdminURL)
		if err != nil {
			t.Fatal(err)
		}
		defer otra.Close(ctx)
		if _, err := otra.Exec(ctx, `select 1 from contadores where empresa_id = 1 and clave = 'FAC' for update nowait`); err != nil {
			t.Errorf("the sale waits for the batch-less row holding its counter: %v", err)
		}
	}
	r := f.conBloqueo(t, `select 1 from inventarios where producto_id = $1 and lote is null for update`, []any{p}, "%", contadorLibre,
		func() testenv.Resp {
			return f.Call(http.MethodPost, "/api/ventas", testenv.With(venta(linea(p, 2, 100)), "almacen_id", f.Almacen))
		})
	if r.Status != http.StatusCreated || f.Existencias(f.Almacen, p) != "-8.000" {
		t.Fatalf("sale: %d %s (stock %s)", r.Status, r.Raw, f.Existencias(f.Almacen, p))
	}
}
