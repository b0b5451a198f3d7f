package dashboard_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/testenv"
)

type fx struct {
	t     *testing.T
	e     *testenv.Env
	admin string
}

func (f fx) producto(codigo string, minimo int) int64 {
	f.t.Helper()
	return testenv.Scalar[int64](f.t, f.e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo,
			tipo, precio_venta, gestionado_inventario, stock_minimo)
		select 1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'), 'Producto ' || $1, $1,
			'producto', 1000, true, $2
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' limit 1 returning id`, codigo, minimo)
}

func (f fx) stock(producto int64, cantidad string) {
	f.t.Helper()
	f.e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
		select 1, id, $1, $2::numeric, 100 from almacenes where empresa_id = 1 and es_principal`, producto, cantidad)
}

func (f fx) vender(fecha string, producto int64, cantidad, precio int, extra ...any) int64 {
	f.t.Helper()
	body := testenv.With(map[string]any{"fecha_venta": fecha, "tipo_comprobante": "factura",
		"detalles": []any{map[string]any{"producto_id": producto, "cantidad": cantidad, "precio_unitario": precio}}}, extra...)
	r := f.e.Call(f.admin, http.MethodPost, "/api/ventas", body)
	if r.Status != http.StatusCreated {
		f.t.Fatalf("sale: %d %s", r.Status, r.Raw)
	}
	return int64(testenv.Num(r.JSON, "data.id"))
}

func (f fx) dashboard(tok, query string) testenv.Resp {
	f.t.Helper()
	r := f.e.Call(tok, http.MethodGet, "/api/dashboard"+query, nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("dashboard%s: %d %s", query, r.Status, r.Raw)
	}
	return r
}

func TestDashboardFiguresFollowTheCompanysData(t *testing.T) {
	e := testenv.NewParallel(t)
	f := fx{t: t, e: e, admin: e.Admin(1)}
	a := f.producto("A", 0)
	b := f.producto("B", 50) // below its minimum with 10 in stock
	f.stock(a, "1000")
	f.stock(b, "10")
	cliente := testenv.Scalar[int64](t, e, `insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, dias_credito)
		values (1, 'fisica', '101110111', 'Cliente', 10) returning id`)

	// February 1-10: 2 sales (one on credit, overdue by March 15); March 1-15: 3 sales, one today.
	f.vender("2026-02-01", a, 1, 1000, "cliente_id", cliente, "condicion_venta", "credito")
	f.vender("2026-02-10", a, 2, 1000)
	f.vender("2026-03-02", a, 3, 1000)
	f.vender("2026-03-10", b, 1, 500)
	f.vender("2026-03-15", a, 1, 2000)
	anulada := f.vender("2026-03-15", a, 9, 1000)
	if r := e.Call(f.admin, http.MethodDelete, fmt.Sprintf("/api/ventas/%d", anulada), nil); r.Status != http.StatusOK {
		t.Fatalf("cancel: %d %s", r.Status, r.Raw)
	}
	// A payable due in 3 days and one due in 30; a pending and an accepted comprobante.
	prov := testenv.Scalar[int64](t, e, `insert into proveedores (empresa_id, nombre, nit_ruc) values (1, 'Prov', '3101999999') returning id`)
	e.Exec(`with o as (insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado)
			select 1, $1, 1, n, '2026-03-01', 'recibida' from (values ('OC-1'), ('OC-2')) x(n) returning id, numero_orden)
		insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento)
		select 1, $1, o.id, 500, 500, '2026-03-01',
		  case when o.numero_orden = 'OC-1' then date '2026-03-18' else date '2026-04-14' end from o`, prov)

	r := f.dashboard(f.admin, "?fecha=2026-03-15")
	// 13 % IVA on every line: 3000, 500 and 2000 net in March; 1000 and 2000 in February up to the 15th.
	want := map[string]string{
		"data.ventas_mes.monto": "6215.00", "data.ventas_hoy.monto": "2260.00",
		"data.cuentas_por_cobrar_vencidas.monto": "1130.00", "data.cuentas_por_pagar_por_vencer_7_dias.monto": "500.00",
		"data.inventario_bajo_minimo.productos.0.codigo": "B", "data.top_productos_mes.0.codigo": "A",
		"data.ventas_ultimos_30_dias.29.fecha": "2026-03-15", "data.ventas_ultimos_30_dias.29.monto": "2260.00",
		"data.ventas_mes.variacion_pct": "83.33", "data.fecha": "2026-03-15",
	}
	for k, v := range want {
		if got := texto(r, k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]float64{"data.ventas_mes.cantidad": 3, "data.ventas_hoy.cantidad": 1,
		"data.cuentas_por_cobrar_vencidas.cantidad": 1, "data.inventario_bajo_minimo.cantidad": 1,
		"data.clientes_nuevos_mes": 0, "data.planilla_pendiente.cantidad": 0} {
		if got := testenv.Num(r.JSON, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if n := testenv.Len(r.JSON, "data.ventas_ultimos_30_dias"); n != 30 {
		t.Errorf("the series has %d days", n)
	}
	if r.JSON["data"].(map[string]any)["desde_cache"] != false {
		t.Errorf("first answer came from the cache")
	}

	// Served from the cache until a write changes a figure.
	if r = f.dashboard(f.admin, "?fecha=2026-03-15"); r.JSON["data"].(map[string]any)["desde_cache"] != true {
		t.Fatalf("second answer was computed again")
	}
	f.vender("2026-03-15", a, 1, 1000)
	r = f.dashboard(f.admin, "?fecha=2026-03-15")
	if r.JSON["data"].(map[string]any)["desde_cache"] != false || texto(r, "data.ventas_hoy.monto") != "3390.00" {
		t.Fatalf("after a sale: cache=%v hoy=%s", r.JSON["data"].(map[string]any)["desde_cache"], texto(r, "data.ventas_hoy.monto"))
	}
	if r := e.Call(f.admin, http.MethodPost, "/api/dashboard/invalidar-cache", nil); r.Status != http.StatusOK {
		t.Fatalf("invalidar-cache: %d %s", r.Status, r.Raw)
	}
	if r = f.dashboard(f.admin, "?fecha=2026-03-15"); r.JSON["data"].(map[string]any)["desde_cache"] != false {
		t.Fatalf("served from the cache after invalidar-cache")
	}

	// Figures the user may not see are left out.
	bodega := e.UserWith(t, f.admin, "bodega", "inventario.leer")
	r = f.dashboard(bodega, "?fecha=2026-03-15")
	if testenv.Get(r.JSON, "data.ventas_mes") != nil || testenv.Get(r.JSON, "data.cuentas_por_pagar_por_vencer_7_dias") != nil ||
		testenv.Num(r.JSON, "data.inventario_bajo_minimo.cantidad") != 1 {
		t.Fatalf("a warehouse user sees: %s", r.Raw)
	}

	// Another company sees only its own figures.
	r = f.dashboard(e.Admin(2), "?fecha=2026-03-15")
	if texto(r, "data.ventas_mes.monto") != "0.00" || testenv.Num(r.JSON, "data.inventario_bajo_minimo.cantidad") != 0 {
		t.Fatalf("company 2: %s", r.Raw)
	}
}

func TestDashboardRefusesBadFilters(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	for _, c := range []struct{ query, campo string }{
		{"?fecha=2026-13-01", "fecha"},
		{"?fecha=ayer", "fecha"},
		{"?sucursal_id=abc", "sucursal_id"},
		{"?sucursal_id=9223372036854775807", "sucursal_id"}, // no such branch
		{fmt.Sprintf("?sucursal_id=%d", testenv.Scalar[int64](t, e, `select id from sucursales where empresa_id = 2 limit 1`)), "sucursal_id"}, // another company's
	} {
		r := e.Call(admin, http.MethodGet, "/api/dashboard"+c.query, nil)
		if r.Status != http.StatusUnprocessableEntity || testenv.Get(r.JSON, "errors."+c.campo) == nil {
			t.Errorf("%s: %d %s", c.query, r.Status, r.Raw)
		}
	}
	if r := e.Call("", http.MethodGet, "/api/dashboard", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("without a token: %d", r.Status)
	}
}

// Each date and branch asked for is a cache entry: the ones past the TTL
// are deleted when the next answer is stored, so asking for every day of
// a century does not grow the table without end. Another company's are
// left alone.
func TestExpiredDashboardEntriesAreDeletedWhenANewOneIsStored(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	e.Exec(`insert into dashboard_cache (empresa_id, clave, version, datos, creado_en)
		select empresa, '1950-01-' || lpad(d::text, 2, '0') || ':todas', 0, '{}', now() - interval '1 hour'
		from generate_series(1, 20) d, (values (1), (2)) x(empresa)`)
	for _, q := range []string{"?fecha=2026-03-15", "?fecha=2026-03-16"} {
		if r := e.Call(admin, http.MethodGet, "/api/dashboard"+q, nil); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
	}
	got := testenv.Column[string](t, e, `select empresa_id || '/' || clave from dashboard_cache order by 1`)
	if len(got) != 22 || got[0] != "1/2026-03-15:todas" || got[1] != "1/2026-03-16:todas" || got[2] != "2/1950-01-01:todas" {
		t.Fatalf("entries: %v", got)
	}
}

// The dashboard is a GET like any other: SPEC.md exempts only health,
// metrics and the real-time counters (/api/tiempo-real) from ETag/304. A
// sale changes the figures, and with them the tag.
func TestDashboardAnswersIfNoneMatchWith304UntilTheFiguresChange(t *testing.T) {
	e := testenv.NewParallel(t)
	f := fx{t: t, e: e, admin: e.Admin(1)}
	admin := f.admin
	p := f.producto("ETAG", 0)
	f.stock(p, "10")
	first := e.Call(admin, http.MethodGet, "/api/dashboard", nil)
	tag := first.Header.Get("ETag")
	if first.Status != http.StatusOK || tag == "" {
		t.Fatalf("first: %d ETag %q", first.Status, tag)
	}
	same := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/dashboard", Token: admin, Headers: map[string]string{"If-None-Match": tag}})
	if same.Status != http.StatusNotModified || len(same.Raw) != 0 {
		t.Fatalf("unchanged (the second reading comes from the cache): %d with %d bytes", same.Status, len(same.Raw))
	}
	f.vender(horacr.Hoy().Format(time.DateOnly), p, 1, 1000)
	after := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/dashboard", Token: admin, Headers: map[string]string{"If-None-Match": tag}})
	if after.Status != http.StatusOK || after.Header.Get("ETag") == tag {
		t.Fatalf("after a sale: %d ETag %q (was %q)", after.Status, after.Header.Get("ETag"), tag)
	}
}

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// texto is the value at a dotted path as written in the JSON: amounts keep
// their scale ("6215.00").
func texto(r testenv.Resp, path string) string {
	dec := json.NewDecoder(bytes.NewReader(r.Raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	switch x := testenv.Get(v, path).(type) {
	case json.Number:
		return string(x)
	case string:
		return x
	}
	return ""
}
