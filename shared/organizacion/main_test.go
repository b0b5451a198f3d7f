package organizacion_test

import (
	"fmt"
	"net/http"
	"os"
	"slices"
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

// listCase is one list query: the total it must count and the nombre of
// its first row ("" when the page is empty).
type listCase struct {
	name, query string
	total       int
	first       string
}

// checkList runs each list case against path as a parallel subtest; none
// may show company 2's rows (their names hold "Demo Dos").
func (s *stack) checkList(t *testing.T, path string, cases []listCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := s.Get(path+"?"+c.query, s.admin1)
			if r.Status != 200 || int(testenv.Num(r.JSON, "total")) != c.total || testenv.Str(r.JSON, "data.0.nombre") != c.first {
				t.Errorf("%s: %d total=%v first=%q %s", c.query, r.Status, testenv.Num(r.JSON, "total"), testenv.Str(r.JSON, "data.0.nombre"), r.Raw)
			}
			if strings.Contains(string(r.Raw), "Demo Dos") {
				t.Errorf("company 2's row listed: %s", r.Raw)
			}
		})
	}
}

// checkFirstRow lists path as company 1 in a parallel subtest and checks
// the first row's value at each key (nested keys with dots).
func (s *stack) checkFirstRow(t *testing.T, name, path string, want map[string]any) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		r := s.Get(path, s.admin1)
		for k, v := range want {
			if got := testenv.Get(r.JSON, "data.0."+k); got != v {
				t.Errorf("%s = %#v, want %#v: %s", k, got, v, r.Raw)
			}
		}
	})
}

// update is one change of a record and the data paths it must leave.
type update struct {
	name, method string
	body         map[string]any
	want         map[string]any
}

// applyUpdates sends the updates to path in order; each must answer 200
// with message msg and leave its want.
func (s *stack) applyUpdates(t *testing.T, path, msg string, steps []update) {
	t.Helper()
	for _, st := range steps {
		r := s.req(st.method, path, s.admin1, st.body)
		if r.Status != 200 || testenv.Str(r.JSON, "message") != msg {
			t.Fatalf("%s: %d %s", st.name, r.Status, r.Raw)
		}
		for k, want := range st.want {
			if got := testenv.Get(r.JSON, "data."+k); got != want {
				t.Errorf("%s: %s = %v, want %v", st.name, k, got, want)
			}
		}
	}
}

// deleteSoftly deletes record id of table (answered with message deleted);
// afterwards every method on it is 404 notFound, the list no longer holds
// it and counts remaining, and the row is kept, deleted and inactive.
func (s *stack) deleteSoftly(t *testing.T, table string, id, remaining int, deleted, notFound string) {
	t.Helper()
	path := fmt.Sprintf("/api/%s/%d", table, id)
	r := s.req(http.MethodDelete, path, s.admin1, nil)
	if r.Status != 200 || testenv.Str(r.JSON, "message") != deleted {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	for _, m := range []string{"GET", "PUT", "PATCH", "DELETE"} {
		if r := s.req(m, path, s.admin1, map[string]any{"nombre": "X"}); r.Status != 404 || testenv.Str(r.JSON, "message") != notFound {
			t.Errorf("%s after delete: %d %s", m, r.Status, r.Raw)
		}
	}
	if r := s.Get("/api/"+table+"?per_page=100", s.admin1); slices.Contains(testenv.IDs(r), id) || int(testenv.Num(r.JSON, "total")) != remaining {
		t.Errorf("list after delete: %s", r.Raw)
	}
	if tag := s.Exec(`update `+table+` set nombre = nombre where id = $1 and eliminado and not activo`, id); tag.RowsAffected() != 1 {
		t.Errorf("%s row %d was not soft-deleted", table, id)
	}
}

// invalid is a refused write: the field blamed and part of its message.
type invalid struct {
	name, method, field, msg string
	body                     map[string]any
}

// checkInvalid sends each case as a parallel subtest, POSTs to collection
// and the other methods to item, and expects the 422 of expect422.
func (s *stack) checkInvalid(t *testing.T, collection, item string, cases []invalid) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := collection
			if c.method != "POST" {
				path = item
			}
			expect422(t, s.req(c.method, path, s.admin1, c.body), c.field, c.msg)
		})
	}
}

// checkRefused checks, each in a parallel subtest, that the list query of
// path is refused with a 422 blaming its parameter.
func (s *stack) checkRefused(t *testing.T, path string, queries ...string) {
	t.Helper()
	for _, bad := range queries {
		t.Run("refused "+bad, func(t *testing.T) {
			t.Parallel()
			expect422(t, s.Get(path+"?"+bad, s.admin1), strings.SplitN(bad, "=", 2)[0], "El campo")
		})
	}
}
