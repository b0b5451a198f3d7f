package terceros_test

// Behaviour both resources share through the common CRUD shape: operations,
// soft delete, permissions, tenant isolation, pagination, sorting and a
// constant number of database round trips.

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

type resource struct {
	name   string // path segment: /api/<name>
	module string // permission module
	// body is a valid create body, unique for i.
	body func(i int) map[string]any
	// edit is a valid partial update and the field it changes.
	edit      map[string]any
	editField string
	// bulk inserts $1 rows for company 1 as the owner (fixtures).
	bulk string
	// notFound is the 404 message.
	notFound string
}

var resources = []resource{
	{
		name: "clientes", module: "clientes",
		body: func(i int) map[string]any {
			return map[string]any{"tipo_identificacion": "fisica", "identificacion": fmt.Sprintf("1%08d", i),
				"nombre": fmt.Sprintf("Cliente %03d", i), "apellidos": "Prueba"}
		},
		edit: map[string]any{"nombre": "Editado"}, editField: "nombre",
		bulk: `insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre)
			select 1, 'fisica', (200000000 + g)::text, 'Masivo ' || g from generate_series(1, $1) g`,
		notFound: "Cliente no encontrado.",
	},
	{
		name: "proveedores", module: "proveedores",
		body: func(i int) map[string]any {
			return map[string]any{"nombre": fmt.Sprintf("Proveedor %03d", i), "nit_ruc": fmt.Sprintf("NIT%d", i)}
		},
		edit: map[string]any{"nombre": "Editado"}, editField: "nombre",
		bulk: `insert into proveedores (empresa_id, nombre, nit_ruc)
			select 1, 'Masivo ' || g, 'M' || g from generate_series(1, $1) g`,
		notFound: "Proveedor no encontrado.",
	},
}

func TestEveryOperationWorksEndToEnd(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			// Create: 201 {success, message, data} with the tenant assigned.
			r := e.Call(admin, http.MethodPost, "/api/"+res.name, testenv.With(res.body(1), "empresa_id", 2))
			if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") == "" || r.JSON["data"] == nil {
				t.Fatalf("create: %d %s", r.Status, r.Raw)
			}
			id := int(testenv.Num(r.JSON, "data.id"))
			if id <= 0 || testenv.Num(r.JSON, "data.empresa_id") != 1 {
				t.Errorf("created in the wrong company or without id (empresa_id in the body must be ignored): %s", r.Raw)
			}
			for _, k := range []string{"creado_en", "actualizado_en"} {
				if testenv.Str(r.JSON, "data."+k) == "" {
					t.Errorf("no %s: %s", k, r.Raw)
				}
			}
			if testenv.Get(r.JSON, "data.activo") != true || testenv.Get(r.JSON, "data.eliminado") != false {
				t.Errorf("a new record is active and not deleted: %s", r.Raw)
			}
			if strings.Contains(string(r.Raw), "busqueda") {
				t.Errorf("internal search column leaked: %s", r.Raw)
			}
			// Show.
			path := itemPath(res.name, id)
			r = e.Get(path, admin)
			if r.Status != http.StatusOK || int(testenv.Num(r.JSON, "data.id")) != id {
				t.Fatalf("show: %d %s", r.Status, r.Raw)
			}
			// List.
			r = e.Get("/api/"+res.name, admin)
			if r.Status != http.StatusOK || !slices.Contains(testenv.IDs(r), id) || testenv.Num(r.JSON, "total") != 1 {
				t.Fatalf("list: %d %s", r.Status, r.Raw)
			}
			// PUT and PATCH.
			for _, m := range []string{http.MethodPut, http.MethodPatch} {
				v := m + " " + res.editField
				r = e.Call(admin, m, path, map[string]any{res.editField: v})
				if r.Status != http.StatusOK || testenv.Str(r.JSON, "data."+res.editField) != v || testenv.Str(r.JSON, "message") == "" {
					t.Fatalf("%s: %d %s", m, r.Status, r.Raw)
				}
			}
			// Delete.
			r = e.Call(admin, http.MethodDelete, path, nil)
			if r.Status != http.StatusOK || testenv.Str(r.JSON, "message") == "" {
				t.Fatalf("delete: %d %s", r.Status, r.Raw)
			}
		})
	}
}

func TestUnknownRecordIsNotFound(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		for _, id := range []string{"999999", "0", "-1", "abc"} {
			for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				t.Run(res.name+" "+m+" "+id, func(t *testing.T) {
					var body any
					if m == http.MethodPut || m == http.MethodPatch {
						body = res.edit
					}
					r := e.Call(admin, m, "/api/"+res.name+"/"+id, body)
					if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
						t.Fatalf("%d %s", r.Status, r.Raw)
					}
					if id == "999999" && testenv.Str(r.JSON, "message") != res.notFound {
						t.Errorf("message %q, want %q", testenv.Str(r.JSON, "message"), res.notFound)
					}
				})
			}
		}
	}
}

func TestDeleteIsSoft(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			keep := e.Create(t, admin, "/api/"+res.name, res.body(1))
			gone := e.Create(t, admin, "/api/"+res.name, res.body(2))
			path := itemPath(res.name, gone)
			if r := e.Call(admin, http.MethodDelete, path, nil); r.Status != http.StatusOK {
				t.Fatalf("delete: %d %s", r.Status, r.Raw)
			}
			if r := e.Get(path, admin); r.Status != http.StatusNotFound {
				t.Errorf("show after delete: %d %s", r.Status, r.Raw)
			}
			for _, q := range []string{"", "?activos=0", "?activos=1", "?per_page=100"} {
				r := e.Get("/api/"+res.name+q, admin)
				if got := testenv.IDs(r); slices.Contains(got, gone) || !slices.Contains(got, keep) && q != "?activos=0" || testenv.Num(r.JSON, "total") != float64(len(got)) {
					t.Errorf("list%s after delete: %s", q, r.Raw)
				}
			}
			for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
				if r := e.Call(admin, m, path, res.edit); r.Status != http.StatusNotFound {
					t.Errorf("%s after delete: %d %s", m, r.Status, r.Raw)
				}
			}
			// The row is kept, flagged deleted and inactive.
			if tag := e.Exec(`update `+res.name+` set nombre = nombre where id = $1 and eliminado and not activo`, gone); tag.RowsAffected() != 1 {
				t.Errorf("the row was not soft-deleted")
			}
		})
	}
}

func TestRoleWithoutTheModuleIsForbidden(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	recs := map[string]int{}
	for _, res := range resources {
		recs[res.name] = e.Create(t, admin, "/api/"+res.name, res.body(1))
	}
	// Tokens: none of either module; read-only on each; everything on each.
	none := e.UserWith(t, admin, "ninguno", "productos.leer")
	tokens := map[string]string{"ninguno": none}
	for _, res := range resources {
		tokens[res.module+".leer"] = e.UserWith(t, admin, "leer"+res.name, res.module+".leer")
		tokens[res.module+".todo"] = e.UserWith(t, admin, "todo"+res.name,
			res.module+".leer", res.module+".crear", res.module+".actualizar", res.module+".eliminar")
	}
	type op struct {
		name, method, action string
		path                 func(res resource) string
		body                 func(res resource, i int) any
	}
	ops := []op{
		{"list", http.MethodGet, "leer", func(res resource) string { return "/api/" + res.name }, nil},
		{"show", http.MethodGet, "leer", func(res resource) string { return itemPath(res.name, recs[res.name]) }, nil},
		{"create", http.MethodPost, "crear", func(res resource) string { return "/api/" + res.name },
			func(res resource, i int) any { return res.body(100 + i) }},
		{"put", http.MethodPut, "actualizar", func(res resource) string { return itemPath(res.name, recs[res.name]) },
			func(res resource, _ int) any { return res.edit }},
		{"patch", http.MethodPatch, "actualizar", func(res resource) string { return itemPath(res.name, recs[res.name]) },
			func(res resource, _ int) any { return res.edit }},
	}
	i := 0
	for _, res := range resources {
		for holder, tok := range tokens {
			for _, o := range ops {
				i++
				allowed := holder == res.module+".todo" || holder == res.module+".leer" && o.action == "leer"
				var body any
				if o.body != nil {
					body = o.body(res, i)
				}
				r := e.Call(tok, o.method, o.path(res), body)
				want := http.StatusForbidden
				if allowed {
					want = http.StatusOK
					if o.method == http.MethodPost {
						want = http.StatusCreated
					}
				}
				if r.Status != want {
					t.Errorf("%s %s by %s: %d, want %d: %s", o.name, res.name, holder, r.Status, want, r.Raw)
				}
				if want == http.StatusForbidden && testenv.Str(r.JSON, "message") == "" {
					t.Errorf("403 without message: %s", r.Raw)
				}
			}
		}
		// Delete last, so the record exists for the checks above.
		for holder, tok := range tokens {
			if holder == res.module+".todo" {
				continue
			}
			if r := e.Call(tok, http.MethodDelete, itemPath(res.name, recs[res.name]), nil); r.Status != http.StatusForbidden {
				t.Errorf("delete %s by %s: %d %s", res.name, holder, r.Status, r.Raw)
			}
		}
		if r := e.Call(tokens[res.module+".todo"], http.MethodDelete, itemPath(res.name, recs[res.name]), nil); r.Status != http.StatusOK {
			t.Errorf("delete %s with %s.eliminar: %d %s", res.name, res.module, r.Status, r.Raw)
		}
	}
	// Without a token: not served.
	for _, res := range resources {
		if r := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/" + res.name}); r.Status < 400 || r.Status >= 500 || r.Status == http.StatusNotFound {
			t.Errorf("anonymous list of %s: %d %s", res.name, r.Status, r.Raw)
		}
	}
}

func TestAnotherCompanyCannotSeeChangeOrDelete(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			mine := e.Create(t, admin1, "/api/"+res.name, res.body(7))
			theirs := e.Create(t, admin2, "/api/"+res.name, res.body(8))
			path := itemPath(res.name, mine)
			r := e.Get("/api/"+res.name+"?per_page=100", admin2)
			if got := testenv.IDs(r); slices.Contains(got, mine) || !slices.Contains(got, theirs) || testenv.Num(r.JSON, "total") != 1 {
				t.Errorf("company 2's list: %s", r.Raw)
			}
			// Searching for it does not find it either.
			body := res.body(7)
			if r := e.Get("/api/"+res.name+"?search="+strings.ReplaceAll(body["nombre"].(string), " ", "+"), admin2); testenv.Num(r.JSON, "total") != 0 {
				t.Errorf("company 2 found company 1's record by search: %s", r.Raw)
			}
			for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				var b any
				if m == http.MethodPut || m == http.MethodPatch {
					b = map[string]any{"nombre": "Hackeado", "activo": false}
				}
				if r := e.Call(admin2, m, path, b); r.Status != http.StatusNotFound {
					t.Errorf("%s by company 2: %d %s", m, r.Status, r.Raw)
				}
			}
			r = e.Get(path, admin1)
			if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.nombre") != body["nombre"] || testenv.Get(r.JSON, "data.activo") != true {
				t.Errorf("record changed by company 2: %d %s", r.Status, r.Raw)
			}
			// An empresa_id query parameter cannot widen the tenant.
			if r := e.Get("/api/"+res.name+"?per_page=100&empresa_id=2", admin1); slices.Contains(testenv.IDs(r), theirs) {
				t.Errorf("company 1 listing with empresa_id=2: %s", r.Raw)
			}
			// Company 1 cannot reach company 2's record either.
			if r := e.Get(itemPath(res.name, theirs), admin1); r.Status != http.StatusNotFound {
				t.Errorf("company 1 showing company 2's record: %d", r.Status)
			}
			// Naming company 1 explicitly does not help company 2's admin.
			r = e.Do(testenv.Req{Method: http.MethodGet, Path: path, Token: admin2, Headers: map[string]string{"X-Empresa-Id": "1"}})
			if r.Status != http.StatusForbidden {
				t.Errorf("X-Empresa-Id of a foreign company: %d %s", r.Status, r.Raw)
			}
		})
	}
}

func TestPaginationAndSorting(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			e.Exec(res.bulk, 23)
			base := "/api/" + res.name
			r := e.Get(base, admin)
			if r.Status != http.StatusOK || testenv.Len(r.JSON, "data") != 15 || testenv.Num(r.JSON, "per_page") != 15 ||
				testenv.Num(r.JSON, "total") != 23 || testenv.Num(r.JSON, "current_page") != 1 {
				t.Fatalf("default page: %d %s", r.Status, r.Raw)
			}
			cases := []struct {
				name, query string
				len, page   int
			}{
				{"per_page 10 page 1", "?per_page=10", 10, 1},
				{"per_page 10 page 3 is the remainder", "?per_page=10&page=3", 3, 3},
				{"page past the end is empty", "?per_page=10&page=4", 0, 4},
				{"per_page 100 holds all", "?per_page=100", 23, 1},
				{"per_page 1", "?per_page=1&page=23", 1, 23},
			}
			for _, c := range cases {
				r := e.Get(base+c.query, admin)
				if r.Status != http.StatusOK || testenv.Len(r.JSON, "data") != c.len ||
					int(testenv.Num(r.JSON, "current_page")) != c.page || testenv.Num(r.JSON, "total") != 23 {
					t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
				}
			}
			r = e.Get(base+"?per_page=10&page=3", admin)
			if testenv.Num(r.JSON, "per_page") != 10 || testenv.Num(r.JSON, "last_page") != 3 ||
				testenv.Num(r.JSON, "from") != 21 || testenv.Num(r.JSON, "to") != 23 {
				t.Errorf("page metadata: %s", r.Raw)
			}
			if r = e.Get(base+"?per_page=10&page=9", admin); testenv.Get(r.JSON, "from") != nil || testenv.Num(r.JSON, "last_page") != 3 {
				t.Errorf("empty page metadata: %s", r.Raw)
			}
			// Pages do not overlap and cover every row.
			seen := map[int]bool{}
			for p := 1; p <= 3; p++ {
				for _, id := range testenv.IDs(e.Get(fmt.Sprintf("%s?per_page=10&page=%d", base, p), admin)) {
					if seen[id] {
						t.Errorf("id %d on two pages", id)
					}
					seen[id] = true
				}
			}
			if len(seen) != 23 {
				t.Errorf("pages cover %d rows, want 23", len(seen))
			}
			// Bad paging and sorting parameters are 422 on that parameter.
			for q, field := range map[string]string{
				"?per_page=0": "per_page", "?per_page=101": "per_page", "?per_page=diez": "per_page",
				"?page=0": "page", "?page=-1": "page", "?page=uno": "page",
				"?sort=password": "sort", "?sort=nombre%3Bdrop": "sort", "?sort=nombre&order=sideways": "order",
				"?activos=quizas": "activos",
			} {
				testenv.Expect422(t, e.Get(base+q, admin), field)
			}
			// sort/order.
			asc := testenv.Strs(e.Get(base+"?per_page=100&sort=nombre", admin), "nombre")
			desc := testenv.Strs(e.Get(base+"?per_page=100&sort=nombre&order=desc", admin), "nombre")
			if len(asc) != 23 || !slices.IsSorted(asc) {
				t.Errorf("sort=nombre: %v", asc)
			}
			slices.Reverse(desc)
			if !slices.Equal(asc, desc) {
				t.Errorf("order=desc is not the reverse of asc: %v", desc)
			}
			byID := testenv.IDs(e.Get(base+"?per_page=100&sort=id&order=DESC", admin))
			if !slices.IsSortedFunc(byID, func(a, b int) int { return b - a }) {
				t.Errorf("sort=id order=DESC: %v", byID)
			}
			byDefault := testenv.IDs(e.Get(base+"?per_page=100", admin))
			if !slices.IsSorted(byDefault) {
				t.Errorf("default order is by id: %v", byDefault)
			}
			for _, col := range []string{"razon_social", "creado_en", "actualizado_en"} {
				if r := e.Get(base+"?sort="+col, admin); r.Status != http.StatusOK {
					t.Errorf("sort=%s: %d %s", col, r.Status, r.Raw)
				}
			}
		})
	}
	if r := e.Get("/api/clientes?sort=identificacion&per_page=100", admin); !slices.IsSorted(testenv.Strs(r, "identificacion")) {
		t.Errorf("clientes sort=identificacion: %s", r.Raw)
	}
	if r := e.Get("/api/proveedores?sort=nit_ruc&order=desc&per_page=100", admin); r.Status != http.StatusOK ||
		!slices.IsSortedFunc(testenv.Strs(r, "nit_ruc"), func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("proveedores sort=nit_ruc desc: %s", r.Raw)
	}
}

func TestListAndShowUseAConstantNumberOfQueries(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		e.Exec(res.bulk, 120)
	}
	queries := func(path string) int64 { return e.RoundTrips(t, path, admin) }
	queries("/api/clientes") // warm up (token last-use bookkeeping)
	for _, res := range resources {
		base := "/api/" + res.name
		for _, filter := range []string{"", "&search=masivo", "&activos=1"} {
			q10 := queries(base + "?per_page=10" + filter)
			q100 := queries(base + "?per_page=100" + filter)
			if q10 != q100 {
				t.Errorf("%s%s: %d round trips for 10 rows, %d for 100", base, filter, q10, q100)
			}
			t.Logf("%s%s: %d round trips for 10 rows and for 100", base, filter, q100)
			if q100 > 6 {
				t.Errorf("%s%s: %d round trips for one list", base, filter, q100)
			}
		}
		list := e.Get(base+"?per_page=2", admin)
		a, b := testenv.IDs(list)[0], testenv.IDs(list)[1]
		qa, qb := queries(itemPath(res.name, a)), queries(itemPath(res.name, b))
		if qa != qb || qa > 6 {
			t.Errorf("%s show: %d and %d round trips", res.name, qa, qb)
		}
	}
}

func TestMalformedBodies(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		id := e.Create(t, admin, "/api/"+res.name, res.body(1))
		for _, c := range []struct {
			name, method, path string
			body               any
			headers            map[string]string
			status             int
		}{
			{"not JSON", http.MethodPost, "/api/" + res.name, "{nombre:", nil, http.StatusBadRequest},
			{"an array", http.MethodPost, "/api/" + res.name, "[]", nil, http.StatusBadRequest},
			{"a string", http.MethodPatch, itemPath(res.name, id), `"x"`, nil, http.StatusBadRequest},
			{"wrong content type", http.MethodPut, itemPath(res.name, id), `{"nombre":"x"}`, map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
			{"empty create body", http.MethodPost, "/api/" + res.name, "", nil, http.StatusUnprocessableEntity},
		} {
			r := e.Do(testenv.Req{Method: c.method, Path: c.path, Token: admin, Body: c.body, Headers: c.headers})
			if r.Status != c.status || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("%s %s: %d %s, want %d", res.name, c.name, r.Status, r.Raw, c.status)
			}
		}
	}
}

// partialUpdate creates full in res and checks that PUT and PATCH of field
// alone (sent) answer 200 with msg, store field as want and leave every
// other key of full as it was; it returns the record's id and path.
func partialUpdate(t *testing.T, e *testenv.Env, tok, res string, full map[string]any, field string, sent, want any, msg string) (int, string) {
	t.Helper()
	id := e.Create(t, tok, "/api/"+res, full)
	path := itemPath(res, id)
	before := e.Get(path, tok)
	for _, m := range []string{http.MethodPut, http.MethodPatch} {
		r := e.Call(tok, m, path, map[string]any{field: sent})
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "message") != msg {
			t.Fatalf("%s: %d %s", m, r.Status, r.Raw)
		}
		if got := testenv.Get(r.JSON, "data."+field); got != want {
			t.Errorf("%s: %s = %#v, want %#v: %s", m, field, got, want, r.Raw)
		}
		for k := range full {
			if got, was := testenv.Get(r.JSON, "data."+k), testenv.Get(before.JSON, "data."+k); k != field && got != was {
				t.Errorf("%s changed %s from %#v to %#v", m, k, was, got)
			}
		}
	}
	return id, path
}

// clearOptional PATCHes clear (optional fields sent null or blank) to path
// and checks that each answers null, the credit numbers 0.
func clearOptional(t *testing.T, e *testenv.Env, tok, path string, clear map[string]any) testenv.Resp {
	t.Helper()
	r := e.Must(t, http.StatusOK, tok, http.MethodPatch, path, clear)
	for k := range clear {
		want := any(nil)
		if k == "limite_credito" || k == "dias_credito" {
			want = float64(0)
		}
		if got := testenv.Get(r.JSON, "data."+k); got != want {
			t.Errorf("%s after null = %#v, want %#v", k, got, want)
		}
	}
	return r
}

// TestSharedFieldRules: the rules customers and suppliers share refuse
// each value with a 422 on its field, for both resources. The values are
// those each resource's own table used to list (some rules had two).
func TestSharedFieldRules(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	rules := []struct {
		name, field string
		values      []any
	}{
		{"nombre max 255", "nombre", []any{strings.Repeat("a", 256)}},
		{"nombre not a string", "nombre", []any{12, 5}},
		{"razon_social max 255", "razon_social", []any{strings.Repeat("a", 256)}},
		{"email invalid", "email", []any{"no-es-correo", "ventas@"}},
		{"email max 255", "email", []any{strings.Repeat("a", 250) + "@x.com"}},
		{"telefono starting with 1", "telefono", []any{"1234-5678"}},
		{"celular invalid", "celular", []any{"abc", "+506 9999-9999"}},
		{"direccion max 500", "direccion", []any{strings.Repeat("d", 501)}},
		{"limite_credito negative", "limite_credito", []any{-1, -0.01}},
		{"limite_credito 3 decimals", "limite_credito", []any{10.555, "1.001"}},
		{"limite_credito not a number", "limite_credito", []any{"mil", "mucho"}},
		{"dias_credito negative", "dias_credito", []any{-1}},
		{"dias_credito fraction", "dias_credito", []any{1.5, 2.5}},
		{"dias_credito beyond an integer column", "dias_credito", []any{3000000000}},
		{"activo not a boolean", "activo", []any{"quizas", "si"}},
	}
	for _, res := range resources {
		var cases []testenv.Invalid
		for _, r := range rules {
			for i, v := range r.values {
				cases = append(cases, testenv.Invalid{Name: fmt.Sprintf("%s %d", r.name, i+1), Body: testenv.With(res.body(900), r.field, v), Field: r.field})
			}
		}
		t.Run(res.name, func(t *testing.T) { e.ExpectInvalid(t, admin, http.MethodPost, "/api/"+res.name, cases) })
	}
}

// An export whose filter matches nothing is still a table: its CSV and its
// workbook hold the header an export with rows starts with (the declared
// resource's columns), and no row.
func TestAnExportWithNoRowsStillHasItsHeader(t *testing.T) {
	e, admin := testenv.NewAdmin(t, testenv.Limite("exports", 100, time.Hour))
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			e.Create(t, admin, "/api/"+res.name, res.body(1))
			full := csvRecords(t, e.Get("/api/"+res.name+"?formato=csv", admin))
			if len(full) != 2 || !slices.Contains(full[0], "id") || !slices.Contains(full[0], "nombre") {
				t.Fatalf("export with a row: %q", full)
			}
			empty := csvRecords(t, e.Get("/api/"+res.name+"?formato=csv&search=ningunoasi", admin))
			if len(empty) != 1 || !slices.Equal(empty[0], full[0]) {
				t.Fatalf("empty CSV export:\n%q\nwant only the header\n%q", empty, full[0])
			}
			r := e.Get("/api/"+res.name+"?formato=excel&search=ningunoasi", admin)
			if r.Status != http.StatusOK {
				t.Fatalf("excel: %d %.300s", r.Status, r.Raw)
			}
			if _, rows := testenv.XLSX(t, r.Raw, "Datos"); len(rows) != 1 || !slices.Equal(rows[0], full[0]) {
				t.Fatalf("empty workbook:\n%q\nwant only the header\n%q", rows, full[0])
			}
		})
	}
}

// csvRecords reads a 200 CSV download, without its BOM, with encoding/csv.
func csvRecords(t *testing.T, r testenv.Resp) [][]string {
	t.Helper()
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv export: %d %v %.300s", r.Status, r.Header, r.Raw)
	}
	if !bytes.HasPrefix(r.Raw, []byte("\ufeff")) {
		t.Fatalf("no BOM: %q", r.Raw)
	}
	return testenv.CSVRows(t, bytes.TrimPrefix(r.Raw, []byte("\ufeff")))
}
