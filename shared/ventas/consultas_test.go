package ventas_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestSalesListFiltersSearchSortAndPages(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	ana := f.Cliente(1, "101110111", 0)
	beto := f.Cliente(1, "101110112", 0)
	norte := f.Int(`insert into sucursales (empresa_id, nombre) values (1, 'Norte') returning id`)
	v1 := id(f.venderOK(testenv.With(venta(linea(p, 1, 300)), "cliente_id", ana, "sucursal_id", f.Sucursal, "fecha_venta", "2026-01-10")))
	v2 := id(f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", beto, "sucursal_id", norte, "fecha_venta", "2026-02-10", "tipo_comprobante", "tiquete")))
	v3 := id(f.venderOK(testenv.With(venta(linea(p, 1, 200)), "cliente_id", ana, "sucursal_id", norte, "fecha_venta", "2026-03-10", "estado", "borrador")))
	v4 := id(f.venderOK(testenv.With(venta(linea(p, 1, 400)), "fecha_venta", "2026-03-20")))
	f.E.Call(f.Admin, http.MethodDelete, path("ventas", v4), nil) // deleted: never listed
	eq := func(q string, want ...int64) {
		t.Helper()
		r := f.E.Get("/api/ventas"+q, f.Admin)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
		if got := testenv.IDs64(r); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	eq("", v3, v2, v1) // newest first
	eq("?empresa_id=2", v3, v2, v1)
	eq(fmt.Sprintf("?cliente_id=%d", ana), v3, v1)
	eq(fmt.Sprintf("?sucursal_id=%d", norte), v3, v2)
	eq("?fecha_inicio=2026-02-01", v3, v2)
	eq("?fecha_fin=2026-02-10", v2, v1)
	eq("?fecha_inicio=2026-02-10&fecha_fin=2026-02-10", v2)
	eq("?estado=borrador", v3)
	eq("?estado=pendiente", v2, v1)
	eq("?estado=anulada")
	eq("?tipo_comprobante=tiquete", v2)
	eq("?search=tiq", v2)
	eq("?search=FAC-00000001", v1)
	eq("?search=fac", v3, v1)
	eq("?search=%25")
	eq("?sort=monto_total", v2, v3, v1)
	eq("?sort=fecha_venta&order=desc", v3, v2, v1)
	eq("?order=asc", v1, v2, v3)
	eq("?per_page=2", v3, v2)
	eq("?per_page=2&page=2", v1)
	r := f.E.Get("/api/ventas?per_page=2&page=2", f.Admin)
	if testenv.Num(r.JSON, "total") != 3 || testenv.Num(r.JSON, "current_page") != 2 || testenv.Num(r.JSON, "per_page") != 2 || testenv.Num(r.JSON, "last_page") != 2 {
		t.Errorf("page: %s", r.Raw)
	}
	// Rows carry the customer and the user, not the lines.
	r = f.E.Get("/api/ventas?per_page=1", f.Admin)
	if testenv.Num(r.JSON, "data.0.cliente.id") != float64(ana) || testenv.Str(r.JSON, "data.0.usuario.email") != "admin@demo.cr" ||
		testenv.Get(r.JSON, "data.0.detalles") != nil || testenv.Num(r.JSON, "data.0.sucursal.id") != float64(norte) {
		t.Errorf("row: %s", r.Raw)
	}
	for _, q := range []string{"?fecha_inicio=2026-13-01", "?fecha_fin=ayer", "?fecha_inicio=2026-03-01&fecha_fin=2026-02-01",
		"?estado=completada", "?cliente_id=abc", "?sucursal_id=-1", "?sort=cliente", "?order=arriba", "?per_page=0", "?tipo_comprobante=x"} {
		if r := f.E.Get("/api/ventas"+q, f.Admin); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", q, r.Status, r.Raw)
		}
	}
	// Unknown ids.
	for _, x := range []string{"999999", "0", "-1", "abc"} {
		if r := f.E.Get("/api/ventas/"+x, f.Admin); r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("show %s: %d", x, r.Status)
		}
		if r := f.E.Get("/api/cuentas-por-cobrar/"+x, f.Admin); r.Status != http.StatusNotFound {
			t.Errorf("cxc show %s: %d", x, r.Status)
		}
	}
	// ETag and 304 on GET.
	r = f.E.Get(path("ventas", v1), f.Admin)
	again := f.E.Do(testenv.Req{Method: http.MethodGet, Path: path("ventas", v1), Token: f.Admin, Headers: map[string]string{"If-None-Match": r.Header.Get("ETag")}})
	if r.Header.Get("ETag") == "" || again.Status != http.StatusNotModified {
		t.Errorf("etag: %q %d", r.Header.Get("ETag"), again.Status)
	}
}

func TestRoundTripsDoNotGrowWithLinesOrPageSize(t *testing.T) {
	f := setup(t)
	f.Ajuste(1, "inventario.descontar_stock_automatico", true)
	cliente := f.Cliente(1, "101110111", 30)
	var prods []int64
	for i := 0; i < 50; i++ {
		p := f.Producto(testenv.Prod{Codigo: fmt.Sprintf("P%02d", i), Tarifa: "08"})
		f.Stock(f.Almacen, p, "1000", "10", fmt.Sprintf("L%d", i), "")
		prods = append(prods, p)
	}
	queries := func(req testenv.Req) (int64, testenv.Resp) {
		t.Helper()
		req.Token = f.Admin
		before := f.E.Queries.Load()
		r := f.E.Do(req)
		return f.E.Queries.Load() - before, r
	}
	f.E.Get("/api/ventas", f.Admin) // warm up (token bookkeeping)
	sale := func(n int, key string) (int64, testenv.Resp) {
		lineas := make([]map[string]any, n)
		for i := range lineas {
			lineas[i] = linea(prods[i], 1, 100)
		}
		h := map[string]string{}
		if key != "" {
			h["Idempotency-Key"] = key
		}
		q, r := queries(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Body: testenv.With(venta(lineas...), "cliente_id", cliente), Headers: h})
		if r.Status != http.StatusCreated {
			t.Fatalf("sale of %d lines: %d %s", n, r.Status, r.Raw)
		}
		return q, r
	}
	one, r1 := sale(1, "")
	fifty, r50 := sale(50, "")
	if f.Existencias(f.Almacen, prods[0]) != "998.000" || f.Existencias(f.Almacen, prods[49]) != "999.000" ||
		testenv.Get(r50.JSON, "data.cuenta_por_cobrar.id") == nil {
		t.Fatalf("the sales did not move stock or open receivables: %s %s", f.Existencias(f.Almacen, prods[0]), r50.Raw)
	}
	t.Logf("create: %d round trips for 1 line and for 50 (stock exit, receivable, event)", fifty)
	if one != fifty {
		t.Errorf("create: %d round trips for 1 line, %d for 50", one, fifty)
	}
	oneK, rk1 := sale(1, "k1")
	fiftyK, rk50 := sale(50, "k50")
	if oneK != fiftyK {
		t.Errorf("create with Idempotency-Key: %d round trips for 1 line, %d for 50", oneK, fiftyK)
	}
	show1, _ := queries(testenv.Req{Method: http.MethodGet, Path: path("ventas", id(r1))})
	show50, _ := queries(testenv.Req{Method: http.MethodGet, Path: path("ventas", id(r50))})
	if show1 != show50 {
		t.Errorf("show: %d round trips for 1 line, %d for 50", show1, show50)
	}
	// Cancelling 1 and 50 lines (stock return, receivable), by PUT and by DELETE.
	put1, _ := queries(testenv.Req{Method: http.MethodPut, Path: path("ventas", id(r1)), Body: map[string]any{"estado": "anulada"}})
	put50, _ := queries(testenv.Req{Method: http.MethodPut, Path: path("ventas", id(r50)), Body: map[string]any{"estado": "anulada"}})
	del1, _ := queries(testenv.Req{Method: http.MethodDelete, Path: path("ventas", id(rk1))})
	del50, _ := queries(testenv.Req{Method: http.MethodDelete, Path: path("ventas", id(rk50))})
	if put1 != put50 || del1 != del50 {
		t.Errorf("cancel: PUT %d/%d, DELETE %d/%d round trips for 1/50 lines", put1, put50, del1, del50)
	}
	if f.Existencias(f.Almacen, prods[0]) != "1000.000" || f.Existencias(f.Almacen, prods[49]) != "1000.000" {
		t.Errorf("stock not returned: %s %s", f.Existencias(f.Almacen, prods[0]), f.Existencias(f.Almacen, prods[49]))
	}
	// Lists of 10 and 100 rows.
	f.E.Exec(`insert into ventas (empresa_id, cliente_id, usuario_id, sucursal_id, forma_pago_id, numero_comprobante, tipo_comprobante,
			fecha_venta, estado, condicion_venta, monto_subtotal, monto_total)
		select 1, $1, 1, $2, 1, 'TIQ-' || lpad(g::text, 8, '0'), 'tiquete', date '2026-01-01' + g, 'pendiente', 'credito', 10, 10
		from generate_series(1, 120) g`, cliente, f.Sucursal)
	f.E.Exec(`insert into cuentas_por_cobrar (empresa_id, cliente_id, venta_id, monto, saldo, fecha_emision, fecha_vencimiento)
		select 1, cliente_id, id, 10, 10, fecha_venta, fecha_venta + 30 from ventas where tipo_comprobante = 'tiquete'`)
	for _, base := range []string{"/api/ventas", "/api/cuentas-por-cobrar"} {
		for _, filter := range []string{"", "&search=tiq", "&cliente_id=" + itoa(cliente), "&estado=pendiente"} {
			q10, r10 := queries(testenv.Req{Method: http.MethodGet, Path: base + "?per_page=10" + filter})
			q100, r100 := queries(testenv.Req{Method: http.MethodGet, Path: base + "?per_page=100" + filter})
			if r10.Status != http.StatusOK || testenv.Len(r100.JSON, "data") != 100 {
				t.Fatalf("%s%s: %d %d rows", base, filter, r10.Status, testenv.Len(r100.JSON, "data"))
			}
			if q10 != q100 {
				t.Errorf("%s%s: %d round trips for 10 rows, %d for 100", base, filter, q10, q100)
			}
		}
	}
	// Payments.
	cxcs := testenv.IDs64(f.E.Get("/api/cuentas-por-cobrar?per_page=2", f.Admin))
	p1, _ := queries(testenv.Req{Method: http.MethodPost, Path: path("cuentas-por-cobrar", cxcs[0], "/pagos"), Body: map[string]any{"monto": 1}})
	p2, _ := queries(testenv.Req{Method: http.MethodPost, Path: path("cuentas-por-cobrar", cxcs[0], "/pagos"), Body: map[string]any{"monto": 9}})
	// The settling payment also marks the sale pagada, in the same batch.
	if p1 != p2 {
		t.Errorf("payments: %d and %d round trips", p1, p2)
	}
}
