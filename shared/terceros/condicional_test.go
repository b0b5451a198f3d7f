package terceros_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A client that read a record sends its ETag back in If-Match: the update
// or delete happens only while the record is still that version (412
// otherwise, nothing changed), so two clients editing the same customer do
// not silently overwrite each other.
func TestIfMatchRefusesWritesOverAChangedRecord(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	id := e.Create(t, admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "101110111", "nombre": "Ana"})
	item := fmt.Sprintf("/api/clientes/%d", id)
	etag := func() string {
		r := e.Get(item, admin)
		if r.Header.Get("ETag") == "" {
			t.Fatalf("no ETag: %d %s", r.Status, r.Raw)
		}
		return r.Header.Get("ETag")
	}
	write := func(method, ifMatch string, body any) testenv.Resp {
		return e.Do(testenv.Req{Method: method, Path: item, Token: admin, Body: body, Headers: map[string]string{"If-Match": ifMatch}})
	}
	leida := etag()
	cases := []struct {
		name, method, ifMatch string
		body                  any
		want                  int
	}{
		{"PATCH with the current ETag", http.MethodPatch, leida, map[string]any{"nombre": "Beatriz"}, http.StatusOK},
		{"PATCH with the ETag read before that change", http.MethodPatch, leida, map[string]any{"nombre": "Carla"}, http.StatusPreconditionFailed},
		{"PUT with the stale ETag among others", http.MethodPut, `"x", ` + leida, map[string]any{"nombre": "Carla"}, http.StatusPreconditionFailed},
		{"DELETE with the stale ETag", http.MethodDelete, leida, nil, http.StatusPreconditionFailed},
		{"a weak ETag never matches", http.MethodPatch, "W/" + etag(), map[string]any{"nombre": "Carla"}, http.StatusPreconditionFailed},
		{"If-Match: * matches any version", http.MethodPatch, "*", map[string]any{"apellidos": "Mora"}, http.StatusOK},
		{"without If-Match nothing is compared", http.MethodPatch, "", map[string]any{"apellidos": "Solís"}, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := write(c.method, c.ifMatch, c.body)
			if r.Status != c.want || (c.want == http.StatusPreconditionFailed && (testenv.Str(r.JSON, "message") == "" || r.JSON["success"] != false)) {
				t.Fatalf("%d, want %d: %s", r.Status, c.want, r.Raw)
			}
		})
	}
	if got := testenv.Str(e.Get(item, admin).JSON, "data.nombre"); got != "Beatriz" {
		t.Errorf("nombre %q: a refused write changed the record", got)
	}
	// Two clients holding the same version race: the row is locked before
	// the comparison, so exactly one wins.
	same := etag()
	rs := testenv.Concurrently(6, func(i int) testenv.Resp {
		return write(http.MethodPatch, same, map[string]any{"nombre": fmt.Sprintf("Cliente %d", i)})
	})
	won := 0
	for _, r := range rs {
		switch r.Status {
		case http.StatusOK:
			won++
		case http.StatusPreconditionFailed:
		default:
			t.Errorf("race: %d %s", r.Status, r.Raw)
		}
	}
	if won != 1 {
		t.Errorf("%d of 6 writes with the same ETag succeeded", won)
	}
	// A company (its show acts in it first) compares the same way.
	empresa := e.Get("/api/empresas/1", admin).Header.Get("ETag")
	if r := e.Do(testenv.Req{Method: http.MethodPatch, Path: "/api/empresas/1", Token: admin, Body: map[string]any{"ciudad": "Heredia"},
		Headers: map[string]string{"If-Match": empresa}}); r.Status != http.StatusOK {
		t.Errorf("company with its current ETag: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: http.MethodPatch, Path: "/api/empresas/1", Token: admin, Body: map[string]any{"ciudad": "Cartago"},
		Headers: map[string]string{"If-Match": empresa}}); r.Status != http.StatusPreconditionFailed {
		t.Errorf("company with a stale ETag: %d %s", r.Status, r.Raw)
	}
	// The ETag a GET gives now deletes it; another company's If-Match is
	// still a 404.
	if r := e.Do(testenv.Req{Method: http.MethodDelete, Path: item, Token: e.Admin(2), Headers: map[string]string{"If-Match": "*"}}); r.Status != http.StatusNotFound {
		t.Errorf("another company: %d %s", r.Status, r.Raw)
	}
	if r := write(http.MethodDelete, etag(), nil); r.Status != http.StatusOK {
		t.Errorf("delete with the current ETag: %d %s", r.Status, r.Raw)
	}
}
