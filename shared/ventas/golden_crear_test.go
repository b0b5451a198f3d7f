package ventas_test

import (
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

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
