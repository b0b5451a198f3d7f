package nomina_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Two rates of one concept in force the same day were both applied: a new
// "obrero SEM" from June beside the open-ended one from January made June's
// CCSS share 16.83 % instead of 11.33 %.
func TestANewRateSupersedesTheOpenOneAndOverlappingPeriodsAreRefused(t *testing.T) {
	f := setup(t)
	plat := f.E.PlatformAdmin(1)
	e := f.empleado(emp{salario: "1500000"})
	// "sem" is January's "SEM" (concepts are upper-cased): it supersedes it.
	sem := map[string]any{"tipo": "obrero", "concepto": "sem", "porcentaje": "6.00", "vigente_desde": "2026-06-01",
		"fuente": "Aviso CCSS de prueba"}
	f.E.Must(t, http.StatusCreated, plat, http.MethodPost, "/api/nomina/tarifas", sem)
	// The open-ended January row now ends the day before.
	if got := f.Text(`select vigente_hasta::text from nomina_tarifas where tipo = 'obrero' and concepto = 'SEM' and vigente_desde = '2026-01-01'`); got != "2026-05-31" {
		t.Fatalf("January's SEM ends %s, want 2026-05-31", got)
	}
	ccss := func(ini, fin string) string {
		t.Helper()
		id := testenv.ID(f.planilla("mensual", ini, fin))
		r := f.accion(id, "calcular", nil)
		return testenv.Exact(t, r.Raw, linea(t, r, e)+".ccss_obrero")
	}
	// May keeps 10.83 %; June is 6.00 + 4.33 + 1.00 = 11.33 %, once.
	if got := ccss("2026-05-01", "2026-05-31"); got != "162450.00" {
		t.Errorf("May's CCSS %s, want 162450.00", got)
	}
	if got := ccss("2026-06-01", "2026-06-30"); got != "169950.00" {
		t.Errorf("June's CCSS %s, want 169950.00", got)
	}
	f.E.ExpectInvalid(t, plat, http.MethodPost, "/api/nomina/tarifas", []testenv.Invalid{
		// Inside the (now closed) January-May period.
		{"a closed period's days", testenv.With(sem, "vigente_desde", "2026-03-01", "vigente_hasta", "2026-04-30"), "vigente_desde"},
		// Starting before June's open-ended row: it would not be closed.
		{"before the open one", testenv.With(sem, "vigente_desde", "2026-05-15", "vigente_hasta", "2026-06-15"), "vigente_desde"},
		{"the same start", sem, "vigente_desde"},
		// The calculation applies only these credits and provisions.
		{"a credit it would not apply", testenv.With(sem, "tipo", "credito", "concepto", "hijos", "porcentaje", testenv.Absent, "monto", 1800), "concepto"},
		{"a provision it would not apply", testenv.With(sem, "tipo", "provision", "concepto", "vacaciones"), "concepto"},
	})
	// Nor can an update stretch a period over another.
	enero := f.Int(`select id from nomina_tarifas where tipo = 'obrero' and concepto = 'SEM' and vigente_desde = '2026-01-01'`)
	testenv.Expect422(t, f.E.Call(plat, http.MethodPut, testenv.Path("nomina/tarifas", enero), map[string]any{"vigente_hasta": nil}), "vigente_desde")
	if n := f.Int(`select count(*) from nomina_tarifas where tipo = 'obrero' and lower(concepto) = 'sem'`); n != 3 {
		t.Fatalf("%d SEM rows after the refusals, want 3 (2025, 2026 to May, June on)", n)
	}
}

// An extra bracket overlapping the decree's taxed part of the salary twice.
func TestIncomeTaxBracketsWithAGapOrAnOverlapAreRefusedWhenCalculating(t *testing.T) {
	f := setup(t)
	plat := f.E.PlatformAdmin(1)
	f.empleado(emp{salario: "1500000"})
	f.E.Must(t, http.StatusCreated, plat, http.MethodPost, "/api/nomina/tarifas", map[string]any{"tipo": "renta_tramo",
		"concepto": "T6", "porcentaje": 30, "desde": 1000000, "vigente_desde": "2026-06-01", "fuente": "Prueba"})
	id := testenv.ID(f.planilla("mensual", "2026-06-01", "2026-06-30"))
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil), "fecha_fin")
	if got := f.Text(`select estado from planillas where id = $1`, id); got != "borrador" {
		t.Fatalf("after the refusal: %s", got)
	}
	// May's brackets (before T6) still calculate.
	may := testenv.ID(f.planilla("mensual", "2026-05-01", "2026-05-31"))
	f.accion(may, "calcular", nil)
}
