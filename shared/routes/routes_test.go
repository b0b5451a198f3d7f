package routes

import (
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/auth"
)

func TestRouteTableIsConsistent(t *testing.T) {
	names, keys := map[string]bool{}, map[string]bool{}
	for _, r := range All() {
		if names[r.Name] {
			t.Errorf("duplicate route name %s", r.Name)
		}
		if keys[r.Key()] {
			t.Errorf("duplicate route %s", r.Key())
		}
		names[r.Name], keys[r.Key()] = true, true
		if r.Group == "" || r.Rate == "" {
			t.Errorf("%s: group %q rate %q", r.Name, r.Group, r.Rate)
		}
		if r.Path != DefaultRoute && !strings.HasPrefix(r.Path, "/api/") {
			t.Errorf("%s: path %s outside /api", r.Name, r.Path)
		}
		for _, p := range r.Permissions {
			if slug, ok := auth.Canonical(p); !ok || slug != p {
				t.Errorf("%s: permission %q is not a canonical catalog slug", r.Name, p)
			}
		}
		if !r.Public && r.Path == DefaultRoute {
			t.Errorf("the catch-all must be public so unknown paths get our 404")
		}
	}
}

func TestMatchPrefersExactPathsAndFallsBackToDefault(t *testing.T) {
	cases := []struct {
		method, path, name string
		params             map[string]string
	}{
		{"GET", "/api/usuarios", "usuarios.index", nil},
		{"GET", "/api/usuarios/7", "usuarios.show", map[string]string{"id": "7"}},
		{"PATCH", "/api/roles/3", "roles.patch", map[string]string{"id": "3"}},
		{"POST", "/api/login", "auth.login", nil},
		{"DELETE", "/api/login", "ops.not_found", nil},
		{"GET", "/api/usuarios/7/extra", "ops.not_found", nil},
		{"GET", "/api/usuarios/", "usuarios.index", nil},
	}
	for _, c := range cases {
		r, params, ok := Match(c.method, c.path)
		if !ok || r.Name != c.name {
			t.Errorf("%s %s -> %s, want %s", c.method, c.path, r.Name, c.name)
		}
		for k, v := range c.params {
			if params[k] != v {
				t.Errorf("%s %s: param %s = %q", c.method, c.path, k, params[k])
			}
		}
	}
}

func TestFunctionsIncludeAuthorizerMigrateAndEveryGroup(t *testing.T) {
	fns := map[string]FunctionKind{}
	for _, f := range Functions() {
		fns[f.Name] = f.Kind
	}
	if fns["authorizer"] != KindAuthorizer || fns["migrate"] != KindTask {
		t.Errorf("functions: %v", fns)
	}
	for _, g := range Groups() {
		if fns[g] != KindHTTP {
			t.Errorf("group %s missing from functions", g)
		}
	}
}

func TestQueueConsumersAndTheSchedulerAreFunctions(t *testing.T) {
	fns := map[string]Function{}
	for _, f := range Functions() {
		fns[f.Name] = f
	}
	if f := fns["scheduler"]; f.Kind != KindSchedule || f.Schedule != "rate(1 minute)" {
		t.Errorf("scheduler: %+v", f)
	}
	for _, q := range Queues() {
		if f := fns[q.Consumer]; f.Kind != KindQueue || f.Queue != q.Name {
			t.Errorf("consumer of %s: %+v", q.Name, f)
		}
		if q.BatchSize < 1 || q.BatchSize > 10 || q.MaxReceiveCount < 1 {
			t.Errorf("queue %s: batch %d, max receive %d", q.Name, q.BatchSize, q.MaxReceiveCount)
		}
		for _, p := range q.Producers {
			if _, ok := fns[p]; !ok {
				t.Errorf("queue %s: producer %s is no function", q.Name, p)
			}
		}
	}
	if f := fns["hacienda-worker"]; f.Kind != KindQueue {
		t.Errorf("hacienda-worker: %+v", f)
	}
	if f := fns["hacienda"]; f.Kind != KindHTTP {
		t.Errorf("hacienda: %+v", f)
	}
}

func TestMethodsListsWhatThePathServes(t *testing.T) {
	cases := map[string]string{
		"/api/login":          "POST",
		"/api/usuarios":       "GET, POST",
		"/api/usuarios/7":     "GET, PUT, PATCH, DELETE",
		"/api/usuarios/":      "GET, POST",
		"/api/nada":           "",
		"/api/usuarios/7/x":   "",
		"/":                   "",
		"/api/permisos":       "GET",
		"/api/tipos-impuesto": "GET",
	}
	for path, want := range cases {
		if got := strings.Join(Methods(path), ", "); got != want {
			t.Errorf("Methods(%q) = %q, want %q", path, got, want)
		}
	}
	// A method Methods does not list is one Match sends to $default.
	for _, r := range All() {
		if r.Path == DefaultRoute {
			continue
		}
		path := strings.ReplaceAll(r.Path, "{id}", "1")
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"} {
			rt, _, _ := Match(m, path)
			listed := false
			for _, x := range Methods(path) {
				listed = listed || x == m
			}
			if listed == (rt.Path == DefaultRoute) {
				t.Errorf("%s %s: listed in Methods %t, routed to %s", m, path, listed, rt.Key())
			}
		}
	}
}

func TestCORSPolicyCoversTheTable(t *testing.T) {
	p := CORS()
	if got := strings.Join(p.AllowMethods, ","); got != "GET,POST,PUT,PATCH,DELETE,OPTIONS" {
		t.Errorf("AllowMethods %s", got)
	}
	for _, h := range []string{"Authorization", "Content-Type", "X-Empresa-Id", "X-Empresa-Subdominio", "Idempotency-Key", "If-None-Match"} {
		if !contains(p.AllowHeaders, h) {
			t.Errorf("AllowHeaders lacks %s", h)
		}
	}
	for _, h := range []string{"ETag", "X-Response-Time", "X-Trace-Id", "Retry-After", "Idempotent-Replayed", "X-RateLimit-Remaining"} {
		if !contains(p.ExposeHeaders, h) {
			t.Errorf("ExposeHeaders lacks %s", h)
		}
	}
	if p.MaxAge <= 0 || p.MaxAge > 86400 {
		t.Errorf("MaxAge %d outside API Gateway's 0..86400", p.MaxAge)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
