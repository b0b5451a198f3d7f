package organizacion_test

import (
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
	e := testenv.NewParallel(t)
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
	testenv.Expect422(t, r, field)
	msgs := r.FieldErrors(field)
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
	return testenv.IDs(r)[0]
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
