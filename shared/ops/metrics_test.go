package ops_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/ops"
	"github.com/erpcr/erp/shared/testenv"
)

// vender creates a sale of today in company 1: a service (no stock) for
// 2 × 15000 + 13 % IVA.
func vender(t *testing.T, e *testenv.Env, tok string) {
	t.Helper()
	prod := testenv.Scalar[int64](t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo,
			tipo, precio_venta, gestionado_inventario)
		select 1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'),
			'Instalación', 'SERV-' || gen_random_uuid(), 'servicio', 15000, false
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' limit 1 returning id`)
	e.Create(t, tok, "/api/ventas", map[string]any{"fecha_venta": testenv.HoyCR().Format(time.DateOnly), "tipo_comprobante": "factura",
		"detalles": []any{map[string]any{"producto_id": prod, "cantidad": 2, "precio_unitario": 15000}}})
}

func getMetrics(t *testing.T, e *testenv.Env, tok string) testenv.Resp {
	t.Helper()
	r := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/metrics", Token: tok, Headers: map[string]string{"Accept": "text/plain"}})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /api/metrics: %d %s", r.Status, r.Raw)
	}
	return r
}

func TestMetricsExposeTheCompanysRequestsAndBusinessGaugesInPrometheusFormat(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	vender(t, e, admin)
	for range 3 {
		e.Get("/api/ventas", admin)
	}
	e.Get("/api/ventas/999999", admin)
	e.Get("/api/ventas/999998", admin)
	// Company 2's traffic is not company 1's business.
	admin2 := e.Admin(2)
	e.Get("/api/ventas", admin2)
	e.Exec(`insert into webhooks (empresa_id, nombre, url, eventos, secreto_cifrado, secreto_pista)
		values (1, 'W', 'https://hooks.example.com/', '{*}', '\x00', 'x')`)
	e.Exec(`insert into webhook_entregas (empresa_id, webhook_id, evento, payload, estado)
		select 1, id, 'x', '{}', s from webhooks, unnest(array['pendiente', 'pendiente', 'fallida', 'entregada']) s where empresa_id = 1`)

	r := getMetrics(t, e, admin)
	if ct := r.Header.Get("Content-Type"); ct != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if r.Header.Get("ETag") != "" {
		t.Errorf("metrics carry an ETag")
	}
	fams := ops.ParsePrometheus(t, r.Raw)

	req := fams["erp_http_requests"]
	if req.Type != "counter" {
		t.Fatalf("erp_http_requests_total: %+v\n%s", req, r.Raw)
	}
	dur := fams["erp_http_request_duration_seconds"]
	cases := []struct {
		method, route, status string
		want                  float64
	}{
		{"GET", "/api/ventas", "200", 3},
		{"GET", "/api/ventas/{id}", "404", 2}, // the route's pattern, not the raw paths
		{"POST", "/api/ventas", "201", 1},
	}
	for _, c := range cases {
		l := map[string]string{"method": c.method, "route": c.route, "status": c.status}
		if got := ops.Valor(req, "erp_http_requests_total", l); got != c.want {
			t.Errorf("requests %v = %v, want %v", l, got, c.want)
		}
		if got := ops.Valor(dur, "erp_http_request_duration_seconds_count", l); got != c.want {
			t.Errorf("histogram count %v = %v, want %v", l, got, c.want)
		}
		inf := map[string]string{"method": c.method, "route": c.route, "status": c.status, "le": "+Inf"}
		if got := ops.Valor(dur, "erp_http_request_duration_seconds_bucket", inf); got != c.want {
			t.Errorf("+Inf bucket %v = %v, want %v", l, got, c.want)
		}
	}
	for _, s := range req.Samples {
		if strings.Contains(s.Labels["route"], "999") {
			t.Errorf("a raw path became a label: %v", s.Labels)
		}
		if s.Labels["route"] == "/api/login" {
			t.Errorf("a company administrator sees requests of no company: %v", s.Labels)
		}
	}
	if got := ops.Valor(req, "erp_http_requests_total", map[string]string{"method": "GET", "route": "/api/ventas", "status": "200"}); got != 3 {
		t.Errorf("company 2's request counted for company 1: %v", got)
	}

	if got := ops.Valor(fams["erp_ventas_hoy"], "erp_ventas_hoy", nil); got != 1 {
		t.Errorf("erp_ventas_hoy = %v, want 1", got)
	}
	if got := ops.Valor(fams["erp_ventas_hoy_colones"], "erp_ventas_hoy_colones", nil); got != 33900 {
		t.Errorf("erp_ventas_hoy_colones = %v, want 33900 (2 × 15000 + 13 %%)", got)
	}
	for estado, want := range map[string]float64{"pendiente": 2, "fallida": 1} {
		if got := ops.Valor(fams["erp_webhook_entregas"], "erp_webhook_entregas", map[string]string{"estado": estado}); got != want {
			t.Errorf("erp_webhook_entregas{estado=%s} = %v, want %v", estado, got, want)
		}
	}
	for _, estado := range []string{"pending", "signed", "sent"} {
		if got := ops.Valor(fams["erp_comprobantes_pendientes"], "erp_comprobantes_pendientes", map[string]string{"estado": estado}); got != 0 {
			t.Errorf("erp_comprobantes_pendientes{estado=%s} = %v, want 0", estado, got)
		}
	}
	if got := ops.Valor(fams["erp_db_pool_conexiones_max"], "erp_db_pool_conexiones_max", nil); got != float64(e.Cfg.DBMaxConns) {
		t.Errorf("erp_db_pool_conexiones_max = %v, want %d", got, e.Cfg.DBMaxConns)
	}
	if got := ops.Valor(fams["erp_cola_profundidad"], "erp_cola_profundidad", map[string]string{"cola": "local"}); got < 0 {
		t.Errorf("no local queue depth:\n%s", r.Raw)
	}

	// Company 2 sees its own request only.
	r2 := ops.ParsePrometheus(t, getMetrics(t, e, admin2).Raw)
	if got := ops.Valor(r2["erp_http_requests"], "erp_http_requests_total", map[string]string{"method": "GET", "route": "/api/ventas", "status": "200"}); got != 1 {
		t.Errorf("company 2: GET /api/ventas 200 = %v, want 1", got)
	}
	if got := ops.Valor(r2["erp_ventas_hoy"], "erp_ventas_hoy", nil); got != 0 {
		t.Errorf("company 2 sees company 1's sales: %v", got)
	}
}

func TestMetricsOfAPlatformAdministratorCoverTheWholeService(t *testing.T) {
	e := testenv.NewParallel(t)
	e.Get("/api/ventas", e.Admin(2))
	tok := e.PlatformAdmin(1)
	e.Get("/api/ventas", tok)
	e.Get("/api/ruta-que-no-existe", "")
	fams := ops.ParsePrometheus(t, getMetrics(t, e, tok).Raw)
	req := fams["erp_http_requests"]
	for _, c := range []struct {
		method, route, status string
		want                  float64
	}{
		{"GET", "/api/ventas", "200", 2},  // both companies
		{"POST", "/api/login", "200", 2},  // no company: both logins
		{"ANY", "$default", "404", 1},     // unknown paths: one series
		{"GET", "/api/metrics", "200", 0}, // this very request is counted after it answers
	} {
		l := map[string]string{"method": c.method, "route": c.route, "status": c.status}
		got := ops.Valor(req, "erp_http_requests_total", l)
		if c.want == 0 {
			got = max(got, 0)
		}
		if got != c.want {
			t.Errorf("requests %v = %v, want %v", l, got, c.want)
		}
	}
	info := fams["erp_build_info"]
	if len(info.Samples) != 1 || info.Samples[0].Labels["alcance"] != "servicio" || info.Samples[0].Labels["version"] == "" {
		t.Errorf("erp_build_info: %+v", info)
	}
}

func TestMetricsAreForAdministratorsOnly(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	gerente := e.UserWith(t, admin, "Lectora", "ventas.leer", "usuarios.leer")
	cases := []struct {
		name   string
		tok    string
		status int
	}{
		{"without a token", "", http.StatusUnauthorized},
		{"a user who is not an Administrador", gerente, http.StatusForbidden},
		{"the company's Administrador", admin, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Get("/api/metrics", c.tok)
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if c.status != http.StatusOK && testenv.Str(r.JSON, "message") == "" {
				t.Errorf("no Spanish message: %s", r.Raw)
			}
		})
	}
}
