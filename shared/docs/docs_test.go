package docs_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/docs"
	"github.com/erpcr/erp/shared/docs/openapi"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/testenv"
)

func TestDocumentationRoutesServeTheEmbeddedDocumentsAndThePage(t *testing.T) {
	e := testenv.NewParallel(t)
	v1, _ := docs.Documento("v1")
	v2, _ := docs.Documento("v2")
	cases := []struct {
		name, path, contentType string
		status                  int
		want                    []byte
		contains                string
	}{
		{"json defaults to v1", "/api/documentation.json", "application/json", 200, v1, ""},
		{"json selects v2 by query", "/api/documentation.json?version=v2", "application/json", 200, v2, ""},
		{"v2.json by path", "/api/documentation/v2.json", "application/json", 200, v2, ""},
		{"v1.json by path", "/api/documentation/v1.json", "application/json", 200, v1, ""},
		{"unknown version by query is a 422", "/api/documentation.json?version=v9", "application/json", 422, nil, `"version"`},
		{"unknown version by path is a 404", "/api/documentation/v9.json", "application/json", 404, nil, "versión"},
		{"page embeds both documents and the selector", "/api/documentation", "text/html", 200, nil, `<select id="version">`},
		{"page opens on the version asked", "/api/documentation?version=v2", "text/html", 200, nil, `<option value="v2" selected>`},
		{"swagger ui script", "/api/documentation/ui/swagger-ui-bundle.js", "text/javascript", 200, nil, "SwaggerUIBundle"},
		{"swagger ui stylesheet", "/api/documentation/ui/swagger-ui.css", "text/css", 200, nil, ".swagger-ui"},
		{"unknown asset is a 404", "/api/documentation/ui/nada.js", "application/json", 404, nil, "no existe"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: http.MethodGet, Path: c.path})
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %.300s", r.Status, c.status, r.Raw)
			}
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, c.contentType) {
				t.Errorf("Content-Type %q, want %s", ct, c.contentType)
			}
			if c.want != nil && string(r.Raw) != string(c.want) {
				t.Errorf("body is not the embedded document (%d bytes, want %d)", len(r.Raw), len(c.want))
			}
			if c.contains != "" && !strings.Contains(string(r.Raw), c.contains) {
				t.Errorf("body lacks %q: %.300s", c.contains, r.Raw)
			}
			// Every GET but health, metrics and real time carries an ETag
			// and answers 304 to it (SPEC.md): the documents are megabytes.
			if c.status == 200 {
				tag := r.Header.Get("ETag")
				again := e.Do(testenv.Req{Method: http.MethodGet, Path: c.path, Headers: map[string]string{"If-None-Match": tag}})
				if tag == "" || again.Status != http.StatusNotModified || len(again.Raw) != 0 {
					t.Errorf("ETag %q, If-None-Match answered %d with %d bytes", tag, again.Status, len(again.Raw))
				}
			}
		})
	}
}

func TestDocumentationRequiresAValidTokenInProduction(t *testing.T) {
	e := testenv.NewParallel(t, func(c *config.Config) { c.Env = config.EnvProduction })
	tok := e.Admin(1)
	for _, path := range []string{"/api/documentation", "/api/documentation.json", "/api/documentation/v2.json"} {
		t.Run(path, func(t *testing.T) {
			if r := e.Do(testenv.Req{Method: http.MethodGet, Path: path}); r.Status != http.StatusUnauthorized ||
				r.JSON["success"] != false || !strings.Contains(testenv.Str(r.JSON, "message"), "autenticación") {
				t.Errorf("without token: %d %.200s", r.Status, r.Raw)
			}
			if r := e.Do(testenv.Req{Method: http.MethodGet, Path: path, Token: "1|secreto-que-no-existe"}); r.Status != http.StatusUnauthorized {
				t.Errorf("invalid token: %d %.200s", r.Status, r.Raw)
			}
			if r := e.Do(testenv.Req{Method: http.MethodGet, Path: path, Token: tok}); r.Status != http.StatusOK {
				t.Errorf("valid token: %d %.200s", r.Status, r.Raw)
			}
		})
	}
	// Swagger UI itself holds nothing of the API: public in production too.
	if r := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/documentation/ui/swagger-ui.css"}); r.Status != http.StatusOK {
		t.Errorf("asset: %d", r.Status)
	}
}

func TestEveryRouteIsInBothDocumentsWithItsPermissions(t *testing.T) {
	for _, v := range openapi.Versions {
		raw, ok := docs.Documento(v)
		if !ok {
			t.Fatalf("no embedded %s", v)
		}
		var doc struct {
			Paths map[string]map[string]struct {
				Description string         `json:"description"`
				Security    []any          `json:"security"`
				Responses   map[string]any `json:"responses"`
			} `json:"paths"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, rt := range routes.All() {
			if rt.Path == routes.DefaultRoute {
				continue
			}
			n++
			op, ok := doc.Paths[openapi.Path(v, rt.Path)][strings.ToLower(rt.Method)]
			if !ok {
				t.Errorf("%s: %s missing", v, rt.Key())
				continue
			}
			for _, perm := range rt.Permissions {
				if !strings.Contains(op.Description, "`"+perm+"`") {
					t.Errorf("%s: %s: description lacks permission %s: %q", v, rt.Key(), perm, op.Description)
				}
			}
			if rt.Public != (op.Security != nil && len(op.Security) == 0) {
				t.Errorf("%s: %s: public %v but security %v", v, rt.Key(), rt.Public, op.Security)
			}
		}
		ops := 0
		for _, item := range doc.Paths {
			ops += len(item)
		}
		if ops != n {
			t.Errorf("%s: %d operations, route table has %d routes", v, ops, n)
		}
		t.Logf("%s: %d operations", v, ops)
	}
}

// The operations document the query parameters their handlers read and
// every status they answer: the hand-written lists' filters, the real-time
// interval, and health's 503 (its own body when the database is down).
func TestOperationsDocumentTheirFiltersAndHealthIts503(t *testing.T) {
	raw, _ := docs.Documento("v1")
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string `json:"name"`
				Ref  string `json:"$ref"`
			} `json:"parameters"`
			Responses map[string]any `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]string{
		"/api/webhooks":               {"search", "activos", "sort", "formato"},
		"/api/productos":              {"formato"},
		"/api/ventas":                 {"formato"},
		"/api/webhooks/{id}/entregas": {"estado", "evento", "fecha_inicio", "fecha_fin"},
		"/api/tiempo-real":            {"intervalo"},
		"/api/eventos":                {"tipo"},
	} {
		got := map[string]bool{}
		for _, p := range doc.Paths[path]["get"].Parameters {
			got[p.Name] = true
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("GET %s does not document ?%s", path, w)
			}
		}
	}
	if _, ok := doc.Paths["/api/health"]["get"].Responses["503"]; !ok {
		t.Error("GET /api/health does not document its 503")
	}
	// The writes that compare If-Match (declared resources, users, roles)
	// document the header and their 412; others do not.
	for _, c := range []struct {
		path, method string
		want         bool
	}{
		{"/api/clientes/{id}", "put", true}, {"/api/productos/{id}", "delete", true}, {"/api/usuarios/{id}", "patch", true},
		{"/api/roles/{id}", "delete", true}, {"/api/ventas/{id}", "put", false}, {"/api/webhooks/{id}", "patch", false},
	} {
		op := doc.Paths[c.path][c.method]
		header := false
		for _, p := range op.Parameters {
			header = header || p.Ref == "#/components/parameters/IfMatch"
		}
		_, status := op.Responses["412"]
		if header != c.want || status != c.want {
			t.Errorf("%s %s: If-Match documented %v, 412 %v; want %v", c.method, c.path, header, status, c.want)
		}
	}
}
