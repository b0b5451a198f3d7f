package nomina_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestTheWorkedExampleThroughTheAPIHoldsExactly(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "1500000"})
	r := f.planilla("mensual", "2026-03-01", "2026-03-31")
	id := testenv.ID(r)
	if testenv.Str(r.JSON, "data.numero") != "PLA-000001" || testenv.Str(r.JSON, "data.estado") != "borrador" ||
		testenv.Len(r.JSON, "data.lineas") != 1 || testenv.Str(r.JSON, "data.periodo.tipo") != "mensual" {
		t.Fatalf("created: %s", r.Raw)
	}
	r = f.accion(id, "calcular", nil)
	l := linea(t, r, e)
	want := map[string]string{"empleado_id": testenv.Number(r, l+".empleado_id"), "salario_base": "1500000.00",
		"horas_extra_monto": "0.00", "salario_bruto": "1500000.00", "ccss_obrero": "162450.00", "impuesto_renta": "65850.00",
		"otras_deducciones": "0.00", "total_deducciones": "228300.00", "salario_neto": "1271700.00",
		"cargas_patronales": "402450.00", "provision_aguinaldo": "124950.00", "provision_vacaciones": "62550.00"}
	for k, v := range want {
		if got := testenv.Exact(t, r.Raw, l+"."+k); got != v {
			t.Errorf("line %s = %s, want %s", k, got, v)
		}
		if k == "empleado_id" {
			continue
		}
		if got := testenv.Exact(t, r.Raw, "data.totales."+k); got != v {
			t.Errorf("totales.%s = %s, want %s", k, got, v)
		}
	}
	if testenv.Str(r.JSON, "data.estado") != "calculada" {
		t.Fatalf("estado: %s", r.Raw)
	}
}

func TestTheIncomeTaxAtEachBracketEdgeAndOneColonAbove(t *testing.T) {
	f := setup(t)
	cases := map[string]string{"918000": "0.00", "918001": "0.10", "1347000": "42900.00", "1347001": "42900.15",
		"2364000": "195450.00", "2364001": "195450.20", "4727000": "668050.00", "4727001": "668050.25"}
	ids := map[string]int64{}
	for salario := range cases {
		ids[salario] = f.empleado(emp{salario: salario})
	}
	id := testenv.ID(f.planilla("mensual", "2026-04-01", "2026-04-30"))
	r := f.accion(id, "calcular", nil)
	for salario, renta := range cases {
		if got := testenv.Exact(t, r.Raw, linea(t, r, ids[salario])+".impuesto_renta"); got != renta {
			t.Errorf("gross %s: renta %s, want %s", salario, got, renta)
		}
	}
}

func TestCreditsForChildrenAndSpouseNeverTakeTheTaxBelowZero(t *testing.T) {
	f := setup(t)
	familia := f.empleado(emp{salario: "1500000", hijos: 2, conyuge: true})
	bajo := f.empleado(emp{salario: "920000", hijos: 3, conyuge: true})
	id := testenv.ID(f.planilla("mensual", "2026-05-01", "2026-05-31"))
	r := f.accion(id, "calcular", nil)
	for _, c := range []struct {
		emp             int64
		renta, creditos string
	}{{familia, "59840.00", "6010.00"}, {bajo, "0.00", "200.00"}} {
		l := linea(t, r, c.emp)
		if testenv.Exact(t, r.Raw, l+".impuesto_renta") != c.renta || testenv.Exact(t, r.Raw, l+".creditos_fiscales") != c.creditos {
			t.Errorf("employee %d: %s", c.emp, r.Raw)
		}
	}
}

func TestAFortnightlyPlanillaProratesSalaryAndBrackets(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "1500000", pago: "quincenal"})
	f.empleado(emp{salario: "1500000"}) // paid monthly: not on a fortnight's planilla
	r := f.planilla("quincenal", "2026-03-16", "2026-03-31")
	if n := testenv.Len(r.JSON, "data.lineas"); n != 1 {
		t.Fatalf("%d lines, want the fortnightly employee only: %s", n, r.Raw)
	}
	id := testenv.ID(r)
	r = f.accion(id, "calcular", nil)
	l := linea(t, r, e)
	for k, v := range map[string]string{"salario_bruto": "750000.00", "ccss_obrero": "81225.00", "impuesto_renta": "32925.00",
		"salario_neto": "635850.00", "dias_laborados": "15"} {
		if got := testenv.Exact(t, r.Raw, l+"."+k); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
}

func TestOvertimeIsPaidAtOneAndAHalfTheHourOfEachWorkingDay(t *testing.T) {
	f := setup(t)
	diurna := f.empleado(emp{salario: "720000", jornada: "diurna"})
	mixta := f.empleado(emp{salario: "720000", jornada: "mixta"})
	nocturna := f.empleado(emp{salario: "720000", jornada: "nocturna"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	lineas := []any{}
	for _, e := range []int64{diurna, mixta, nocturna} {
		lineas = append(lineas, map[string]any{"empleado_id": e, "horas_extra": 10})
	}
	lineas = append(lineas, map[string]any{"empleado_id": diurna, "bonificaciones": "1000.50", "comisiones": 2000})
	// The same employee twice in one request is refused.
	testenv.Expect422(t, f.Call(http.MethodPatch, testenv.Path("planillas", id, "/lineas"), map[string]any{"lineas": lineas}), "lineas.3.empleado_id")
	lineas[0] = map[string]any{"empleado_id": diurna, "horas_extra": 10, "bonificaciones": "1000.50", "comisiones": 2000}
	r := f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"), map[string]any{"lineas": lineas[:3]})
	if testenv.Exact(t, r.Raw, linea(t, r, mixta)+".horas_extra") != "10.00" {
		t.Fatalf("inputs: %s", r.Raw)
	}
	r = f.accion(id, "calcular", nil)
	for _, c := range []struct {
		emp                int64
		hora, monto, bruto string
	}{{diurna, "3000.0000", "45000.00", "768000.50"}, {mixta, "3428.5714", "51428.57", "771428.57"}, {nocturna, "4000.0000", "60000.00", "780000.00"}} {
		l := linea(t, r, c.emp)
		if testenv.Exact(t, r.Raw, l+".valor_hora") != c.hora || testenv.Exact(t, r.Raw, l+".horas_extra_monto") != c.monto ||
			testenv.Exact(t, r.Raw, l+".salario_bruto") != c.bruto {
			t.Errorf("employee %d: want hora %s monto %s bruto %s: %s", c.emp, c.hora, c.monto, c.bruto, r.Raw)
		}
	}
	// Editing a calculated planilla takes it back to borrador.
	r = f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"),
		map[string]any{"lineas": []any{map[string]any{"empleado_id": nocturna, "dias_incapacidad": 2}}})
	if testenv.Str(r.JSON, "data.estado") != "borrador" {
		t.Fatalf("after an edit: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/aprobar"), nil), "estado")
}

func TestSickLeaveDaysAndTheEmployersSubsidy(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "600000"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"),
		map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "dias_incapacidad": 5}}})
	r := f.accion(id, "calcular", nil)
	l := linea(t, r, e)
	for k, v := range map[string]string{"rebajo_incapacidad": "100000.00", "subsidio_incapacidad": "30000.00",
		"salario_bruto": "500000.00", "ccss_obrero": "54150.00", "salario_neto": "475850.00"} {
		if got := testenv.Exact(t, r.Raw, l+"."+k); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	// Deductions above the pay are a 422 under the employee's line.
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"),
		map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "otras_deducciones": 600000}}})
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil),
		"lineas."+testenv.Number(r, l+".empleado_id")+".otras_deducciones")
}

func TestAPlanillaTakesTheEmployeesActiveInItsPeriod(t *testing.T) {
	f := setup(t)
	activo := f.empleado(emp{salario: "500000"})
	entra := f.empleado(emp{salario: "600000", ingreso: "2026-03-22"})
	sale := f.empleado(emp{salario: "500000", salida: "2026-03-10"})
	f.empleado(emp{salario: "500000", salida: "2026-02-28"})  // gone before
	f.empleado(emp{salario: "500000", ingreso: "2026-04-01"}) // not yet
	f.empleado(emp{salario: "500000", estado: "inactivo"})    // inactive
	f.empleado(emp{empresa: 2, salario: "500000"})            // another company's
	f.empleado(emp{salario: "500000", pago: "semanal"})       // paid weekly
	r := f.planilla("mensual", "2026-03-01", "2026-03-31")
	if n := testenv.Len(r.JSON, "data.lineas"); n != 3 {
		t.Fatalf("%d lines, want 3: %s", n, r.Raw)
	}
	r = f.accion(testenv.ID(r), "calcular", nil)
	for _, c := range []struct {
		emp             int64
		dias, ordinario string
	}{{activo, "30", "500000.00"}, {entra, "10", "200000.00"}, {sale, "10", "166666.67"}} {
		l := linea(t, r, c.emp)
		if testenv.Exact(t, r.Raw, l+".dias_laborados") != c.dias || testenv.Exact(t, r.Raw, l+".salario_ordinario") != c.ordinario {
			t.Errorf("employee %d: %s", c.emp, r.Raw)
		}
	}
	if testenv.Exact(t, r.Raw, "data.totales.cantidad_empleados") != "3" {
		t.Errorf("totales: %s", r.Raw)
	}
}

func TestPlanillaValidationAndStateRules(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "500000"})
	base := map[string]any{"tipo": "mensual", "fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31"}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/planillas", []testenv.Invalid{
		{"unknown type", testenv.With(base, "tipo", "anual"), "tipo"},
		{"missing start", testenv.With(base, "fecha_inicio", testenv.Absent), "fecha_inicio"},
		{"end before start", testenv.With(base, "fecha_fin", "2026-02-01"), "fecha_fin"},
		{"a week of ten days", testenv.With(base, "tipo", "semanal", "fecha_fin", "2026-03-10"), "fecha_fin"},
		{"nobody employed", testenv.With(base, "fecha_inicio", "2019-01-01", "fecha_fin", "2019-01-31"), "fecha_inicio"},
	})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	// The same pay type cannot pay a period twice.
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/planillas", testenv.With(base, "fecha_inicio", "2026-03-15", "fecha_fin", "2026-04-14")), "fecha_inicio")
	lineas := testenv.Path("planillas", id, "/lineas")
	f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, lineas, []testenv.Invalid{
		{"no lines", map[string]any{"lineas": []any{}}, "lineas"},
		{"negative hours", map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "horas_extra": -1}}}, "lineas.0.horas_extra"},
		{"three decimals", map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "bonificaciones": "1.005"}}}, "lineas.0.bonificaciones"},
		{"not on the planilla", map[string]any{"lineas": []any{map[string]any{"empleado_id": e + 1000}}}, "lineas.0.empleado_id"},
	})
	// borrador cannot be approved or paid; a calculated one is approved,
	// then neither edited nor calculated; a paid one is not annulled.
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/aprobar"), nil), "estado")
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), nil), "estado")
	f.accion(id, "calcular", nil)
	f.accion(id, "aprobar", nil)
	testenv.Expect422(t, f.Call(http.MethodPatch, lineas, map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "horas_extra": 1}}}), "estado")
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil), "estado")
	f.accion(id, "marcar-pagada", nil)
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/anular"), nil), "estado")
	// Another one is annulled and keeps its number; numbers have no gaps.
	otra := f.planilla("mensual", "2026-04-01", "2026-04-30")
	r := f.accion(testenv.ID(otra), "anular", nil)
	if testenv.Str(r.JSON, "data.estado") != "anulada" || testenv.Str(r.JSON, "data.numero") != "PLA-000002" {
		t.Fatalf("annulled: %s", r.Raw)
	}
	list := f.Must(http.StatusOK, http.MethodGet, "/api/planillas?estado=pagada&anio=2026&tipo=mensual", nil)
	if ids := testenv.IDs(list); len(ids) != 1 || int64(ids[0]) != id {
		t.Fatalf("filtered list: %s", list.Raw)
	}
	f.Must(http.StatusUnprocessableEntity, http.MethodGet, "/api/planillas?estado=otro", nil)
}

func TestCreatingAndCalculatingCostTheSameRoundTripsWhateverTheStaff(t *testing.T) {
	f := setup(t)
	costo := func(ini, fin string) (crear, calcular int64) {
		antes := f.E.Queries.Load()
		id := testenv.ID(f.planilla("semanal", ini, fin))
		crear = f.E.Queries.Load() - antes
		antes = f.E.Queries.Load()
		f.accion(id, "calcular", nil)
		return crear, f.E.Queries.Load() - antes
	}
	f.empleado(emp{salario: "500000", pago: "semanal"})
	c1, k1 := costo("2026-03-02", "2026-03-08")
	for range 9 {
		f.empleado(emp{salario: "700000", pago: "semanal"})
	}
	c10, k10 := costo("2026-03-09", "2026-03-15")
	if c1 != c10 || k1 != k10 {
		t.Fatalf("1 employee: create %d calculate %d round trips; 10 employees: %d and %d", c1, k1, c10, k10)
	}
}

func TestConcurrentPlanillasGetGaplessNumbersAndOneOfAPeriod(t *testing.T) {
	f := setup(t)
	f.empleado(emp{salario: "500000", pago: "semanal"})
	// Eight different weeks at once: PLA-000001..8, no gaps.
	rs := testenv.Concurrently(8, func(i int) testenv.Resp {
		ini := time.Date(2026, 1, 5+7*i, 0, 0, 0, 0, time.UTC)
		return f.Call(http.MethodPost, "/api/planillas", map[string]any{"tipo": "semanal",
			"fecha_inicio": ini.Format(time.DateOnly), "fecha_fin": ini.AddDate(0, 0, 6).Format(time.DateOnly)})
	})
	testenv.Gapless(t, rs, "data.numero", func(n int) string { return fmt.Sprintf("PLA-%06d", n) })
	// The same week five times at once: one is created, four refused.
	rs = testenv.Concurrently(5, func(int) testenv.Resp {
		return f.Call(http.MethodPost, "/api/planillas", map[string]any{"tipo": "semanal", "fecha_inicio": "2026-06-01", "fecha_fin": "2026-06-07"})
	})
	creadas := len(testenv.Created(t, rs, "fecha_inicio"))
	if creadas != 1 || f.Int(`select count(*) from planillas where empresa_id = 1 and fecha_inicio = '2026-06-01'`) != 1 {
		t.Fatalf("%d created for one week", creadas)
	}
}

// An amount beyond numeric(18,2) (a salary near its limit with overtime,
// or the sum of two such lines) made calcular answer 500.
func TestAmountsTooLargeToStoreAreRefusedWhenCalculating(t *testing.T) {
	f := setup(t)
	grande := f.empleado(emp{salario: "9999999999999999.99"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	// Alone, the salary fits, but not its payment's journal entry (gross
	// plus employer charges and provisions).
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil), "lineas")
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"), map[string]any{"lineas": []any{
		map[string]any{"empleado_id": grande, "horas_extra": 744, "bonificaciones": "9999999999999999.99"}}})
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/calcular"), nil), "lineas."+itoa(grande)+".horas_extra_monto")
	if got := f.Text(`select estado || ' ' || salario_bruto from planillas where id = $1`, id); got != "borrador 0.00" {
		t.Fatalf("after the refusals: %s", got)
	}
}

// An employee whose tipo_pago changed from mensual to quincenal was put on
// a fortnight's planilla of days a monthly one already pays.
func TestAnEmployeeOnAnotherPlanillaOfThePeriodIsNotPaidTwice(t *testing.T) {
	f := setup(t)
	cambia := f.empleado(emp{salario: "600000"})
	quincenal := f.empleado(emp{salario: "600000", pago: "quincenal"})
	mensual := testenv.ID(f.planilla("mensual", "2026-09-01", "2026-09-30"))
	f.E.Exec(`update empleados set tipo_pago = 'quincenal' where id = $1`, cambia)
	r := f.planilla("quincenal", "2026-09-16", "2026-09-30")
	if n := testenv.Len(r.JSON, "data.lineas"); n != 1 || linea(t, r, quincenal) == "" {
		t.Fatalf("fortnight's lines: %s", r.Raw)
	}
	// Once the monthly one is annulled, its employees are free again.
	f.accion(mensual, "anular", nil)
	f.accion(testenv.ID(r), "anular", nil)
	if n := testenv.Len(f.planilla("quincenal", "2026-09-16", "2026-09-30").JSON, "data.lineas"); n != 2 {
		t.Fatalf("%d lines after annulling the monthly planilla, want 2", n)
	}
}

// A deleted employee stayed on the open planilla and was still paid when
// it was calculated.
func TestAnEmployeeOnAPlanillaNotYetPaidCannotBeDeleted(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "500000"})
	pagado := f.empleado(emp{salario: "500000", pago: "semanal"})
	f.pagada("semanal", "2026-03-02", "2026-03-08")
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	borrar := func(emp int64) testenv.Resp { return f.Call(http.MethodDelete, "/api/empleados/"+itoa(emp), nil) }
	for _, accion := range []string{"", "calcular", "aprobar"} {
		if accion != "" {
			f.accion(id, accion, nil)
		}
		testenv.Expect422(t, borrar(e), "id")
	}
	f.accion(id, "anular", nil)
	for _, emp := range []int64{e, pagado} { // on an annulled or a paid planilla only
		if r := borrar(emp); r.Status != http.StatusOK {
			t.Fatalf("delete employee %d: %d %s", emp, r.Status, r.Raw)
		}
	}
}
