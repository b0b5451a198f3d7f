package reportes_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/reportes"
	"github.com/erpcr/erp/shared/testenv"
)

// comparar=periodo_anterior adds the previous period of the same length
// (March 1-31 is 30 days after its start: February 28 back to January 29)
// with each total's change in amount and percent of the previous figure.
func TestComparisonAddsThePreviousPeriodAndTheVariationOfEachTotal(t *testing.T) {
	f := escenario(t)
	r := f.ok(fin("estado_resultados", "comparar=periodo_anterior"))
	if testenv.Str(r.JSON, "data.comparacion.parametros.fecha_inicio") != "2026-01-29" ||
		testenv.Str(r.JSON, "data.comparacion.parametros.fecha_fin") != "2026-02-28" {
		t.Fatalf("previous period: %s", r.Raw)
	}
	var gastos, neta, ingresos int = -1, -1, -1
	for i := 0; i < testenv.Len(r.JSON, "data.comparacion.variacion"); i++ {
		switch testenv.Str(r.JSON, "data.comparacion.variacion."+itoa(i)+".clave") {
		case "gastos":
			gastos = i
		case "utilidad_neta":
			neta = i
		case "ingresos":
			ingresos = i
		}
	}
	v := func(i int, k string) string { return "data.comparacion.variacion." + itoa(i) + "." + k }
	want(t, r, "comparison", map[string]string{
		"data.comparacion.totales.gastos": "80000.00",
		v(gastos, "actual"):               "100000.00", v(gastos, "anterior"): "80000.00", v(gastos, "monto"): "20000.00", v(gastos, "porcentaje"): "25.00",
		v(neta, "monto"): "-8000.00", v(neta, "porcentaje"): "-10.00",
		v(ingresos, "monto"): "15000.00", v(ingresos, "porcentaje"): "null",
	})
	// The balance sheet compares with the position at the end of the
	// previous period: February 28 (bank 916,000 and goods 4,000).
	r = f.ok(fin("balance_general", "comparar=periodo_anterior"))
	want(t, r, "balance comparison", map[string]string{"data.comparacion.totales.activo": "920000.00",
		"data.comparacion.totales.pasivo_y_patrimonio": "920000.00", "data.totales.activo": "883950.00"})
}

// moneda=USD converts every entry at the selling rate of its own date; a
// date without a rate is a 422 that names it.
func TestDollarReportsUseTheRateOfEachEntrysDate(t *testing.T) {
	f := escenario(t)
	for _, d := range []string{"2026-03-05", "2026-03-10", "2026-03-15", "2026-03-25"} {
		f.E.Exec(`insert into tipos_cambio (empresa_id, fecha, compra, venta) values (1, $1, 490, 500)`, d)
	}
	r := f.get(fin("estado_resultados", "moneda=USD"))
	testenv.Expect422(t, r, "moneda")
	if m := r.FieldErrors("moneda")[0]; !strings.Contains(m, "2026-03-16") {
		t.Fatalf("the message names the missing date: %q", m)
	}
	f.E.Exec(`insert into tipos_cambio (empresa_id, fecha, compra, venta) values (1, '2026-03-16', 600, 625)`)
	r = f.ok(fin("estado_resultados", "moneda=USD"))
	// 10,000/500 + 5,000/625 revenue; 2,000/500 + 1,000/625 cost; 100,000/500 rent.
	want(t, r, "USD", map[string]string{"data.totales.ingresos": "28.00", "data.totales.costo_ventas": "5.60",
		"data.totales.gastos": "200.00", "data.totales.utilidad_neta": "-177.60"})
	// The balance sheet needs every rate from the first entry on.
	r = f.get(fin("balance_general", "moneda=USD"))
	testenv.Expect422(t, r, "moneda")
	if m := r.FieldErrors("moneda")[0]; !strings.Contains(m, "2026-02-01") {
		t.Fatalf("balance sheet: %q", m)
	}
	for _, d := range []string{"2026-02-01", "2026-02-10", "2026-02-15"} {
		f.E.Exec(`insert into tipos_cambio (empresa_id, fecha, compra, venta) values (1, $1, 490, 500)`, d)
	}
	r = f.ok(fin("balance_general", "moneda=USD"))
	if a, b := exact(t, r, "data.totales.activo"), exact(t, r, "data.totales.pasivo_y_patrimonio"); a != b {
		t.Fatalf("USD balance sheet does not balance: %s vs %s", a, b)
	}
}

// A report is computed once and served from the cache until a posting of
// its company (a sale through the API or a manual entry) or
// POST /api/reportes/invalidar-cache; a hit is one round trip.
func TestCachedReportsAreServedUntilAPostingOrAnInvalidation(t *testing.T) {
	f := escenario(t)
	path := fin("estado_resultados")
	r := f.ok(path)
	if r.Header.Get(reportes.CacheHeader) != "MISS" {
		t.Fatalf("first: %s", r.Header.Get(reportes.CacheHeader))
	}
	before := f.E.Queries.Load()
	r = f.ok(path)
	if r.Header.Get(reportes.CacheHeader) != "HIT" || exact(t, r, "data.totales.gastos") != "100000.00" {
		t.Fatalf("second: %s %s", r.Header.Get(reportes.CacheHeader), r.Raw)
	}
	hit := f.E.Queries.Load() - before
	// Another company's posting leaves company 1's entry valid.
	f.asiento(2, "2026-03-28", "Otra empresa", "6.2.01.001", 5000, "1.1.02.001", -5000)
	if r = f.ok(path); r.Header.Get(reportes.CacheHeader) != "HIT" {
		t.Fatal("company 2's posting invalidated company 1's reports")
	}
	// A posting of company 1 invalidates it.
	f.asiento(1, "2026-03-28", "Alquiler adicional", "6.2.01.001", 1000, "1.1.02.001", -1000)
	r = f.ok(path)
	if r.Header.Get(reportes.CacheHeader) != "MISS" || exact(t, r, "data.totales.gastos") != "101000.00" {
		t.Fatalf("after a posting: %s %s", r.Header.Get(reportes.CacheHeader), r.Raw)
	}
	if f.ok(path).Header.Get(reportes.CacheHeader) != "HIT" {
		t.Fatal("not cached again")
	}
	// A posting through the API (the application role) invalidates it too.
	f.E.Create(t, f.Admin, "/api/asientos-contables", map[string]any{"fecha": "2026-03-29", "descripcion": "Alquiler de bodega",
		"estado": "contabilizado", "lineas": []any{
			map[string]any{"cuenta_id": f.cuenta(1, "6.2.01.001"), "debe": 500},
			map[string]any{"cuenta_id": f.cuenta(1, "1.1.02.001"), "haber": 500}}})
	r = f.ok(path)
	if r.Header.Get(reportes.CacheHeader) != "MISS" || exact(t, r, "data.totales.gastos") != "101500.00" {
		t.Fatalf("after a posting through the API: %s %s", r.Header.Get(reportes.CacheHeader), r.Raw)
	}
	if f.ok(path).Header.Get(reportes.CacheHeader) != "HIT" {
		t.Fatal("not cached again")
	}
	// The explicit invalidation.
	inv := f.E.Call(f.Admin, http.MethodPost, "/api/reportes/invalidar-cache", nil)
	if inv.Status != http.StatusOK || testenv.Num(inv.JSON, "data.eliminados") < 1 || testenv.Str(inv.JSON, "message") != "Caché de reportes invalidada." {
		t.Fatalf("invalidar-cache: %d %s", inv.Status, inv.Raw)
	}
	if f.ok(path).Header.Get(reportes.CacheHeader) != "MISS" {
		t.Fatal("served from the cache after invalidar-cache")
	}
	// Every format renders from the one entry.
	if r := f.get(path + "&formato=csv"); r.Header.Get(reportes.CacheHeader) != "HIT" {
		t.Fatalf("csv of a cached report: %s", r.Header.Get(reportes.CacheHeader))
	}
	// The hit itself: authorizer + rate limit + one transaction with the lookup.
	hits := testenv.Scalar[int64](t, f.E, `select count(*) from reportes_cache where empresa_id = 1`)
	if hits != 1 {
		t.Errorf("cache rows %d, want 1", hits)
	}
	// A hit: the authorizer, BEGIN with the tenant settings, the lookup, COMMIT.
	if hit > 4 {
		t.Errorf("a cache hit took %d round trips, want at most 4", hit)
	}
}

// Reports cost the same round trips whatever the number of entries.
func TestReportsCostConstantRoundTripsWhateverTheBooksSize(t *testing.T) {
	f := escenario(t)
	paths := []string{fin("estado_resultados", "comparar=periodo_anterior"), fin("balance_general"), fin("flujo_efectivo"),
		"/api/reportes/balanza-comprobacion?" + marzo, "/api/reportes/libro-diario?" + marzo,
		q("/api/reportes/libro-mayor", "cuenta_id", itoa64(f.cuenta(1, "1.1.02.001"))) + "&" + marzo}
	medir := func() []int64 {
		f.E.Call(f.Admin, http.MethodPost, "/api/reportes/invalidar-cache", nil)
		var out []int64
		for _, p := range paths {
			out = append(out, f.E.RoundTrips(t, p, f.Admin))
		}
		return out
	}
	antes := medir()
	for i := range 40 {
		f.asiento(1, "2026-03-"+[]string{"02", "12", "22"}[i%3], "Gasto", "6.2.01.002", 100+i, "1.1.01.001", -(100 + i))
	}
	despues := medir()
	for i := range paths {
		if antes[i] != despues[i] {
			t.Errorf("%s: %d round trips, then %d with 40 more entries", paths[i], antes[i], despues[i])
		}
	}
}

// Another company's books never show, and each company's cache is its own.
func TestReportsShowOnlyTheActiveCompanysBooks(t *testing.T) {
	f := escenario(t)
	admin2 := f.E.Admin(2)
	for _, p := range []string{fin("balance_general"), fin("flujo_efectivo"), "/api/reportes/balanza-comprobacion?" + marzo,
		"/api/reportes/libro-diario?" + marzo} {
		r1 := f.ok(p)
		if strings.Contains(string(r1.Raw), "777777") || strings.Contains(string(r1.Raw), "Empresa ajena") {
			t.Errorf("company 1's %s shows company 2's entry", p)
		}
		r2 := f.E.Get(p, admin2)
		if r2.Status != http.StatusOK || !strings.Contains(string(r2.Raw), "777777") || strings.Contains(string(r2.Raw), "469950") {
			t.Errorf("company 2's %s: %d %s", p, r2.Status, r2.Raw)
		}
	}
	// Company 1's account named in company 2: not found there.
	r := f.E.Get(q("/api/reportes/libro-mayor", "cuenta_id", itoa64(f.cuenta(1, "1.1.02.001")))+"&"+marzo, admin2)
	testenv.Expect422(t, r, "cuenta_id")
	// Company 2 cannot see company 1's cache rows (row-level security).
	if n := testenv.Scalar[int64](t, f.E, `select count(*) from reportes_cache where empresa_id = 1`); n == 0 {
		t.Fatal("no cache rows for company 1")
	}
	pool, err := db.Open(context.Background(), db.Options{URL: f.E.AppURL, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	err = pool.WithTx(context.Background(), db.Scope{EmpresaID: 2}, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(context.Background(), `select count(*) from reportes_cache where empresa_id = 1`).Scan(&n); err != nil {
			return err
		}
		if n != 0 {
			t.Errorf("company 2 sees %d cache rows of company 1", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every bad parameter is a 422 on its name, in Spanish.
func TestBadParametersAre422PerField(t *testing.T) {
	f := setup(t)
	sucursal2 := testenv.Scalar[int64](t, f.E, `select id from sucursales where empresa_id = 2 limit 1`)
	cases := []struct {
		name, path, field, msg string
	}{
		{"tipo missing", "/api/reportes/financiero?" + marzo, "tipo", "El campo tipo es obligatorio."},
		{"tipo unknown", "/api/reportes/financiero?tipo=ventas&" + marzo, "tipo", ""},
		{"fecha_fin missing", "/api/reportes/financiero?tipo=estado_resultados&fecha_inicio=2026-03-01", "fecha_fin", "El campo fecha_fin es obligatorio."},
		{"fecha_inicio missing", "/api/reportes/financiero?tipo=flujo_efectivo&fecha_fin=2026-03-01", "fecha_inicio", "El campo fecha_inicio es obligatorio."},
		{"fecha_inicio not a date", "/api/reportes/financiero?tipo=estado_resultados&fecha_inicio=2026-02-30&fecha_fin=2026-03-31", "fecha_inicio", ""},
		{"fecha_fin before fecha_inicio", "/api/reportes/financiero?tipo=estado_resultados&fecha_inicio=2026-03-31&fecha_fin=2026-03-01", "fecha_fin",
			"El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio."},
		{"period too long", "/api/reportes/financiero?tipo=estado_resultados&fecha_inicio=1990-01-01&fecha_fin=2026-03-01", "fecha_fin", ""},
		{"moneda", fin("estado_resultados", "moneda=EUR"), "moneda", "El campo moneda debe ser uno de: CRC, USD."},
		{"comparar", fin("estado_resultados", "comparar=anio"), "comparar", ""},
		{"formato", fin("estado_resultados", "formato=doc"), "formato", ""},
		{"nivel", fin("estado_resultados", "nivel=0"), "nivel", "El campo nivel debe ser un número entero entre 1 y 10."},
		{"sucursal_id not a number", fin("balance_general", "sucursal_id=abc"), "sucursal_id", ""},
		{"sucursal_id of another company", fin("balance_general", "sucursal_id="+itoa64(sucursal2)), "sucursal_id", "La sucursal no existe en la empresa."},
		{"cuenta_id missing", "/api/reportes/libro-mayor?" + marzo, "cuenta_id", "El campo cuenta_id es obligatorio."},
		{"cuenta_id unknown", "/api/reportes/libro-mayor?cuenta_id=999999&" + marzo, "cuenta_id", "La cuenta contable no existe."},
		{"per_page", "/api/reportes/libro-diario?" + marzo + "&per_page=0", "per_page", ""},
		{"balanza fecha_inicio", "/api/reportes/balanza-comprobacion?fecha_fin=2026-03-31", "fecha_inicio", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.get(c.path)
			testenv.Expect422(t, r, c.field)
			if c.msg != "" && r.FieldErrors(c.field)[0] != c.msg {
				t.Errorf("message %q, want %q", r.FieldErrors(c.field)[0], c.msg)
			}
		})
	}
	// All of a request's errors at once.
	r := f.get("/api/reportes/financiero?tipo=estado_resultados&moneda=EUR&formato=doc")
	for _, k := range []string{"fecha_inicio", "fecha_fin", "moneda", "formato"} {
		if len(r.FieldErrors(k)) == 0 {
			t.Errorf("no error on %s: %s", k, r.Raw)
		}
	}
}

// Reading the books needs asientos_contables.leer or cuentas_contables.leer.
func TestReportsNeedEitherAccountingReadPermission(t *testing.T) {
	f := setup(t)
	sin := f.E.UserWith(t, f.Admin, "sinpermiso", "ventas.leer")
	asientos := f.E.UserWith(t, f.Admin, "asientos", "asientos_contables.leer")
	cuentas := f.E.UserWith(t, f.Admin, "cuentas", "cuentas_contables.leer")
	for _, p := range []string{fin("estado_resultados"), "/api/reportes/balanza-comprobacion?" + marzo, "/api/reportes/tipos"} {
		if r := f.E.Get(p, sin); r.Status != http.StatusForbidden {
			t.Errorf("%s without permission: %d", p, r.Status)
		}
		for _, tok := range []string{asientos, cuentas} {
			if r := f.E.Get(p, tok); r.Status != http.StatusOK {
				t.Errorf("%s: %d %s", p, r.Status, r.Raw)
			}
		}
	}
	if r := f.E.Call(sin, http.MethodPost, "/api/reportes/invalidar-cache", nil); r.Status != http.StatusForbidden {
		t.Errorf("invalidar-cache without permission: %d", r.Status)
	}
}

// GET /api/reportes/tipos lists every registered type with its parameters,
// formats and totals.
func TestTypesListEveryReportWithParametersAndFormats(t *testing.T) {
	f := setup(t)
	r := f.ok("/api/reportes/tipos")
	got := map[string]int{}
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		got[testenv.Str(r.JSON, "data."+itoa(i)+".clave")] = i
	}
	for _, k := range []string{"estado_resultados", "balance_general", "flujo_efectivo", "balanza-comprobacion", "libro-mayor", "libro-diario"} {
		i, ok := got[k]
		if !ok {
			t.Errorf("type %s missing: %s", k, r.Raw)
			continue
		}
		if testenv.Len(r.JSON, "data."+itoa(i)+".formatos") != 4 || testenv.Len(r.JSON, "data."+itoa(i)+".parametros") < 3 ||
			testenv.Len(r.JSON, "data."+itoa(i)+".totales") < 2 {
			t.Errorf("type %s: %v", k, testenv.Get(r.JSON, "data."+itoa(i)))
		}
	}
}

// PDF and Excel exports of the statements count against the reports class
// (5/h by default); JSON and CSV do not. The trial balance and the ledger
// are reports whatever their format.
func TestPDFAndExcelExportsCountAsReports(t *testing.T) {
	f := setup(t, func(c *config.Config) {
		c.Limites = map[string]config.Limite{"reports": {Max: 2, Ventana: time.Hour}}
	})
	for range 3 {
		f.ok(fin("estado_resultados"))
		f.ok(fin("estado_resultados", "formato=csv"))
	}
	if r := f.get(fin("estado_resultados", "formato=pdf")); r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "2" {
		t.Fatalf("first pdf: %d %v", r.Status, r.Header)
	}
	if r := f.get(fin("balance_general", "formato=excel")); r.Status != http.StatusOK {
		t.Fatalf("excel: %d", r.Status)
	}
	r := f.get("/api/reportes/balanza-comprobacion?" + marzo)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(testenv.Str(r.JSON, "message"), "generaciones de reportes") {
		t.Fatalf("third report: %d %s", r.Status, r.Raw)
	}
	if r := f.get(fin("estado_resultados", "formato=pdf")); r.Status != http.StatusTooManyRequests {
		t.Fatalf("pdf over the limit: %d", r.Status)
	}
}
