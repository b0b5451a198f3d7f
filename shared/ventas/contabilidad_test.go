package ventas_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// The books follow the sales in the same transaction (deferred triggers in
// migration 0012): a sale posts revenue and IVA against cash or the
// receivable, its stock exit posts the FIFO cost, a cancellation reverses
// both, and a closed month refuses the sale with a 422.
func TestSalesPostBalancedEntriesAtFIFOCostAndCancellationsReverseThem(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	f.Stock(f.Almacen, p, "3", "100", "A", "2027-01-31")
	f.Stock(f.Almacen, p, "3", "150", "B", "2027-06-30")
	c := f.Cliente(1, "101110111", 30)
	v := id(f.venderOK(testenv.With(venta(linea(p, 4, 1000)), "cliente_id", c, "almacen_id", f.Almacen)))

	saldo := f.Saldo // the sales post their entries (no drafts)
	// 4 x 1000 + 13 % IVA on credit; cost 3 x 100 + 1 x 150 (FIFO).
	for codigo, want := range map[string]string{
		"1.1.03.001": "4520.00", "4.1.01.001": "-4000.00", "2.1.02.001": "-520.00",
		"5.1.01.001": "450.00", "1.1.04.001": "-450.00",
	} {
		if got := saldo(codigo); got != want {
			t.Errorf("after the sale, account %s = %s, want %s", codigo, got, want)
		}
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and estado = 'contabilizado'
		and total_debe = total_haber and numero ~ '^AS-2026-[0-9]{6}$'`); n != 2 {
		t.Fatalf("posted, balanced, numbered entries: %d", n)
	}

	if r := f.E.Call(f.Admin, http.MethodDelete, path("ventas", v), nil); r.Status != http.StatusOK {
		t.Fatalf("cancel: %d %s", r.Status, r.Raw)
	}
	for _, codigo := range []string{"1.1.03.001", "4.1.01.001", "2.1.02.001", "5.1.01.001", "1.1.04.001"} {
		if got := saldo(codigo); got != "0.00" {
			t.Errorf("after the cancellation, account %s = %s, want 0.00", codigo, got)
		}
	}

	f.E.Exec(`insert into periodos_contables (empresa_id, anio, mes, estado) values (1, 2026, 3, 'cerrado')`)
	r := f.vender(venta(linea(p, 1, 1000)))
	if r.Status != http.StatusUnprocessableEntity ||
		testenv.Str(r.JSON, "errors.fecha_venta.0") != "El período contable 2026-03 está cerrado; no se puede contabilizar en él." {
		t.Fatalf("sale in a closed month: %d %s", r.Status, r.Raw)
	}
	if n := f.Int(`select count(*) from ventas where empresa_id = 1 and not eliminado`); n != 0 {
		t.Fatalf("the refused sale left %d rows", n)
	}
}
