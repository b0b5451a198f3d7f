package nomina_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/testenv"
)

// saldo is an account's posted debits less credits in company 1's books.
func (f *fx) saldo(codigo string) string {
	f.T.Helper()
	return f.Text(`select coalesce(sum(l.debe - l.haber), 0)::numeric(18,2)::text from asiento_lineas l
		join asientos_contables a on a.id = l.asiento_id join cuentas_contables k on k.id = l.cuenta_id
		where a.empresa_id = 1 and a.estado in ('contabilizado', 'anulado') and k.codigo = $1`, codigo)
}

func TestMarkingPaidPostsABalancedEntryOnThePayrollAccountsAndAnEvent(t *testing.T) {
	f := setup(t)
	e1 := f.empleado(emp{salario: "1500000"})
	e2 := f.empleado(emp{salario: "600000"})
	// A webhook may subscribe to the payroll's event.
	f.Must(http.StatusCreated, http.MethodPost, "/api/webhooks", map[string]any{"nombre": "Nómina", "url": "https://hooks.example.com/nomina",
		"eventos": []string{"PlanillaPagadaEvent"}})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"), map[string]any{"lineas": []any{
		map[string]any{"empleado_id": e2, "dias_incapacidad": 5, "otras_deducciones": "10000.00"}}})
	f.accion(id, "calcular", nil)
	f.accion(id, "aprobar", nil)
	r := f.accion(id, "marcar-pagada", map[string]any{"fecha_pago": "2026-03-31"})
	if testenv.Str(r.JSON, "data.estado") != "pagada" || testenv.Str(r.JSON, "data.fecha_pago") != "2026-03-31" ||
		testenv.Str(r.JSON, "data.asiento_numero") == "" {
		t.Fatalf("paid: %s", r.Raw)
	}
	_ = e1
	asiento := int64(testenv.Num(r.JSON, "data.asiento_id"))
	if got := f.Text(`select total_debe::text || '=' || total_haber::text || ' ' || origen || ' ' || origen_id || ' ' || estado || ' ' || fecha
		from asientos_contables where id = $1`, asiento); got != "2816600.00=2816600.00 planilla "+testenv.Number(r, "data.id")+" contabilizado 2026-03-31" {
		t.Fatalf("entry: %s", got)
	}
	// Gross 2,000,000 (1,500,000 + 500,000 after 5 sick days) + the
	// employer's subsidy 30,000; charges 26.83 %; provisions 8.33 % and
	// 4.17 %; the worker's 10.83 % and the employer's charges to CCSS;
	// renta 65,850; other deductions 10,000; the rest, the net, to the bank.
	for codigo, want := range map[string]string{
		"6.1.01.001": "2030000.00",  // salarios
		"6.1.01.002": "536600.00",   // cargas sociales patronales
		"6.1.01.003": "166600.00",   // aguinaldo
		"6.1.01.004": "83400.00",    // vacaciones
		"2.1.03.002": "-753200.00",  // CCSS por pagar: 216,600 + 536,600
		"2.1.02.002": "-65850.00",   // renta retenida
		"2.1.03.003": "-166600.00",  // provisión de aguinaldo
		"2.1.03.004": "-83400.00",   // provisión de vacaciones
		"2.1.03.001": "-10000.00",   // salarios por pagar (otras deducciones)
		"1.1.02.001": "-1737550.00", // banco: el neto
	} {
		if got := f.saldo(codigo); got != want {
			t.Errorf("account %s: %s, want %s", codigo, got, want)
		}
	}
	if got := testenv.Exact(t, r.Raw, "data.totales.salario_neto"); got != "1737550.00" {
		t.Errorf("net: %s", got)
	}
	if n := f.Int(`select count(*) from eventos where empresa_id = 1 and tipo = 'PlanillaPagadaEvent'
		and (payload->>'id')::bigint = $1 and payload->>'estado' = 'pagada'`, id); n != 1 {
		t.Fatalf("PlanillaPagadaEvent: %d", n)
	}
	if n := f.Int(`select count(*) from webhook_entregas where empresa_id = 1 and evento = 'PlanillaPagadaEvent'`); n != 1 {
		t.Fatalf("webhook deliveries of PlanillaPagadaEvent: %d", n)
	}
}

func TestMarkingPaidInAClosedMonthIsRefused(t *testing.T) {
	f := setup(t)
	f.empleado(emp{salario: "500000"})
	id := f.aprobada("mensual", "2026-02-01", "2026-02-28")
	f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2026/2/cerrar", nil)
	testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), map[string]any{"fecha_pago": "2026-02-28"}), "fecha_pago")
	if got := f.Text(`select estado from planillas where id = $1`, id); got != "aprobada" {
		t.Fatalf("after the refusal: %s", got)
	}
}

func TestTheDashboardShowsApprovedUnpaidPlanillas(t *testing.T) {
	f := setup(t)
	f.empleado(emp{salario: "1500000"})
	pendiente := func() (string, string) {
		r := f.Must(http.StatusOK, http.MethodGet, "/api/dashboard?fecha=2026-03-31", nil)
		return testenv.Exact(t, r.Raw, "data.planilla_pendiente.cantidad"), testenv.Exact(t, r.Raw, "data.planilla_pendiente.monto")
	}
	if n, m := pendiente(); n != "0" || m != "0.00" {
		t.Fatalf("before: %s %s", n, m)
	}
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	f.accion(id, "calcular", nil)
	if n, _ := pendiente(); n != "0" {
		t.Fatalf("a calculated planilla is not pending approval money yet: %s", n)
	}
	f.accion(id, "aprobar", nil)
	// The cached answer of before is not served: the approval bumped the version.
	if n, m := pendiente(); n != "1" || m != "1271700.00" {
		t.Fatalf("approved: %s %s", n, m)
	}
	f.accion(id, "marcar-pagada", nil)
	if n, m := pendiente(); n != "0" || m != "0.00" {
		t.Fatalf("paid: %s %s", n, m)
	}
}

func TestTheFourthMarkPaidWithinAnHourIsLimited(t *testing.T) {
	f := setup(t, func(c *config.Config) {
		c.Limites = map[string]config.Limite{"payment_process": {Max: 3, Ventana: time.Hour}}
	})
	f.empleado(emp{salario: "500000"})
	var ids []int64
	for _, mes := range []string{"01", "02", "03", "04"} {
		ids = append(ids, f.aprobada("mensual", "2026-"+mes+"-01", "2026-"+mes+"-28"))
	}
	for i, id := range ids {
		r := f.Call(http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), nil)
		want := http.StatusOK
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if r.Status != want {
			t.Fatalf("mark-paid %d: %d %s", i+1, r.Status, r.Raw)
		}
	}
	if got := f.Text(`select estado from planillas where id = $1`, ids[3]); got != "aprobada" {
		t.Fatalf("the limited one: %s", got)
	}
	// Other routes are not counted in payment_process.
	f.Must(http.StatusOK, http.MethodGet, testenv.Path("planillas", ids[3]), nil)
}

// marcar-pagada accepted any date from 1900 on, posting an August
// planilla's entry in 1900.
func TestAPaymentDatedBeforeThePeriodIsRefused(t *testing.T) {
	f := setup(t)
	f.empleado(emp{salario: "500000"})
	id := f.aprobada("mensual", "2026-08-01", "2026-08-31")
	for _, fecha := range []string{"1900-01-01", "2026-07-31"} {
		testenv.Expect422(t, f.Call(http.MethodPost, testenv.Path("planillas", id, "/marcar-pagada"), map[string]any{"fecha_pago": fecha}), "fecha_pago")
	}
	if got := f.Text(`select estado || ' ' || coalesce(asiento_id::text, '-') from planillas where id = $1`, id); got != "aprobada -" {
		t.Fatalf("after the refusals: %s", got)
	}
	// Paying on the first day of the period, or later, is fine.
	f.accion(id, "marcar-pagada", map[string]any{"fecha_pago": "2026-08-01"})
}
