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
	"github.com/erpcr/erp/shared/documentos"
)

// Planilla states: borrador -> calculada -> aprobada -> pagada, or anulada
// before pagada. Editing a calculated planilla's inputs takes it back to
// borrador (its results no longer hold).
const (
	Borrador  = "borrador"
	Calculada = "calculada"
	Aprobada  = "aprobada"
	Pagada    = "pagada"
	Anulada   = "anulada"
)

// Estados are the planilla states.
var Estados = []string{Borrador, Calculada, Aprobada, Pagada, Anulada}

const msgPlanillaNoEncontrada = "Planilla no encontrada."

// diasMaximos bound a period's calendar length by its type.
var diasMaximos = map[string]int{Mensual: 31, Quincenal: 16, Semanal: 7}

// totalesJSON are a planilla's totals (alias p).
const totalesJSON = `jsonb_build_object('cantidad_empleados', p.cantidad_empleados, 'salario_base', p.salario_base,
	'salario_ordinario', p.salario_ordinario, 'horas_extra_monto', p.horas_extra_monto, 'bonificaciones', p.bonificaciones,
	'comisiones', p.comisiones, 'rebajo_incapacidad', p.rebajo_incapacidad, 'subsidio_incapacidad', p.subsidio_incapacidad,
	'salario_bruto', p.salario_bruto, 'ccss_obrero', p.ccss_obrero, 'impuesto_renta', p.impuesto_renta,
	'otras_deducciones', p.otras_deducciones, 'total_deducciones', p.total_deducciones, 'salario_neto', p.salario_neto,
	'cargas_patronales', p.cargas_patronales, 'provision_aguinaldo', p.provision_aguinaldo,
	'provision_vacaciones', p.provision_vacaciones)`

// planillaJSON is a planilla as the API shows it (alias p), without lines.
const planillaJSON = `jsonb_build_object('id', p.id, 'empresa_id', p.empresa_id, 'numero', p.numero, 'tipo', p.tipo,
	'fecha_inicio', p.fecha_inicio, 'fecha_fin', p.fecha_fin,
	'periodo', jsonb_build_object('tipo', p.tipo, 'fecha_inicio', p.fecha_inicio, 'fecha_fin', p.fecha_fin),
	'estado', p.estado, 'descripcion', p.descripcion, 'fecha_pago', p.fecha_pago, 'asiento_id', p.asiento_id,
	'asiento_numero', (select a.numero from asientos_contables a where a.empresa_id = p.empresa_id and a.id = p.asiento_id),
	'usuario_id', p.usuario_id, 'calculada_en', p.calculada_en, 'aprobada_en', p.aprobada_en, 'pagada_en', p.pagada_en,
	'anulada_en', p.anulada_en, 'creado_en', p.creado_en, 'actualizado_en', p.actualizado_en, 'totales', ` + totalesJSON + `)`

// lineaJSON is a line (alias l) with its employee (alias e).
const lineaJSON = `jsonb_build_object('id', l.id, 'empleado_id', l.empleado_id,
	'empleado', jsonb_build_object('id', e.id, 'nombre', e.nombre, 'apellidos', e.apellidos,
		'tipo_identificacion', e.tipo_identificacion, 'identificacion', e.identificacion, 'puesto', e.puesto),
	'salario_base', l.salario_base, 'jornada', l.jornada, 'hijos', l.hijos, 'conyuge', l.conyuge,
	'horas_extra', l.horas_extra, 'bonificaciones', l.bonificaciones, 'comisiones', l.comisiones,
	'dias_incapacidad', l.dias_incapacidad, 'otras_deducciones', l.otras_deducciones, 'dias_laborados', l.dias_laborados,
	'salario_ordinario', l.salario_ordinario, 'valor_hora', l.valor_hora, 'horas_extra_monto', l.horas_extra_monto,
	'rebajo_incapacidad', l.rebajo_incapacidad, 'subsidio_incapacidad', l.subsidio_incapacidad,
	'salario_bruto', l.salario_bruto, 'ccss_obrero', l.ccss_obrero, 'impuesto_renta', l.impuesto_renta,
	'creditos_fiscales', l.creditos_fiscales, 'total_deducciones', l.total_deducciones, 'salario_neto', l.salario_neto,
	'cargas_patronales', l.cargas_patronales, 'provision_aguinaldo', l.provision_aguinaldo,
	'provision_vacaciones', l.provision_vacaciones)`

// lineasJSON are a planilla's lines, by employee surname and name.
const lineasJSON = `(select coalesce(jsonb_agg(` + lineaJSON + ` order by e.apellidos, e.nombre, l.id), '[]'::jsonb)
	from planilla_lineas l join empleados e on e.empresa_id = l.empresa_id and e.id = l.empleado_id
	where l.empresa_id = p.empresa_id and l.planilla_id = p.id)`

// activoEnPeriodo selects the employees (alias e) of company $1 on a
// payroll of type $5 for a period from $2 to $3: paid with that frequency
// (tipo_pago: a monthly planilla does not pay the weekly staff), not
// deleted, not inactive, hired by its end and not gone before its start,
// and not already on another live planilla (of another type: one of the
// same type is refused before) that covers part of the period: an
// employee whose tipo_pago changed would otherwise be paid twice for the
// days both periods share.
const activoEnPeriodo = `e.empresa_id = $1 and not e.eliminado and e.estado <> 'inactivo' and e.tipo_pago = $5::text
	and e.fecha_ingreso <= $3 and (e.fecha_salida is null or e.fecha_salida >= $2)
	and not exists (select 1 from planilla_lineas ol join planillas op on op.empresa_id = ol.empresa_id and op.id = ol.planilla_id
		where ol.empresa_id = $1 and ol.empleado_id = e.id and op.estado <> 'anulada' and op.fecha_inicio <= $3 and op.fecha_fin >= $2)`

// DatosPlanilla is a validated new planilla.
type DatosPlanilla struct {
	Tipo        string
	Inicio, Fin time.Time
	Descripcion *string
}

// BuscarPlanilla loads a planilla of the tenant with its lines.
func BuscarPlanilla(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (json.RawMessage, error) {
	raw, found, err := db.Uno(ctx, tx, fmt.Sprintf("nomina: planilla %d", id), pgx.RowTo[[]byte], nil,
		`select `+planillaJSON+` || jsonb_build_object('lineas', `+lineasJSON+`)
		from planillas p where p.empresa_id = $1 and p.id = $2`, tx.EmpresaID(), id)
	return raw, apperr.NotFoundUnless(found, err, msgPlanillaNoEncontrada)
}

// CrearPlanilla opens a planilla in borrador with one line per employee on
// the payroll of the period (their salary, working day and tax-credit data
// as of now; the calculation refreshes them), numbered PLA-<n> from the
// company's counter in this transaction (a rollback gives the number back).
func CrearPlanilla(ctx context.Context, tx *db.Tx, p auth.Principal, d DatosPlanilla) (json.RawMessage, error) {
	if dias := int(d.Fin.Sub(d.Inicio).Hours()/24) + 1; dias > diasMaximos[d.Tipo] {
		return nil, apperr.InvalidField("fecha_fin", fmt.Sprintf("Una planilla %s abarca a lo sumo %d días; el período indicado tiene %d.",
			d.Tipo, diasMaximos[d.Tipo], dias))
	}
	n, err := documentos.Siguiente(ctx, tx, "PLA")
	if err != nil {
		return nil, err
	}
	// A period is paid once per pay type: another live planilla of the type
	// overlapping it is refused. Checked after taking the counter, whose row
	// lock serializes the company's new planillas: a concurrent one has
	// committed (and is seen) or not started.
	var otra, estado string
	err = tx.QueryRow(ctx, `select numero, estado from planillas where empresa_id = $1 and tipo = $2 and estado <> 'anulada'
		and fecha_inicio <= $4 and fecha_fin >= $3 order by id limit 1`, tx.EmpresaID(), d.Tipo, d.Inicio, d.Fin).Scan(&otra, &estado)
	switch {
	case err == nil:
		return nil, apperr.InvalidField("fecha_inicio", fmt.Sprintf("La planilla %s (%s, %s) ya cubre parte de este período; "+
			"anúlela antes de crear otra.", otra, d.Tipo, estado))
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("nomina: planillas del período: %w", err)
	}
	var id, lineas int64
	// The employees are taken with a key-share lock: a delete of one (which
	// locks it first) either waits for this planilla and then sees its line,
	// or has committed and the employee, read again, is left out.
	err = tx.QueryRow(ctx, `with emp as (
			select e.id, e.salario_base, e.jornada, e.hijos, e.conyuge from empleados e where `+activoEnPeriodo+`
			for key share of e),
		p as (
			insert into planillas (empresa_id, numero, tipo, fecha_inicio, fecha_fin, descripcion, usuario_id, cantidad_empleados)
			values ($1, $4, $5::text, $2, $3, $6, nullif($7, 0), (select count(*) from emp))
			returning id),
		l as (
			insert into planilla_lineas (empresa_id, planilla_id, empleado_id, salario_base, jornada, hijos, conyuge)
			select $1, p.id, emp.id, emp.salario_base, emp.jornada, emp.hijos, emp.conyuge from p, emp
			returning 1)
		select p.id, (select count(*) from l) from p`,
		tx.EmpresaID(), d.Inicio, d.Fin, documentos.Numero("PLA", n, 6), d.Tipo, d.Descripcion, p.UsuarioID).Scan(&id, &lineas)
	if err != nil {
		return nil, fmt.Errorf("nomina: crear planilla: %w", err)
	}
	if lineas == 0 {
		return nil, apperr.InvalidField("fecha_inicio", "No hay empleados activos con pago "+d.Tipo+" en el período indicado "+
			"que no estén ya en otra planilla del período: la planilla quedaría vacía.")
	}
	return BuscarPlanilla(ctx, tx, p, id)
}

// bloqueada is a locked planilla's state and period start.
type bloqueada struct {
	estado string
	inicio time.Time
}

// bloquear locks a planilla of the tenant and returns its state.
func bloquear(ctx context.Context, tx *db.Tx, id int64) (bloqueada, error) {
	var b bloqueada
	err := tx.QueryRow(ctx, `select estado, fecha_inicio from planillas where empresa_id = $1 and id = $2 for update`,
		tx.EmpresaID(), id).Scan(&b.estado, &b.inicio)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, apperr.NewNotFound(msgPlanillaNoEncontrada)
	}
	if err != nil {
		return b, fmt.Errorf("nomina: planilla %d: %w", id, err)
	}
	return b, nil
}

// rechazo is the 422 of a state that does not allow an action.
func rechazo(estado, accion string) error {
	return apperr.InvalidField("estado", "La planilla está "+estado+"; no se puede "+accion+".")
}

// LineaEntrada is one line's change of inputs; nil fields keep their value.
type LineaEntrada struct {
	EmpleadoID       int64            `json:"empleado_id"`
	HorasExtra       *decimal.Decimal `json:"horas_extra"`
	Bonificaciones   *decimal.Decimal `json:"bonificaciones"`
	Comisiones       *decimal.Decimal `json:"comisiones"`
	DiasIncapacidad  *int64           `json:"dias_incapacidad"`
	OtrasDeducciones *decimal.Decimal `json:"otras_deducciones"`
}

// ActualizarLineas changes the inputs of any number of lines in one
// statement, while the planilla is borrador or calculada (a calculated one
// goes back to borrador: it must be calculated again before approval).
func ActualizarLineas(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, lineas []LineaEntrada) (json.RawMessage, error) {
	b, err := bloquear(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if b.estado != Borrador && b.estado != Calculada {
		return nil, rechazo(b.estado, "modificar sus líneas")
	}
	raw, err := json.Marshal(lineas)
	if err != nil {
		return nil, fmt.Errorf("nomina: líneas: %w", err)
	}
	rows, err := tx.Query(ctx, `with x as (select * from jsonb_to_recordset($3) as x(empleado_id bigint, horas_extra numeric,
			bonificaciones numeric, comisiones numeric, dias_incapacidad integer, otras_deducciones numeric)),
		u as (update planilla_lineas l set horas_extra = coalesce(x.horas_extra, l.horas_extra),
				bonificaciones = coalesce(x.bonificaciones, l.bonificaciones), comisiones = coalesce(x.comisiones, l.comisiones),
				dias_incapacidad = coalesce(x.dias_incapacidad, l.dias_incapacidad),
				otras_deducciones = coalesce(x.otras_deducciones, l.otras_deducciones)
			from x where l.empresa_id = $1 and l.planilla_id = $2 and l.empleado_id = x.empleado_id returning l.empleado_id),
		b as (update planillas set estado = 'borrador', calculada_en = null where empresa_id = $1 and id = $2 and estado = 'calculada')
		select empleado_id from u`, tx.EmpresaID(), id, raw)
	if err != nil {
		return nil, fmt.Errorf("nomina: actualizar líneas: %w", err)
	}
	hechos, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("nomina: actualizar líneas: %w", err)
	}
	vistos := map[int64]bool{}
	for _, e := range hechos {
		vistos[e] = true
	}
	fields := map[string][]string{}
	for i, l := range lineas {
		if !vistos[l.EmpleadoID] {
			fields["lineas."+strconv.Itoa(i)+".empleado_id"] = []string{"El empleado no tiene línea en esta planilla."}
		}
	}
	if len(fields) > 0 {
		return nil, apperr.NewInvalid(fields)
	}
	return BuscarPlanilla(ctx, tx, p, id)
}

// cambiarEstado moves a planilla from one of desde to hacia.
func cambiarEstado(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, accion, hacia string, desde ...string) (json.RawMessage, error) {
	b, err := bloquear(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	permitido := false
	for _, d := range desde {
		permitido = permitido || d == b.estado
	}
	if !permitido {
		return nil, rechazo(b.estado, accion)
	}
	if _, err := tx.Exec(ctx, `update planillas set estado = $3::text,
			aprobada_en = case when $3::text = 'aprobada' then now() else aprobada_en end,
			anulada_en = case when $3::text = 'anulada' then now() else anulada_en end
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, hacia); err != nil {
		return nil, fmt.Errorf("nomina: planilla %d a %s: %w", id, hacia, err)
	}
	return BuscarPlanilla(ctx, tx, p, id)
}

// Aprobar approves a calculated planilla: it counts as pending payroll
// until paid.
func Aprobar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (json.RawMessage, error) {
	return cambiarEstado(ctx, tx, p, id, "aprobar (debe estar calculada)", Aprobada, Calculada)
}

// Anular cancels a planilla that is not paid; it keeps its number.
func Anular(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (json.RawMessage, error) {
	return cambiarEstado(ctx, tx, p, id, "anular", Anulada, Borrador, Calculada, Aprobada)
}
