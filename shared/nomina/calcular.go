package nomina

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/reportes"
)

// VacacionesPorDefecto is the vacation provision of a company without its
// own setting (migration 0020, nomina_configuracion).
var VacacionesPorDefecto = decimal.RequireFromString("4.17")

// lineaCalculada is what the calculation writes back to a line.
type lineaCalculada struct {
	EmpleadoID          int64           `json:"empleado_id"`
	SalarioBase         decimal.Decimal `json:"salario_base"`
	Jornada             string          `json:"jornada"`
	Hijos               int64           `json:"hijos"`
	Conyuge             bool            `json:"conyuge"`
	DiasLaborados       int64           `json:"dias_laborados"`
	SalarioOrdinario    decimal.Decimal `json:"salario_ordinario"`
	ValorHora           decimal.Decimal `json:"valor_hora"`
	HorasExtraMonto     decimal.Decimal `json:"horas_extra_monto"`
	RebajoIncapacidad   decimal.Decimal `json:"rebajo_incapacidad"`
	SubsidioIncapacidad decimal.Decimal `json:"subsidio_incapacidad"`
	SalarioBruto        decimal.Decimal `json:"salario_bruto"`
	CCSSObrero          decimal.Decimal `json:"ccss_obrero"`
	ImpuestoRenta       decimal.Decimal `json:"impuesto_renta"`
	CreditosFiscales    decimal.Decimal `json:"creditos_fiscales"`
	TotalDeducciones    decimal.Decimal `json:"total_deducciones"`
	SalarioNeto         decimal.Decimal `json:"salario_neto"`
	CargasPatronales    decimal.Decimal `json:"cargas_patronales"`
	ProvisionAguinaldo  decimal.Decimal `json:"provision_aguinaldo"`
	ProvisionVacaciones decimal.Decimal `json:"provision_vacaciones"`
}

// entrada is a line as the calculation reads it.
type entrada struct {
	empleadoID int64
	emp        Empleado
	in         Entradas
}

// Calcular computes every line of a planilla in borrador or calculada with
// the employees' current salary, working day and tax-credit data and the
// rates in force on the period's last day: one batch reads the planilla,
// its lines, the rates and the company's setting; one statement writes
// the lines and the totals. A line the calculation refuses (more sick days
// than days worked, deductions above the pay) is a 422 under
// lineas.<empleado_id>.<campo>.
func Calcular(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (json.RawMessage, error) {
	var (
		encontrada   bool
		estado, tipo string
		ini, fin     time.Time
		entradas     []entrada
		tabla        Tabla
		vac          = VacacionesPorDefecto
	)
	b := &pgx.Batch{}
	b.Queue(`select estado, tipo, fecha_inicio, fecha_fin from planillas where empresa_id = $1 and id = $2 for update`,
		tx.EmpresaID(), id).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			encontrada = true
			if err := rows.Scan(&estado, &tipo, &ini, &fin); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	b.Queue(`select e.id, e.salario_base, e.jornada, e.hijos, e.conyuge, e.fecha_ingreso, e.fecha_salida,
			l.horas_extra, l.bonificaciones, l.comisiones, l.dias_incapacidad, l.otras_deducciones
		from planilla_lineas l join empleados e on e.empresa_id = l.empresa_id and e.id = l.empleado_id
		where l.empresa_id = $1 and l.planilla_id = $2 order by e.id`, tx.EmpresaID(), id).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var x entrada
			var hijos int32
			if err := rows.Scan(&x.empleadoID, &x.emp.SalarioBase, &x.emp.Jornada, &hijos, &x.emp.Conyuge, &x.emp.FechaIngreso,
				&x.emp.FechaSalida, &x.in.HorasExtra, &x.in.Bonificaciones, &x.in.Comisiones, &x.in.DiasIncapacidad,
				&x.in.OtrasDeducciones); err != nil {
				return err
			}
			x.emp.Hijos = int64(hijos)
			entradas = append(entradas, x)
		}
		return rows.Err()
	})
	b.Queue(tablaEn(`(select fecha_fin from planillas where empresa_id = $1 and id = $2)`), tx.EmpresaID(), id).
		Query(func(rows pgx.Rows) (err error) {
			tabla, err = escanearTabla(rows)
			return err
		})
	b.Queue(`select porcentaje_vacaciones from nomina_configuracion where empresa_id = $1`, tx.EmpresaID()).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			if err := rows.Scan(&vac); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("nomina: leer planilla %d: %w", id, err)
	}
	if !encontrada {
		return nil, apperr.NewNotFound(msgPlanillaNoEncontrada)
	}
	if estado != Borrador && estado != Calculada {
		return nil, rechazo(estado, "calcular")
	}
	if err := tabla.Validar(); errors.Is(err, ErrTramos) {
		return nil, apperr.InvalidField("fecha_fin", "Los tramos del impuesto sobre la renta vigentes al "+fin.Format(time.DateOnly)+
			" no son continuos (cada tramo empieza donde termina el anterior, desde 0, y solo el último no tiene tope): "+
			"un administrador de la plataforma debe corregirlos.")
	} else if err != nil {
		return nil, apperr.InvalidField("fecha_fin", "No hay tarifas de nómina vigentes al "+fin.Format(time.DateOnly)+
			" (cargas sociales y tramos de renta): un administrador de la plataforma debe registrarlas.")
	}
	periodo := Periodo{Tipo: tipo, Inicio: ini, Fin: fin}
	out := make([]lineaCalculada, 0, len(entradas))
	fields := map[string][]string{}
	var totales sumas
	for _, x := range entradas {
		r, err := CalcularLinea(periodo, x.emp, x.in, tabla, vac)
		var ec *ErrorCampo
		if errors.As(err, &ec) {
			k := "lineas." + strconv.FormatInt(x.empleadoID, 10) + "." + ec.Campo
			fields[k] = append(fields[k], ec.Mensaje)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("nomina: calcular empleado %d: %w", x.empleadoID, err)
		}
		if campo, monto, ok := totales.sumar(x.emp, x.in, r); !ok {
			k := "lineas." + strconv.FormatInt(x.empleadoID, 10) + "." + campo
			fields[k] = append(fields[k], "El monto "+campo+" de la línea ("+monto.StringFixed(2)+") supera el máximo que se puede registrar "+
				"(menos de "+reportes.Miles(limiteMonto)+"): revise el salario base y los montos de la línea.")
			continue
		}
		out = append(out, lineaCalculada{EmpleadoID: x.empleadoID, SalarioBase: x.emp.SalarioBase, Jornada: x.emp.Jornada,
			Hijos: x.emp.Hijos, Conyuge: x.emp.Conyuge, DiasLaborados: r.DiasLaborados, SalarioOrdinario: r.SalarioOrdinario,
			ValorHora: r.ValorHora, HorasExtraMonto: r.HorasExtraMonto, RebajoIncapacidad: r.RebajoIncapacidad,
			SubsidioIncapacidad: r.SubsidioIncapacidad, SalarioBruto: r.SalarioBruto, CCSSObrero: r.CCSSObrero,
			ImpuestoRenta: r.ImpuestoRenta, CreditosFiscales: r.CreditosFiscales, TotalDeducciones: r.TotalDeducciones,
			SalarioNeto: r.SalarioNeto, CargasPatronales: r.CargasPatronales, ProvisionAguinaldo: r.ProvisionAguinaldo,
			ProvisionVacaciones: r.ProvisionVacaciones})
	}
	if len(fields) == 0 {
		if campo, ok := totales.enRango(); !ok {
			fields["lineas"] = []string{"El total " + campo + " de la planilla supera el máximo que se puede registrar (menos de " +
				reportes.Miles(limiteMonto) + "): revise los salarios y los montos de las líneas."}
		}
	}
	if len(fields) > 0 {
		return nil, apperr.NewInvalid(fields)
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("nomina: calcular: %w", err)
	}
	if _, err := tx.Exec(ctx, `with x as (select * from jsonb_to_recordset($3) as x(empleado_id bigint, salario_base numeric,
			jornada text, hijos integer, conyuge boolean, dias_laborados integer, salario_ordinario numeric, valor_hora numeric,
			horas_extra_monto numeric, rebajo_incapacidad numeric, subsidio_incapacidad numeric, salario_bruto numeric,
			ccss_obrero numeric, impuesto_renta numeric, creditos_fiscales numeric, total_deducciones numeric, salario_neto numeric,
			cargas_patronales numeric, provision_aguinaldo numeric, provision_vacaciones numeric)),
		u as (update planilla_lineas l set salario_base = x.salario_base, jornada = x.jornada, hijos = x.hijos, conyuge = x.conyuge,
				dias_laborados = x.dias_laborados, salario_ordinario = x.salario_ordinario, valor_hora = x.valor_hora,
				horas_extra_monto = x.horas_extra_monto, rebajo_incapacidad = x.rebajo_incapacidad,
				subsidio_incapacidad = x.subsidio_incapacidad, salario_bruto = x.salario_bruto, ccss_obrero = x.ccss_obrero,
				impuesto_renta = x.impuesto_renta, creditos_fiscales = x.creditos_fiscales, total_deducciones = x.total_deducciones,
				salario_neto = x.salario_neto, cargas_patronales = x.cargas_patronales, provision_aguinaldo = x.provision_aguinaldo,
				provision_vacaciones = x.provision_vacaciones
			from x where l.empresa_id = $1 and l.planilla_id = $2 and l.empleado_id = x.empleado_id
			returning l.*)
		update planillas p set estado = 'calculada', calculada_en = now(), cantidad_empleados = s.n, salario_base = s.salario_base,
			salario_ordinario = s.salario_ordinario, horas_extra_monto = s.horas_extra_monto, bonificaciones = s.bonificaciones,
			comisiones = s.comisiones, rebajo_incapacidad = s.rebajo_incapacidad, subsidio_incapacidad = s.subsidio_incapacidad,
			salario_bruto = s.salario_bruto, ccss_obrero = s.ccss_obrero, impuesto_renta = s.impuesto_renta,
			otras_deducciones = s.otras_deducciones, total_deducciones = s.total_deducciones, salario_neto = s.salario_neto,
			cargas_patronales = s.cargas_patronales, provision_aguinaldo = s.provision_aguinaldo,
			provision_vacaciones = s.provision_vacaciones
		from (select count(*) as n, coalesce(sum(salario_base), 0) as salario_base, coalesce(sum(salario_ordinario), 0) as salario_ordinario,
				coalesce(sum(horas_extra_monto), 0) as horas_extra_monto, coalesce(sum(bonificaciones), 0) as bonificaciones,
				coalesce(sum(comisiones), 0) as comisiones, coalesce(sum(rebajo_incapacidad), 0) as rebajo_incapacidad,
				coalesce(sum(subsidio_incapacidad), 0) as subsidio_incapacidad, coalesce(sum(salario_bruto), 0) as salario_bruto,
				coalesce(sum(ccss_obrero), 0) as ccss_obrero, coalesce(sum(impuesto_renta), 0) as impuesto_renta,
				coalesce(sum(otras_deducciones), 0) as otras_deducciones, coalesce(sum(total_deducciones), 0) as total_deducciones,
				coalesce(sum(salario_neto), 0) as salario_neto, coalesce(sum(cargas_patronales), 0) as cargas_patronales,
				coalesce(sum(provision_aguinaldo), 0) as provision_aguinaldo, coalesce(sum(provision_vacaciones), 0) as provision_vacaciones
			from u) s
		where p.empresa_id = $1 and p.id = $2`, tx.EmpresaID(), id, raw); err != nil {
		return nil, fmt.Errorf("nomina: guardar cálculo de la planilla %d: %w", id, err)
	}
	return BuscarPlanilla(ctx, tx, p, id)
}

// limiteMonto bounds every amount a line or a planilla stores: the columns
// are numeric(18,2), so an amount must be below 10^16 (a salary near the
// employee's own limit with overtime, or a sum over many lines, would
// overflow the column: a 500 instead of a 422).
var limiteMonto = decimal.New(1, 16)

// sumas are a planilla's running totals of the stored amounts.
type sumas [16]decimal.Decimal

var camposMonto = [16]string{"salario_base", "salario_ordinario", "horas_extra_monto", "bonificaciones", "comisiones",
	"rebajo_incapacidad", "subsidio_incapacidad", "salario_bruto", "ccss_obrero", "impuesto_renta", "otras_deducciones",
	"total_deducciones", "salario_neto", "cargas_patronales", "provision_aguinaldo", "provision_vacaciones"}

// sumar adds a calculated line to the totals; false with the first amount
// of the line that cannot be stored.
func (s *sumas) sumar(e Empleado, in Entradas, r Resultado) (string, decimal.Decimal, bool) {
	montos := [16]decimal.Decimal{e.SalarioBase, r.SalarioOrdinario, r.HorasExtraMonto, in.Bonificaciones, in.Comisiones,
		r.RebajoIncapacidad, r.SubsidioIncapacidad, r.SalarioBruto, r.CCSSObrero, r.ImpuestoRenta, r.OtrasDeducciones,
		r.TotalDeducciones, r.SalarioNeto, r.CargasPatronales, r.ProvisionAguinaldo, r.ProvisionVacaciones}
	for i, m := range montos {
		if m.Abs().GreaterThanOrEqual(limiteMonto) {
			return camposMonto[i], m, false
		}
	}
	for i, m := range montos {
		s[i] = s[i].Add(m)
	}
	return "", decimal.Zero, true
}

// enRango is false with the first total that cannot be stored, including
// the payment's journal entry (marcar-pagada), whose total is the debits:
// salaries with the sick-leave subsidy, employer charges and provisions.
func (s *sumas) enRango() (string, bool) {
	for i, m := range s {
		if m.Abs().GreaterThanOrEqual(limiteMonto) {
			return "de " + camposMonto[i], false
		}
	}
	asiento := s[7].Add(s[6]).Add(s[13]).Add(s[14]).Add(s[15])
	if asiento.GreaterThanOrEqual(limiteMonto) {
		return "del asiento contable del pago", false
	}
	return "", true
}
