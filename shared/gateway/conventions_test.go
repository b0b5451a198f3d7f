package gateway_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// These cases go through the local gateway exactly as a client would and
// check the conventions every route shares.

func TestEveryResponseCarriesTimingAndTraceHeaders(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	cases := []testenv.Req{
		{Method: "GET", Path: "/api/health"},
		{Method: "GET", Path: "/api/usuarios", Token: tok},
		{Method: "GET", Path: "/api/usuarios"},                  // 401
		{Method: "GET", Path: "/api/no-existe", Token: tok},     // 404 catch-all
		{Method: "POST", Path: "/api/login", Body: "{roto"},     // 400
		{Method: "DELETE", Path: "/api/usuarios/1", Token: tok}, // 422 (self)
	}
	for _, c := range cases {
		r := e.Do(c)
		if !regexp.MustCompile(`^\d+\.\d{3}ms$`).MatchString(r.Header.Get("X-Response-Time")) {
			t.Errorf("%s %s (%d): X-Response-Time %q", c.Method, c.Path, r.Status, r.Header.Get("X-Response-Time"))
		}
		if r.Header.Get("X-Trace-Id") == "" || r.Header.Get("X-Span-Id") == "" {
			t.Errorf("%s %s: trace headers %v", c.Method, c.Path, r.Header)
		}
		if r.Status >= 400 && (r.JSON["success"] != false || testenv.Str(r.JSON, "trace_id") != r.Header.Get("X-Trace-Id") || testenv.Str(r.JSON, "message") == "") {
			t.Errorf("%s %s: error envelope %s", c.Method, c.Path, r.Raw)
		}
	}
}

func TestIncomingTraceIdsArePropagated(t *testing.T) {
	e := testenv.NewParallel(t)
	r := e.Do(testenv.Req{Method: "GET", Path: "/api/health", Headers: map[string]string{"X-Trace-Id": "abc-123", "X-Span-Id": "padre01"}})
	if r.Header.Get("X-Trace-Id") != "abc-123" || r.Header.Get("X-Parent-Span-Id") != "padre01" || r.Header.Get("X-Span-Id") == "padre01" {
		t.Fatalf("headers: %v", r.Header)
	}
	// A hostile trace id is replaced, not echoed.
	r = e.Do(testenv.Req{Method: "GET", Path: "/api/health", Headers: map[string]string{"X-Trace-Id": "<script>"}})
	if h := r.Header.Get("X-Trace-Id"); h == "<script>" || h == "" {
		t.Fatalf("trace id %q", h)
	}
}

func TestGetResponsesHaveETagsAndAnswer304(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	r := e.Get("/api/usuarios", tok)
	tag := r.Header.Get("ETag")
	if r.Status != 200 || tag == "" {
		t.Fatalf("first GET: %d etag %q", r.Status, tag)
	}
	again := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"If-None-Match": tag}})
	if again.Status != http.StatusNotModified || len(again.Raw) != 0 || again.Header.Get("ETag") != tag {
		t.Fatalf("conditional GET: %d %q", again.Status, again.Raw)
	}
	// A change of the data changes the tag.
	e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: tok, Body: map[string]any{"nombre": "Nuevo"}})
	e.Do(testenv.Req{Method: "PATCH", Path: "/api/usuarios/1", Token: tok, Body: map[string]any{"apellidos": "Cambiado"}})
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"If-None-Match": tag}}); r.Status != 200 {
		t.Errorf("stale tag still answered %d", r.Status)
	}
	if r := e.Get("/api/health", ""); r.Header.Get("ETag") != "" {
		t.Errorf("health carries an ETag")
	}
}

func TestBadBodiesGetClear4xxNever500(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	big := `{"nombre":"` + strings.Repeat("a", 1<<20) + `"}`
	cases := []struct {
		name   string
		body   string
		ctype  string
		status int
		field  string
	}{
		{"malformed JSON", `{"nombre": "Ana",}`, "application/json", 400, ""},
		{"trailing garbage", `{"nombre":"Ana"} x`, "application/json", 400, ""},
		{"array instead of object", `[1,2]`, "application/json", 400, ""},
		{"wrong content type", `nombre=Ana`, "application/x-www-form-urlencoded", 415, ""},
		{"field of the wrong type", `{"nombre": 12, "email": "x@demo.cr", "password": "Segura123!"}`, "application/json", 422, "nombre"},
		{"boolean of the wrong type", `{"nombre": "A", "email": "x@demo.cr", "password": "Segura123!", "activo": "tal vez"}`, "application/json", 422, "activo"},
		{"oversized body", big, "application/json", 413, ""},
		{"invalid UTF-8", "{\"nombre\":\"\xff\"}", "application/json", 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: tok, Body: c.body, Headers: map[string]string{"Content-Type": c.ctype}})
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %.300s", r.Status, c.status, r.Raw)
			}
			if testenv.Str(r.JSON, "message") == "" || r.JSON["success"] != false {
				t.Errorf("envelope: %.300s", r.Raw)
			}
			if c.field != "" && len(r.FieldErrors(c.field)) == 0 {
				t.Errorf("no errors[%s]: %s", c.field, r.Raw)
			}
		})
	}
}

func TestUnknownPathsGetTheSpanish404(t *testing.T) {
	e := testenv.NewParallel(t)
	for _, c := range []testenv.Req{{Method: "GET", Path: "/api/nada"}, {Method: "DELETE", Path: "/api/usuarios/1/extra"}, {Method: "GET", Path: "/"}} {
		r := e.Do(c)
		if r.Status != 404 || !strings.Contains(testenv.Str(r.JSON, "message"), "no existe") || r.Header.Get("Allow") != "" {
			t.Errorf("%s %s: %d %v %s", c.Method, c.Path, r.Status, r.Header, r.Raw)
		}
	}
}

func TestNonNumericIdsAreNotFound(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	for _, p := range []string{"/api/usuarios/abc", "/api/usuarios/-1", "/api/roles/99999999999999999999"} {
		if r := e.Get(p, tok); r.Status != 404 {
			t.Errorf("%s: %d %s", p, r.Status, r.Raw)
		}
	}
}

func TestEmpresaIDInABodyNeverOverridesTheTenant(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: tok, Body: map[string]any{
		"nombre": "Colado", "email": "colado@demo.cr", "password": "Segura123!", "empresa_id": 2}})
	if r.Status != 201 || testenv.Num(r.JSON, "data.empresa_id") != 1 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/usuarios?search=colado", e.Admin(2)); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 sees it: %s", r.Raw)
	}
}
