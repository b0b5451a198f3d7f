package reportes_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func fin(tipo string, extra ...string) string {
	p := "/api/reportes/financiero?tipo=" + tipo + "&" + marzo
	for _, x := range extra {
		p += "&" + x
	}
	return p
}

// The statements of the scenario (main_test.go), figure by figure: the
// income statement's revenue is the net sales and its cost the FIFO cost,
// the balance sheet balances with the period's result in equity, the cash
// flow classifies each cash movement by its counter-account and ends at
// the cash accounts' balance, and the trial balance's columns are equal.
func TestStatementsOfPostedSalesAndManualEntriesTieOut(t *testing.T) {
	f := escenario(t)

	t.Run("income statement", func(t *testing.T) {
		r := f.ok(fin("estado_resultados"))
		want(t, r, "estado_resultados", map[string]string{
			"data.totales.ingresos": "15000.00", "data.totales.costo_ventas": "3000.00", "data.totales.utilidad_bruta": "12000.00",
			"data.totales.gastos": "100000.00", "data.totales.utilidad_operativa": "-88000.00", "data.totales.otros_ingresos": "0.00",
			"data.totales.utilidad_neta": "-88000.00",
		})
		if testenv.Str(r.JSON, "data.tipo") != "estado_resultados" || testenv.Str(r.JSON, "data.parametros.fecha_inicio") != "2026-03-01" ||
			testenv.Str(r.JSON, "data.secciones.0.clave") != "ingresos" || testenv.Str(r.JSON, "data.secciones.0.filas.0.codigo") != "4" {
			t.Errorf("shape: %s", r.Raw)
		}
		// Grouped by level: 4 > 4.1 > 4.1.01 > 4.1.01.001, each with the sum.
		want(t, r, "levels", map[string]string{"data.secciones.0.filas.0.monto": "15000.00", "data.secciones.0.filas.3.monto": "15000.00",
			"data.secciones.0.filas.3.nivel": "4"})
		// ?nivel=2 keeps the first two levels.
		r2 := f.ok(fin("estado_resultados", "nivel=2"))
		if n := testenv.Len(r2.JSON, "data.secciones.0.filas"); n != 2 {
			t.Errorf("nivel=2: %d income rows, want 2: %s", n, r2.Raw)
		}
	})

	t.Run("balance sheet", func(t *testing.T) {
		r := f.ok("/api/reportes/financiero?tipo=balance_general&fecha_fin=2026-03-31")
		want(t, r, "balance_general", map[string]string{
			"data.totales.activo": "883950.00", "data.totales.pasivo": "1950.00", "data.totales.patrimonio": "882000.00",
			"data.totales.pasivo_y_patrimonio": "883950.00",
		})
		if testenv.Str(r.JSON, "data.parametros.fecha_inicio") != "2026-01-01" {
			t.Errorf("default period start: %s", r.Raw)
		}
		// From March on: March's result under the period's account, the
		// earlier one under retained earnings.
		r = f.ok(fin("balance_general"))
		want(t, r, "balance_general from March", map[string]string{"data.totales.activo": "883950.00", "data.totales.pasivo_y_patrimonio": "883950.00"})
		filas := map[string]string{}
		for i := 0; i < testenv.Len(r.JSON, "data.secciones.2.filas"); i++ {
			filas[testenv.Str(r.JSON, "data.secciones.2.filas."+itoa(i)+".codigo")] = exact(t, r, "data.secciones.2.filas."+itoa(i)+".monto")
		}
		for codigo, w := range map[string]string{"3.1.01.001": "1050000.00", "3.2.01.002": "-88000.00", "3.2.01.001": "-80000.00", "3": "882000.00"} {
			if filas[codigo] != w {
				t.Errorf("equity row %s = %s, want %s (%v)", codigo, filas[codigo], w, filas)
			}
		}
	})

	t.Run("cash flow", func(t *testing.T) {
		r := f.ok(fin("flujo_efectivo"))
		want(t, r, "flujo_efectivo", map[string]string{
			"data.totales.operacion": "-88700.00", "data.totales.inversion": "-300000.00", "data.totales.financiamiento": "50000.00",
			"data.totales.variacion_neta": "-338700.00", "data.totales.saldo_inicial": "916000.00", "data.totales.saldo_final": "577300.00",
		})
		// The investing row is the computer, the financing row the capital.
		if testenv.Str(r.JSON, "data.secciones.1.filas.0.codigo") != "1.2.01.002" || testenv.Str(r.JSON, "data.secciones.2.filas.0.codigo") != "3.1.01.001" {
			t.Errorf("classification: %s", r.Raw)
		}
		// The closing cash is what the cash and bank accounts hold.
		caja := testenv.Scalar[string](t, f.E, `select sum(l.debe - l.haber)::numeric(18,2)::text from asiento_lineas l
			join asientos_contables a on a.id = l.asiento_id join cuentas_contables k on k.id = l.cuenta_id
			where a.empresa_id = 1 and a.estado <> 'borrador' and (k.codigo like '1.1.01.%' or k.codigo like '1.1.02.%')`)
		if caja != "577300.00" {
			t.Errorf("cash in the books %s, want 577300.00", caja)
		}
	})

	t.Run("trial balance", func(t *testing.T) {
		r := f.ok("/api/reportes/balanza-comprobacion?" + marzo)
		want(t, r, "balanza", map[string]string{
			"data.totales.debe": "469950.00", "data.totales.haber": "469950.00",
			"data.totales.saldo_inicial_deudor": "1000000.00", "data.totales.saldo_inicial_acreedor": "1000000.00",
			"data.totales.saldo_final_deudor": "1066950.00", "data.totales.saldo_final_acreedor": "1066950.00",
		})
	})

	t.Run("general ledger", func(t *testing.T) {
		r := f.ok(q("/api/reportes/libro-mayor", "cuenta_id", itoa64(f.cuenta(1, "1.1.02.001"))) + "&" + marzo)
		want(t, r, "libro_mayor", map[string]string{
			"data.totales.saldo_inicial": "916000.00", "data.totales.debe": "50000.00", "data.totales.haber": "400000.00",
			"data.totales.saldo_final":       "566000.00",
			"data.secciones.0.filas.0.saldo": "616000.00", "data.secciones.0.filas.1.saldo": "516000.00", "data.secciones.0.filas.2.saldo": "566000.00",
		})
		// A group account covers its subaccounts: cash and banks together.
		r = f.ok(q("/api/reportes/libro-mayor", "cuenta_id", itoa64(f.cuenta(1, "1.1"))) + "&" + marzo)
		if got := exact(t, r, "data.totales.saldo_final"); got != "583950.00" {
			t.Errorf("current assets (1.1: cash, banks, receivables, inventory): %s", got)
		}
	})

	t.Run("journal", func(t *testing.T) {
		r := f.ok("/api/reportes/libro-diario?" + marzo + "&per_page=3&page=3")
		want(t, r, "libro_diario", map[string]string{"data.totales.debe": "469950.00", "data.totales.haber": "469950.00",
			"data.paginacion.total": "7", "data.paginacion.last_page": "3", "data.paginacion.from": "7"})
		if n := testenv.Len(r.JSON, "data.secciones"); n != 1 {
			t.Fatalf("page 3 of 7 by 3: %d entries", n)
		}
		if testenv.Str(r.JSON, "data.secciones.0.filas.0.codigo") != "1.1.02.001" {
			t.Errorf("last entry of March (capital): %s", r.Raw)
		}
	})
}

func itoa(i int) string { return itoa64(int64(i)) }

func itoa64(i int64) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

var _ = strings.Contains
var _ = http.StatusOK
