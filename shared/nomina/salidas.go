package nomina

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/montos"
	"github.com/erpcr/erp/shared/reportes"
)

// conResultados are the states whose lines hold a calculation.
func conResultados(estado string) bool {
	return estado == Calculada || estado == Aprobada || estado == Pagada
}

// ConsultaComprobante is GET /api/planillas/{id}/comprobantes/{empleado_id}.
type ConsultaComprobante struct {
	PlanillaID, EmpleadoID int64
}

// comprobante is what a pay slip prints.
type comprobante struct {
	empresa, cedula, numero, tipo, estado    string
	inicio, fin                              time.Time
	nombre, apellidos, tipoID, ident, puesto string
	jornada                                  string
	hijos                                    int32
	conyuge                                  bool
	dias, diasInc                            int32
	horasExtra                               decimal.Decimal
	montos                                   [15]decimal.Decimal
}

// Comprobante renders an employee's pay slip of a calculated, approved or
// paid planilla as a PDF (one query).
func Comprobante(ctx context.Context, tx *db.Tx, _ auth.Principal, q ConsultaComprobante) (exportar.Archivo, error) {
	var c comprobante
	m := &c.montos
	err := tx.QueryRow(ctx, `select em.nombre, em.nit_ruc, p.numero, p.tipo, p.estado, p.fecha_inicio, p.fecha_fin,
			e.nombre, e.apellidos, e.tipo_identificacion, e.identificacion, e.puesto, l.jornada, l.hijos, l.conyuge,
			l.dias_laborados, l.dias_incapacidad, l.horas_extra,
			l.salario_base, l.salario_ordinario, l.horas_extra_monto, l.bonificaciones, l.comisiones, l.rebajo_incapacidad,
			l.salario_bruto, l.ccss_obrero, l.impuesto_renta, l.creditos_fiscales, l.otras_deducciones, l.total_deducciones,
			l.subsidio_incapacidad, l.salario_neto, l.valor_hora
		from planillas p join planilla_lineas l on l.empresa_id = p.empresa_id and l.planilla_id = p.id
		join empleados e on e.empresa_id = l.empresa_id and e.id = l.empleado_id
		join empresas em on em.id = p.empresa_id
		where p.empresa_id = $1 and p.id = $2 and l.empleado_id = $3`, tx.EmpresaID(), q.PlanillaID, q.EmpleadoID).Scan(
		&c.empresa, &c.cedula, &c.numero, &c.tipo, &c.estado, &c.inicio, &c.fin,
		&c.nombre, &c.apellidos, &c.tipoID, &c.ident, &c.puesto, &c.jornada, &c.hijos, &c.conyuge, &c.dias, &c.diasInc, &c.horasExtra,
		&m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &m[6], &m[7], &m[8], &m[9], &m[10], &m[11], &m[12], &m[13], &m[14])
	if errors.Is(err, pgx.ErrNoRows) {
		return exportar.Archivo{}, apperr.NewNotFound("El empleado no tiene línea en esta planilla (o la planilla no existe).")
	}
	if err != nil {
		return exportar.Archivo{}, fmt.Errorf("nomina: comprobante: %w", err)
	}
	if !conResultados(c.estado) {
		return exportar.Archivo{}, rechazo(c.estado, "emitir comprobantes (debe estar calculada)")
	}
	datos, err := c.pdf()
	if err != nil {
		return exportar.Archivo{}, err
	}
	return exportar.Archivo{Nombre: fmt.Sprintf("comprobante_%s_%s.pdf", c.numero, c.ident), ContentType: exportar.MediaPDF, Datos: datos}, nil
}

// pdf lays the pay slip out on an A4 page.
func (c comprobante) pdf() ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	tr := pdf.UnicodeTranslatorFromDescriptor("") // UTF-8 -> cp1252 of the core fonts
	pdf.SetTitle("Comprobante de pago "+c.numero, true)
	pdf.SetAuthor(c.empresa, true)
	pdf.SetMargins(15, 15, 15)
	pdf.AddPage()
	const util = 180.0
	linea := func(estilo string, size float64, txt, borde string) {
		pdf.SetFont("Helvetica", estilo, size)
		pdf.CellFormat(util, 6, tr(txt), borde, 1, "L", false, 0, "")
	}
	linea("B", 13, c.empresa, "")
	linea("", 9, "Cédula jurídica: "+c.cedula, "")
	linea("B", 12, "Comprobante de pago de salario", "")
	linea("", 9, fmt.Sprintf("Planilla %s (%s) del %s al %s · %s", c.numero, c.tipo, c.inicio.Format("02/01/2006"),
		c.fin.Format("02/01/2006"), c.estado), "B")
	pdf.Ln(2)
	linea("B", 10, c.nombre+" "+c.apellidos, "")
	linea("", 9, fmt.Sprintf("Identificación (%s): %s · Puesto: %s · Jornada %s", c.tipoID, c.ident, c.puesto, c.jornada), "")
	linea("", 9, fmt.Sprintf("Días laborados: %d · Días de incapacidad: %d · Horas extra: %s · Hijos: %d · Cónyuge: %s",
		c.dias, c.diasInc, c.horasExtra.String(), c.hijos, map[bool]string{true: "sí", false: "no"}[c.conyuge]), "B")
	pdf.Ln(2)
	m := c.montos
	fila := func(concepto string, monto decimal.Decimal, negrita bool) {
		estilo := ""
		if negrita {
			estilo = "B"
		}
		pdf.SetFont("Helvetica", estilo, 10)
		pdf.CellFormat(130, 6, tr(concepto), "", 0, "L", false, 0, "")
		pdf.CellFormat(50, 6, reportes.Miles(monto), "", 1, "R", false, 0, "")
	}
	linea("B", 10, "Devengado", "")
	fila("Salario base mensual", m[0], false)
	fila("Salario ordinario del período", m[1], false)
	fila("Horas extra (valor hora "+reportes.Miles(m[14])+" x 1,5)", m[2], false)
	fila("Bonificaciones", m[3], false)
	fila("Comisiones", m[4], false)
	fila("Rebajo por días de incapacidad", m[5].Neg(), false)
	fila("Salario bruto", m[6], true)
	pdf.Ln(2)
	linea("B", 10, "Deducciones", "")
	fila("CCSS obrero (SEM, IVM y Banco Popular)", m[7], false)
	fila("Impuesto sobre la renta (créditos fiscales "+reportes.Miles(m[9])+")", m[8], false)
	fila("Otras deducciones", m[10], false)
	fila("Total de deducciones", m[11], true)
	pdf.Ln(2)
	fila("Subsidio patronal por incapacidad (días 1 a 3, 50 %)", m[12], false)
	fila("Salario neto a pagar", m[13], true)
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("nomina: comprobante pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// ConsultaCCSS is GET /api/planillas/{id}/reporte-ccss?formato=csv|excel.
type ConsultaCCSS struct {
	PlanillaID int64
	Formato    string
}

// ReporteCCSS is the file a company uploads to the CCSS SICERE for a
// planilla: one row per employee with the identification type and number,
// names, working day, days worked (the period's days employed less the
// days of sick leave, which the CCSS covers) and the reported salary (the
// gross salary, the base of the contributions; the employer's sick-leave
// subsidy is not salary).
func ReporteCCSS(ctx context.Context, tx *db.Tx, _ auth.Principal, q ConsultaCCSS) (exportar.Archivo, error) {
	var (
		numero, estado string
		filas          []json.RawMessage
	)
	b := &pgx.Batch{}
	b.Queue(`select numero, estado from planillas where empresa_id = $1 and id = $2`, tx.EmpresaID(), q.PlanillaID).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				if err := rows.Scan(&numero, &estado); err != nil {
					return err
				}
			}
			return rows.Err()
		})
	b.Queue(`select jsonb_build_object('tipo_identificacion', e.tipo_identificacion, 'identificacion', e.identificacion,
			'apellidos', e.apellidos, 'nombre', e.nombre, 'jornada', l.jornada, 'fecha_ingreso', e.fecha_ingreso,
			'dias_laborados', l.dias_laborados - l.dias_incapacidad, 'dias_incapacidad', l.dias_incapacidad,
			'salario_reportado', l.salario_bruto)
		from planilla_lineas l join empleados e on e.empresa_id = l.empresa_id and e.id = l.empleado_id
		where l.empresa_id = $1 and l.planilla_id = $2 order by e.apellidos, e.nombre, l.id`, tx.EmpresaID(), q.PlanillaID).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var raw []byte
				if err := rows.Scan(&raw); err != nil {
					return err
				}
				filas = append(filas, raw)
			}
			return rows.Err()
		})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return exportar.Archivo{}, fmt.Errorf("nomina: reporte ccss: %w", err)
	}
	if numero == "" {
		return exportar.Archivo{}, apperr.NewNotFound(msgPlanillaNoEncontrada)
	}
	if !conResultados(estado) {
		return exportar.Archivo{}, rechazo(estado, "reportar a la CCSS (debe estar calculada)")
	}
	t, err := exportar.Aplanar(filas)
	if err != nil {
		return exportar.Archivo{}, err
	}
	var buf bytes.Buffer
	nombre := "reporte_ccss_" + numero
	if q.Formato == "excel" {
		if err := exportar.Excel(&buf, "SICERE", t); err != nil {
			return exportar.Archivo{}, fmt.Errorf("nomina: reporte ccss excel: %w", err)
		}
		return exportar.Archivo{Nombre: nombre + ".xlsx", ContentType: exportar.MediaExcel, Datos: buf.Bytes()}, nil
	}
	if err := exportar.CSV(&buf, t); err != nil {
		return exportar.Archivo{}, fmt.Errorf("nomina: reporte ccss csv: %w", err)
	}
	return exportar.Archivo{Nombre: nombre + ".csv", ContentType: exportar.MediaCSV, Datos: buf.Bytes()}, nil
}

// AguinaldoEmpleado is one employee's aguinaldo.
type AguinaldoEmpleado struct {
	EmpleadoID     int64         `json:"empleado_id"`
	Nombre         string        `json:"nombre"`
	Apellidos      string        `json:"apellidos"`
	Identificacion string        `json:"identificacion"`
	Planillas      int64         `json:"planillas"`
	TotalSalarios  montos.Numero `json:"total_salarios"`
	Aguinaldo      montos.Numero `json:"aguinaldo"`
}

// ResultadoAguinaldo is POST /api/planillas/aguinaldo's answer.
type ResultadoAguinaldo struct {
	Anio      int64               `json:"anio"`
	Desde     string              `json:"desde"`
	Hasta     string              `json:"hasta"`
	Empleados []AguinaldoEmpleado `json:"empleados"`
	Total     montos.Numero       `json:"total"`
}

// CalcularAguinaldo computes each employee's December aguinaldo of anio
// (Ley 2412 art. 1): the gross salaries of the paid planillas whose period
// ends from December 1 of anio-1 to November 30 of anio, divided by 12. It
// writes nothing: the answer is recomputed from the paid planillas.
func CalcularAguinaldo(ctx context.Context, tx *db.Tx, _ auth.Principal, anio int64) (ResultadoAguinaldo, error) {
	desde := time.Date(int(anio)-1, time.December, 1, 0, 0, 0, 0, time.UTC)
	hasta := time.Date(int(anio), time.November, 30, 0, 0, 0, 0, time.UTC)
	out := ResultadoAguinaldo{Anio: anio, Desde: desde.Format(time.DateOnly), Hasta: hasta.Format(time.DateOnly),
		Empleados: []AguinaldoEmpleado{}}
	total := decimal.Zero
	rows, err := tx.Query(ctx, `select e.id, e.nombre, e.apellidos, e.identificacion, count(distinct p.id), sum(l.salario_bruto)
		from planillas p join planilla_lineas l on l.empresa_id = p.empresa_id and l.planilla_id = p.id
		join empleados e on e.empresa_id = l.empresa_id and e.id = l.empleado_id
		where p.empresa_id = $1 and p.estado = 'pagada' and p.fecha_fin between $2 and $3
		group by e.id order by e.apellidos, e.nombre, e.id`, tx.EmpresaID(), desde, hasta)
	if err != nil {
		return out, fmt.Errorf("nomina: aguinaldo: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a AguinaldoEmpleado
		if err := rows.Scan(&a.EmpleadoID, &a.Nombre, &a.Apellidos, &a.Identificacion, &a.Planillas, &a.TotalSalarios); err != nil {
			return out, fmt.Errorf("nomina: aguinaldo: %w", err)
		}
		a.Aguinaldo = montos.NuevoNumero(Aguinaldo(a.TotalSalarios.Decimal()))
		total = total.Add(a.Aguinaldo.Decimal())
		out.Empleados = append(out.Empleados, a)
	}
	out.Total = montos.NuevoNumero(total)
	return out, rows.Err()
}
