package tesoreria_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Amounts each within what numeric(18,2) holds can add up past it. A
// budget's yearly total and a bank account's balance in the books still
// show (they were 500s: sums cast to numeric(18,2)); a reconciliation and a
// cash box closing whose sums cannot be stored are 422s under their field,
// and leave nothing written.
func TestSumsPastOneAmountShowOrAre422sNever500s(t *testing.T) {
	f := setup(t)
	const maximo = "9999999999999999.99"

	t.Run("a budget of twelve maximal months", func(t *testing.T) {
		montos := make([]any, 12)
		for i := range montos {
			montos[i] = maximo
		}
		p := f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026,
			"cuenta_contable_id": f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '4.1.01.001'`), "montos": montos})
		if got := exact(t, p, "data.total"); got != "119999999999999999.88" {
			t.Errorf("total %s", got)
		}
		f.Must(http.StatusOK, http.MethodGet, "/api/presupuestos", nil)
		r := f.Must(http.StatusOK, http.MethodGet, "/api/reportes/presupuesto-vs-real?anio=2026", nil)
		if got := exact(t, r, "data.totales.presupuesto"); got != "119999999999999999.88" {
			t.Errorf("report's budget %s", got)
		}
	})

	t.Run("a bank account whose books add up past one amount", func(t *testing.T) {
		cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
			"banco": "BN", "numero": "1", "iban": iban("015202001026284066")}))
		libro := f.Int(`select cuenta_contable_id from cuentas_bancarias where id = $1`, cuenta)
		capital := f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '3.1.01.001'`)
		for range 2 {
			f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables", map[string]any{"fecha": "2026-03-01", "descripcion": "Aporte",
				"estado": "contabilizado", "lineas": []any{map[string]any{"cuenta_id": libro, "debe": "9000000000000000"},
					map[string]any{"cuenta_id": capital, "haber": "9000000000000000"}}})
		}
		r := f.Must(http.StatusOK, http.MethodGet, path("cuentas-bancarias", cuenta), nil)
		if got := exact(t, r, "data.saldo"); got != "18000000000000000.00" {
			t.Errorf("saldo %s", got)
		}
		if l := f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-bancarias", nil); exact(t, l, "data.0.saldo") != "18000000000000000.00" {
			t.Errorf("list: %s", l.Raw)
		}
		testenv.Expect422(t, f.Call(http.MethodPost, path("cuentas-bancarias", cuenta, "conciliaciones"), map[string]any{
			"fecha_corte": "2026-12-31", "saldo_estado_cuenta": 0, "movimientos": []any{}}), "fecha_corte")
		if n := f.Int(`select count(*) from conciliaciones_bancarias`); n != 0 {
			t.Errorf("%d reconciliations written", n)
		}
	})

	t.Run("a cash box whose expected cash passes one amount", func(t *testing.T) {
		caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja"}))
		f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": maximo})
		f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(1, "caja_id", caja, "forma_pago_id", f.forma("01")))
		testenv.Expect422(t, f.Call(http.MethodPost, path("cajas", caja, "/cerrar"), map[string]any{"monto_contado": maximo}), "monto_contado")
		if got := f.Text(`select estado from caja_sesiones where caja_id = $1`, caja); got != "abierta" {
			t.Errorf("the refused closing left the session %s", got)
		}
		if n := f.Int(`select count(*) from asientos_contables where origen = 'caja'`); n != 0 {
			t.Errorf("%d closing entries", n)
		}
	})
}

// Opening or closing a cash box twice at once: exactly one of each wins,
// the others are 422s under estado, and a single closing entry is posted.
func TestConcurrentOpeningsAndClosingsOfABoxLetExactlyOneWin(t *testing.T) {
	f := setup(t)
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja"}))
	for _, c := range []struct {
		accion string
		body   map[string]any
	}{{"/abrir", map[string]any{"monto_inicial": 10}}, {"/cerrar", map[string]any{"monto_contado": 5}}} {
		rs := testenv.Concurrently(6, func(int) testenv.Resp { return f.Call(http.MethodPost, path("cajas", caja, c.accion), c.body) })
		testenv.OneWins(t, rs, http.StatusOK, "estado")
	}
	if n := f.Int(`select count(*) from caja_sesiones where caja_id = $1`, caja); n != 1 {
		t.Errorf("%d sessions", n)
	}
	if n := f.Int(`select count(*) from asientos_contables where origen = 'caja'`); n != 1 {
		t.Errorf("%d closing entries", n)
	}
}
