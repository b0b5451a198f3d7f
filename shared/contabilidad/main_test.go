package contabilidad_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack acting as company 1's administrator.
type fx struct{ *testenv.Fixture }

func setup(t *testing.T) *fx { return &fx{testenv.NewFixture(t)} }

// cuenta is the id of company 1's account by code.
func (f *fx) cuenta(codigo string) int64 {
	f.T.Helper()
	return f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = $1 and not eliminado`, codigo)
}

// asiento is a manual entry body with the given lines.
func asiento(estado string, lineas ...map[string]any) map[string]any {
	ls := make([]any, len(lineas))
	for i, l := range lineas {
		ls[i] = l
	}
	return map[string]any{"fecha": "2026-03-15", "descripcion": "Aporte de capital", "estado": estado, "lineas": ls}
}

func debe(cuenta int64, monto any) map[string]any {
	return map[string]any{"cuenta_id": cuenta, "debe": monto}
}
func haber(cuenta int64, monto any) map[string]any {
	return map[string]any{"cuenta_id": cuenta, "haber": monto}
}

// Shorter names for the shared helpers this package's tests use everywhere.
var (
	id   = testenv.ID
	path = testenv.Path
	num  = testenv.Number
)

// capital posts a balanced manual entry: Dr bank, Cr share capital.
func (f *fx) capital(monto string) testenv.Resp {
	f.T.Helper()
	return f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("contabilizado", debe(f.cuenta("1.1.02.001"), monto), haber(f.cuenta("3.1.01.001"), monto)))
}

func itoa(n int64) string { return fmt.Sprint(n) }

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// trasConfirmar runs sql (with args) in a transaction of the owner, sends a
// request of company 1's administrator meanwhile, commits once the request
// waits for a lock and returns the answer, failing t when it answered
// without waiting: the request had to wait for the write in flight.
func (f *fx) trasConfirmar(t *testing.T, sql string, args []any, method, p string, body any) testenv.Resp {
	t.Helper()
	b := f.E.Bloquear(t, sql, args...)
	ch := make(chan testenv.Resp, 1)
	go func() { ch <- f.E.Do(testenv.Req{Method: method, Path: p, Token: f.Admin, Body: body}) }()
	var antes *testenv.Resp
	testenv.HastaQue(t, func() bool {
		select {
		case r := <-ch:
			antes = &r
			return true
		default:
			return b.Esperan("%", 1)
		}
	}, method+" "+p+" neither answered nor waited")
	if antes != nil {
		t.Fatalf("%s %s answered %d before the write in flight committed: %s", method, p, antes.Status, antes.Raw)
	}
	b.Confirmar()
	return <-ch
}
