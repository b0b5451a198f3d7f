package contabilidad_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Another company gets 404 on every route with an id of company 1's
// records, and sees none of them in its lists.
func TestAnotherCompanySeesNothingOfTheBooks(t *testing.T) {
	f := setup(t)
	otro := f.E.Admin(2)
	asientoID := id(f.capital("500"))
	borrador := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("borrador", debe(f.cuenta("1.1.01.001"), 1), haber(f.cuenta("3.1.01.001"), 1))))
	cuenta := f.cuenta("1.1.01.001")
	tc := id(f.Must(http.StatusCreated, http.MethodPost, "/api/tipos-cambio", map[string]any{"fecha": "2026-03-15", "compra": 500, "venta": 510}))
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, path("asientos-contables", asientoID)},
		{http.MethodPut, path("asientos-contables", borrador)},
		{http.MethodPatch, path("asientos-contables", borrador)},
		{http.MethodDelete, path("asientos-contables", borrador)},
		{http.MethodPost, path("asientos-contables", borrador, "contabilizar")},
		{http.MethodPost, path("asientos-contables", asientoID, "anular")},
		{http.MethodGet, path("cuentas-contables", cuenta)},
		{http.MethodPut, path("cuentas-contables", cuenta)},
		{http.MethodPatch, path("cuentas-contables", cuenta)},
		{http.MethodDelete, path("cuentas-contables", cuenta)},
		{http.MethodGet, path("tipos-cambio", tc)},
		{http.MethodPut, path("tipos-cambio", tc)},
		{http.MethodPatch, path("tipos-cambio", tc)},
		{http.MethodDelete, path("tipos-cambio", tc)},
	} {
		if r := f.E.Call(otro, c.method, c.path, map[string]any{"nombre": "x"}); r.Status != http.StatusNotFound {
			t.Errorf("%s %s as company 2: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	for _, list := range []string{"/api/asientos-contables", "/api/tipos-cambio", "/api/periodos-contables", "/api/cuentas-contables?per_page=100"} {
		r := f.E.Call(otro, http.MethodGet, list, nil)
		ids := testenv.IDs(r)
		if r.Status != http.StatusOK || slices.Contains(ids, int(asientoID)) || slices.Contains(ids, int(tc)) || slices.Contains(ids, int(cuenta)) {
			t.Errorf("%s as company 2: %d %s", list, r.Status, r.Raw)
		}
		if list != "/api/cuentas-contables?per_page=100" && testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("%s as company 2 is not empty: %s", list, r.Raw)
		}
	}
	// Company 2's configuration is its own chart's, and company 1's accounts cannot enter it.
	r := f.E.Call(otro, http.MethodGet, "/api/contabilidad/configuracion", nil)
	if testenv.Num(r.JSON, "data.cuenta_caja_id") == float64(cuenta) || testenv.Str(r.JSON, "data.cuenta_caja.codigo") != "1.1.01.001" {
		t.Errorf("company 2's configuration: %s", r.Raw)
	}
	testenv.Expect422(t, f.E.Call(otro, http.MethodPut, "/api/contabilidad/configuracion", map[string]any{"cuenta_caja_id": cuenta}), "cuenta_caja_id")
	// A user without the accounting permissions is refused.
	vendedor := f.E.UserWith(t, f.Admin, "vendedor-libros", "ventas.leer")
	if r := f.E.Call(vendedor, http.MethodGet, "/api/asientos-contables", nil); r.Status != http.StatusForbidden {
		t.Errorf("without asientos_contables.leer: %d", r.Status)
	}
}

// A new company gets the seeded chart (a trigger on empresas) and its
// posting configuration.
func TestANewCompanyGetsTheSeededChart(t *testing.T) {
	f := setup(t)
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/empresas", map[string]any{"nombre": "Ferretería El Clavo",
		"razon_social": "Ferretería El Clavo S.A.", "nit_ruc": "3101999001", "regimen_tributario_id": 1})
	nueva := id(r)
	get := func(p string) testenv.Resp {
		return f.E.Do(testenv.Req{Method: http.MethodGet, Path: p, Token: f.Admin, Headers: map[string]string{"X-Empresa-Id": itoa(nueva)}})
	}
	sembradas := f.Int(`select count(*) from cuentas_contables where empresa_id = 1`)
	r = get("/api/cuentas-contables?per_page=100")
	if r.Status != http.StatusOK || sembradas < 60 || testenv.Num(r.JSON, "total") != float64(sembradas) || testenv.Str(r.JSON, "data.0.codigo") != "1" ||
		testenv.Num(r.JSON, "data.0.empresa_id") != float64(nueva) {
		t.Fatalf("new company's chart: %d %.500s", r.Status, r.Raw)
	}
	if r = get("/api/contabilidad/configuracion"); r.Status != http.StatusOK || testenv.Str(r.JSON, "data.cuenta_ventas.codigo") != "4.1.01.001" {
		t.Fatalf("new company's configuration: %d %s", r.Status, r.Raw)
	}
	// Both demo companies have it too.
	for _, e := range []int64{1, 2} {
		if n := f.Int(`select count(*) from cuentas_contables where empresa_id = $1 and codigo like '_.%'`, e); n != sembradas-6 {
			t.Errorf("company %d has %d accounts", e, n)
		}
	}
}
