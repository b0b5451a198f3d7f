package tesoreria_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

// An export of a treasury list whose filter matches nothing still has the
// header an export with rows starts with (CSV and workbook): the keys of a
// row, its nested account, branch and open session as their columns.
func TestAnEmptyTreasuryExportStillHasItsHeader(t *testing.T) {
	f := &fx{Fixture: testenv.NewFixture(t, testenv.Limite("exports", 100, time.Hour))}
	cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "Banco Nacional", "numero": "100-01", "iban": iban("015202001026284066")}))
	otra := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "Banco de Costa Rica", "numero": "200-02", "iban": iban("015202001026284067")}))
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-bancarias", cuenta, "/conciliaciones"), map[string]any{
		"fecha_corte": "2026-03-31", "saldo_estado_cuenta": 0, "movimientos": []int64{}})
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja 1", "codigo": "C1"}))
	f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": "100.00"})
	ventas := f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '4.1.01.001'`)
	f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026, "cuenta_contable_id": ventas,
		"montos": []any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}})

	for _, c := range []struct{ llena, vacia, columna string }{
		{"/api/cuentas-bancarias", "/api/cuentas-bancarias?search=ningunoasi", "cuenta_contable.codigo"},
		{path("cuentas-bancarias", cuenta, "/conciliaciones"), path("cuentas-bancarias", otra, "/conciliaciones"), "diferencia"},
		{"/api/cajas", "/api/cajas?search=ningunoasi", "sesion_abierta.monto_inicial"},
		{"/api/presupuestos", "/api/presupuestos?anio=1901", "cuenta_contable.naturaleza"},
	} {
		t.Run(c.llena, func(t *testing.T) {
			if h := f.E.EncabezadoVacio(t, f.Admin, c.llena, c.vacia); !slices.Contains(h, "id") || !slices.Contains(h, c.columna) {
				t.Errorf("header %q lacks id or %s", h, c.columna)
			}
		})
	}
}
