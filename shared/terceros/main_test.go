package terceros_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// absent, as a value given to with, removes the key from the body.
var absent = testenv.Absent

// with copies body and sets (or, with absent, removes) key/value pairs.
func with(body map[string]any, kv ...any) map[string]any { return testenv.With(body, kv...) }

// call is one authenticated API call.
//
// Top-level tests run in parallel, each on its own environment; subtests
// sharing an environment run one after another because the local gateway
// is not safe for concurrent requests (see concurrency_test.go).
func call(e *testenv.Env, tok, method, path string, body any) testenv.Resp {
	e.T.Helper()
	return e.Do(testenv.Req{Method: method, Path: path, Token: tok, Body: body})
}

// create POSTs body to /api/<res> and returns the new id, failing otherwise.
func create(t *testing.T, e *testenv.Env, tok, res string, body map[string]any) int {
	t.Helper()
	r := call(e, tok, http.MethodPost, "/api/"+res, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create %s: %d %s", res, r.Status, r.Raw)
	}
	return int(testenv.Num(r.JSON, "data.id"))
}

func itemPath(res string, id int) string { return fmt.Sprintf("/api/%s/%d", res, id) }

// ids returns the ids of a list response's data, in order.
func ids(r testenv.Resp) []int {
	n := testenv.Len(r.JSON, "data")
	out := make([]int, 0, max(n, 0))
	for i := 0; i < n; i++ {
		out = append(out, int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
	}
	return out
}

// strs returns one string field of every row of a list response.
func strs(r testenv.Resp, field string) []string {
	n := testenv.Len(r.JSON, "data")
	out := make([]string, 0, max(n, 0))
	for i := 0; i < n; i++ {
		out = append(out, testenv.Str(r.JSON, fmt.Sprintf("data.%d.%s", i, field)))
	}
	return out
}

func containsID(list []int, id int) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// expect422 asserts a validation failure that names field.
func expect422(t *testing.T, r testenv.Resp, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422 on %s: %s", r.Status, field, r.Raw)
	}
	if len(r.FieldErrors(field)) == 0 {
		t.Fatalf("no errors[%q]: %s", field, r.Raw)
	}
	if testenv.Str(r.JSON, "message") == "" {
		t.Errorf("422 without message: %s", r.Raw)
	}
}

// userWith creates, in company 1, a role holding exactly perms and a user
// with it, and returns the user's token.
func userWith(t *testing.T, e *testenv.Env, admin, slugBase string, perms ...string) string {
	t.Helper()
	r := call(e, admin, http.MethodPost, "/api/roles", map[string]any{"nombre": "Rol " + slugBase, "permisos": perms})
	if r.Status != http.StatusCreated {
		t.Fatalf("create role: %d %s", r.Status, r.Raw)
	}
	slug := testenv.Str(r.JSON, "data.slug")
	email := strings.ToLower(slugBase) + "@demo.cr"
	r = call(e, admin, http.MethodPost, "/api/usuarios", map[string]any{
		"nombre": "Prueba", "apellidos": "Permisos", "email": email, "password": "Segura123!", "roles": []string{slug}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	return e.Login(email, "Segura123!")
}
