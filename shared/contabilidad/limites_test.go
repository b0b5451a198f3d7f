package contabilidad_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Each line may carry up to what numeric(18,2) holds, but an entry's totals
// are stored alike: lines that add up past it are a 422 under lineas (it
// was an overflow's 500), for a posted entry, a draft and a draft's edit.
func TestEntryTotalsPastWhatTheBooksHoldAre422s(t *testing.T) {
	f := setup(t)
	caja, capital := f.cuenta("1.1.01.001"), f.cuenta("3.1.01.001")
	const mitad = "6000000000000000"
	d := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables", asiento("borrador", debe(caja, 1), haber(capital, 1))))
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
	}{
		{"posted", http.MethodPost, "/api/asientos-contables",
			asiento("contabilizado", debe(caja, mitad), debe(caja, mitad), haber(capital, mitad), haber(capital, mitad))},
		{"draft", http.MethodPost, "/api/asientos-contables", asiento("borrador", debe(caja, mitad), debe(caja, mitad), haber(capital, 1))},
		{"a draft's lines replaced", http.MethodPatch, path("asientos-contables", d),
			map[string]any{"lineas": []any{haber(capital, mitad), haber(capital, mitad), debe(caja, 1)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Expect422(t, f.Call(c.method, c.path, c.body), "lineas")
		})
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and total_debe > 1`); n != 0 {
		t.Errorf("refused entries left %d rows", n)
	}
	if got := f.Text(`select total_debe::text from asientos_contables where id = $1`, d); got != "1.00" {
		t.Errorf("the refused edit changed the draft: %s", got)
	}
}

// The books may add up past what one amount holds (two entries each within
// it): the months, the accounts' balances and the list filters still answer
// (they were 500s: sums cast to numeric(18,2), a level cast to int).
func TestSumsPastOneAmountStillShowAndHugeFiltersAreNot500s(t *testing.T) {
	f := setup(t)
	caja, capital := f.cuenta("1.1.01.001"), f.cuenta("3.1.01.001")
	for range 2 {
		f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
			asiento("contabilizado", debe(caja, "9000000000000000.50"), haber(capital, "9000000000000000.50")))
	}
	r := f.Must(http.StatusOK, http.MethodGet, "/api/periodos-contables?anio=2026", nil)
	if got := testenv.Exact(t, r.Raw, "data.0.total_debe"); got != "18000000000000001.00" {
		t.Errorf("month's total_debe %s: %s", got, r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?fecha_corte=2026-12-31&arbol=true&tipo=activo", nil)
	if got := testenv.Exact(t, r.Raw, "data.0.saldo"); got != "18000000000000001.00" {
		t.Errorf("assets' balance %s: %s", got, r.Raw)
	}
	for _, q := range []string{"nivel=99999999999", "nivel=9223372036854775807", "padre_id=9223372036854775807"} {
		if r := f.Call(http.MethodGet, "/api/cuentas-contables?"+q, nil); r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("?%s: %d %s", q, r.Status, r.Raw)
		}
	}
}

// Closing a month and posting into it are serialised (migration 0024): a
// closing waits for a posting in flight in that month and then closes it
// with the entry inside; a posting that comes while a closing is in flight
// waits for it and is then refused, so no entry lands in a closed month.
func TestClosingAMonthAndPostingIntoItDoNotInterleave(t *testing.T) {
	f := setup(t)
	caja, capital := f.cuenta("1.1.01.001"), f.cuenta("3.1.01.001")
	t.Run("a closing waits for the posting in flight", func(t *testing.T) {
		r := f.trasConfirmar(t, `select contabilidad_registrar(1, '2026-08-10', 'En curso', 'manual', null, jsonb_build_array(
				jsonb_build_object('cuenta_id', $1::bigint, 'debe', 10), jsonb_build_object('cuenta_id', $2::bigint, 'haber', 10)))`,
			[]any{caja, capital}, http.MethodPost, "/api/periodos-contables/2026/8/cerrar", nil)
		if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and fecha = '2026-08-10' and estado = 'contabilizado'`); n != 1 ||
			r.Status != http.StatusOK || testenv.Num(r.JSON, "data.asientos") != 1 {
			t.Errorf("the closed month holds %d entries: %d %s", n, r.Status, r.Raw)
		}
	})
	t.Run("a posting waits for the closing in flight and is refused", func(t *testing.T) {
		r := f.trasConfirmar(t, `select pg_advisory_xact_lock(contabilidad_llave_periodo(1, 2026, 9));
			insert into periodos_contables (empresa_id, anio, mes, estado, cerrado_en) values (1, 2026, 9, 'cerrado', now())`, nil,
			http.MethodPost, "/api/asientos-contables", testenv.With(asiento("contabilizado", debe(caja, 5), haber(capital, 5)), "fecha", "2026-09-01"))
		testenv.Expect422(t, r, "fecha")
		if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and fecha = '2026-09-01'`); n != 0 {
			t.Errorf("%d entries in the closed month", n)
		}
	})
}

// A business write whose automatic posting would not fit the books (its
// amount in colones past what numeric(18,2) holds, each of its lines
// within it) is refused with a 422 under detalles and leaves nothing: it
// was an overflow's 500 at COMMIT.
func TestAWriteWhosePostingDoesNotFitTheBooksIsA422(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "LIM-1", Tarifa: "08"})
	f.Stock(f.Almacen, p, "10", "100", "", "")
	antes := f.Int(`select count(*) from asientos_contables where empresa_id = 1`)
	for _, c := range []struct {
		name, path string
		body       map[string]any
		tabla      string
	}{
		{"a sale in dollars", "/api/ventas", map[string]any{"fecha_venta": "2026-03-10", "tipo_comprobante": "factura", "almacen_id": f.Almacen,
			"moneda": "USD", "tipo_cambio": "99999999", "detalles": []any{testenv.Linea(p, 1, "200000000")}}, "ventas"},
		{"a stock entry of many units", "/api/inventario/entradas", map[string]any{"tipo": "Ajuste Positivo", "almacen_id": f.Almacen,
			"procesar": true, "detalles": []any{map[string]any{"producto_id": p, "cantidad": 1000, "costo_unitario": "99999999999999"}}},
			"movimientos_inventario"},
	} {
		t.Run(c.name, func(t *testing.T) {
			filas := `select count(*) from ` + c.tabla + ` where empresa_id = 1`
			n := f.Int(filas)
			testenv.Expect422(t, f.Call(http.MethodPost, c.path, c.body), "detalles")
			if m := f.Int(filas); m != n {
				t.Errorf("%d rows left in %s", m-n, c.tabla)
			}
		})
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1`); n != antes {
		t.Errorf("%d entries posted", n-antes)
	}
	if got := f.Existencias(f.Almacen, p); got != "10.000" {
		t.Errorf("stock after the refused entry: %s", got)
	}
}

// Posting a draft or annulling an entry twice at once: exactly one of each
// wins (the others are 422s under estado), one number is taken and one
// reversing entry is posted.
func TestConcurrentPostingsAndAnnulmentsOfAnEntryLetExactlyOneWin(t *testing.T) {
	f := setup(t)
	d := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("borrador", debe(f.cuenta("1.1.01.001"), 5), haber(f.cuenta("3.1.01.001"), 5))))
	for _, accion := range []string{"contabilizar", "anular"} {
		rs := testenv.Concurrently(6, func(int) testenv.Resp {
			return f.Call(http.MethodPost, path("asientos-contables", d, accion), map[string]any{"fecha": "2026-03-20"})
		})
		testenv.OneWins(t, rs, http.StatusOK, "estado")
	}
	if got := f.Text(`select string_agg(numero, ',' order by numero) from asientos_contables where empresa_id = 1`); got != "AS-2026-000001,AS-2026-000002" {
		t.Errorf("numbers %s", got)
	}
}
