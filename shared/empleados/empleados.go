// Package empleados declares the company's employees (issue 15,
// "Employees"): identification with the customers' Costa Rican formats,
// salary and pay terms the payroll (nomina) reads, the optional link to a
// system user of the company, and the computed age and seniority.
package empleados

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
	"github.com/erpcr/erp/shared/terceros"
	"github.com/erpcr/erp/shared/tesoreria"
	"github.com/erpcr/erp/shared/transporte"
)

// Enumerations of the employee's fields.
var (
	TiposPago = []string{"mensual", "quincenal", "semanal"}
	Jornadas  = []string{"diurna", "mixta", "nocturna"}
	Estados   = []string{"activo", "vacaciones", "incapacitado", "suspendido", "inactivo"}
)

// EdadMinima is the minimum age to be hired: 15 (Código de la Niñez y la
// Adolescencia, Ley 7739, art. 92 "Edad mínima"; SPEC.md states the same).
const EdadMinima = 15

// antiguedad is {anios, meses, dias} from fecha_ingreso to fecha_salida, or
// to today while the employee has not left (an exit date in the future
// counts to today); zero before the hiring date.
const antiguedad = `(select jsonb_build_object('anios', extract(year from x.a)::int,
		'meses', extract(month from x.a)::int, 'dias', extract(day from x.a)::int)
	from (select case when h.hasta < t.fecha_ingreso then interval '0' else age(h.hasta, t.fecha_ingreso) end as a
		from (select least(coalesce(t.fecha_salida, ` + horacr.HoySQL + `), ` + horacr.HoySQL + `) as hasta) h) x)`

func iban(s string) (string, string, bool) {
	n := tesoreria.NormalizarIBAN(s)
	if msg := tesoreria.ValidarIBAN(n); msg != "" {
		return "", msg, false
	}
	return n, "", true
}

func collapse(s string) (string, string, bool) { return crformat.CollapseSpaces(s), "", true }

// Empleado is an employee of a company.
var Empleado = &recurso.Resource{
	Name: "empleados", Table: "empleados", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse},
		{Name: "apellidos", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse},
		{Name: "tipo_identificacion", Kind: recurso.Text, Required: true, Values: crformat.TiposIdentificacion},
		{Name: "identificacion", Kind: recurso.Text, Required: true, Max: 50, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe un empleado con esa identificación en esta empresa.", Ejemplo: "109870654"},
		{Name: "fecha_nacimiento", Kind: recurso.Date, Required: true, Ejemplo: "1990-05-20"},
		{Name: "fecha_ingreso", Kind: recurso.Date, Required: true, Ejemplo: "2024-02-01"},
		{Name: "fecha_salida", Kind: recurso.Date},
		{Name: "puesto", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse},
		{Name: "departamento", Kind: recurso.Text, Max: 255, Normalize: collapse},
		{Name: "sucursal_id", Kind: recurso.Ref, RefTable: "sucursales", RefTenant: true,
			RefMsg: "La sucursal seleccionada no existe en esta empresa."},
		{Name: "salario_base", Kind: recurso.Decimal, Required: true, MinValue: "0.01", Ejemplo: "650000.00"},
		{Name: "tipo_pago", Kind: recurso.Text, Values: TiposPago, Default: "mensual"},
		{Name: "jornada", Kind: recurso.Text, Values: Jornadas, Default: "diurna"},
		{Name: "estado", Kind: recurso.Text, Values: Estados, Default: "activo"},
		{Name: "usuario_id", Kind: recurso.Ref, Unique: recurso.UniquePerTenant,
			UniqueMsg: "El usuario ya está vinculado a otro empleado de esta empresa."},
		{Name: "email", Kind: recurso.Text, Max: 255, Email: true},
		{Name: "telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("telefono")},
		{Name: "cuenta_iban", Kind: recurso.Text, Max: 64, Normalize: iban, Ejemplo: "CR05015202001026284066"},
		{Name: "hijos", Kind: recurso.Integer, MinValue: "0", MaxValue: "30", Default: int64(0)},
		{Name: "conyuge", Kind: recurso.Boolean, Default: false},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Computed: map[string]string{
		"edad":            `extract(year from age(` + horacr.HoySQL + `, t.fecha_nacimiento))::int`,
		"antiguedad":      antiguedad,
		"nombre_completo": `concat_ws(' ', t.nombre, t.apellidos)`,
	},
	Relations: []recurso.Relation{
		{Name: "sucursal", FK: "sucursal_id", Table: "sucursales", Cols: []string{"id", "nombre"}},
		{Name: "usuario", FK: "usuario_id", Table: "usuarios", Cols: []string{"id", "nombre", "email"}},
	},
	Filters: []recurso.Filter{
		{Param: "puesto", Kind: recurso.Text},
		{Param: "estado", Kind: recurso.Text, Values: Estados},
		{Param: "departamento", Kind: recurso.Text},
		{Param: "sucursal_id", Kind: recurso.Ref},
		{Param: "tipo_pago", Kind: recurso.Text, Values: TiposPago},
	},
	Sorts: []string{"nombre", "apellidos", "identificacion", "puesto", "fecha_ingreso", "salario_base"},
	Messages: recurso.Messages{NotFound: "Empleado no encontrado.", Created: "Empleado creado correctamente.",
		Updated: "Empleado actualizado correctamente.", Deleted: "Empleado eliminado correctamente."},
	Validate:     validar,
	BeforeSave:   verificarUsuario,
	BeforeDelete: antesDeEliminar,
}

// sinBuses refuses to delete the driver of a bus: the bus would name a
// deleted employee. It locks the employee's row.
var sinBuses = transporte.SinBuses("empleados", "chofer_id", "No se puede eliminar un empleado que es chofer de un bus. Asigne otro chofer al bus primero.")

// antesDeEliminar refuses to delete a bus driver, or an employee on a
// planilla not yet paid nor annulled: its calculation would still pay the
// deleted employee (and list them in the CCSS report). Checked after the
// row lock, in a statement of its own, so a planilla committed meanwhile is
// seen.
func antesDeEliminar(c *recurso.Call) error {
	if err := sinBuses(c); err != nil {
		return err
	}
	var numero, estado string
	err := c.Tx.QueryRow(c.Context(), `select p.numero, p.estado from planilla_lineas l
			join planillas p on p.empresa_id = l.empresa_id and p.id = l.planilla_id
		where l.empresa_id = $1 and l.empleado_id = $2 and p.estado in ('borrador', 'calculada', 'aprobada')
		order by p.id limit 1`, c.Tx.EmpresaID(), c.ID).Scan(&numero, &estado)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("empleados: planillas del empleado %d: %w", c.ID, err)
	}
	return apperr.InvalidField("id", "No se puede eliminar un empleado que está en la planilla "+numero+" ("+estado+"): "+
		"páguela o anúlela primero.")
}

// Grupo returns the handlers of the empleados group.
func Grupo(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Empleado, d.DB) }

// validar checks the rules across fields on the values the record will
// have (sent ones over the current ones): the identification for its type,
// the minimum hiring age and the exit not before the hiring.
func validar(c *recurso.Call, vals map[string]any) {
	terceros.ValidarIdentificacion(c, vals)
	if vals["hijos"] == nil {
		if _, sent := vals["hijos"]; sent {
			vals["hijos"] = int64(0) // null back to the default (NOT NULL)
		}
	}
	nacimiento, okN := fecha(vals, c.Current, "fecha_nacimiento")
	ingreso, okI := fecha(vals, c.Current, "fecha_ingreso")
	salida, okS := fecha(vals, c.Current, "fecha_salida")
	// Checked when sent: a birth date after today (Costa Rica) gave a
	// negative edad, with a hiring date 15 years after it.
	if n, sent := vals["fecha_nacimiento"].(time.Time); sent && n.After(horacr.Hoy()) {
		c.In.Fail("fecha_nacimiento", "La fecha de nacimiento no puede ser posterior a hoy.")
		return
	}
	if okN && okI && !c.In.Failed("fecha_nacimiento") && !c.In.Failed("fecha_ingreso") && EdadEn(nacimiento, ingreso) < EdadMinima {
		c.In.Fail("fecha_nacimiento", "El empleado debe tener al menos 15 años cumplidos a la fecha de ingreso (edad mínima de contratación: 15 años).")
	}
	if okI && okS && !c.In.Failed("fecha_salida") && !c.In.Failed("fecha_ingreso") && salida.Before(ingreso) {
		c.In.Fail("fecha_salida", "La fecha de salida debe ser igual o posterior a la fecha de ingreso.")
	}
}

// EdadEn is the age in whole years on day en of someone born on nacimiento
// (a 29 February birthday counts on 1 March in common years).
func EdadEn(nacimiento, en time.Time) int {
	years := en.Year() - nacimiento.Year()
	if en.Month() < nacimiento.Month() || (en.Month() == nacimiento.Month() && en.Day() < nacimiento.Day()) {
		years--
	}
	return years
}

// verificarUsuario requires the linked user to be an active member of the
// company (the foreign key to membresias only proves a membership row
// exists).
func verificarUsuario(c *recurso.Call, vals map[string]any) error {
	id, ok := vals["usuario_id"].(int64)
	if !ok {
		return nil
	}
	var miembro bool
	err := c.Tx.QueryRow(c.Context(), `select exists (select 1 from membresias m join usuarios u on u.id = m.usuario_id
		where m.empresa_id = $1 and m.usuario_id = $2 and m.activo and not m.eliminado and not u.eliminado)`,
		c.Tx.EmpresaID(), id).Scan(&miembro)
	if err != nil {
		return err
	}
	if !miembro {
		c.In.Fail("usuario_id", "El usuario seleccionado no existe o no pertenece a esta empresa.")
	}
	return nil
}
