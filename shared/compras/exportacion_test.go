package compras_test

import (
	"slices"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

// An export of orders or payables whose filter matches nothing still has
// the header an export with rows starts with (CSV and workbook): the
// supplier and the payable's order as their columns.
func TestAnEmptyOrdersOrPayablesExportStillHasItsHeader(t *testing.T) {
	e := testenv.NewParallel(t, testenv.Limite("exports", 100, time.Hour))
	f := setup(t, e, 1)
	f.recibida(f.proveedor, 1000)
	for _, c := range []struct{ lista, columna string }{
		{"/api/ordenes-compra", "proveedor.nombre"},
		{"/api/cuentas-por-pagar", "orden_compra.numero_orden"},
	} {
		t.Run(c.lista, func(t *testing.T) {
			if h := e.EncabezadoVacio(t, f.tok, c.lista, c.lista+"?search=ningunoasi"); !slices.Contains(h, "id") || !slices.Contains(h, c.columna) {
				t.Errorf("header %q lacks id or %s", h, c.columna)
			}
		})
	}
}
