package nomina_test

import (
	"slices"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

// An export of planillas whose filter matches nothing still has the header
// an export with rows starts with (CSV and workbook): the period and the
// totals as their columns.
func TestAnEmptyPlanillasExportStillHasItsHeader(t *testing.T) {
	f := setup(t, testenv.Limite("exports", 100, time.Hour))
	f.empleado(emp{salario: "1500000"})
	f.planilla("mensual", "2026-03-01", "2026-03-31")
	h := f.E.EncabezadoVacio(t, f.Admin, "/api/planillas", "/api/planillas?anio=1901")
	for _, k := range []string{"id", "periodo.tipo", "totales.salario_neto", "asiento_numero"} {
		if !slices.Contains(h, k) {
			t.Errorf("header %q lacks %s", h, k)
		}
	}
}
