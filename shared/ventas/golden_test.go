package ventas_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares a response, its body indented, with
// testdata/golden/<name>.json (testenv.Golden masks timestamps and trace
// ids): the responses the handler refactor of issue 10 must keep byte for
// byte.
func golden(t *testing.T, name string, r testenv.Resp) {
	t.Helper()
	var body bytes.Buffer
	if err := json.Indent(&body, r.Raw, "", "  "); err != nil {
		t.Fatalf("%s: not JSON: %s", name, r.Raw)
	}
	r.Raw = body.Bytes()
	testenv.Golden(t, name, r, *update)
}

func TestGoldenResponsesOfAListAShowAnActionAndAnError(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	b := f.Producto(testenv.Prod{Codigo: "B", Tarifa: "08"})
	f.Stock(f.Almacen, a, "10", "100", "L1", "2027-01-31")
	f.Stock(f.Almacen, b, "10", "50", "", "")
	cliente := f.Cliente(1, "101110111", 30)
	f.venderOK(testenv.With(venta(linea(a, 2, "1500.50", "descuento", "100")), "almacen_id", f.Almacen, "fecha_venta", "2026-11-20"))
	f.venderOK(testenv.With(venta(linea(a, 1, 1000), linea(b, "2.5", "99.99")), "almacen_id", f.Almacen, "cliente_id", cliente, "fecha_venta", "2026-11-21", "observaciones", "A crédito"))

	golden(t, "ventas_list", f.E.Get("/api/ventas?per_page=10", f.Admin))
	golden(t, "ventas_show", f.E.Get("/api/ventas/2", f.Admin))
	golden(t, "ventas_action_anular", f.E.Do(testenv.Req{Method: http.MethodPatch, Path: "/api/ventas/1", Token: f.Admin,
		Body: map[string]any{"estado": "anulada", "observaciones": "Devuelta"}}))
	golden(t, "ventas_error_422", f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: f.Admin,
		Body: map[string]any{"detalles": []any{map[string]any{"producto_id": 999, "cantidad": 0}}}}))
	golden(t, "ventas_error_404", f.E.Get("/api/ventas/999", f.Admin))
	golden(t, "cobros_pago", f.E.Do(testenv.Req{Method: http.MethodPost, Path: "/api/cuentas-por-cobrar/1/pagos", Token: f.Admin,
		Body: map[string]any{"monto": "100.25", "fecha": "2026-11-22"}}))
	golden(t, "cobros_list", f.E.Get("/api/cuentas-por-cobrar", f.Admin))
}

// A sale's creation answer, byte for byte as sent (key order, decimals,
// relations, the trailing newline): the performance work of issue 17 must
// not change it.
func TestGoldenSaleCreatedBody(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A", Tarifa: "08"})
	b := f.Producto(testenv.Prod{Codigo: "B"})
	f.Stock(f.Almacen, a, "10", "100", "L1", "2027-01-31")
	f.Stock(f.Almacen, b, "10", "50", "", "")
	cliente := f.Cliente(1, "101110111", 30)
	r := f.venderOK(testenv.With(venta(linea(a, 2, "1500.50", "descuento", "100"), linea(b, "2.5", "99.99")),
		"almacen_id", f.Almacen, "cliente_id", cliente, "fecha_venta", "2026-11-21", "observaciones", "Entrega <urgente> & \"frágil\""))
	testenv.Golden(t, "ventas_create", r, *update)
}
