package webhooks_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/testenv"
)

// api is a stack whose local receiver (127.0.0.1:<port>) is exempted, as
// ERP_WEBHOOK_ALLOWED_HOSTS does for developers.
func api(t *testing.T) (*testenv.Env, *receptor) {
	rc := nuevoReceptor(t)
	_, port, _ := net.SplitHostPort(rc.srv.Listener.Addr().String())
	e := testenv.New(t, func(c *config.Config) { c.WebhookAllowedHosts = "127.0.0.1:" + port })
	return e, rc
}

func TestWebhookAdministrationThroughTheGateway(t *testing.T) {
	t.Parallel()
	e, rc := api(t)
	admin := e.Admin(1)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/webhooks", Token: admin, Headers: map[string]string{"Idempotency-Key": "w-1"},
		Body: map[string]any{"nombre": "Contabilidad", "url": rc.srv.URL + "/hook", "eventos": []string{"VentaCreadaEvent", "ClienteCreadoEvent"}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	// The answer carries the secret: it is never kept for idempotent replays.
	if n := testenv.Scalar[int64](t, e, `select count(*) from claves_idempotencia`); n != 0 {
		t.Errorf("a webhook creation was stored for replays (%d rows): its secret would sit there in clear", n)
	}
	secreto := testenv.Str(r.JSON, "data.secreto")
	if !strings.HasPrefix(secreto, "whsec_") || len(secreto) < 40 || testenv.Num(r.JSON, "data.timeout_segundos") != 10 ||
		testenv.Num(r.JSON, "data.max_reintentos") != 5 || testenv.Get(r.JSON, "data.activo") != true {
		t.Fatalf("created: %s", r.Raw)
	}
	rc.secreto.Store(secreto)
	path := fmt.Sprintf("/api/webhooks/%.0f", testenv.Num(r.JSON, "data.id"))
	// Later reads never show the secret.
	for _, p := range []string{path, "/api/webhooks"} {
		if g := e.Get(p, admin); g.Status != 200 || strings.Contains(string(g.Raw), secreto) || !strings.Contains(string(g.Raw), "secreto_enmascarado") {
			t.Errorf("GET %s: %d %s", p, g.Status, g.Raw)
		}
	}
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"timeout_segundos": 30, "descripcion": "ERP contable"}}); r.Status != 200 ||
		testenv.Num(r.JSON, "data.timeout_segundos") != 30 || testenv.Str(r.JSON, "data.nombre") != "Contabilidad" {
		t.Errorf("patch: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/webhooks/eventos", admin); r.Status != 200 || testenv.Len(r.JSON, "data") < 5 || testenv.Get(r.JSON, "data.0.ejemplo") == nil {
		t.Errorf("eventos: %d %s", r.Status, r.Raw)
	}

	// A test delivery, signed, answered now.
	r = e.Do(testenv.Req{Method: "POST", Path: path + "/probar", Token: admin})
	if r.Status != 200 || testenv.Get(r.JSON, "data.entregada") != true || testenv.Num(r.JSON, "data.estado_http") != 204 || rc.validas.Load() != 1 {
		t.Fatalf("probar: %d %s (valid signatures %d)", r.Status, r.Raw, rc.validas.Load())
	}

	// A customer created through the API fans out and is delivered once the
	// worker runs (woken after the commit).
	r = e.Do(testenv.Req{Method: "POST", Path: "/api/clientes", Token: admin, Body: map[string]any{
		"tipo_identificacion": "fisica", "identificacion": "109870654", "nombre": "María", "apellidos": "Fernández"}})
	if r.Status != 201 {
		t.Fatalf("cliente: %d %s", r.Status, r.Raw)
	}
	if n, err := e.Deps.LocalQueue().Drain(context.Background(), e.Deps.Webhooks().Procesar); err != nil || n != 1 {
		t.Fatalf("woken deliveries %d, %v", n, err)
	}
	if rc.validas.Load() != 2 {
		t.Fatalf("ClienteCreadoEvent not delivered signed: %d valid", rc.validas.Load())
	}
	log := e.Get(path+"/entregas?evento=ClienteCreadoEvent", admin)
	if log.Status != 200 || testenv.Num(log.JSON, "total") != 1 || testenv.Num(log.JSON, "data.0.estado_http") != 204 ||
		testenv.Str(log.JSON, "data.0.estado_entrega") != "entregada" || testenv.Str(log.JSON, "data.0.solicitud_headers.X-Webhook-Event") != "ClienteCreadoEvent" {
		t.Fatalf("delivery log: %d %s", log.Status, log.Raw)
	}
	if strings.Contains(string(log.Raw), secreto) {
		t.Error("the delivery log shows the secret")
	}
	entrega := fmt.Sprintf("%.0f", testenv.Num(log.JSON, "data.0.entrega_id"))
	r = e.Must(t, http.StatusAccepted, admin, "POST", path+"/entregas/"+entrega+"/reenviar", nil)
	if n, _ := e.Deps.LocalQueue().Drain(context.Background(), e.Deps.Webhooks().Procesar); n != 1 || rc.validas.Load() != 3 {
		t.Fatalf("redelivery: woke %d, valid %d", n, rc.validas.Load())
	}

	// Regenerating the secret shows the new one once; the old one no longer verifies.
	r = e.Do(testenv.Req{Method: "POST", Path: path + "/regenerar-secreto", Token: admin})
	nuevo := testenv.Str(r.JSON, "data.secreto")
	if r.Status != 200 || nuevo == "" || nuevo == secreto {
		t.Fatalf("regenerar: %d %s", r.Status, r.Raw)
	}
	e.Do(testenv.Req{Method: "POST", Path: path + "/probar", Token: admin})
	if rc.validas.Load() != 3 {
		t.Error("a delivery verified with the old secret")
	}
	rc.secreto.Store(nuevo)
	e.Do(testenv.Req{Method: "POST", Path: path + "/probar", Token: admin})
	if rc.validas.Load() != 4 {
		t.Error("a delivery did not verify with the new secret")
	}

	if r := e.Do(testenv.Req{Method: "DELETE", Path: path, Token: admin}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, admin); r.Status != 404 {
		t.Errorf("after delete: %d", r.Status)
	}
}

func TestWebhookValidationAndSSRFAtSave(t *testing.T) {
	t.Parallel()
	e, _ := api(t)
	admin := e.Admin(1)
	valid := map[string]any{"nombre": "W", "url": "https://hooks.example.com/erp", "eventos": []string{"*"}}
	body := func(k string, v any) map[string]any { return testenv.With(valid, k, v) }
	cases := []testenv.Invalid{
		{"nombre is required", body("nombre", testenv.Absent), "nombre"},
		{"url is required", body("url", testenv.Absent), "url"},
		{"eventos is required", body("eventos", testenv.Absent), "eventos"},
		{"eventos needs one", body("eventos", []string{}), "eventos"},
		{"unknown event", body("eventos", []string{"VentaCreadaEvent", "NoExiste"}), "eventos.1"},
		{"timeout below 5", body("timeout_segundos", 4), "timeout_segundos"},
		{"timeout above 60", body("timeout_segundos", 61), "timeout_segundos"},
		{"retries below 1", body("max_reintentos", 0), "max_reintentos"},
		{"retries above 10", body("max_reintentos", 11), "max_reintentos"},
		{"short secret", body("secreto", "corto"), "secreto"},
		{"url too long", body("url", "https://h.example.com/"+strings.Repeat("a", 2040)), "url"},
	}
	for _, u := range []string{"http://127.0.0.1/", "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.1/", "http://127.1/",
		"http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://x@127.0.0.1/", "http://127.0.0.1./", "http://localhost/",
		"http://a.localhost/", "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.0.1/", "http://169.254.169.254/",
		"http://100.64.0.1/", "http://0.0.0.0/", "http://[fc00::1]/", "http://[fe80::1]/", "http://224.0.0.1/",
		"http://255.255.255.255/", "ftp://example.com/"} {
		cases = append(cases, testenv.Invalid{"url " + u, body("url", u), "url"})
	}
	e.ExpectInvalid(t, admin, "POST", "/api/webhooks", cases)
	if r := e.Do(testenv.Req{Method: "POST", Path: "/api/webhooks", Token: admin, Body: body("url", "http://93.184.216.34/x")}); r.Status != 201 {
		t.Errorf("a public address: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/webhooks", admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("refused subscriptions were stored: %s", r.Raw)
	}
}

func TestWebhookPermissionsAndTenantIsolation(t *testing.T) {
	t.Parallel()
	e, _ := api(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/webhooks", Token: admin1, Body: map[string]any{
		"nombre": "Uno", "url": "https://hooks.example.com/1", "eventos": []string{"*"}}})
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	path := fmt.Sprintf("/api/webhooks/%.0f", testenv.Num(r.JSON, "data.id"))
	for _, c := range []struct{ method, path string }{{"GET", path}, {"PATCH", path}, {"DELETE", path}, {"POST", path + "/probar"},
		{"POST", path + "/regenerar-secreto"}, {"GET", path + "/entregas"}} {
		if r := e.Do(testenv.Req{Method: c.method, Path: c.path, Token: admin2, Body: map[string]any{"nombre": "Robado"}}); r.Status != 404 {
			t.Errorf("company 2 %s %s: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	if r := e.Get("/api/webhooks", admin2); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 lists company 1's webhooks: %s", r.Raw)
	}
	// A vendedor has no webhook permission; a role with the alias names does.
	e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin1, Body: map[string]any{
		"nombre": "Vero", "email": "vero@demo.cr", "password": "Segura123!", "roles": []string{"vendedor"}}})
	vero := e.Login("vero@demo.cr", "Segura123!")
	if r := e.Get("/api/webhooks", vero); r.Status != 403 {
		t.Errorf("vendedor listing webhooks: %d", r.Status)
	}
	e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: admin1, Body: map[string]any{"nombre": "Integrador", "permisos": []string{"ver-webhooks", "editar-webhooks"}}})
	e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin1, Body: map[string]any{
		"nombre": "Iris", "email": "iris@demo.cr", "password": "Segura123!", "roles": []string{"integrador"}}})
	iris := e.Login("iris@demo.cr", "Segura123!")
	if r := e.Get(path, iris); r.Status != 200 {
		t.Errorf("ver-webhooks: %d", r.Status)
	}
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: iris, Body: map[string]any{"activo": false}}); r.Status != 200 {
		t.Errorf("editar-webhooks: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "DELETE", Path: path, Token: iris}); r.Status != 403 {
		t.Errorf("delete without eliminar: %d", r.Status)
	}
}

// An update that empties what cannot be empty is refused, not answered 200
// with nothing changed; a null setting puts back its default.
func TestWebhookUpdateRefusesBlankFieldsAndNullRestoresDefaults(t *testing.T) {
	t.Parallel()
	e, _ := api(t)
	admin := e.Admin(1)
	path := testenv.Path("webhooks", int64(e.Create(t, admin, "/api/webhooks", map[string]any{"nombre": "W", "url": "https://hooks.example.com/erp",
		"eventos": []string{"*"}, "timeout_segundos": 30, "max_reintentos": 2})))
	e.ExpectInvalid(t, admin, "PATCH", path, []testenv.Invalid{
		{"blank nombre", map[string]any{"nombre": ""}, "nombre"},
		{"whitespace nombre", map[string]any{"nombre": "   "}, "nombre"},
		{"null nombre", map[string]any{"nombre": nil}, "nombre"},
		{"blank url", map[string]any{"url": ""}, "url"},
		{"null url", map[string]any{"url": nil}, "url"},
		{"null activo", map[string]any{"activo": nil}, "activo"},
		{"blank secreto", map[string]any{"secreto": ""}, "secreto"},
		{"null secreto", map[string]any{"secreto": nil}, "secreto"},
	})
	r := e.Must(t, 200, admin, "PATCH", path, map[string]any{"timeout_segundos": nil, "max_reintentos": nil})
	if testenv.Num(r.JSON, "data.timeout_segundos") != 10 || testenv.Num(r.JSON, "data.max_reintentos") != 5 ||
		testenv.Str(r.JSON, "data.nombre") != "W" || testenv.Get(r.JSON, "data.activo") != true {
		t.Errorf("null settings: %s", r.Raw)
	}
}

// The delivery log's filters are checked; of concurrent deletions of one
// subscription exactly one succeeds, the others find nothing (404), never
// a second "eliminado".
func TestDeliveryLogFiltersAndConcurrentDeletions(t *testing.T) {
	t.Parallel()
	e, _ := api(t)
	admin := e.Admin(1)
	path := testenv.Path("webhooks", int64(e.Create(t, admin, "/api/webhooks", map[string]any{"nombre": "W", "url": "https://hooks.example.com/erp",
		"eventos": []string{"*"}})))
	// The delivery log's filters: a bad value or a reversed range is a 422
	// under the parameter; a text PostgreSQL cannot hold matches nothing.
	for q, campo := range map[string]string{"estado=nada": "estado", "fecha_inicio=2026-02-30": "fecha_inicio",
		"fecha_inicio=2026-12-01&fecha_fin=2026-01-01": "fecha_fin"} {
		testenv.Expect422(t, e.Get(path+"/entregas?"+q, admin), campo)
	}
	if r := e.Get(path+"/entregas?evento=%00%ff", admin); r.Status != 200 || testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("evento with NUL: %d %s", r.Status, r.Raw)
	}
	rs := testenv.Concurrently(8, func(int) testenv.Resp { return e.Call(admin, "DELETE", path, nil) })
	got := map[int]int{}
	for _, r := range rs {
		got[r.Status]++
	}
	if got[200] != 1 || got[404] != 7 {
		t.Errorf("statuses %v, want one 200 and seven 404", got)
	}
}
