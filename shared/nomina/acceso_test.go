package nomina_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestPayrollPermissions(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "500000"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	lector := f.E.UserWith(t, f.Admin, "lector", "nomina.leer")
	ajeno := f.E.UserWith(t, f.Admin, "ajeno", "ventas.leer")
	creador := f.E.UserWith(t, f.Admin, "creador", "nomina.crear")
	cases := []struct {
		name, tok, method, path string
		body                    any
		want                    int
	}{
		{"reader lists", lector, http.MethodGet, "/api/planillas", nil, http.StatusOK},
		{"reader shows", lector, http.MethodGet, testenv.Path("planillas", id), nil, http.StatusOK},
		{"reader cannot create", lector, http.MethodPost, "/api/planillas",
			map[string]any{"tipo": "mensual", "fecha_inicio": "2026-04-01", "fecha_fin": "2026-04-30"}, http.StatusForbidden},
		{"reader cannot edit lines", lector, http.MethodPatch, testenv.Path("planillas", id, "/lineas"),
			map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "horas_extra": 1}}}, http.StatusForbidden},
		{"reader cannot calculate", lector, http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil, http.StatusForbidden},
		{"reader cannot pay", lector, http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), nil, http.StatusForbidden},
		{"reader cannot change the vacation rate", lector, http.MethodPut, "/api/nomina/configuracion",
			map[string]any{"porcentaje_vacaciones": 5}, http.StatusForbidden},
		{"creator creates", creador, http.MethodPost, "/api/planillas",
			map[string]any{"tipo": "mensual", "fecha_inicio": "2026-04-01", "fecha_fin": "2026-04-30"}, http.StatusCreated},
		{"creator cannot approve", creador, http.MethodPost, testenv.Path("planillas", id, "/aprobar"), nil, http.StatusForbidden},
		{"outsider cannot list", ajeno, http.MethodGet, "/api/planillas", nil, http.StatusForbidden},
		{"outsider cannot see a pay slip", ajeno, http.MethodGet, testenv.Path("planillas", id, "/comprobantes/"+itoa(e)), nil, http.StatusForbidden},
		{"outsider reads the rates", ajeno, http.MethodGet, "/api/nomina/tarifas", nil, http.StatusOK},
		{"company administrator cannot add a rate", f.Admin, http.MethodPost, "/api/nomina/tarifas",
			map[string]any{"tipo": "credito", "concepto": "hijo", "monto": 1800, "vigente_desde": "2027-01-01", "fuente": "x"}, http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := f.E.Call(c.tok, c.method, c.path, c.body); r.Status != c.want {
				t.Fatalf("%s %s: %d, want %d: %s", c.method, c.path, r.Status, c.want, r.Raw)
			}
		})
	}
	// The dashboard leaves the figure out for a user without nomina.leer.
	r := f.E.Call(ajeno, http.MethodGet, "/api/dashboard", nil)
	if r.Status != http.StatusOK || testenv.Get(r.JSON, "data.planilla_pendiente") != nil {
		t.Fatalf("dashboard without nomina.leer: %d %s", r.Status, r.Raw)
	}
}

func TestAnotherCompanyCannotSeeOrTouchAPlanillaOrItsLines(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "500000"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	f.accion(id, "calcular", nil)
	admin2 := f.E.Admin(2)
	comprobante := testenv.Path("planillas", id, "/comprobantes/"+itoa(e))
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, testenv.Path("planillas", id), nil},
		{http.MethodPatch, testenv.Path("planillas", id, "/lineas"), map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "horas_extra": 1}}}},
		{http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil},
		{http.MethodPost, testenv.Path("planillas", id, "/aprobar"), nil},
		{http.MethodPost, testenv.Path("planillas", id, "/anular"), nil},
		{http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), nil},
		{http.MethodGet, comprobante, nil},
		{http.MethodGet, testenv.Path("planillas", id, "/reporte-ccss?formato=csv"), nil},
	} {
		if r := f.E.Call(admin2, c.method, c.path, c.body); r.Status != http.StatusNotFound {
			t.Errorf("company 2 %s %s: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	if ids := testenv.IDs(f.E.Call(admin2, http.MethodGet, "/api/planillas", nil)); slices.Contains(ids, int(id)) {
		t.Fatalf("company 2 lists company 1's planilla")
	}
	// Company 2's aguinaldo does not count company 1's paid lines.
	f.accion(id, "aprobar", nil)
	f.accion(id, "marcar-pagada", nil)
	r := f.E.Call(admin2, http.MethodPost, "/api/planillas/aguinaldo?anio=2026", nil)
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data.empleados") != 0 {
		t.Fatalf("company 2's aguinaldo: %s", r.Raw)
	}
	// Nothing of company 1 changed.
	if got := f.Text(`select estado || ' ' || (select horas_extra from planilla_lineas where planilla_id = $1)::text from planillas where id = $1`, id); got != "pagada 0.00" {
		t.Fatalf("after company 2's attempts: %s", got)
	}
}

func TestRatesAreReadByAllAndChangedOnlyByAPlatformAdministrator(t *testing.T) {
	f := setup(t)
	r := f.Must(http.StatusOK, http.MethodGet, "/api/nomina/tarifas?vigente_en=2026-06-30&tipo=obrero", nil)
	if testenv.Len(r.JSON, "data") != 3 {
		t.Fatalf("2026 worker rates: %s", r.Raw)
	}
	for i := range 3 {
		if testenv.Str(r.JSON, "data."+itoa(int64(i))+".fuente") == "" {
			t.Fatalf("a rate without its source: %s", r.Raw)
		}
	}
	r = f.Must(http.StatusOK, http.MethodGet, "/api/nomina/tarifas?vigente_en=2025-06-30&tipo=obrero&concepto=IVM", nil)
	if testenv.Exact(t, r.Raw, "data.0.porcentaje") != "4.1700" {
		t.Fatalf("2025 IVM: %s", r.Raw)
	}
	plataforma := f.E.PlatformAdmin(1)
	nueva := map[string]any{"tipo": "credito", "concepto": "hijo", "monto": 1800, "vigente_desde": "2027-01-01",
		"fuente": "Decreto de actualización 2027 (prueba)"}
	f.E.ExpectInvalid(t, plataforma, http.MethodPost, "/api/nomina/tarifas", []testenv.Invalid{
		{"unknown kind", testenv.With(nueva, "tipo", "otro"), "tipo"},
		{"no source", testenv.With(nueva, "fuente", testenv.Absent), "fuente"},
		{"credit without amount", testenv.With(nueva, "monto", testenv.Absent), "tipo"},
		{"ends before it starts", testenv.With(nueva, "vigente_hasta", "2026-01-01"), "vigente_hasta"},
	})
	r = f.E.Call(plataforma, http.MethodPost, "/api/nomina/tarifas", nueva)
	if r.Status != http.StatusCreated || testenv.Exact(t, r.Raw, "data.monto") != "1800.00" {
		t.Fatalf("created: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, f.E.Call(plataforma, http.MethodPost, "/api/nomina/tarifas", nueva), "vigente_desde")
	nuevaID := testenv.ID(r)
	if r = f.E.Call(plataforma, http.MethodPut, testenv.Path("nomina/tarifas", nuevaID), map[string]any{"monto": 1850}); r.Status != http.StatusOK ||
		testenv.Exact(t, r.Raw, "data.monto") != "1850.00" {
		t.Fatalf("updated: %d %s", r.Status, r.Raw)
	}
	// (PlatformAdmin made company 1's administrator one; company 2's is not.)
	if r = f.E.Call(f.E.Admin(2), http.MethodPut, testenv.Path("nomina/tarifas", nuevaID), map[string]any{"monto": 1}); r.Status != http.StatusForbidden {
		t.Fatalf("company administrator's update: %d", r.Status)
	}
	if r = f.E.Call(plataforma, http.MethodPut, "/api/nomina/tarifas/999999", map[string]any{"monto": 1}); r.Status != http.StatusNotFound {
		t.Fatalf("missing rate: %d", r.Status)
	}
}

func TestTheVacationProvisionIsTheCompanysSetting(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "1000000"})
	r := f.Must(http.StatusOK, http.MethodGet, "/api/nomina/configuracion", nil)
	if testenv.Exact(t, r.Raw, "data.porcentaje_vacaciones") != "4.17" || r.JSON["data"].(map[string]any)["por_defecto"] != true {
		t.Fatalf("default: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPut, "/api/nomina/configuracion", map[string]any{"porcentaje_vacaciones": 101}), "porcentaje_vacaciones")
	f.Must(http.StatusOK, http.MethodPut, "/api/nomina/configuracion", map[string]any{"porcentaje_vacaciones": "8.33"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	r = f.accion(id, "calcular", nil)
	if got := testenv.Exact(t, r.Raw, linea(t, r, e)+".provision_vacaciones"); got != "83300.00" {
		t.Fatalf("vacation provision at 8.33 %%: %s", got)
	}
	// Company 2 keeps the default.
	r = f.E.Call(f.E.Admin(2), http.MethodGet, "/api/nomina/configuracion", nil)
	if testenv.Exact(t, r.Raw, "data.porcentaje_vacaciones") != "4.17" {
		t.Fatalf("company 2: %s", r.Raw)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
