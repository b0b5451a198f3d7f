package contabilidad_test

import (
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// producto inserts a stock-managed product of company 1 with IVA 13 %.
func (f *fx) producto(codigo string) int64 {
	f.T.Helper()
	return f.Producto(testenv.Prod{Codigo: codigo, Precio: "150", Compra: "100", Tarifa: "08"})
}

// The books of a month of business tie out: a purchase received, a cash
// sale, a credit sale, a cancelled sale, a customer payment, a supplier
// payment and stock adjustments, all through the API, leave debits equal
// to credits, revenue equal to the net sales of the sales still standing,
// cost of sales equal to the FIFO cost their exits consumed, and assets
// equal to liabilities plus equity plus the period's result — read with
// SQL and with the chart's own balances (?fecha_corte).
func TestBusinessWritesLeaveBooksThatTieOut(t *testing.T) {
	f := setup(t)
	alm := f.Almacen
	p := f.producto("LIB-1")
	proveedor := f.Int(`insert into proveedores (empresa_id, nombre, nit_ruc, dias_credito) values (1, 'Proveedor Libros', '3101000111', 30) returning id`)
	cliente := f.Int(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, dias_credito)
		values (1, 'fisica', '101110111', 'Cliente', 'Libros', 30) returning id`)

	// Purchase: 10 at 1000 (IVA 13 %), approved and received in two batches at different costs.
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/ordenes-compra", map[string]any{"proveedor_id": proveedor, "fecha_orden": "2026-03-01",
		"estado": "borrador", "detalles": []any{map[string]any{"producto_id": p, "cantidad": 10, "precio_unitario": "1000"}}})
	orden := id(r)
	f.Must(http.StatusOK, http.MethodPatch, path("ordenes-compra", orden), map[string]any{"estado": "pendiente"})
	detalle := int64(testenv.Num(f.Must(http.StatusOK, http.MethodPost, path("ordenes-compra", orden, "aprobar"), nil).JSON, "data.detalles.0.id"))
	f.Must(http.StatusOK, http.MethodPost, path("ordenes-compra", orden, "recibir"), map[string]any{"almacen_id": alm, "detalles": []any{
		map[string]any{"detalle_id": detalle, "cantidad": 4, "lote": "A", "costo_unitario": "900"}}})
	r = f.Must(http.StatusOK, http.MethodPost, path("ordenes-compra", orden, "recibir"), map[string]any{"almacen_id": alm})
	payable := int64(testenv.Num(r.JSON, "data.cuenta_por_pagar.id"))

	venta := func(body map[string]any) testenv.Resp {
		return f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", testenv.With(map[string]any{"fecha_venta": "2026-03-15",
			"tipo_comprobante": "factura", "almacen_id": alm}, mapKV(body)...))
	}
	linea := func(cantidad, precio any, kv ...any) []any {
		return []any{testenv.With(map[string]any{"producto_id": p, "cantidad": cantidad, "precio_unitario": precio}, kv...)}
	}
	venta(map[string]any{"detalles": linea(3, 2000)})                                                                                   // cash, FIFO 3 x 900
	credito := venta(map[string]any{"cliente_id": cliente, "condicion_venta": "credito", "detalles": linea(2, 2500, "descuento", 500)}) // 1 x 900 + 1 x 1000
	anulada := venta(map[string]any{"detalles": linea(1, 3000)})
	f.Must(http.StatusOK, http.MethodDelete, path("ventas", id(anulada)), nil)
	cxc := int64(testenv.Num(credito.JSON, "data.cuenta_por_cobrar.id"))
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{"monto": "3000", "forma_pago_id": 1})
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-pagar", payable, "pagos"), map[string]any{"monto": "5000", "fecha": "2026-03-20", "forma_pago_id": 4})
	f.Must(http.StatusCreated, http.MethodPost, "/api/inventario/salidas", map[string]any{"tipo": "Ajuste Negativo", "almacen_id": alm,
		"procesar": true, "detalles": []any{map[string]any{"producto_id": p, "cantidad": 1}}})
	f.Must(http.StatusCreated, http.MethodPost, "/api/inventario/entradas", map[string]any{"tipo": "Ajuste Positivo", "almacen_id": alm,
		"procesar": true, "detalles": []any{map[string]any{"producto_id": p, "cantidad": 2, "costo_unitario": "950"}}})

	posted := `from asiento_lineas l join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
		join cuentas_contables k on k.empresa_id = l.empresa_id and k.id = l.cuenta_id
		where l.empresa_id = 1 and a.estado <> 'borrador' and not a.eliminado`
	sum := func(expr, where string, args ...any) string {
		t.Helper()
		return f.Text(`select coalesce(sum(`+expr+`), 0)::numeric(18,2)::text `+posted+where, args...)
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and estado <> 'borrador'`); n < 9 {
		t.Fatalf("only %d entries posted", n)
	}
	if d, h := sum("l.debe", ""), sum("l.haber", ""); d != h {
		t.Errorf("debits %s, credits %s", d, h)
	}
	for _, a := range testenv.Column[string](t, f.E, `select numero || ':' || total_debe || '=' || total_haber from asientos_contables
		where empresa_id = 1 and estado <> 'borrador' and total_debe <> total_haber`) {
		t.Errorf("unbalanced entry %s", a)
	}
	revenue := f.Text(`select (` + "(select coalesce(sum(l.haber - l.debe), 0) " + posted + ` and k.codigo = '4.1.01.001')
		- (select coalesce(sum(l.debe - l.haber), 0) ` + posted + ` and k.codigo = '4.1.01.002'))::numeric(18,2)::text`)
	netSales := f.Text(`select coalesce(sum(monto_subtotal - monto_descuentos), 0)::numeric(18,2)::text from ventas
		where empresa_id = 1 and estado in ('pendiente', 'pagada') and not eliminado`)
	if revenue != netSales || netSales != "10500.00" {
		t.Errorf("revenue %s, net sales of the standing sales %s (want 6000 + 4500)", revenue, netSales)
	}
	cost := sum("l.debe - l.haber", ` and k.codigo = '5.1.01.001'`)
	fifo := f.Text(`select coalesce(sum(cl.cantidad * cl.costo_unitario), 0)::numeric(18,2)::text
		from consumos_lote cl join detalles_movimiento d on d.empresa_id = cl.empresa_id and d.id = cl.detalle_id
		join movimientos_inventario m on m.empresa_id = d.empresa_id and m.id = d.movimiento_id
		join ventas v on v.empresa_id = m.empresa_id and v.id = m.venta_id
		where m.empresa_id = 1 and m.tipo = 'Venta' and m.estado = 'Procesada' and v.estado in ('pendiente', 'pagada')`)
	if cost != fifo || fifo != "4600.00" {
		t.Errorf("cost of sales %s, FIFO cost consumed %s (want 3 x 900 + 900 + 1000)", cost, fifo)
	}
	byType := func(tipo string) string { return sum("l.debe - l.haber", ` and k.tipo = $1`, tipo) }
	ecuacion := f.Text(`select ($1::numeric - (-$2::numeric) - (-$3::numeric) - (-$4::numeric - $5::numeric - $6::numeric))::text`,
		byType("activo"), byType("pasivo"), byType("patrimonio"), byType("ingreso"), byType("costo"), byType("gasto"))
	if ecuacion != "0.00" {
		t.Errorf("assets - (liabilities + equity + result) = %s", ecuacion)
	}

	// The chart's own balances say the same: the tree's roots at the cut-off date.
	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?arbol=true&fecha_corte=2026-12-31", nil)
	raices := map[string]string{}
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		raices[testenv.Str(r.JSON, fmt.Sprintf("data.%d.codigo", i))] = num(r, fmt.Sprintf("data.%d.saldo", i))
	}
	if raices["1"] == "" || len(raices) != 6 {
		t.Fatalf("roots: %v", raices)
	}
	cuadre := f.Text(`select ($1::numeric - $2::numeric - $3::numeric - ($4::numeric - $5::numeric - $6::numeric))::text`,
		raices["1"], raices["2"], raices["3"], raices["4"], raices["5"], raices["6"])
	if cuadre != "0.00" {
		t.Errorf("chart balances %v: assets - (liabilities + equity + revenue - cost - expenses) = %s", raices, cuadre)
	}
	if got := num(r, "data.3.saldo"); got != f.Text(`select (`+"(select coalesce(sum(l.haber - l.debe), 0) "+posted+` and k.tipo = 'ingreso'))::numeric(18,2)::text`) {
		t.Errorf("revenue root %s", got)
	}
	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?fecha_corte=2026-12-31&search=5.1.01.001", nil)
	if num(r, "data.0.saldo") != cost {
		t.Errorf("cost of sales account balance %s, want %s", num(r, "data.0.saldo"), cost)
	}
}

func mapKV(m map[string]any) []any {
	var kv []any
	for k, v := range m {
		kv = append(kv, k, v)
	}
	return kv
}

// Concurrent sales post their entries with gapless numbers: N sales at
// once through the API give AS-<year>-000001 .. the number of entries.
func TestConcurrentSalesKeepEntryNumbersGapless(t *testing.T) {
	f := setup(t)
	alm := f.Almacen
	p := f.producto("CONC-1")
	f.Stock(alm, p, "1000", "10", "", "")
	const n = 20
	rs := testenv.Concurrently(n, func(i int) testenv.Resp {
		return f.Call(http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-03-15", "tipo_comprobante": "factura", "almacen_id": alm,
			"detalles": []any{map[string]any{"producto_id": p, "cantidad": 1, "precio_unitario": 100 + i}}})
	})
	for i, r := range rs {
		if r.Status != http.StatusCreated {
			t.Fatalf("sale %d: %d %s", i, r.Status, r.Raw)
		}
	}
	nums := testenv.Column[string](t, f.E, `select numero from asientos_contables where empresa_id = 1 and numero like 'AS-2026-%'`)
	if len(nums) != 2*n {
		t.Fatalf("%d entries for %d sales (revenue and cost each)", len(nums), n)
	}
	sort.Strings(nums)
	for i, got := range nums {
		if want := fmt.Sprintf("AS-2026-%06d", i+1); got != want {
			t.Fatalf("numbers %v: position %d is %s, want %s", nums, i, got, want)
		}
	}
}

// The automatic posting runs in deferred triggers at COMMIT: a sale costs
// the same database round trips with and without them.
func TestASaleCostsTheSameRoundTripsWithAutomaticPosting(t *testing.T) {
	f := setup(t)
	alm := f.Almacen
	p := f.producto("RT-1")
	f.Stock(alm, p, "1000", "10", "", "")
	f.E.Get("/api/ventas", f.Admin) // warm up (token bookkeeping)
	sale := func() int64 {
		t.Helper()
		before := f.E.Queries.Load()
		f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-03-15", "tipo_comprobante": "factura",
			"almacen_id": alm, "detalles": []any{map[string]any{"producto_id": p, "cantidad": 1, "precio_unitario": 100}}})
		return f.E.Queries.Load() - before
	}
	posting := sale()
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and origen in ('venta', 'inventario')`); n != 2 {
		t.Fatalf("the sale posted %d entries", n)
	}
	f.E.Exec(`alter table ventas disable trigger ventas_contabilidad`)
	f.E.Exec(`alter table movimientos_inventario disable trigger movimientos_inventario_contabilidad`)
	without := sale()
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1`); n != 2 {
		t.Fatalf("with the triggers off the sale still posted: %d entries", n)
	}
	t.Logf("POST /api/ventas: %d round trips with automatic posting, %d without", posting, without)
	const pinned = 4 // 13 before BEGIN travelled with the first statement, 12 before the sale was pipelined (issue 17)
	if posting != without || posting != pinned {
		t.Errorf("POST /api/ventas: %d round trips with automatic posting, %d without; pinned at %d", posting, without, pinned)
	}
}
