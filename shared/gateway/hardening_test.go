package gateway_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/gateway"
	"github.com/erpcr/erp/shared/testenv"
)

// envelope checks the API's error envelope: success false, a Spanish
// message containing want, and the trace id of the headers.
func envelope(t *testing.T, what string, r testenv.Resp, status int, want string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d: %.300s", what, r.Status, status, r.Raw)
		return
	}
	if r.JSON["success"] != false || !strings.Contains(testenv.Str(r.JSON, "message"), want) ||
		testenv.Str(r.JSON, "trace_id") == "" || testenv.Str(r.JSON, "trace_id") != r.Header.Get("X-Trace-Id") {
		t.Errorf("%s: envelope %.300s (X-Trace-Id %q)", what, r.Raw, r.Header.Get("X-Trace-Id"))
	}
}

// A Host the function cannot turn into a URL used to fail the adapter
// (httpadapter) and the invocation: a bare 500 on every route. Now it is a
// 400 in the envelope, on public and protected routes alike.
func TestMalformedHostIsA400NotA500(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	login := map[string]string{"email": testenv.Admin1, "password": testenv.DemoPassword}
	reqs := []testenv.Req{
		{Method: "GET", Path: "/api/health"},
		{Method: "POST", Path: "/api/login", Body: login},
		{Method: "GET", Path: "/api/usuarios"},
		{Method: "GET", Path: "/api/usuarios", Token: tok},
		{Method: "GET", Path: "/api/usuarios/1", Token: tok},
		{Method: "POST", Path: "/api/roles", Token: tok, Body: map[string]any{"nombre": "Rol host"}},
		{Method: "GET", Path: "/api/nada"},
	}
	for _, host := range []string{"%", "a%2", "demo%00.x", "a:b:c", "[::1", "demo.x:123456", "%zz.localhost"} {
		for _, c := range reqs {
			c.Headers = map[string]string{"Host": host}
			envelope(t, c.Method+" "+c.Path+" Host "+host, e.Do(c), 400, "Host no es válido")
		}
	}
	// Usable hosts still work, ports and subdomains included.
	for _, host := range []string{"localhost", "demo.localhost:3000", "127.0.0.1:3000", "[::1]:3000", "api_interna.local"} {
		if r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"Host": host}}); r.Status != 200 {
			t.Errorf("Host %s: %d %s", host, r.Status, r.Raw)
		}
	}
}

// A path the route table knows, asked with a method it does not serve, is a
// 405 listing the table's methods in Allow (API Gateway sends it to the
// $default route, the ops function answers); unknown paths stay 404.
func TestKnownPathWithAnotherMethodIs405WithAllow(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	cases := []struct {
		method, path, token, allow string
	}{
		{"DELETE", "/api/login", "", "POST"},
		{"GET", "/api/login", "", "POST"},
		{"PUT", "/api/usuarios", tok, "GET, POST"},
		{"DELETE", "/api/usuarios", "", "GET, POST"},
		{"POST", "/api/usuarios/1", tok, "GET, PUT, PATCH, DELETE"},
		{"PATCH", "/api/health", "", "GET"},
		{"OPTIONS", "/api/roles", tok, "GET, POST"}, // not a preflight: no Origin
		{"PUT", "/api/permisos", tok, "GET"},
	}
	for _, c := range cases {
		r := e.Do(testenv.Req{Method: c.method, Path: c.path, Token: c.token})
		envelope(t, c.method+" "+c.path, r, 405, "no está permitido")
		if got := r.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	// A trailing slash is a path no route serves as written: a 404, never
	// a 405 refusing a method its own Allow lists.
	for _, c := range []struct{ method, path string }{{"DELETE", "/api/nada"}, {"DELETE", "/api/usuarios/1/2"}, {"DELETE", "/nada"},
		{"GET", "/api/usuarios/"}, {"GET", "/api/usuarios/1/"}, {"GET", "/api/documentation/"}, {"GET", "/api/v2/usuarios/"},
		// Nor is a path out of its clean form: a Spanish 404, never
		// http.ServeMux's redirect with an HTML body.
		{"GET", "/api//usuarios"}, {"GET", "/api/./usuarios"}, {"GET", "/api/roles/../usuarios"}} {
		r := e.Do(testenv.Req{Method: c.method, Path: c.path, Token: tok})
		envelope(t, c.method+" "+c.path, r, 404, "no existe")
		if r.Header.Get("Allow") != "" {
			t.Errorf("%s %s: Allow on a 404", c.method, c.path)
		}
	}
}

func preflight(t *testing.T, url, path, origin, method string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodOptions, url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", method)
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,x-empresa-id,idempotency-key")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// The gateway answers CORS as API Gateway's HTTP API does with the
// template's configuration: preflights itself, for any path and without
// a token; CORS headers on every answer to an allowed origin.
func TestCORSPreflightAndCrossOriginRequests(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	const allowed = "http://localhost:5173" // config.DefaultCORSOrigins
	for _, path := range []string{"/api/usuarios", "/api/usuarios/1", "/api/login", "/api/nada"} {
		res := preflight(t, e.Server.URL, path, allowed, "POST")
		h := res.Header
		if res.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != allowed ||
			h.Get("Access-Control-Allow-Methods") != "GET,POST,PUT,PATCH,DELETE,OPTIONS" || h.Get("Access-Control-Max-Age") != "3600" {
			t.Errorf("preflight %s: %d %v", path, res.StatusCode, h)
		}
		// If-Match: a browser may send the version it read (412 otherwise).
		for _, want := range []string{"Authorization", "Content-Type", "X-Empresa-Id", "Idempotency-Key", "If-None-Match", "If-Match"} {
			if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
				t.Errorf("preflight %s: Access-Control-Allow-Headers %q lacks %s", path, h.Get("Access-Control-Allow-Headers"), want)
			}
		}
	}
	// Another origin: 204 without CORS headers, so the browser stops.
	res := preflight(t, e.Server.URL, "/api/usuarios", "https://malicioso.example", "DELETE")
	if res.StatusCode != http.StatusNoContent || hasCORS(res.Header) {
		t.Errorf("foreign preflight: %d %v", res.StatusCode, res.Header)
	}

	// The actual request from an allowed origin carries the CORS headers,
	// whatever its status; from another origin none.
	for _, c := range []testenv.Req{
		{Method: "GET", Path: "/api/usuarios", Token: tok},
		{Method: "GET", Path: "/api/usuarios"},          // 401
		{Method: "PUT", Path: "/api/usuarios"},          // 405
		{Method: "GET", Path: "/api/health"},            // public
		{Method: "POST", Path: "/api/login", Body: "{"}, // 400
	} {
		c.Headers = map[string]string{"Origin": allowed}
		r := e.Do(c)
		h := r.Header
		if h.Get("Access-Control-Allow-Origin") != allowed || !strings.Contains(h.Get("Vary"), "Origin") {
			t.Errorf("%s %s (%d) from %s: %v", c.Method, c.Path, r.Status, allowed, h)
		}
		// Scripts may read what a front end acts on, v1's deprecation and a
		// download's file name included.
		for _, want := range []string{"ETag", "X-Trace-Id", "Retry-After", "X-RateLimit-Remaining", "Deprecation", "Sunset", "Link",
			"Location", "Content-Disposition"} {
			if !slices.Contains(strings.Split(h.Get("Access-Control-Expose-Headers"), ","), want) {
				t.Errorf("%s %s: Access-Control-Expose-Headers %q lacks %s", c.Method, c.Path, h.Get("Access-Control-Expose-Headers"), want)
			}
		}
		c.Headers = map[string]string{"Origin": "https://malicioso.example"}
		if r := e.Do(c); hasCORS(r.Header) {
			t.Errorf("%s %s from a foreign origin: %v", c.Method, c.Path, r.Header)
		}
	}
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"Origin": allowed}}); r.Status != 200 || testenv.Num(r.JSON, "total") < 1 {
		t.Errorf("cross-origin list: %d %s", r.Status, r.Raw)
	}
}

// The origins come from the configuration (ERP_CORS_ORIGINS; the template's
// CorsAllowOrigins in AWS).
func TestCORSOriginsAreConfigurable(t *testing.T) {
	e := testenv.NewParallel(t)
	gw, err := e.Deps.Gateway()
	if err != nil {
		t.Fatal(err)
	}
	gw.CORS = gateway.NewCORS([]string{"https://app.example.cr"})
	srv := httptest.NewServer(gw)
	defer srv.Close()
	if res := preflight(t, srv.URL, "/api/ventas", "https://app.example.cr", "POST"); res.Header.Get("Access-Control-Allow-Origin") != "https://app.example.cr" {
		t.Errorf("configured origin refused: %v", res.Header)
	}
	if res := preflight(t, srv.URL, "/api/ventas", "http://localhost:5173", "POST"); hasCORS(res.Header) {
		t.Errorf("default origin still allowed: %v", res.Header)
	}
	gw2, _ := e.Deps.Gateway()
	gw2.CORS = gateway.NewCORS([]string{"*"})
	srv2 := httptest.NewServer(gw2)
	defer srv2.Close()
	if res := preflight(t, srv2.URL, "/api/ventas", "https://cualquiera.example", "POST"); res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("* did not allow any origin: %v", res.Header)
	}
}

func hasCORS(h http.Header) bool {
	for k := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			return true
		}
	}
	return false
}
