package catalogo_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// obj is a JSON object body.
type obj = map[string]any

// call is one HTTP call as a test case.
func call(e *testenv.Env, method, path, tok string, body any) testenv.Resp {
	e.T.Helper()
	return e.Do(testenv.Req{Method: method, Path: path, Token: tok, Body: body})
}

// create POSTs body and fails the test unless the answer is 201; it returns
// the new record's id.
func create(t testing.TB, e *testenv.Env, tok, path string, body any) int {
	t.Helper()
	r := e.Do(testenv.Req{Method: http.MethodPost, Path: path, Token: tok, Body: body})
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	if id <= 0 {
		t.Fatalf("POST %s: no id in %s", path, r.Raw)
	}
	return id
}

func item(path string, id int) string { return fmt.Sprintf("%s/%d", path, id) }

func exact(t testing.TB, raw []byte, path string) string {
	t.Helper()
	return testenv.Exact(t, raw, path)
}

// expect422 asserts a validation failure with a message under field.
func expect422(t testing.TB, r testenv.Resp, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("want 422 on %q, got %d %s", field, r.Status, r.Raw)
	}
	if len(r.FieldErrors(field)) == 0 {
		t.Fatalf("no errors[%q]: %s", field, r.Raw)
	}
	if testenv.Str(r.JSON, "message") == "" {
		t.Errorf("422 without message: %s", r.Raw)
	}
}

// userWith creates, in company 1, a role holding exactly perms and a user
// with that role only, and returns the user's token. name must be unique
// within the environment.
func userWith(t testing.TB, e *testenv.Env, name string, perms []string) string {
	t.Helper()
	admin := e.Admin(1)
	if perms == nil {
		perms = []string{}
	}
	r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/roles", Token: admin, Body: obj{"nombre": "Rol " + name, "permisos": perms}})
	if r.Status != http.StatusCreated {
		t.Fatalf("role %s: %d %s", name, r.Status, r.Raw)
	}
	slug := testenv.Str(r.JSON, "data.slug")
	email := strings.ToLower(name) + "@demo.cr"
	r = e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/usuarios", Token: admin, Body: obj{
		"nombre": "Prueba", "apellidos": name, "email": email, "password": "Segura123!", "roles": []string{slug}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("user %s: %d %s", name, r.Status, r.Raw)
	}
	return e.Login(email, "Segura123!")
}

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

// queries counts the database round trips of one successful GET.
func queries(t testing.TB, e *testenv.Env, path, tok string) int64 {
	t.Helper()
	before := e.Queries.Load()
	if r := e.Get(path, tok); r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
	}
	return e.Queries.Load() - before
}

// ids lists the ids of a list response, in order.
func ids(r testenv.Resp) []int {
	var out []int
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		out = append(out, int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
	}
	return out
}

func has(list []int, id int) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
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
