package testenv

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv/pgsql"
	"github.com/jackc/pgx/v5"
)

// Call is Do with a token and a body, the shape nearly every test call has,
// so packages do not each wrap Do again.
func (e *Env) Call(tok, method, path string, body any) Resp {
	e.T.Helper()
	return e.Do(Req{Method: method, Path: path, Token: tok, Body: body})
}

// Create POSTs body to path and returns the new record's data.id, failing
// t unless the answer is 201 with an id: fixtures made through the API.
func (e *Env) Create(t testing.TB, tok, path string, body any) int {
	t.Helper()
	r := e.Call(tok, http.MethodPost, path, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Raw)
	}
	id := int(Num(r.JSON, "data.id"))
	if id <= 0 {
		t.Fatalf("POST %s: no id in %s", path, r.Raw)
	}
	return id
}

// UserWith creates, in the company of the admin token, a role holding
// exactly perms and a user with that role only, and returns the user's
// token: permission tests need one user per permission set. name must be
// unique within the environment; it is the user's e-mail when it holds an
// "@", otherwise the e-mail is name@demo.cr.
func (e *Env) UserWith(t testing.TB, admin, name string, perms ...string) string {
	t.Helper()
	if perms == nil {
		perms = []string{}
	}
	r := e.Call(admin, http.MethodPost, "/api/roles", map[string]any{"nombre": "Rol " + name, "permisos": perms})
	if r.Status != http.StatusCreated {
		t.Fatalf("role %s: %d %s", name, r.Status, r.Raw)
	}
	email := name
	if !strings.Contains(name, "@") {
		email = strings.ToLower(name) + "@demo.cr"
	}
	r = e.Call(admin, http.MethodPost, "/api/usuarios", map[string]any{
		"nombre": "Prueba", "apellidos": "Permisos", "email": email, "password": "Segura123!", "roles": []string{Str(r.JSON, "data.slug")}})
	if r.Status != http.StatusCreated {
		t.Fatalf("user %s: %d %s", name, r.Status, r.Raw)
	}
	return e.Login(email, "Segura123!")
}

// RoundTrips counts the database round trips of one successful GET, for the
// tests that keep lists and shows at a constant number of queries.
func (e *Env) RoundTrips(t testing.TB, path, tok string) int64 {
	t.Helper()
	before := e.Queries.Load()
	if r := e.Get(path, tok); r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
	}
	return e.Queries.Load() - before
}

// Expect422 asserts the validation failure every module answers: 422, a
// message, and at least one error under field.
func Expect422(t testing.TB, r Resp, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422 on %s: %s", r.Status, field, r.Raw)
	}
	if len(r.FieldErrors(field)) == 0 {
		t.Fatalf("no errors[%q]: %s", field, r.Raw)
	}
	if Str(r.JSON, "message") == "" {
		t.Errorf("422 without message: %s", r.Raw)
	}
}

// IDs lists the ids of a list answer's data, in order, so list tests can
// compare and search them (slices.Contains).
func IDs(r Resp) []int {
	n := Len(r.JSON, "data")
	out := make([]int, 0, max(n, 0))
	for i := 0; i < n; i++ {
		out = append(out, int(Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
	}
	return out
}

// Strs lists one string key of every row of a list answer's data, in order,
// for sorting and filtering checks.
func Strs(r Resp, key string) []string {
	n := Len(r.JSON, "data")
	out := make([]string, 0, max(n, 0))
	for i := 0; i < n; i++ {
		out = append(out, Str(r.JSON, fmt.Sprintf("data.%d.%s", i, key)))
	}
	return out
}

// Scan runs owner SQL (test set-up and checks) and reads its one row into
// dst, for fixtures that need several columns or a nullable value.
func Scan(t testing.TB, e *Env, sql string, args []any, dst ...any) {
	t.Helper()
	pgsql.Scan(t, e.AdminURL, sql, args, dst...)
}

// Column runs owner SQL and returns the first column of every row, for
// fixtures inserted in bulk (insert ... returning id).
func Column[T any](t testing.TB, e *Env, sql string, args ...any) []T {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, sql, args...)
	out, err := pgx.CollectRows(rows, pgx.RowTo[T])
	if err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	return out
}

// Invalid is one refused body and the field its 422 must blame. It is an
// alias of an unnamed struct so tables can list cases positionally.
type Invalid = struct {
	Name  string
	Body  any
	Field string
}

// ExpectInvalid sends each body with method to path, one subtest a case,
// and expects Expect422 on its field: the validation table every resource
// has.
func (e *Env) ExpectInvalid(t *testing.T, tok, method, path string, cases []Invalid) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			Expect422(t, e.Call(tok, method, path, c.Body), c.Field)
		})
	}
}
