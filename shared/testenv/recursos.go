package testenv

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// Recurso is one resource as its access tests see it: where it lives, the
// permission module that guards it, a record of company 1 and valid bodies
// to try the writes with. ExpectPermissions and ExpectIsolation check on
// it what every module owes (403 without the permission, 404 for another
// company), so each module's tests list only their data.
type Recurso struct {
	Path   string // the collection, "/api/buses"
	Modulo string // the permission module, "buses"
	ID     int    // a record of company 1
	// Crear is a valid create body, Cambio a valid partial update (PATCH)
	// and Completo a valid full one (PUT).
	Crear, Completo any
	Cambio          map[string]any
	// Consulta is the query a reader's list is tried with ("?por_vencer=30"),
	// "" for the plain list.
	Consulta string
	// Otro is another module's permission: the only one of the user who
	// must be refused everything.
	Otro string
}

// Item is the path of the record r.ID.
func (r Recurso) Item() string { return fmt.Sprintf("%s/%d", r.Path, r.ID) }

// ExpectPermissions checks, one subtest a case, that a user of admin's
// company holding only r.Otro is refused the list and the record (403), and
// that one holding only <modulo>.leer may list and show (200) but not
// create, update or delete (403). The users are named after the module, so
// several resources can be checked in one environment.
func (e *Env) ExpectPermissions(t *testing.T, admin string, r Recurso) {
	t.Helper()
	lector := e.UserWith(t, admin, "lector-"+r.Modulo, r.Modulo+".leer")
	nadie := e.UserWith(t, admin, "nadie-"+r.Modulo, r.Otro)
	cases := []struct {
		name, tok, method, path string
		body                    any
		want                    int
	}{
		{"list without " + r.Modulo + ".leer", nadie, http.MethodGet, r.Path, nil, http.StatusForbidden},
		{"show without " + r.Modulo + ".leer", nadie, http.MethodGet, r.Item(), nil, http.StatusForbidden},
		{"list with " + r.Modulo + ".leer", lector, http.MethodGet, r.Path + r.Consulta, nil, http.StatusOK},
		{"show with " + r.Modulo + ".leer", lector, http.MethodGet, r.Item(), nil, http.StatusOK},
		{"create without " + r.Modulo + ".crear", lector, http.MethodPost, r.Path, r.Crear, http.StatusForbidden},
		{"update without " + r.Modulo + ".actualizar", lector, http.MethodPatch, r.Item(), r.Cambio, http.StatusForbidden},
		{"delete without " + r.Modulo + ".eliminar", lector, http.MethodDelete, r.Item(), nil, http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if res := e.Call(c.tok, c.method, c.path, c.body); res.Status != c.want {
				t.Errorf("%d, want %d: %s", res.Status, c.want, res.Raw)
			}
		})
	}
}

// ExpectIsolation checks that another company's administrator (other) gets
// 404 on showing, updating (PATCH and PUT) and deleting r's record, one
// subtest a method, and does not find it in its list.
func (e *Env) ExpectIsolation(t *testing.T, other string, r Recurso) {
	t.Helper()
	for _, c := range []struct {
		method string
		body   any
	}{{http.MethodGet, nil}, {http.MethodPatch, r.Cambio}, {http.MethodPut, r.Completo}, {http.MethodDelete, nil}} {
		t.Run("another company's "+c.method, func(t *testing.T) {
			if res := e.Call(other, c.method, r.Item(), c.body); res.Status != http.StatusNotFound {
				t.Errorf("%d, want 404: %s", res.Status, res.Raw)
			}
		})
	}
	if ids := IDs(e.Get(r.Path+"?per_page=100", other)); slices.Contains(ids, r.ID) {
		t.Errorf("another company lists %s: %v", r.Item(), ids)
	}
}

// Rechazo is one write that must be refused with a 422: its method, path
// and body, the field blamed and, when it matters, part of that field's
// message ("" for any). An alias of an unnamed struct, so tables list cases
// positionally.
type Rechazo = struct {
	Name, Method, Path string
	Body               any
	Field, Msg         string
}

// ExpectRefused sends each write as tok, one subtest a case, and expects
// Expect422 on its field with Msg among that field's messages.
func (e *Env) ExpectRefused(t *testing.T, tok string, cases []Rechazo) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := e.Call(tok, c.Method, c.Path, c.Body)
			Expect422(t, r, c.Field)
			if msgs := r.FieldErrors(c.Field); c.Msg != "" && !strings.Contains(strings.Join(msgs, " "), c.Msg) {
				t.Errorf("errors[%s] = %v, want %q", c.Field, msgs, c.Msg)
			}
		})
	}
}
