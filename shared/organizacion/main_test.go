package organizacion_test

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Demo data every test database starts with (shared/seed).
const (
	demoNit1 = "3101000001"
	demoNit2 = "3101000002"
)

// stack is one test database with the demo administrators logged in once
// (login is rate limited per e-mail, so tokens are reused).
type stack struct {
	*testenv.Env
	admin1, admin2 string
}

func newStack(t *testing.T) *stack {
	t.Helper()
	e := testenv.New(t)
	return &stack{Env: e, admin1: e.Admin(1), admin2: e.Admin(2)}
}

// req performs one call; hdr are extra headers ("X-Empresa-Id").
func (s *stack) req(method, path, token string, body any, hdr ...string) testenv.Resp {
	s.T.Helper()
	r := testenv.Req{Method: method, Path: path, Token: token, Body: body}
	if len(hdr) > 0 {
		r.Headers = map[string]string{}
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Headers[hdr[i]] = hdr[i+1]
		}
	}
	return s.Do(r)
}

// create POSTs body and returns the new id, failing t unless 201.
func (s *stack) create(t *testing.T, path, token string, body any, hdr ...string) int {
	t.Helper()
	r := s.req(http.MethodPost, path, token, body, hdr...)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Raw)
	}
	return int(testenv.Num(r.JSON, "data.id"))
}

// ids returns the ids of a list response, in order.
func ids(r testenv.Resp) []int {
	var out []int
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		out = append(out, int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
	}
	return out
}

// strs returns one string key of every row of a list response.
func strs(r testenv.Resp, key string) []string {
	var out []string
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		out = append(out, testenv.Str(r.JSON, fmt.Sprintf("data.%d.%s", i, key)))
	}
	return out
}

func hasID(r testenv.Resp, id int) bool {
	for _, x := range ids(r) {
		if x == id {
			return true
		}
	}
	return false
}

// errorKeys are the fields of a 422, sorted.
func errorKeys(r testenv.Resp) []string {
	errs, _ := r.JSON["errors"].(map[string]any)
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expect422 checks a validation failure keyed by field whose message
// contains want (Spanish text), and that no other field is blamed.
func expect422(t *testing.T, r testenv.Resp, field, want string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422: %s", r.Status, r.Raw)
	}
	if testenv.Str(r.JSON, "message") == "" {
		t.Errorf("422 without message: %s", r.Raw)
	}
	msgs := r.FieldErrors(field)
	if len(msgs) == 0 {
		t.Fatalf("no errors[%q]: %s", field, r.Raw)
	}
	if want != "" && !strings.Contains(strings.Join(msgs, " | "), want) {
		t.Errorf("errors[%q] = %q, want it to contain %q", field, msgs, want)
	}
	if keys := errorKeys(r); len(keys) != 1 {
		t.Errorf("errors blame %v, want only %q", keys, field)
	}
}

// principalID is the id of the tenant's principal row of a list path.
func (s *stack) principalID(t *testing.T, path, token string) int {
	t.Helper()
	r := s.Get(path+"?es_principal=1", token)
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("principal of %s: %d %s", path, r.Status, r.Raw)
	}
	return ids(r)[0]
}

// userWith creates, in company 1, a role holding only perms and a user with
// it, and returns the user's token.
func (s *stack) userWith(t *testing.T, email string, perms ...string) string {
	t.Helper()
	if perms == nil {
		perms = []string{}
	}
	role := s.req(http.MethodPost, "/api/roles", s.admin1, map[string]any{"nombre": "Rol " + email, "permisos": perms})
	if role.Status != http.StatusCreated {
		t.Fatalf("role: %d %s", role.Status, role.Raw)
	}
	s.create(t, "/api/usuarios", s.admin1, map[string]any{"nombre": "Limitado", "apellidos": "Prueba", "email": email,
		"password": "Segura123!", "roles": []string{testenv.Str(role.JSON, "data.slug")}})
	return s.Login(email, "Segura123!")
}

// roundTrips counts the database round trips of one GET (authorizer included).
func (s *stack) roundTrips(t *testing.T, path, token string) int64 {
	t.Helper()
	before := s.Queries.Load()
	if r := s.Get(path, token); r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
	}
	return s.Queries.Load() - before
}

// stock inserts one inventory row of warehouse almacen (company empresa),
// creating a product of the company's first category on the way.
func (s *stack) stock(empresa, almacen int, cantidad, costo string, eliminado bool) {
	s.T.Helper()
	s.Exec(`with p as (
			insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta)
			select $1, (select min(id) from categorias_producto where empresa_id = $1), (select min(id) from unidades_medida),
				'Producto de prueba', 'producto', 100
			returning id)
		insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario, eliminado)
		select $1, $2, p.id, $3::numeric, $4::numeric, $5 from p`, empresa, almacen, cantidad, costo, eliminado)
}

// producto inserts a product of the company (first category, first unit)
// and returns nothing: fixtures read it back by SQL.
func (s *stack) producto(empresa int) {
	s.T.Helper()
	s.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta)
		select $1, (select min(id) from categorias_producto where empresa_id = $1), (select min(id) from unidades_medida),
			'Producto de prueba', 'producto', 100`, empresa)
}
