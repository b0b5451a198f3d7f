package catalogo_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/testenv"
)

func TestSeededCatalogsAreReadOnlyListsForEveryUser(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	nadie := e.UserWith(t, e.Admin(1), "Lector") // no permission at all
	cases := []struct {
		path   string
		total  int
		key    string // a column every row has
		sort   string
		filter string // a query that finds exactly one row
	}{
		{"/api/regimenes-tributarios", len(seed.Regimenes), "codigo", "nombre", ""},
		{"/api/tipos-impuesto", len(seed.Impuestos), "codigo_tarifa_iva", "porcentaje", "codigo_tarifa_iva=08"},
		{"/api/formas-pago", len(seed.FormasPago), "codigo", "codigo", ""},
		{"/api/tipos-identificacion", len(seed.TiposIdentificacion), "codigo_hacienda", "codigo_hacienda", ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			t.Parallel()
			for _, tok := range []string{admin, nadie} {
				r := e.Get(c.path+"?per_page=100&sort="+c.sort, tok)
				if r.Status != 200 || int(testenv.Num(r.JSON, "total")) != c.total || testenv.Len(r.JSON, "data") != c.total || c.total == 0 {
					t.Fatalf("list: %d %s", r.Status, r.Raw)
				}
				if testenv.Str(r.JSON, "data.0."+c.key) == "" || testenv.Str(r.JSON, "data.0.nombre") == "" {
					t.Errorf("row without %s or nombre: %s", c.key, r.Raw)
				}
				id := int(testenv.Num(r.JSON, "data.0.id"))
				if s := e.Get(item(c.path, id), tok); s.Status != 200 || testenv.Num(s.JSON, "data.id") != float64(id) {
					t.Errorf("show: %d %s", s.Status, s.Raw)
				}
			}
			if r := e.Get(c.path+"?per_page=1&page=2", admin); testenv.Len(r.JSON, "data") != 1 || testenv.Num(r.JSON, "current_page") != 2 {
				t.Errorf("pages: %s", r.Raw)
			}
			if c.filter != "" {
				if r := e.Get(c.path+"?"+c.filter, admin); testenv.Num(r.JSON, "total") != 1 {
					t.Errorf("filter %s: %s", c.filter, r.Raw)
				}
			}
			if r := e.Get(item(c.path, 999999), admin); r.Status != 404 || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("show unknown: %d %s", r.Status, r.Raw)
			}
			if r := e.Get(c.path+"?sort=nada", admin); r.Status != 422 {
				t.Errorf("sort=nada: %d", r.Status)
			}
			if r := e.Get(c.path, ""); r.Status != 401 {
				t.Errorf("without token: %d", r.Status)
			}
			// No writes: the path serves only GET (405 with Allow: GET).
			for _, m := range []struct{ method, path string }{
				{"POST", c.path}, {"PUT", item(c.path, 1)}, {"PATCH", item(c.path, 1)}, {"DELETE", item(c.path, 1)},
			} {
				if r := e.Call(admin, m.method, m.path, obj{"nombre": "X", "codigo": "X"}); r.Status != 405 || r.Header.Get("Allow") != "GET" {
					t.Errorf("%s %s: %d %s", m.method, m.path, r.Status, r.Raw)
				}
			}
			if r := e.Get(c.path, admin); int(testenv.Num(r.JSON, "total")) != c.total {
				t.Errorf("a write went through: %s", r.Raw)
			}
		})
	}
	// The IVA rate keeps its scale.
	r := e.Get("/api/tipos-impuesto?codigo_tarifa_iva=08", admin)
	if testenv.Exact(t, r.Raw, "data.0.porcentaje") != "13.00" {
		t.Errorf("porcentaje: %s", r.Raw)
	}
}

// Free-text filters of the catalogs with NUL or invalid UTF-8 match nothing
// (they reached PostgreSQL as they were and answered 500).
func TestCatalogTextFiltersWithNULOrInvalidUTF8MatchNothing(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, p := range []string{"/api/unidades-medida?tipo=%00", "/api/unidades-medida?codigo=%FF", "/api/unidades-medida?codigo=Kg%00",
		"/api/tipos-impuesto?codigo=%00", "/api/tipos-impuesto?codigo_tarifa_iva=%C3"} {
		if r := e.Get(p, admin); r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("%s: %d %s", p, r.Status, r.Raw)
		}
	}
}
