package nomina_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// An employee deleted while a planilla of the period is being created is
// not put on it: the delete (as recurso does it: the row locked, then
// flagged) is waited for and the employee, read again, left out. It used to
// get a line, a deleted employee on a live planilla.
func TestAnEmployeeDeletedWhileAPlanillaIsCreatedIsLeftOut(t *testing.T) {
	f := setup(t)
	queda := f.empleado(emp{salario: "600000"})
	sale := f.empleado(emp{salario: "700000"})
	r := f.E.WhileLocked(t, `with l as (select id from empleados where id = $1 for update)
		update empleados set activo = false, eliminado = true where id in (select id from l)`, []any{sale}, "%planilla_lineas%",
		func() testenv.Resp {
			return f.E.Call(f.Admin, http.MethodPost, "/api/planillas", map[string]any{"tipo": "mensual", "fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31"})
		})
	if r.Status != http.StatusCreated {
		t.Fatalf("planilla: %d %s", r.Status, r.Raw)
	}
	if linea(t, r, queda) == "" || testenv.Len(r.JSON, "data.lineas") != 1 || testenv.Num(r.JSON, "data.totales.cantidad_empleados") != 1 {
		t.Errorf("lines: want only employee %d: %s", queda, r.Raw)
	}
	if n := f.Int(`select count(*) from planilla_lineas where empleado_id = $1`, sale); n != 0 {
		t.Errorf("the deleted employee has %d lines", n)
	}
}
