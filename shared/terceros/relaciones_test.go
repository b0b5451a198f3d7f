package terceros_test

// The detail views of customers and suppliers carry their latest documents
// and open balances; the customer list counts them; creating a customer
// writes a ClienteCreadoEvent. Sales, purchase orders and their balances
// are fixtures written as the owner, so these tests depend on no other
// domain's handlers.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// ventasDe inserts n sales of a company's customer: sale i is dated
// 2026-01-01 + i days, totals 100 + i and is numbered FAC-<empresa>-<cliente>-<iii>.
func ventasDe(t *testing.T, e *testenv.Env, empresa, cliente, n int) {
	t.Helper()
	e.Exec(`insert into ventas (empresa_id, cliente_id, usuario_id, numero_comprobante, tipo_comprobante, fecha_venta, estado,
			monto_subtotal, monto_total)
		select $1::bigint, $2::bigint, (select id from usuarios where empresa_id = $1::bigint order by id limit 1),
			'FAC-' || $1::bigint || '-' || $2::bigint || '-' || lpad(g::text, 3, '0'), 'factura', date '2026-01-01' + g, 'pendiente', 100 + g, 100 + g
		from generate_series(1, $3) g`, empresa, cliente, n)
}

// cuentaDe opens a receivable for a customer's sale numbered like ventasDe's i.
func cuentaDe(t *testing.T, e *testenv.Env, cliente, i int, estado, saldo string) {
	t.Helper()
	e.Exec(`insert into cuentas_por_cobrar (empresa_id, cliente_id, venta_id, monto, saldo, fecha_emision, fecha_vencimiento, estado)
		select empresa_id, cliente_id, id, monto_total, $3::numeric, fecha_venta, fecha_venta + 30, $4 from ventas
		where cliente_id = $1 and numero_comprobante like '%-' || lpad($2::int::text, 3, '0')`, cliente, i, saldo, estado)
}

func TestClienteDetailCarriesItsLatestSalesAndPendingReceivables(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	ana := e.Create(t, admin, "/api/clientes", persona("102340567"))
	beto := e.Create(t, admin, "/api/clientes", persona("102340568"))
	ventasDe(t, e, 1, ana, 12)
	ventasDe(t, e, 1, beto, 2)
	e.Exec(`update ventas set eliminado = true, activo = false where numero_comprobante = $1`, fmt.Sprintf("FAC-1-%d-012", ana))
	cuentaDe(t, e, ana, 3, "pendiente", "50.00")
	cuentaDe(t, e, ana, 5, "pendiente", "105.00")
	cuentaDe(t, e, ana, 4, "pagada", "0")
	cuentaDe(t, e, ana, 6, "anulada", "0")
	cuentaDe(t, e, beto, 1, "pendiente", "101.00")

	r := e.Get(itemPath("clientes", ana), admin)
	if r.Status != http.StatusOK {
		t.Fatalf("show: %d %s", r.Status, r.Raw)
	}
	// The latest 10 sales not deleted, newest first: 11 down to 2.
	if n := testenv.Len(r.JSON, "data.ventas"); n != 10 {
		t.Fatalf("%d sales: %s", n, r.Raw)
	}
	for i := 0; i < 10; i++ {
		want := fmt.Sprintf("FAC-1-%d-%03d", ana, 11-i)
		if got := testenv.Str(r.JSON, fmt.Sprintf("data.ventas.%d.numero_comprobante", i)); got != want {
			t.Errorf("ventas.%d = %s, want %s", i, got, want)
		}
	}
	v := r.JSON["data"].(map[string]any)["ventas"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "numero_comprobante", "tipo_comprobante", "fecha_venta", "estado", "monto_total", "creado_en"} {
		if _, ok := v[k]; !ok {
			t.Errorf("sale without %s: %v", k, v)
		}
	}
	if testenv.Str(r.JSON, "data.ventas.0.fecha_venta") != "2026-01-12" {
		t.Errorf("fecha_venta %v", v["fecha_venta"])
	}
	// Only the pending receivables, the first due first, with their sale's number.
	if n := testenv.Len(r.JSON, "data.cuentas_por_cobrar"); n != 2 ||
		testenv.Str(r.JSON, "data.cuentas_por_cobrar.0.numero_comprobante") != fmt.Sprintf("FAC-1-%d-003", ana) ||
		testenv.Num(r.JSON, "data.cuentas_por_cobrar.0.saldo") != 50 || testenv.Num(r.JSON, "data.cuentas_por_cobrar.1.saldo") != 105 ||
		testenv.Get(r.JSON, "data.cuentas_por_cobrar.0.vencida") != true {
		t.Errorf("receivables: %s", r.Raw)
	}
	// A customer without documents has empty lists.
	nuevo := e.Create(t, admin, "/api/clientes", persona("102340569"))
	r = e.Get(itemPath("clientes", nuevo), admin)
	if testenv.Len(r.JSON, "data.ventas") != 0 || testenv.Len(r.JSON, "data.cuentas_por_cobrar") != 0 {
		t.Errorf("empty detail: %s", r.Raw)
	}
	// Counts on the list: sales not deleted, pending receivables.
	l := e.Get("/api/clientes?sort=id", admin)
	want := map[int][2]float64{ana: {11, 2}, beto: {2, 1}, nuevo: {0, 0}}
	for i := 0; i < testenv.Len(l.JSON, "data"); i++ {
		id := int(testenv.Num(l.JSON, fmt.Sprintf("data.%d.id", i)))
		w := want[id]
		if testenv.Num(l.JSON, fmt.Sprintf("data.%d.ventas_count", i)) != w[0] || testenv.Num(l.JSON, fmt.Sprintf("data.%d.cuentas_por_cobrar_count", i)) != w[1] {
			t.Errorf("cliente %d counts: %v", id, l.JSON["data"].([]any)[i])
		}
	}
	// The list has no detail lists.
	if testenv.Get(l.JSON, "data.0.ventas") != nil {
		t.Errorf("list rows carry ventas")
	}
}

func TestClienteDetailRoundTripsDoNotGrowWithItsDocuments(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	vacio := e.Create(t, admin, "/api/clientes", persona("102340567"))
	lleno := e.Create(t, admin, "/api/clientes", persona("102340568"))
	ventasDe(t, e, 1, lleno, 40)
	for i := 1; i <= 40; i++ {
		cuentaDe(t, e, lleno, i, "pendiente", "1")
	}
	queries := func(path string) int64 { return e.RoundTrips(t, path, admin) }
	queries("/api/clientes")
	if a, b := queries(itemPath("clientes", vacio)), queries(itemPath("clientes", lleno)); a != b {
		t.Errorf("show: %d round trips without documents, %d with 40", a, b)
	}
}

func TestProveedorDetailCarriesItsLatestOrdersAndPendingPayables(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	sur := e.Create(t, admin, "/api/proveedores", map[string]any{"nombre": "Distribuidora del Sur"})
	norte := e.Create(t, admin, "/api/proveedores", map[string]any{"nombre": "Distribuidora del Norte"})
	e.Exec(`insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado, monto_subtotal, monto_total)
		select 1, p, 1, 'OC-' || p || '-' || lpad(g::text, 3, '0'), date '2026-01-01' + g, 'aprobada', 10 * g, 10 * g
		from unnest(array[$1::bigint, $2::bigint]) p, generate_series(1, 12) g`, sur, norte)
	e.Exec(`update ordenes_compra set eliminado = true where numero_orden = $1`, fmt.Sprintf("OC-%d-012", sur))
	e.Exec(`insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento, estado)
		select 1, proveedor_id, id, monto_total, monto_total, fecha_orden, fecha_orden + 30,
			case when numero_orden like '%-001' then 'pagada' else 'pendiente' end
		from ordenes_compra where numero_orden like '%-00_' and numero_orden <> 'OC-' || $1::bigint || '-003'`, sur)

	r := e.Get(itemPath("proveedores", sur), admin)
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data.ordenes_compra") != 10 {
		t.Fatalf("show: %d %s", r.Status, r.Raw)
	}
	for i := 0; i < 10; i++ {
		want := fmt.Sprintf("OC-%d-%03d", sur, 11-i)
		if got := testenv.Str(r.JSON, fmt.Sprintf("data.ordenes_compra.%d.numero_orden", i)); got != want {
			t.Errorf("ordenes_compra.%d = %s, want %s", i, got, want)
		}
	}
	// Pending payables of this supplier: orders 2, 4..9 (1 is paid, 3 has none).
	n := testenv.Len(r.JSON, "data.cuentas_por_pagar")
	if n != 7 || testenv.Str(r.JSON, "data.cuentas_por_pagar.0.numero_orden") != fmt.Sprintf("OC-%d-002", sur) ||
		testenv.Str(r.JSON, "data.cuentas_por_pagar.0.estado") != "pendiente" || testenv.Num(r.JSON, "data.cuentas_por_pagar.0.saldo") != 20 {
		t.Errorf("payables (%d): %s", n, r.Raw)
	}
	// Another supplier sees only its own.
	r = e.Get(itemPath("proveedores", norte), admin)
	if testenv.Len(r.JSON, "data.ordenes_compra") != 10 || testenv.Len(r.JSON, "data.cuentas_por_pagar") != 8 ||
		testenv.Str(r.JSON, "data.ordenes_compra.0.numero_orden") != fmt.Sprintf("OC-%d-012", norte) {
		t.Errorf("other supplier: %s", r.Raw)
	}
	// A supplier without documents.
	nuevo := e.Create(t, admin, "/api/proveedores", map[string]any{"nombre": "Nuevo"})
	r = e.Get(itemPath("proveedores", nuevo), admin)
	if testenv.Len(r.JSON, "data.ordenes_compra") != 0 || testenv.Len(r.JSON, "data.cuentas_por_pagar") != 0 {
		t.Errorf("empty supplier: %s", r.Raw)
	}
}

func TestDetailListsStayInsideTheTenant(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	c1 := e.Create(t, admin1, "/api/clientes", persona("102340567"))
	c2 := e.Create(t, admin2, "/api/clientes", persona("102340567"))
	ventasDe(t, e, 1, c1, 3)
	ventasDe(t, e, 2, c2, 1)
	r := e.Get(itemPath("clientes", c2), admin2)
	if testenv.Len(r.JSON, "data.ventas") != 1 || testenv.Num(r.JSON, "data.ventas_count") != 1 {
		t.Errorf("company 2's customer: %s", r.Raw)
	}
	if r := e.Get(itemPath("clientes", c1), admin2); r.Status != http.StatusNotFound {
		t.Errorf("company 2 sees company 1's customer: %d", r.Status)
	}
}

func TestCreatingAClienteWritesClienteCreadoEvent(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	r := e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/clientes", persona("102340567"))
	ev := e.Get("/api/eventos?tipo=ClienteCreadoEvent", admin)
	if testenv.Len(ev.JSON, "data") != 1 {
		t.Fatalf("events: %s", ev.Raw)
	}
	// The payload is the customer as the API showed it.
	got, _ := json.Marshal(testenv.Get(ev.JSON, "data.0.payload"))
	want, _ := json.Marshal(r.JSON["data"])
	if !bytes.Equal(got, want) {
		t.Errorf("payload:\n%s\nresponse:\n%s", got, want)
	}
	// Refused creates, updates and deletes write none.
	e.Call(admin, http.MethodPost, "/api/clientes", persona("102340567")) // duplicate
	id := int(testenv.Num(r.JSON, "data.id"))
	e.Call(admin, http.MethodPatch, itemPath("clientes", id), map[string]any{"nombre": "Otra"})
	e.Call(admin, http.MethodDelete, itemPath("clientes", id), nil)
	if ev := e.Get("/api/eventos?tipo=ClienteCreadoEvent", admin); testenv.Num(ev.JSON, "total") != 1 {
		t.Errorf("events after other operations: %s", ev.Raw)
	}
	// Suppliers write no customer event.
	e.Create(t, admin, "/api/proveedores", map[string]any{"nombre": "Sur"})
	if ev := e.Get("/api/eventos", admin); testenv.Num(ev.JSON, "total") != 1 {
		t.Errorf("all events: %s", ev.Raw)
	}
	// Company 2 does not see company 1's event.
	if ev := e.Get("/api/eventos?tipo=ClienteCreadoEvent", e.Admin(2)); testenv.Num(ev.JSON, "total") != 0 {
		t.Errorf("company 2 events: %s", ev.Raw)
	}
}
