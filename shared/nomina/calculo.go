package nomina

import (
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// This file is the payroll arithmetic: pure functions of an employee, the
// period's inputs and the rates in force (Tabla, loaded from
// nomina_tarifas), with no database. Rates, brackets and credits, which
// decrees and CCSS notices change, are never constants here; the
// Código de Trabajo's working-day lengths and overtime factor are. Every
// amount is rounded half away from zero to the colón cent once, where it
// is reported.

// Pay period types.
const (
	Mensual   = "mensual"
	Quincenal = "quincenal"
	Semanal   = "semanal"
)

// Tipos are the period types.
var Tipos = []string{Mensual, Quincenal, Semanal}

// Working days (Código de Trabajo, Ley 2).
const (
	Diurna   = "diurna"
	Mixta    = "mixta"
	Nocturna = "nocturna"
)

// HorasJornada is the length of the ordinary working day, the divisor of
// the hourly rate: Código de Trabajo art. 136 (the ordinary day may not
// exceed eight hours by day and six by night) and art. 138 (the mixed day
// may not exceed seven hours).
var HorasJornada = map[string]int64{Diurna: 8, Mixta: 7, Nocturna: 6}

// RecargoHoraExtra is the overtime factor: Código de Trabajo art. 139, the
// extraordinary hour is paid fifty percent more than the ordinary one.
var RecargoHoraExtra = decimal.RequireFromString("1.5")

// DiasMes is the commercial month of Costa Rican payroll: the daily salary
// is the monthly one divided by thirty (the convention the CCSS and the
// Ministerio de Trabajo use for the daily salary of a monthly worker).
const DiasMes = 30

// diasPeriodo are the salary days each period pays: a month 30, a
// fortnight 15 (half), a week 7 (7/30 of the month, the same daily salary
// of monthly/30; not 12/52, so that four weeks and two days make a month
// at the same daily rate as every other period).
var diasPeriodo = map[string]int64{Mensual: 30, Quincenal: 15, Semanal: 7}

// DiasPatrono are the first days of a sick leave the employer pays at half
// the daily salary; from the fourth day the CCSS pays its subsidy (about
// 60 %) directly to the worker (Reglamento del Seguro de Salud de la CCSS,
// as the CCSS and labour lawyers explain it: La Nación 2025-05, "¿Quién
// paga los primeros días de incapacidad?").
const DiasPatrono = 3

var (
	cien  = decimal.NewFromInt(100)
	medio = decimal.RequireFromString("0.5")
)

// Tasa is one percentage item (SEM, IVM, LPT, FODESAF, ...).
type Tasa struct {
	Concepto   string
	Porcentaje decimal.Decimal
}

// Tramo is a monthly income-tax bracket: the part of the salary above
// Desde and up to Hasta (nil: no upper bound) pays Porcentaje.
type Tramo struct {
	Desde      decimal.Decimal
	Hasta      *decimal.Decimal
	Porcentaje decimal.Decimal
}

// Tabla are the rates in force for a period (from nomina_tarifas).
type Tabla struct {
	Obrero         []Tasa
	Patronal       []Tasa
	Tramos         []Tramo // ascending
	CreditoHijo    decimal.Decimal
	CreditoConyuge decimal.Decimal
	Aguinaldo      decimal.Decimal // percent of gross
}

// ErrSinTarifas: the table lacks a part the calculation needs.
var ErrSinTarifas = errors.New("nomina: tarifas incompletas")

// ErrTramos: the income-tax brackets in force do not partition the salary
// scale (a gap would leave part of the salary untaxed, an overlap would
// tax it twice).
var ErrTramos = errors.New("nomina: tramos de renta discontinuos")

// Validar checks that every part of the table is present and that the
// brackets (ascending by Desde) run from 0 without gaps or overlaps, each
// starting where the previous one ends, the last one without a ceiling.
func (t Tabla) Validar() error {
	switch {
	case len(t.Obrero) == 0:
		return fmt.Errorf("%w: sin cuotas obreras", ErrSinTarifas)
	case len(t.Patronal) == 0:
		return fmt.Errorf("%w: sin cargas patronales", ErrSinTarifas)
	case len(t.Tramos) == 0:
		return fmt.Errorf("%w: sin tramos de renta", ErrSinTarifas)
	}
	tope := decimal.Zero
	for i, tr := range t.Tramos {
		if !tr.Desde.Equal(tope) {
			return fmt.Errorf("%w: el tramo %d empieza en %s, no en %s", ErrTramos, i+1, tr.Desde, tope)
		}
		if tr.Hasta == nil {
			if i != len(t.Tramos)-1 {
				return fmt.Errorf("%w: el tramo %d no tiene tope y no es el último", ErrTramos, i+1)
			}
			return nil
		}
		tope = *tr.Hasta
	}
	return fmt.Errorf("%w: el último tramo tiene tope (%s)", ErrTramos, tope)
}

// Suma is the total percentage of items.
func Suma(ts []Tasa) decimal.Decimal {
	s := decimal.Zero
	for _, t := range ts {
		s = s.Add(t.Porcentaje)
	}
	return s
}

// Periodo is a planilla's period.
type Periodo struct {
	Tipo        string
	Inicio, Fin time.Time
}

// Fraccion is the share of a month a period is: 30/30, 15/30 or 7/30.
// It multiplies before it divides, so a prorated bracket is exact
// (918,000 x 7 / 30 = 214,200, where x 0.2333... would not be).
type Fraccion struct{ dias int64 }

// FraccionDe is the fraction of a period type.
func FraccionDe(tipo string) Fraccion { return Fraccion{diasPeriodo[tipo]} }

// De is the fraction of a monthly amount.
func (f Fraccion) De(d decimal.Decimal) decimal.Decimal {
	return d.Mul(decimal.NewFromInt(f.dias)).Div(decimal.NewFromInt(DiasMes))
}

// Empleado is what the calculation reads of an employee.
type Empleado struct {
	SalarioBase  decimal.Decimal // monthly
	Jornada      string
	Hijos        int64
	Conyuge      bool
	FechaIngreso time.Time
	FechaSalida  *time.Time
}

// Entradas are a line's inputs for the period.
type Entradas struct {
	HorasExtra       decimal.Decimal
	Bonificaciones   decimal.Decimal
	Comisiones       decimal.Decimal
	DiasIncapacidad  int64
	OtrasDeducciones decimal.Decimal
}

// Resultado is a calculated line.
type Resultado struct {
	DiasLaborados       int64
	SalarioOrdinario    decimal.Decimal
	ValorHora           decimal.Decimal // 4 decimals, for the record
	HorasExtraMonto     decimal.Decimal
	RebajoIncapacidad   decimal.Decimal
	SubsidioIncapacidad decimal.Decimal
	SalarioBruto        decimal.Decimal
	CCSSObrero          decimal.Decimal
	ImpuestoRenta       decimal.Decimal
	CreditosFiscales    decimal.Decimal
	OtrasDeducciones    decimal.Decimal
	TotalDeducciones    decimal.Decimal
	SalarioNeto         decimal.Decimal
	CargasPatronales    decimal.Decimal
	ProvisionAguinaldo  decimal.Decimal
	ProvisionVacaciones decimal.Decimal
}

// ErrorCampo is an input the calculation refuses, under the line's field.
type ErrorCampo struct {
	Campo, Mensaje string
}

func (e *ErrorCampo) Error() string { return e.Campo + ": " + e.Mensaje }

func r2(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// DiasLaborados are the salary days of the period the employee was
// employed: the whole period's days when employment covers it, else the
// calendar days from the later of the period's start and the hiring date
// to the earlier of its end and the leaving date, capped at the period's
// salary days (a 31-day month pays 30).
func DiasLaborados(p Periodo, e Empleado) int64 {
	ini, fin := p.Inicio, p.Fin
	if e.FechaIngreso.After(ini) {
		ini = e.FechaIngreso
	}
	if e.FechaSalida != nil && e.FechaSalida.Before(fin) {
		fin = *e.FechaSalida
	}
	if fin.Before(ini) {
		return 0
	}
	full := diasPeriodo[p.Tipo]
	if ini.Equal(p.Inicio) && fin.Equal(p.Fin) {
		return full
	}
	n := int64(fin.Sub(ini).Hours()/24) + 1
	return min(n, full)
}

// Renta is the salary income tax of a period's gross salary (Ley 7092 art.
// 33, progressive on the excess over each bracket's floor) with the
// monthly brackets and credits (art. 34) prorated to the period by
// fraccion (a fortnight half, a week 7/30); credits never make it negative.
func Renta(bruto decimal.Decimal, t Tabla, fraccion Fraccion, hijos int64, conyuge bool) (impuesto, creditos decimal.Decimal) {
	imp := decimal.Zero
	for _, tr := range t.Tramos {
		desde := fraccion.De(tr.Desde)
		if bruto.LessThanOrEqual(desde) {
			continue
		}
		tope := bruto
		if tr.Hasta != nil {
			if h := fraccion.De(*tr.Hasta); h.LessThan(tope) {
				tope = h
			}
		}
		imp = imp.Add(tope.Sub(desde).Mul(tr.Porcentaje).Div(cien))
	}
	creditos = t.CreditoHijo.Mul(decimal.NewFromInt(hijos))
	if conyuge {
		creditos = creditos.Add(t.CreditoConyuge)
	}
	creditos = r2(fraccion.De(creditos))
	imp = r2(imp)
	if creditos.GreaterThan(imp) {
		// A credit reduces the tax, never below zero (art. 34).
		return decimal.Zero, imp
	}
	return imp.Sub(creditos), creditos
}

// CalcularLinea computes one line.
//
//   - Ordinary salary: the monthly salary times the period's fraction, or
//     the monthly salary / 30 per day employed when employment starts or
//     ends within the period.
//   - Overtime: hourly rate = monthly salary / 30 / the working day's hours
//     (8 diurna, 7 mixta, 6 nocturna: arts. 136 and 138), paid at 1.5x
//     (art. 139).
//   - Sick leave (dias_incapacidad): the ordinary salary of those days is
//     not paid (the contract is suspended); the employer pays half the
//     daily salary for the first three days as a subsidy, and the CCSS pays
//     its own subsidy from the fourth day directly to the worker, outside
//     the payroll. The employer's subsidy is not salary: no CCSS charges
//     (Sala Segunda, voto 2012-000477), no income tax and no aguinaldo; it
//     is added to the net pay.
//   - Gross = ordinary - sick days + overtime + bonuses + commissions: the
//     base of the CCSS worker's share, the income tax, the employer's
//     charges and the aguinaldo and vacation provisions.
func CalcularLinea(p Periodo, e Empleado, in Entradas, t Tabla, pctVacaciones decimal.Decimal) (Resultado, error) {
	if err := t.Validar(); err != nil {
		return Resultado{}, err
	}
	horas, ok := HorasJornada[e.Jornada]
	if !ok {
		return Resultado{}, fmt.Errorf("nomina: jornada desconocida %q", e.Jornada)
	}
	if _, ok := diasPeriodo[p.Tipo]; !ok {
		return Resultado{}, fmt.Errorf("nomina: tipo de planilla desconocido %q", p.Tipo)
	}
	var r Resultado
	fraccion := FraccionDe(p.Tipo)
	diario := e.SalarioBase.Div(decimal.NewFromInt(DiasMes))
	r.DiasLaborados = DiasLaborados(p, e)
	if r.DiasLaborados == diasPeriodo[p.Tipo] {
		r.SalarioOrdinario = r2(fraccion.De(e.SalarioBase))
	} else {
		r.SalarioOrdinario = r2(diario.Mul(decimal.NewFromInt(r.DiasLaborados)))
	}
	if in.DiasIncapacidad > r.DiasLaborados {
		return Resultado{}, &ErrorCampo{"dias_incapacidad",
			fmt.Sprintf("Los días de incapacidad (%d) no pueden superar los días laborados del período (%d).", in.DiasIncapacidad, r.DiasLaborados)}
	}
	valorHora := diario.Div(decimal.NewFromInt(horas))
	r.ValorHora = valorHora.Round(4)
	r.HorasExtraMonto = r2(valorHora.Mul(RecargoHoraExtra).Mul(in.HorasExtra))
	dias := decimal.NewFromInt(in.DiasIncapacidad)
	r.RebajoIncapacidad = r2(diario.Mul(dias))
	r.SubsidioIncapacidad = r2(diario.Mul(medio).Mul(decimal.NewFromInt(min(in.DiasIncapacidad, DiasPatrono))))
	r.SalarioBruto = r.SalarioOrdinario.Sub(r.RebajoIncapacidad).Add(r.HorasExtraMonto).Add(in.Bonificaciones).Add(in.Comisiones)
	r.CCSSObrero = r2(r.SalarioBruto.Mul(Suma(t.Obrero)).Div(cien))
	r.ImpuestoRenta, r.CreditosFiscales = Renta(r.SalarioBruto, t, fraccion, e.Hijos, e.Conyuge)
	r.OtrasDeducciones = in.OtrasDeducciones
	r.TotalDeducciones = r.CCSSObrero.Add(r.ImpuestoRenta).Add(r.OtrasDeducciones)
	r.SalarioNeto = r.SalarioBruto.Sub(r.TotalDeducciones).Add(r.SubsidioIncapacidad)
	if r.SalarioNeto.IsNegative() {
		return Resultado{}, &ErrorCampo{"otras_deducciones",
			"Las deducciones superan lo devengado en el período: el salario neto sería negativo (" + r.SalarioNeto.StringFixed(2) + ")."}
	}
	r.CargasPatronales = r2(r.SalarioBruto.Mul(Suma(t.Patronal)).Div(cien))
	r.ProvisionAguinaldo = r2(r.SalarioBruto.Mul(t.Aguinaldo).Div(cien))
	r.ProvisionVacaciones = r2(r.SalarioBruto.Mul(pctVacaciones).Div(cien))
	return r, nil
}

// Aguinaldo is the Christmas bonus of Ley 2412 art. 1: one twelfth of the
// salaries earned from December 1 of the previous year to November 30.
func Aguinaldo(salarios decimal.Decimal) decimal.Decimal {
	return r2(salarios.Div(decimal.NewFromInt(12)))
}
