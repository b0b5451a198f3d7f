package ventas_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack acting as company 1's administrator.
type fx struct{ *testenv.Fixture }

func setup(t *testing.T) *fx { return &fx{testenv.NewFixture(t)} }

// sub is f for a subtest (helpers fail the subtest, not its parent).
func (f *fx) sub(t *testing.T) *fx { return &fx{f.Fixture.Sub(t)} }

// vender POSTs a sale as company 1's administrator.
func (f *fx) vender(body map[string]any) testenv.Resp {
	f.T.Helper()
	return f.Call(http.MethodPost, "/api/ventas", body)
}

// venderOK POSTs a sale that must be created and returns the response.
func (f *fx) venderOK(body map[string]any) testenv.Resp {
	f.T.Helper()
	return f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", body)
}

// cuentaDe is the id of the receivable a credit sale's answer opened.
func cuentaDe(r testenv.Resp) int64 { return int64(testenv.Num(r.JSON, "data.cuenta_por_cobrar.id")) }

// venta is a valid body: a factura of today with the given lines.
func venta(lineas ...map[string]any) map[string]any {
	ls := make([]any, len(lineas))
	for i, l := range lineas {
		ls[i] = l
	}
	return map[string]any{"fecha_venta": "2026-03-15", "tipo_comprobante": "factura", "detalles": ls}
}

// Shorter names for the shared helpers this package's tests use everywhere.
var (
	id   = testenv.ID
	path = testenv.Path
	num  = testenv.Number
	// linea is a valid line.
	linea = testenv.Linea
)

func ptr[T any](v T) *T { return &v }
