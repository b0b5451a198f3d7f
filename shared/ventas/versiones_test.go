package ventas_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/testenv"
)

func TestVersionsServeTheSameSaleAndV2AddsLinks(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "S", Servicio: true})
	c := f.Cliente(1, "101110111", 0)
	v := id(f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", c)))
	vs := strconv.FormatInt(v, 10)

	v1 := f.E.Call(f.Admin, http.MethodGet, path("ventas", v), nil)
	alias := f.E.Call(f.Admin, http.MethodGet, "/api/v1/ventas/"+vs, nil)
	if v1.Status != http.StatusOK || alias.Status != http.StatusOK || string(v1.Raw) != string(alias.Raw) ||
		!strings.HasPrefix(alias.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("/api/v1 is not an alias: %d %d\n%s\n%s", v1.Status, alias.Status, v1.Raw, alias.Raw)
	}

	v2 := f.E.Call(f.Admin, http.MethodGet, "/api/v2/ventas/"+vs, nil)
	checks := map[string]string{
		"data._links.self.href":                "/api/v2/ventas/" + vs,
		"data._links.cliente.href":             "/api/v2/clientes/" + strconv.FormatInt(c, 10),
		"data.detalles.0._links.producto.href": "/api/v2/productos/" + strconv.FormatInt(p, 10),
		"data.cliente._links.self.href":        "/api/v2/clientes/" + strconv.FormatInt(c, 10),
		"data.numero_comprobante":              testenv.Str(v1.JSON, "data.numero_comprobante"),
	}
	if v2.Status != http.StatusOK || !strings.HasPrefix(v2.Header.Get("Content-Type"), routes.MediaTypeV2) {
		t.Fatalf("v2: %d %s", v2.Status, v2.Header.Get("Content-Type"))
	}
	for k, want := range checks {
		if got := testenv.Str(v2.JSON, k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if num(v2, "data.monto_total") != num(v1, "data.monto_total") || num(v2, "data.monto_total") == "" {
		t.Errorf("amounts differ between versions: %s vs %s", num(v2, "data.monto_total"), num(v1, "data.monto_total"))
	}
	if v2.Header.Get("ETag") == "" || v2.Header.Get("ETag") == v1.Header.Get("ETag") {
		t.Errorf("each representation needs its own ETag: v1 %s v2 %s", v1.Header.Get("ETag"), v2.Header.Get("ETag"))
	}

	// The vendor media type selects v2 on an unversioned path.
	acc := f.E.Do(testenv.Req{Method: http.MethodGet, Path: path("ventas", v), Token: f.Admin,
		Headers: map[string]string{"Accept": routes.MediaTypeV2}})
	if !strings.HasPrefix(acc.Header.Get("Content-Type"), routes.MediaTypeV2) ||
		testenv.Str(acc.JSON, "data._links.self.href") != "/api/v2/ventas/"+vs || !strings.Contains(acc.Header.Get("Vary"), "Accept") {
		t.Fatalf("Accept v2: %s %s", acc.Header.Get("Content-Type"), acc.Raw)
	}

	// A page links to its neighbours, keeping the other parameters.
	f.venderOK(testenv.With(venta(linea(p, 2, 100)), "cliente_id", c))
	page := f.E.Call(f.Admin, http.MethodGet, "/api/v2/ventas?per_page=1&cliente_id="+strconv.FormatInt(c, 10), nil)
	for k, want := range map[string]string{
		"_links.first.href": "/api/v2/ventas?cliente_id=" + strconv.FormatInt(c, 10) + "&page=1&per_page=1",
		"_links.next.href":  "/api/v2/ventas?cliente_id=" + strconv.FormatInt(c, 10) + "&page=2&per_page=1",
		"_links.last.href":  "/api/v2/ventas?cliente_id=" + strconv.FormatInt(c, 10) + "&page=2&per_page=1",
	} {
		if got := testenv.Str(page.JSON, k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if testenv.Get(page.JSON, "_links.prev") != nil || !strings.HasPrefix(testenv.Str(page.JSON, "data.0._links.self.href"), "/api/v2/ventas/") {
		t.Errorf("page links: %s", page.Raw)
	}

	// Writes answer in v2 too.
	created := f.E.Call(f.Admin, http.MethodPost, "/api/v2/ventas", venta(linea(p, 1, 50)))
	if created.Status != http.StatusCreated || testenv.Str(created.JSON, "data._links.self.href") != "/api/v2/ventas/"+strconv.FormatInt(id(created), 10) {
		t.Fatalf("create in v2: %d %s", created.Status, created.Raw)
	}

	// The tax-authority routes live under a version prefix only.
	if r := f.E.Call(f.Admin, http.MethodGet, "/api/v2/hacienda", nil); r.Status != http.StatusOK {
		t.Fatalf("GET /api/v2/hacienda: %d %s", r.Status, r.Raw)
	}
	if r := f.E.Call(f.Admin, http.MethodGet, "/api/hacienda", nil); r.Status != http.StatusNotFound {
		t.Fatalf("GET /api/hacienda: %d %s", r.Status, r.Raw)
	}
}

func TestDeprecatedV1AnswersCarrySunsetAndItsSuccessor(t *testing.T) {
	desde := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	sunset := time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	routes.DeprecarV1("proveedores", desde, sunset)
	f := setup(t)
	for _, p := range []string{"/api/proveedores?per_page=5", "/api/v1/proveedores?per_page=5"} {
		r := f.E.Call(f.Admin, http.MethodGet, p, nil)
		if r.Status != http.StatusOK || r.Header.Get("Deprecation") != "@"+strconv.FormatInt(desde.Unix(), 10) ||
			r.Header.Get("Sunset") != "Wed, 30 Jun 2027 00:00:00 GMT" ||
			r.Header.Get("Link") != `</api/v2/proveedores?per_page=5>; rel="successor-version"` {
			t.Fatalf("%s: %d Deprecation=%q Sunset=%q Link=%q", p, r.Status, r.Header.Get("Deprecation"), r.Header.Get("Sunset"), r.Header.Get("Link"))
		}
	}
	if r := f.E.Call(f.Admin, http.MethodGet, "/api/v2/proveedores", nil); r.Header.Get("Sunset") != "" || r.Header.Get("Deprecation") != "" {
		t.Fatalf("v2 is not deprecated: %v", r.Header)
	}
}
