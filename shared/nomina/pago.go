package nomina

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
)

// DatosPago is marcar-pagada's body: the payment date (default today in
// Costa Rica), the date of the journal entry.
type DatosPago struct {
	FechaPago *time.Time
}

// MarcarPagada pays an approved planilla: it posts the journal entry
// (origen 'planilla', accounts of contabilidad_configuracion) and writes
// PlanillaPagadaEvent, all in this transaction. The entry:
//
//	Dr salarios (gross + the employer's sick-leave subsidy)
//	Dr cargas sociales patronales, aguinaldo and vacation expense
//	Cr CCSS por pagar (worker's and employer's shares: SICERE collects
//	   both; the INS premium estimate rides with them), renta retenida,
//	   the aguinaldo and vacation provisions, salarios por pagar (other
//	   deductions, owed to whoever they were withheld for) and the bank
//	   (the net pay).
//
// A closed accounting month is a 422 under fecha_pago (0012's rule), and
// so is a payment dated before the period starts (its entry would land in
// a month the planilla has nothing to do with).
func MarcarPagada(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, d DatosPago) (json.RawMessage, error) {
	b, err := bloquear(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if b.estado != Aprobada {
		return nil, rechazo(b.estado, "marcar como pagada (debe estar aprobada)")
	}
	if d.FechaPago != nil && d.FechaPago.Before(b.inicio) {
		return nil, apperr.InvalidField("fecha_pago", "La fecha de pago no puede ser anterior al inicio del período de la planilla ("+
			b.inicio.Format(time.DateOnly)+").")
	}
	if _, err := tx.Exec(ctx, `update planillas p set estado = 'pagada', pagada_en = now(),
			fecha_pago = coalesce($3::date, contabilidad_hoy()),
			asiento_id = (select contabilidad_registrar(p.empresa_id, coalesce($3::date, contabilidad_hoy()),
				'Planilla ' || p.numero || ' (' || p.tipo || ' del ' || to_char(p.fecha_inicio, 'DD/MM/YYYY') || ' al ' ||
					to_char(p.fecha_fin, 'DD/MM/YYYY') || ')', 'planilla', p.id,
				`+lineasPago+`,
				'CRC', 1, 'fecha_pago')
				from contabilidad_configuracion cfg where cfg.empresa_id = p.empresa_id)
		where p.empresa_id = $1 and p.id = $2`, tx.EmpresaID(), id, d.FechaPago); err != nil {
		return nil, fmt.Errorf("nomina: pagar planilla %d: %w", id, err)
	}
	out, err := BuscarPlanilla(ctx, tx, p, id)
	if err != nil {
		return nil, err
	}
	if err := eventos.Registrar(ctx, tx, eventos.PlanillaPagada, out); err != nil {
		return nil, err
	}
	return out, nil
}

// lineaPago is a line of the payment's entry: the account (a column of
// contabilidad_configuracion), its side, the amount (an expression over
// the planilla p) and the description.
type lineaPago struct{ cuenta, lado, monto, descripcion string }

// lineasPago is the entry's lines as the jsonb array contabilidad_registrar
// takes, debits first.
var lineasPago = func() string {
	lineas := []lineaPago{
		{"cuenta_salarios_id", "debe", "p.salario_bruto + p.subsidio_incapacidad", "Salarios devengados"},
		{"cuenta_cargas_sociales_id", "debe", "p.cargas_patronales", "Cargas sociales patronales"},
		{"cuenta_aguinaldo_gasto_id", "debe", "p.provision_aguinaldo", "Aguinaldo del período"},
		{"cuenta_vacaciones_gasto_id", "debe", "p.provision_vacaciones", "Vacaciones del período"},
		{"cuenta_ccss_por_pagar_id", "haber", "p.ccss_obrero + p.cargas_patronales", "Cuotas obrero-patronales por pagar"},
		{"cuenta_retenciones_id", "haber", "p.impuesto_renta", "Impuesto al salario retenido"},
		{"cuenta_aguinaldo_provision_id", "haber", "p.provision_aguinaldo", "Provisión de aguinaldo"},
		{"cuenta_vacaciones_provision_id", "haber", "p.provision_vacaciones", "Provisión de vacaciones"},
		{"cuenta_salarios_por_pagar_id", "haber", "p.otras_deducciones", "Otras deducciones retenidas"},
		{"cuenta_bancos_id", "haber", "p.salario_neto", "Pago neto de salarios"},
	}
	objetos := make([]string, len(lineas))
	for i, l := range lineas {
		objetos[i] = fmt.Sprintf("jsonb_build_object('cuenta_id', cfg.%s, '%s', %s, 'descripcion', '%s')", l.cuenta, l.lado, l.monto, l.descripcion)
	}
	return "jsonb_build_array(" + strings.Join(objetos, ", ") + ")"
}()
