package empleados_test

import (
	"os"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// hoy is today's date in Costa Rica (the day the API counts ages to), at
// midnight UTC so that AddDate and formatting are plain calendar arithmetic.
func hoy() time.Time {
	y, m, d := time.Now().In(time.FixedZone("America/Costa_Rica", -6*60*60)).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func dia(t time.Time) string { return t.Format(time.DateOnly) }

// empleado is a valid body: 30 years old, hired two years ago.
func empleado(ident string) map[string]any {
	h := hoy()
	return map[string]any{
		"nombre": "Ana", "apellidos": "Mora Solís", "tipo_identificacion": "fisica", "identificacion": ident,
		"fecha_nacimiento": dia(h.AddDate(-30, 0, -1)), "fecha_ingreso": dia(h.AddDate(-2, 0, 0)),
		"puesto": "Chofer", "salario_base": "650000.00",
	}
}
