package catalogo_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// obj is a JSON object body.
type obj = map[string]any

func item(path string, id int) string { return fmt.Sprintf("%s/%d", path, id) }

// everyPermissionBut returns the whole permission catalog minus the given modules.
func everyPermissionBut(modules ...string) []string {
	var out []string
	for _, p := range auth.Catalog() {
		skip := false
		for _, m := range modules {
			if p.Modulo == m {
				skip = true
			}
		}
		if !skip {
			out = append(out, p.Slug)
		}
	}
	return out
}

// generalCategory returns the id of the seeded "General" category of the
// admin's company.
func generalCategory(t testing.TB, e *testenv.Env, tok string) int {
	t.Helper()
	r := e.Get("/api/categorias-productos?search=General", tok)
	if testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("seeded category General: %s", r.Raw)
	}
	return int(testenv.Num(r.JSON, "data.0.id"))
}

// unitID returns the id of the seeded unit with that official code.
func unitID(t testing.TB, e *testenv.Env, tok, codigo string) int {
	t.Helper()
	r := e.Get("/api/unidades-medida?codigo="+url.QueryEscape(codigo), tok)
	if testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("unit %s: %s", codigo, r.Raw)
	}
	return int(testenv.Num(r.JSON, "data.0.id"))
}

// at is the path of a key of the i-th row of a list.
func at(i int, key string) string { return fmt.Sprintf("data.%d.%s", i, key) }

// access is one call by a token holder and the status it must get.
type access struct {
	who, tok, method, path string
	want                   int
}

// moduleAccess is what every catalog module grants: without the module
// nothing, with its .leer permission list and show but no writes.
func moduleAccess(sinModulo, lector, collection, item string) []access {
	var out []access
	for _, c := range []struct{ method, path string }{
		{"GET", collection}, {"GET", item}, {"POST", collection}, {"PUT", item}, {"PATCH", item}, {"DELETE", item},
	} {
		read := http.StatusForbidden
		if c.method == "GET" {
			read = http.StatusOK
		}
		out = append(out, access{"without the module", sinModulo, c.method, c.path, http.StatusForbidden},
			access{"reader", lector, c.method, c.path, read})
	}
	return out
}

// checkAccess makes each call (a subtest) with body and checks its status;
// refusals carry a message.
func checkAccess(t *testing.T, e *testenv.Env, body any, cases []access) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.who+" "+c.method+" "+c.path, func(t *testing.T) {
			r := e.Call(c.tok, c.method, c.path, body)
			if r.Status != c.want || (c.want >= 400 && testenv.Str(r.JSON, "message") == "") {
				t.Errorf("%d %s", r.Status, r.Raw)
			}
		})
	}
}

// total is a list query and the number of rows it must count.
type total struct {
	query string
	total float64
}

// checkTotals lists path?<query> for each case and checks the total.
func checkTotals(t *testing.T, e *testenv.Env, tok, path string, cases []total) {
	t.Helper()
	for _, c := range cases {
		if r := e.Get(path+"?"+c.query, tok); r.Status != 200 || testenv.Num(r.JSON, "total") != c.total {
			t.Errorf("%q: want %v, got %d %s", c.query, c.total, r.Status, r.Raw)
		}
	}
}

// checkRefused checks that each list query of path is refused with 422.
func checkRefused(t *testing.T, e *testenv.Env, tok, path string, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if r := e.Get(path+"?"+q, tok); r.Status != 422 {
			t.Errorf("%s: %d %s", q, r.Status, r.Raw)
		}
	}
}
