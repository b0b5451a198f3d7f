package nomina_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack as company 1's administrator.
type fx struct {
	*testenv.Fixture
	n int // employees created, for distinct identifications
}

func setup(t *testing.T, opts ...testenv.Option) *fx {
	t.Helper()
	return &fx{Fixture: testenv.NewFixture(t, opts...)}
}

// emp is an employee to insert (owner SQL: the employees API is another
// module's).
type emp struct {
	empresa          int64
	salario, jornada string
	hijos            int
	conyuge          bool
	ingreso, salida  string
	estado           string
	pago             string // tipo_pago, mensual by default
}

// empleado inserts an employee of company 1 (or e.empresa) and returns its id.
func (f *fx) empleado(e emp) int64 {
	f.T.Helper()
	f.n++
	if e.empresa == 0 {
		e.empresa = 1
	}
	if e.jornada == "" {
		e.jornada = "diurna"
	}
	if e.ingreso == "" {
		e.ingreso = "2020-01-01"
	}
	if e.estado == "" {
		e.estado = "activo"
	}
	if e.pago == "" {
		e.pago = "mensual"
	}
	var salida any
	if e.salida != "" {
		salida = e.salida
	}
	return f.Int(`insert into empleados (empresa_id, nombre, apellidos, tipo_identificacion, identificacion, fecha_nacimiento,
			fecha_ingreso, fecha_salida, puesto, salario_base, jornada, hijos, conyuge, estado, tipo_pago)
		values ($1, 'Empleado', $2, 'fisica', $3, '1990-01-01', $4, $5, 'Operario', $6::numeric, $7, $8, $9, $10, $11) returning id`,
		e.empresa, fmt.Sprintf("Apellido %03d", f.n), fmt.Sprintf("1%08d", 10000000+f.n), e.ingreso, salida, e.salario, e.jornada,
		e.hijos, e.conyuge, e.estado, e.pago)
}

// planilla creates a planilla of company 1 and returns its answer.
func (f *fx) planilla(tipo, ini, fin string) testenv.Resp {
	f.T.Helper()
	return f.Must(http.StatusCreated, http.MethodPost, "/api/planillas", map[string]any{"tipo": tipo, "fecha_inicio": ini, "fecha_fin": fin})
}

// accion posts /api/planillas/{id}/<accion> and expects 200.
func (f *fx) accion(id int64, accion string, body any) testenv.Resp {
	f.T.Helper()
	return f.Must(http.StatusOK, http.MethodPost, testenv.Path("planillas", id, "/"+accion), body)
}

// aprobada takes a new planilla of the period through calcular and aprobar.
func (f *fx) aprobada(tipo, ini, fin string) int64 {
	f.T.Helper()
	id := testenv.ID(f.planilla(tipo, ini, fin))
	f.accion(id, "calcular", nil)
	f.accion(id, "aprobar", nil)
	return id
}

// pagada takes a new planilla of the period through calcular, aprobar and
// marcar-pagada.
func (f *fx) pagada(tipo, ini, fin string) int64 {
	f.T.Helper()
	id := f.aprobada(tipo, ini, fin)
	f.accion(id, "marcar-pagada", map[string]any{"fecha_pago": fin})
	return id
}

// linea is the line of an employee in a planilla answer.
func linea(t *testing.T, r testenv.Resp, empleado int64) string {
	t.Helper()
	for i := range testenv.Len(r.JSON, "data.lineas") {
		p := fmt.Sprintf("data.lineas.%d", i)
		if int64(testenv.Num(r.JSON, p+".empleado_id")) == empleado {
			return p
		}
	}
	t.Fatalf("no line of employee %d: %s", empleado, r.Raw)
	return ""
}
