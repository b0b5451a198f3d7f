package transporte_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// enDias is the date n days from today in Costa Rica.
func enDias(n int) string { return testenv.HoyCR().AddDate(0, 0, n).Format(time.DateOnly) }

func rutaPath(id int) string { return fmt.Sprintf("/api/rutas/%d", id) }
func busPath(id int) string  { return fmt.Sprintf("/api/buses/%d", id) }

// ruta is a valid route body with two stops and two departures.
func ruta(codigo string) map[string]any {
	return map[string]any{
		"codigo": codigo, "nombre": "San José - Cartago", "origen": "San José", "destino": "Cartago",
		"distancia_km": "22.50", "duracion_estimada_min": 45, "tarifa": "655.00",
		"paradas": []any{
			map[string]any{"orden": 1, "nombre": "Terminal", "latitud": 9.935, "longitud": -84.091},
			map[string]any{"orden": 2, "nombre": "Cartago centro", "latitud": "9.864123", "longitud": "-83.919"},
		},
		"horarios": []any{
			map[string]any{"dia_semana": "martes", "hora_salida": "06:30"},
			map[string]any{"dia_semana": "lunes", "hora_salida": "05:15"},
		},
	}
}

// bus is a valid bus body without route nor driver.
func bus(placa string) map[string]any {
	return map[string]any{"placa": placa, "numero_unidad": "U-01", "marca": "Mercedes-Benz", "modelo": "OF-1721",
		"anio": 2018, "capacidad_pasajeros": 45, "vencimiento_revision_tecnica": enDias(200), "vencimiento_seguro": enDias(300)}
}

// empleado creates an active employee (a driver) and returns its id.
func empleado(t *testing.T, e *testenv.Env, tok, ident string, extra ...any) int {
	t.Helper()
	body := map[string]any{"nombre": "Luis", "apellidos": "Rojas", "tipo_identificacion": "fisica", "identificacion": ident,
		"fecha_nacimiento": "1985-04-10", "fecha_ingreso": "2015-01-05", "puesto": "Chofer", "salario_base": "520000.00"}
	return e.Create(t, tok, "/api/empleados", testenv.With(body, extra...))
}
