package ventas_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/testenv"
)

// monto reads an amount at path of an answer, written as a JSON number or
// a string ("0" when there is none).
func monto(t *testing.T, r testenv.Resp, path string) decimal.Decimal {
	t.Helper()
	s := testenv.Number(r, path)
	if s == "" {
		s = testenv.Str(r.JSON, path)
	}
	if s == "" {
		return decimal.Zero
	}
	return decimal.RequireFromString(s)
}

// cuadranCuentas checks that the open receivables the customer's detail
// lists, the receivables aging report and the receivables account of the
// trial balance all say want (the customer is the company's only debtor).
func (f *fx) cuadranCuentas(t *testing.T, cliente int64, want string) {
	t.Helper()
	w := decimal.RequireFromString(want)
	det := f.Must(http.StatusOK, http.MethodGet, path("clientes", cliente), nil)
	var pendientes decimal.Decimal
	for i := 0; i < testenv.Len(det.JSON, "data.cuentas_por_cobrar"); i++ {
		pendientes = pendientes.Add(monto(t, det, fmt.Sprintf("data.cuentas_por_cobrar.%d.saldo", i)))
	}
	aging := monto(t, f.Must(http.StatusOK, http.MethodGet, "/api/reportes/antiguedad-cuentas-por-cobrar", nil), "data.totales.total")
	b := f.Must(http.StatusOK, http.MethodGet, "/api/reportes/balanza-comprobacion?fecha_inicio=2026-01-01&fecha_fin=2026-12-31", nil)
	var cuenta decimal.Decimal
	for i := 0; i < testenv.Len(b.JSON, "data.secciones.0.filas"); i++ {
		p := fmt.Sprintf("data.secciones.0.filas.%d.", i)
		if testenv.Str(b.JSON, p+"codigo") == "1.1.03.001" {
			cuenta = monto(t, b, p+"saldo_final_deudor").Sub(monto(t, b, p+"saldo_final_acreedor"))
		}
	}
	for name, got := range map[string]decimal.Decimal{"the customer's pending receivables": pendientes, "the receivables aging": aging,
		"the receivables account in the trial balance": cuenta} {
		if !got.Equal(w) {
			t.Errorf("%s: %s, want %s", name, got.StringFixed(2), w.StringFixed(2))
		}
	}
}

// A credit note never opens a receivable of its own: on credit it lowers
// the open balance of its sale's receivable (the books credit receivables
// with its total), and cancelling it gives that balance back; the
// customer's pending receivables, the aging report and the receivables
// account agree at every step of credit sale -> partial payment -> credit
// note -> second note settling the rest -> cancelling the notes, and the
// sale is pagada exactly while its receivable is.
func TestACreditNoteOnCreditLowersItsSalesReceivableAndItsCancellationRestoresIt(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	c := f.Cliente(1, "101110111", 30)
	// 4 x 500 + 13 % IVA = 2260.00 on credit.
	v := f.venderOK(testenv.With(venta(linea(p, 4, 500)), "cliente_id", c))
	cxc := cuentaDe(v)
	notaDe := func(unidades int) map[string]any {
		return testenv.With(nota(id(v), linea(p, unidades, 500)), "cliente_id", c, "codigo_referencia", "02")
	}
	var n1, n2 int64
	steps := []struct {
		name          string
		do            func(t *testing.T)
		saldo, estado string // the sale's receivable afterwards
	}{
		{"credit sale", func(*testing.T) {}, "2260.00", "pendiente"},
		{"partial payment", func(*testing.T) {
			f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{"monto": "1000.00", "forma_pago_id": 1})
		}, "1260.00", "pendiente"},
		{"credit note of 1 unit lowers the balance", func(t *testing.T) {
			r := f.venderOK(notaDe(1))
			n1 = id(r)
			if testenv.Str(r.JSON, "data.condicion_venta") != "credito" || testenv.Get(r.JSON, "data.cuenta_por_cobrar") != nil {
				t.Errorf("note: %s", r.Raw)
			}
		}, "695.00", "pendiente"},
		{"a note of what is left settles it", func(t *testing.T) {
			// 695.00 is not a whole number of units: 1 unit at 615.04 + 13 %.
			n2 = id(f.venderOK(testenv.With(nota(id(v), linea(p, 1, "615.04")), "cliente_id", c, "codigo_referencia", "02")))
		}, "0.00", "pagada"},
		{"cancelling the second note reopens it", func(*testing.T) {
			f.Must(http.StatusOK, http.MethodPatch, path("ventas", n2), map[string]any{"estado": "anulada"})
		}, "695.00", "pendiente"},
		{"cancelling the first note gives its total back", func(*testing.T) {
			f.Must(http.StatusOK, http.MethodDelete, path("ventas", n1), nil)
		}, "1260.00", "pendiente"},
		{"a cancelled note cannot give it back twice", func(t *testing.T) {
			testenv.Expect422(t, f.Call(http.MethodPatch, path("ventas", n2), map[string]any{"estado": "anulada"}), "estado")
		}, "1260.00", "pendiente"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do(t)
			r := f.Must(http.StatusOK, http.MethodGet, path("cuentas-por-cobrar", cxc), nil)
			if num(r, "data.saldo") != s.saldo || testenv.Str(r.JSON, "data.estado") != s.estado {
				t.Errorf("receivable: %s, want saldo %s estado %s", r.Raw, s.saldo, s.estado)
			}
			// The sale follows its receivable, as a payment makes it.
			if got := testenv.Str(f.Must(http.StatusOK, http.MethodGet, path("ventas", id(v)), nil).JSON, "data.estado"); got != s.estado {
				t.Errorf("sale %s, its receivable %s", got, s.estado)
			}
			f.sub(t).cuadranCuentas(t, c, s.saldo)
		})
	}
	if n := f.Int(`select count(*) from cuentas_por_cobrar where venta_id <> $1`, id(v)); n != 0 {
		t.Errorf("credit notes opened %d receivables of their own", n)
	}
}

// Where a credit note's amount goes follows the books: on credit (default
// when the open balance of its sale covers it) it lowers that balance;
// otherwise it is contado, a refund, and no receivable moves. On credit
// beyond the balance, or of a cash sale, or in another currency, it is a
// 422 under condicion_venta; a draft on credit is checked again when
// confirmed (422 under estado once the balance no longer covers it).
func TestACreditNoteGoesToTheReceivableOnlyWhileItsBalanceCoversIt(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	c := f.Cliente(1, "101110111", 30)
	otro := f.Cliente(1, "101110112", 30)
	// sale is a credit sale of 2 x 500 + 13 % (1130.00) with pagado paid.
	sale := func(f *fx, pagado string, extra ...any) (int64, int64) {
		v := f.venderOK(testenv.With(venta(linea(p, 2, 500)), append([]any{"cliente_id", c}, extra...)...))
		cxc := cuentaDe(v)
		if pagado != "0" {
			f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{"monto": pagado, "forma_pago_id": 1})
		}
		return id(v), cxc
	}
	cases := []struct {
		name      string
		pagado    string // of the sale's 1130.00
		venta     []any  // more fields of the sale
		nota      []any  // more fields of the note (1 x 500 + 13 % = 565.00)
		status    int
		condicion string // of the note
		saldo     string // of the sale's receivable afterwards ("" none)
		campo     string // of the 422
	}{
		{"covered: credito by default", "0", nil, nil, 201, "credito", "565.00", ""},
		{"sale already paid: a refund by default", "1130.00", nil, nil, 201, "contado", "0.00", ""},
		{"balance short of the note: a refund by default", "800.00", nil, nil, 201, "contado", "330.00", ""},
		{"credito beyond the balance", "800.00", nil, []any{"condicion_venta", "credito"}, 422, "", "330.00", "condicion_venta"},
		{"credito on a paid sale", "1130.00", nil, []any{"condicion_venta", "credito"}, 422, "", "0.00", "condicion_venta"},
		{"credito on a cash sale", "0", []any{"condicion_venta", "contado"}, []any{"condicion_venta", "credito"}, 422, "", "", "condicion_venta"},
		{"credito in another currency", "0", nil, []any{"condicion_venta", "credito", "moneda", "USD", "tipo_cambio", "500"}, 422, "", "1130.00", "condicion_venta"},
		{"contado when covered: a refund", "0", nil, []any{"condicion_venta", "contado"}, 201, "contado", "1130.00", ""},
		{"no customer: a refund by default", "0", nil, []any{"cliente_id", testenv.Absent}, 201, "contado", "1130.00", ""},
		{"another customer: a refund by default", "0", nil, []any{"cliente_id", otro}, 201, "contado", "1130.00", ""},
		{"credito for another customer", "0", nil, []any{"cliente_id", otro, "condicion_venta", "credito"}, 422, "", "1130.00", "cliente_id"},
		// Created pagada, it is a refund already made (on credit it was a 422 on estado).
		{"created pagada: a refund by default", "0", nil, []any{"estado", "pagada"}, 201, "contado", "1130.00", ""},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			f := f.sub(t)
			var v, cxc int64
			if k.venta != nil {
				v = id(f.venderOK(testenv.With(venta(linea(p, 2, 500)), append([]any{"cliente_id", c}, k.venta...)...)))
			} else {
				v, cxc = sale(f, k.pagado)
			}
			r := f.vender(testenv.With(nota(v, linea(p, 1, 500)), append([]any{"cliente_id", c}, k.nota...)...))
			switch {
			case r.Status != k.status:
				t.Fatalf("note: %d %s", r.Status, r.Raw)
			case k.status == 422:
				testenv.Expect422(t, r, k.campo)
			case testenv.Str(r.JSON, "data.condicion_venta") != k.condicion || testenv.Get(r.JSON, "data.cuenta_por_cobrar") != nil:
				t.Errorf("note: %s", r.Raw)
			}
			if k.saldo != "" {
				if got := f.Text(`select saldo::text from cuentas_por_cobrar where id = $1`, cxc); got != k.saldo {
					t.Errorf("sale's receivable saldo %s, want %s", got, k.saldo)
				}
			}
			if n := f.Int(`select count(*) from cuentas_por_cobrar c join ventas v on v.id = c.venta_id where v.tipo_comprobante = 'nota_credito'`); n != 0 {
				t.Errorf("a credit note opened a receivable of its own")
			}
		})
	}

	t.Run("a draft on credit lowers the balance when confirmed, if it still covers it", func(t *testing.T) {
		f := f.sub(t)
		v, cxc := sale(f, "0")
		borrador := f.venderOK(testenv.With(nota(v, linea(p, 1, 500)), "cliente_id", c, "estado", "borrador"))
		if testenv.Str(borrador.JSON, "data.condicion_venta") != "credito" {
			t.Fatalf("draft: %s", borrador.Raw)
		}
		otra := f.venderOK(testenv.With(nota(v, linea(p, 1, 500)), "cliente_id", c, "estado", "borrador"))
		f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{"monto": "500.00", "forma_pago_id": 1})
		f.Must(http.StatusOK, http.MethodPatch, path("ventas", id(borrador)), map[string]any{"estado": "pendiente"})
		if got := f.Text(`select saldo::text from cuentas_por_cobrar where id = $1`, cxc); got != "65.00" {
			t.Errorf("after confirming the draft, saldo %s, want 65.00", got)
		}
		r := f.Call(http.MethodPatch, path("ventas", id(otra)), map[string]any{"estado": "pendiente"})
		testenv.Expect422(t, r, "estado")
		if got := f.Text(`select estado from ventas where id = $1`, id(otra)); got != "borrador" {
			t.Errorf("the refused confirmation left the draft %s", got)
		}
	})
}

// A payment and a credit note on credit of one receivable sent at once run
// one after the other under the sale's lock: of a payment of 1000.00 and
// a note of 565.00 against a balance of 1130.00 exactly one succeeds and
// the other is refused (422: the balance no longer covers it), never both,
// never a 5xx, and the balance is what the winner left.
func TestAPaymentAndACreditNoteOnCreditRacingOneReceivableDoNotBothSucceed(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	c := f.Cliente(1, "101110111", 30)
	for ronda := 0; ronda < 4; ronda++ {
		v := f.venderOK(testenv.With(venta(linea(p, 2, 500)), "cliente_id", c))
		cxc := cuentaDe(v)
		rs := testenv.Concurrently(2, func(i int) testenv.Resp {
			if i == 0 {
				return f.Call(http.MethodPost, path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{"monto": "1000.00", "forma_pago_id": 1})
			}
			return f.Call(http.MethodPost, "/api/ventas", testenv.With(nota(id(v), linea(p, 1, 500)), "cliente_id", c, "condicion_venta", "credito"))
		})
		pago, notaOK := rs[0].Status == http.StatusCreated, rs[1].Status == http.StatusCreated
		want := map[bool]string{true: "130.00", false: "565.00"}[pago]
		switch {
		case pago == notaOK:
			t.Fatalf("payment %d %s; note %d %s", rs[0].Status, rs[0].Raw, rs[1].Status, rs[1].Raw)
		case pago && len(rs[1].FieldErrors("condicion_venta")) == 0, notaOK && len(rs[0].FieldErrors("monto")) == 0:
			t.Fatalf("the loser's answer: payment %d %s; note %d %s", rs[0].Status, rs[0].Raw, rs[1].Status, rs[1].Raw)
		}
		if got := f.Text(`select saldo::text from cuentas_por_cobrar where id = $1`, cxc); got != want {
			t.Errorf("round %d: saldo %s, want %s", ronda, got, want)
		}
	}
}

// A credit note on credit of a sale in dollars carries the sale's rate:
// the books carry its receivable at that rate, so a note at another one
// would lower the balance by one amount of colones and the receivables
// account by another. At another rate it is refused on credit (422 under
// condicion_venta) and is contado (a refund) by default; at the sale's
// rate it lowers the balance, and the receivables account stays the open
// balance times the sale's rate.
func TestACreditNoteOnCreditInDollarsCarriesItsSalesRate(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	c := f.Cliente(1, "101110111", 30)
	// 10 x 1.00 USD + 13 % = 11.30 USD at 500: 5650.00 colones owed.
	v := id(f.venderOK(testenv.With(venta(linea(p, 10, 1)), "moneda", "USD", "tipo_cambio", "500", "cliente_id", c)))
	enDolares := func(tc string, kv ...any) map[string]any {
		return testenv.With(testenv.With(nota(v, linea(p, 2, 1)), "moneda", "USD", "tipo_cambio", tc, "cliente_id", c), kv...)
	}
	testenv.Expect422(t, f.vender(enDolares("510", "condicion_venta", "credito")), "condicion_venta")
	if got := testenv.Str(f.venderOK(enDolares("510")).JSON, "data.condicion_venta"); got != "contado" {
		t.Errorf("a note at another rate without condicion_venta is %s, want contado", got)
	}
	saldo := func() string { return f.Text(`select saldo::text from cuentas_por_cobrar where venta_id = $1`, v) }
	if saldo() != "11.30" {
		t.Fatalf("a refund at another rate moved the balance to %s", saldo())
	}
	f.venderOK(enDolares("500", "condicion_venta", "credito"))
	if saldo() != "9.04" || f.Saldo("1.1.03.001") != "4520.00" {
		t.Errorf("balance %s USD, receivables account %s; want 9.04 and 4520.00 (9.04 x 500)", saldo(), f.Saldo("1.1.03.001"))
	}
}
