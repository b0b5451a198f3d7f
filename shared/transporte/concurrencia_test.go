package transporte_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A delete of a route (or of a driver) racing the assignment of a bus to it
// could both succeed: each checked the other before it committed, and the
// bus was left on a deleted route. The test forces that interleaving: the
// assignment is held just before it writes the bus (an owner transaction
// locks the bus row) while the delete runs; one of the two must lose.
func TestDeletingARouteOrDriverWhileABusIsAssignedToItLetsOnlyOneWin(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, c := range []struct {
		name, columna, tabla string
		crear                func(i int) int
		borrar               string
	}{
		{"route", "ruta_id", "rutas", func(i int) int { return e.Create(t, admin, "/api/rutas", ruta(fmt.Sprintf("R-%d", i))) }, "/api/rutas/%d"},
		{"driver", "chofer_id", "empleados", func(i int) int { return empleado(t, e, admin, fmt.Sprintf("10987065%d", i)) }, "/api/empleados/%d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			objetivo := c.crear(len(c.name))
			busID := e.Create(t, admin, "/api/buses", bus(fmt.Sprintf("AB %d", len(c.name))))
			bloqueo := e.Bloquear(t, `select 1 from buses where id = $1 for update`, busID)
			asignar := make(chan testenv.Resp, 1)
			go func() {
				asignar <- e.Call(admin, http.MethodPatch, busPath(busID), map[string]any{c.columna: objetivo})
			}()
			testenv.HastaQue(t, func() bool { return bloqueo.Esperan("%", 1) }, "the assignment never reached the bus row")
			borrar := make(chan testenv.Resp, 1)
			go func() { borrar <- e.Call(admin, http.MethodDelete, fmt.Sprintf(c.borrar, objetivo), nil) }()
			// The delete either waits for the assignment (locked the row it
			// names) or, as before the fix, finished without waiting.
			var rb testenv.Resp
			testenv.HastaQue(t, func() bool {
				select {
				case rb = <-borrar:
					return true
				default:
					return bloqueo.Esperan("%", 2)
				}
			}, "the delete neither finished nor waited")
			bloqueo.Confirmar()
			ra := <-asignar
			if rb.Status == 0 {
				rb = <-borrar
			}
			if ra.Status != http.StatusOK {
				t.Fatalf("the assignment came first and must win: %d %s", ra.Status, ra.Raw)
			}
			testenv.Expect422(t, rb, "id")
			if got := testenv.Scalar[bool](t, e, `select eliminado from `+c.tabla+` where id = $1`, objetivo); got {
				t.Fatalf("the %s was deleted while bus %d names it", c.name, busID)
			}
		})
	}
}
