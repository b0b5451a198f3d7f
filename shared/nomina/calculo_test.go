package nomina

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func ptr(s string) *decimal.Decimal { d := dec(s); return &d }

// tabla2026 is the 2026 table of migration 0020 (the integration tests read
// it from the database; this one checks the arithmetic alone).
func tabla2026() Tabla {
	return Tabla{
		Obrero: []Tasa{{"SEM", dec("5.50")}, {"IVM", dec("4.33")}, {"LPT", dec("1.00")}},
		Patronal: []Tasa{{"SEM", dec("9.25")}, {"IVM", dec("5.58")}, {"BP", dec("0.25")}, {"BP_LPT", dec("0.25")},
			{"FODESAF", dec("5.00")}, {"IMAS", dec("0.50")}, {"INA", dec("1.50")}, {"FCL", dec("1.50")}, {"OPC", dec("2.00")},
			{"INS_RT", dec("1.00")}},
		Tramos: []Tramo{{dec("0"), ptr("918000"), dec("0")}, {dec("918000"), ptr("1347000"), dec("10")},
			{dec("1347000"), ptr("2364000"), dec("15")}, {dec("2364000"), ptr("4727000"), dec("20")}, {dec("4727000"), nil, dec("25")}},
		CreditoHijo: dec("1710"), CreditoConyuge: dec("2590"), Aguinaldo: dec("8.33"),
	}
}

func fecha(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }

var marzo = Periodo{Tipo: Mensual, Inicio: fecha("2026-03-01"), Fin: fecha("2026-03-31")}

func empleado(salario string, jornada string) Empleado {
	return Empleado{SalarioBase: dec(salario), Jornada: jornada, FechaIngreso: fecha("2020-01-01")}
}

func calcular(t *testing.T, p Periodo, e Empleado, in Entradas) Resultado {
	t.Helper()
	r, err := CalcularLinea(p, e, in, tabla2026(), dec("4.17"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTheIssuesWorkedExampleHoldsExactly(t *testing.T) {
	r := calcular(t, marzo, empleado("1500000", Diurna), Entradas{})
	for name, got := range map[string]decimal.Decimal{"bruto": r.SalarioBruto, "ccss": r.CCSSObrero, "renta": r.ImpuestoRenta,
		"neto": r.SalarioNeto, "patronal": r.CargasPatronales, "aguinaldo": r.ProvisionAguinaldo, "vacaciones": r.ProvisionVacaciones} {
		want := map[string]string{"bruto": "1500000.00", "ccss": "162450.00", "renta": "65850.00", "neto": "1271700.00",
			"patronal": "402450.00", "aguinaldo": "124950.00", "vacaciones": "62550.00"}[name]
		if got.StringFixed(2) != want {
			t.Errorf("%s = %s, want %s", name, got.StringFixed(2), want)
		}
	}
}

func TestIncomeTaxAtEachBracketEdgeAndOneColonAbove(t *testing.T) {
	cases := []struct{ bruto, renta string }{
		{"918000", "0.00"}, {"918001", "0.10"},
		{"1347000", "42900.00"}, {"1347001", "42900.15"},
		{"2364000", "195450.00"}, {"2364001", "195450.20"},
		{"4727000", "668050.00"}, {"4727001", "668050.25"},
	}
	for _, c := range cases {
		got, _ := Renta(dec(c.bruto), tabla2026(), FraccionDe(Mensual), 0, false)
		if got.StringFixed(2) != c.renta {
			t.Errorf("renta(%s) = %s, want %s", c.bruto, got.StringFixed(2), c.renta)
		}
	}
}

func TestCreditsReduceTheTaxButNeverBelowZero(t *testing.T) {
	uno := FraccionDe(Mensual)
	cases := []struct {
		name            string
		bruto           string
		hijos           int64
		conyuge         bool
		renta, creditos string
	}{
		{"two children and a spouse", "1500000", 2, true, "59840.00", "6010.00"}, // 65850 - 2x1710 - 2590
		{"one child", "1500000", 1, false, "64140.00", "1710.00"},
		{"credits above the tax", "920000", 3, true, "0.00", "200.00"}, // tax 200, credits 7720: zero
		{"exempt salary", "900000", 2, false, "0.00", "0.00"},
	}
	for _, c := range cases {
		r, cr := Renta(dec(c.bruto), tabla2026(), uno, c.hijos, c.conyuge)
		if r.StringFixed(2) != c.renta || cr.StringFixed(2) != c.creditos {
			t.Errorf("%s: renta %s créditos %s, want %s and %s", c.name, r.StringFixed(2), cr.StringFixed(2), c.renta, c.creditos)
		}
	}
}

func TestAFortnightHalvesTheSalaryBracketsAndCredits(t *testing.T) {
	q := Periodo{Tipo: Quincenal, Inicio: fecha("2026-03-01"), Fin: fecha("2026-03-15")}
	r := calcular(t, q, empleado("1500000", Diurna), Entradas{})
	if r.SalarioBruto.StringFixed(2) != "750000.00" || r.CCSSObrero.StringFixed(2) != "81225.00" ||
		r.ImpuestoRenta.StringFixed(2) != "32925.00" || r.SalarioNeto.StringFixed(2) != "635850.00" || r.DiasLaborados != 15 {
		t.Fatalf("quincenal: %+v", r)
	}
	// A week is 7/30 of the month: 1,500,000 -> 350,000, under the weekly
	// exemption of 918,000 x 7/30 = 214,200 by 135,800: 10 % of 100,100
	// (to 314,300) + 15 % of 35,700.
	s := Periodo{Tipo: Semanal, Inicio: fecha("2026-03-02"), Fin: fecha("2026-03-08")}
	r = calcular(t, s, empleado("1500000", Diurna), Entradas{})
	if r.SalarioBruto.StringFixed(2) != "350000.00" || r.ImpuestoRenta.StringFixed(2) != "15365.00" {
		t.Fatalf("semanal: bruto %s renta %s", r.SalarioBruto, r.ImpuestoRenta)
	}
}

func TestOvertimeIsHalfAgainTheHourOfEachWorkingDay(t *testing.T) {
	// 720,000 / 30 = 24,000 a day: 3,000 an hour by day (8 h), 3,428.57...
	// mixed (7 h), 4,000 by night (6 h); ten extra hours at 1.5x.
	for _, c := range []struct{ jornada, hora, monto string }{
		{Diurna, "3000.0000", "45000.00"}, {Mixta, "3428.5714", "51428.57"}, {Nocturna, "4000.0000", "60000.00"},
	} {
		r := calcular(t, marzo, empleado("720000", c.jornada), Entradas{HorasExtra: dec("10")})
		if r.ValorHora.StringFixed(4) != c.hora || r.HorasExtraMonto.StringFixed(2) != c.monto ||
			!r.SalarioBruto.Equal(dec("720000").Add(r.HorasExtraMonto)) {
			t.Errorf("%s: hora %s monto %s bruto %s", c.jornada, r.ValorHora, r.HorasExtraMonto, r.SalarioBruto)
		}
	}
}

func TestSickDaysAreNotSalaryAndTheEmployerPaysHalfOfTheFirstThree(t *testing.T) {
	// 600,000 a month = 20,000 a day; 5 sick days: 100,000 less salary,
	// the employer's subsidy 3 x 10,000 outside the gross.
	r := calcular(t, marzo, empleado("600000", Diurna), Entradas{DiasIncapacidad: 5})
	if r.RebajoIncapacidad.StringFixed(2) != "100000.00" || r.SubsidioIncapacidad.StringFixed(2) != "30000.00" ||
		r.SalarioBruto.StringFixed(2) != "500000.00" || r.CCSSObrero.StringFixed(2) != "54150.00" ||
		r.SalarioNeto.StringFixed(2) != "475850.00" {
		t.Fatalf("%+v", r)
	}
	_, err := CalcularLinea(marzo, empleado("600000", Diurna), Entradas{DiasIncapacidad: 31}, tabla2026(), dec("4.17"))
	var ec *ErrorCampo
	if !errors.As(err, &ec) || ec.Campo != "dias_incapacidad" {
		t.Fatalf("31 sick days of a 30-day month: %v", err)
	}
}

func TestEmploymentStartingWithinTheMonthPaysTheDaysEmployed(t *testing.T) {
	e := empleado("600000", Diurna)
	e.FechaIngreso = fecha("2026-03-22") // 22..31: 10 days
	r := calcular(t, marzo, e, Entradas{})
	if r.DiasLaborados != 10 || r.SalarioOrdinario.StringFixed(2) != "200000.00" {
		t.Fatalf("días %d ordinario %s", r.DiasLaborados, r.SalarioOrdinario)
	}
}

func TestDeductionsAboveThePayAreRefused(t *testing.T) {
	_, err := CalcularLinea(marzo, empleado("500000", Diurna), Entradas{OtrasDeducciones: dec("500000")}, tabla2026(), dec("4.17"))
	var ec *ErrorCampo
	if !errors.As(err, &ec) || ec.Campo != "otras_deducciones" {
		t.Fatalf("%v", err)
	}
}

func TestAguinaldoIsATwelfthOfTheYearsSalaries(t *testing.T) {
	if got := Aguinaldo(dec("7800000")); got.StringFixed(2) != "650000.00" {
		t.Fatal(got)
	}
	if got := Aguinaldo(dec("1000000")); got.StringFixed(2) != "83333.33" {
		t.Fatal(got)
	}
}
