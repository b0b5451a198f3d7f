package transporte

import (
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/recurso"
	"github.com/erpcr/erp/shared/valid"
)

// EstadosBus are the states of a bus.
var EstadosBus = []string{"disponible", "en_servicio", "mantenimiento", "fuera_de_servicio"}

// AnioMinimo is the oldest model year accepted.
const AnioMinimo = 1980

// Bus is a bus of a company: the route it serves and its driver.
var Bus = &recurso.Resource{
	Name: "buses", Table: "buses", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "placa", Kind: recurso.Text, Required: true, Max: 20, Normalize: NormalizarPlaca, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe un bus con esa placa en esta empresa.", Ejemplo: "SJB 12345"},
		{Name: "numero_unidad", Kind: recurso.Text, Max: 50, Normalize: collapse},
		{Name: "marca", Kind: recurso.Text, Max: 100, Normalize: collapse},
		{Name: "modelo", Kind: recurso.Text, Max: 100, Normalize: collapse},
		// The upper bound (next year) moves with the calendar: validarBus.
		{Name: "anio", Kind: recurso.Integer, MinValue: strconv.Itoa(AnioMinimo), MaxValue: "2999", Ejemplo: 2020},
		{Name: "capacidad_pasajeros", Kind: recurso.Integer, Required: true, MinValue: "1", MaxValue: "500", Ejemplo: 45},
		{Name: "estado", Kind: recurso.Text, Values: EstadosBus, Default: "disponible"},
		{Name: "ruta_id", Kind: recurso.Ref, RefTable: "rutas", RefTenant: true,
			RefMsg: "La ruta seleccionada no existe en esta empresa."},
		{Name: "chofer_id", Kind: recurso.Ref, RefTable: "empleados", RefTenant: true,
			RefMsg: "El chofer seleccionado no es un empleado de esta empresa."},
		{Name: "vencimiento_revision_tecnica", Kind: recurso.Date, Ejemplo: "2027-03-31"},
		{Name: "vencimiento_seguro", Kind: recurso.Date, Ejemplo: "2027-06-30"},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Computed: map[string]string{
		// Days left (negative once expired; null without a date).
		"dias_para_revision_tecnica": `(t.vencimiento_revision_tecnica - ` + horacr.HoySQL + `)`,
		"dias_para_seguro":           `(t.vencimiento_seguro - ` + horacr.HoySQL + `)`,
	},
	Relations: []recurso.Relation{
		{Name: "ruta", FK: "ruta_id", Table: "rutas", Cols: []string{"id", "codigo", "nombre"}},
		{Name: "chofer", FK: "chofer_id", Table: "empleados", Cols: []string{"id", "nombre", "apellidos", "identificacion"}},
	},
	Filters: []recurso.Filter{
		{Param: "estado", Kind: recurso.Text, Values: EstadosBus},
		{Param: "ruta_id", Kind: recurso.Ref},
		{Param: "chofer_id", Kind: recurso.Ref},
		// ?por_vencer=N: buses with the technical review or the insurance
		// expiring within N days from today (already expired included:
		// they are the most urgent).
		{Param: "por_vencer", Kind: recurso.Integer, MinValue: "0", MaxValue: "3650",
			Where: `(t.vencimiento_revision_tecnica <= ` + horacr.HoySQL + ` + %[1]s::int or t.vencimiento_seguro <= ` + horacr.HoySQL + ` + %[1]s::int)`},
	},
	Sorts: []string{"placa", "numero_unidad", "anio", "capacidad_pasajeros", "vencimiento_revision_tecnica", "vencimiento_seguro"},
	Messages: recurso.Messages{NotFound: "Bus no encontrado.", Created: "Bus creado correctamente.",
		Updated: "Bus actualizado correctamente.", Deleted: "Bus eliminado correctamente."},
	Validate:   validarBus,
	BeforeSave: verificarAsignacion,
}

// validarBus checks the model year against next year, and the assignment
// rule on the bus as it will be: a bus out of service, or whose technical
// review has expired (or was never recorded), cannot be assigned to a
// route. The rule is checked when the route, the state or the review date
// is written, so a later edit of another field is not refused because
// time passed.
func validarBus(c *recurso.Call, vals map[string]any) {
	if n, ok := vals["anio"].(int64); ok && n > int64(horacr.Hoy().Year()+1) {
		c.In.Fail("anio", "El campo anio debe estar entre "+strconv.Itoa(AnioMinimo)+" y "+strconv.Itoa(horacr.Hoy().Year()+1)+".")
	}
	_, rutaSent := vals["ruta_id"]
	_, estadoSent := vals["estado"]
	_, revisionSent := vals["vencimiento_revision_tecnica"]
	if !rutaSent && !estadoSent && !revisionSent {
		return
	}
	if c.In.Failed("ruta_id") || c.In.Failed("estado") || c.In.Failed("vencimiento_revision_tecnica") {
		return
	}
	ruta := vals["ruta_id"]
	if !rutaSent {
		ruta = c.Current["ruta_id"]
	}
	if ruta == nil {
		return
	}
	estado, _ := actual(vals, c.Current, "estado").(string)
	if estado == "fuera_de_servicio" {
		c.In.Fail("ruta_id", "Un bus fuera de servicio no se puede asignar a una ruta: quite la ruta (ruta_id nulo) o cambie el estado.")
		return
	}
	vence, ok := fecha(actual(vals, c.Current, "vencimiento_revision_tecnica"))
	switch {
	case !ok:
		c.In.Fail("ruta_id", "El bus no tiene registrada la revisión técnica (vencimiento_revision_tecnica): no se puede asignar a una ruta.")
	case vence.Before(horacr.Hoy()):
		c.In.Fail("ruta_id", "La revisión técnica del bus venció el "+vence.Format(time.DateOnly)+": no se puede asignar a una ruta.")
	}
}

// actual is the value a field will have: the one sent, else the stored one.
func actual(vals, current map[string]any, key string) any {
	if v, ok := vals[key]; ok {
		return v
	}
	return current[key]
}

// fecha reads a date sent (time.Time) or stored (JSON "YYYY-MM-DD").
func fecha(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case string:
		return valid.ParseDate(x, nil)
	}
	return time.Time{}, false
}

// verificarAsignacion requires, in one round trip, the route written to be
// active and the driver written to be an active employee (estado activo,
// record active, not past the exit date). The engine has already checked
// that both exist in the company.
func verificarAsignacion(c *recurso.Call, vals map[string]any) error {
	ruta, _ := vals["ruta_id"].(int64)
	chofer, _ := vals["chofer_id"].(int64)
	if ruta == 0 && chofer == 0 {
		return nil
	}
	var rutaActiva, choferActivo bool
	// FOR SHARE: a concurrent delete of the route or the driver waits for
	// this assignment (and then refuses), or has committed and is seen here.
	err := c.Tx.QueryRow(c.Context(), `select
			coalesce((select r.activo from rutas r where r.empresa_id = $1 and r.id = $2 and not r.eliminado for share), false),
			coalesce((select e.activo and e.estado = 'activo' and (e.fecha_salida is null or e.fecha_salida >= `+horacr.HoySQL+`)
				from empleados e where e.empresa_id = $1 and e.id = $3 and not e.eliminado for share), false)`,
		c.Tx.EmpresaID(), ruta, chofer).Scan(&rutaActiva, &choferActivo)
	if err != nil {
		return err
	}
	if ruta != 0 && !rutaActiva {
		c.In.Fail("ruta_id", "La ruta seleccionada está inactiva.")
	}
	if chofer != 0 && !choferActivo {
		c.In.Fail("chofer_id", "El chofer debe ser un empleado activo (estado activo y sin fecha de salida pasada).")
	}
	return nil
}

// SinBuses refuses to delete a row of tabla that a live bus of the company
// names in its column columna (ruta_id: the route it serves; chofer_id: its
// driver), the bus would name a deleted row; msg goes under id. The row is
// locked before the buses are counted, and an assignment locks the route
// and the driver it names (verificarAsignacion), so a delete and an
// assignment of the same row at once cannot both succeed: the second one
// sees the first.
func SinBuses(tabla, columna, msg string) func(c *recurso.Call) error {
	return func(c *recurso.Call) error {
		// Two statements in one round trip: the count must take its
		// snapshot after the lock is granted, to see an assignment that
		// committed while this waited.
		var asignado bool
		b := &pgx.Batch{}
		b.Queue(`select 1 from `+tabla+` where empresa_id = $1 and id = $2 for update`, c.Tx.EmpresaID(), c.ID)
		b.Queue(`select exists (select 1 from buses b where b.empresa_id = $1 and b.`+columna+` = $2 and not b.eliminado)`,
			c.Tx.EmpresaID(), c.ID).QueryRow(func(row pgx.Row) error { return row.Scan(&asignado) })
		if err := c.Tx.SendBatch(c.Context(), b).Close(); err != nil {
			return fmt.Errorf("transporte: buses de %s %d: %w", tabla, c.ID, err)
		}
		if asignado {
			return apperr.InvalidField("id", msg)
		}
		return nil
	}
}
