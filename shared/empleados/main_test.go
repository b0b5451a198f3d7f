package empleados_test

import (
	"os"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

func dia(t time.Time) string { return t.Format(time.DateOnly) }

// empleado is a valid body: 30 years old, hired two years ago.
func empleado(ident string) map[string]any {
	h := testenv.HoyCR()
	return map[string]any{
		"nombre": "Ana", "apellidos": "Mora Solís", "tipo_identificacion": "fisica", "identificacion": ident,
		"fecha_nacimiento": dia(h.AddDate(-30, 0, -1)), "fecha_ingreso": dia(h.AddDate(-2, 0, 0)),
		"puesto": "Chofer", "salario_base": "650000.00",
	}
}
