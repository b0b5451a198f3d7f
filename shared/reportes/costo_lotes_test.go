package reportes_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// cuadre is what the inventory reports, the stock and the books say of one
// product of company 1 (amounts as written, "300.00").
type cuadre struct{ cantidad, valuacion, kardex, lotes, cuenta string }

// cuadreDe reads them: the valuation and the kardex (default period) of
// the product, its batches' quantity × cost, and what the inventory
// account moved since base.
func (i *inv) cuadreDe(producto int64, base string) cuadre {
	i.f.T.Helper()
	t, p := i.f.T, itoa64(producto)
	v := i.f.ok("/api/reportes/inventario-valorizado?producto_id=" + p)
	k := i.f.ok("/api/reportes/kardex?producto_id=" + p)
	if q, kq := exact(t, v, "data.totales.cantidad"), exact(t, k, "data.totales.saldo_final_cantidad"); q != kq {
		t.Errorf("valuation quantity %s, kardex closing quantity %s", q, kq)
	}
	return cuadre{
		cantidad:  exact(t, v, "data.totales.cantidad"),
		valuacion: exact(t, v, "data.totales.valor"),
		kardex:    exact(t, k, "data.totales.saldo_final_valor"),
		lotes: i.f.Text(`select coalesce(sum(cantidad_disponible * costo_unitario), 0)::numeric(18,2)::text from inventarios
			where producto_id = $1 and not eliminado`, producto),
		cuenta: i.f.Text(`select ($1::numeric - $2::numeric)::numeric(18,2)::text`, i.f.Saldo("1.1.04.001"), base),
	}
}

// The inventory reports value stock as the batches hold it and the books
// posted it, where layers re-derived from the movements did not: a second
// receipt into the same batch averages its cost, and the sale's exit
// leaves (and is posted) at that average; goods a credit note returns into
// a batch at the sale's cost average into it, and leave it again at that
// cost when the note is cancelled. At every step the valuation, the
// kardex's closing, the batches and the inventory account are one figure.
func TestInventoryReportsAgreeWithTheBatchesAndTheBooks(t *testing.T) {
	f := setup(t)
	i := f.inventario(1)
	hoy := hoy()
	vender := func(body map[string]any) int64 {
		t.Helper()
		return int64(f.E.Create(t, i.tok, "/api/ventas", testenv.With(map[string]any{"fecha_venta": hoy, "tipo_comprobante": "tiquete",
			"condicion_venta": "contado", "almacen_id": i.a}, flatten(body)...)))
	}
	paso := func(que string, producto int64, base string, cantidad, valor string) {
		t.Helper()
		want := cuadre{cantidad: cantidad, valuacion: valor, kardex: valor, lotes: valor, cuenta: valor}
		if got := i.cuadreDe(producto, base); got != want {
			t.Errorf("%s: %+v, want every figure %s (%s units)", que, got, valor, cantidad)
		}
	}

	t.Run("a second receipt into the same batch", func(t *testing.T) {
		base := f.Saldo("1.1.04.001")
		x := i.producto("PROM-X")
		i.mover(i.a, x, hoy, "Compra", 10, 100) // the batch-less batch: 10 @ 100
		i.mover(i.a, x, hoy, "Compra", 10, 130) // the same batch: 20 @ 115
		paso("after the receipts", x, base, "20.000", "2300.00")
		// 12 leave at 115 (1,380), 8 @ 115 stay (layers said 8 @ 130 = 1,040).
		vender(map[string]any{"detalles": []any{testenv.Linea(x, 12, "5000.00")}})
		paso("after the sale", x, base, "8.000", "920.00")
	})

	t.Run("a credit note's goods come back into a batch and leave it when it is cancelled", func(t *testing.T) {
		base := f.Saldo("1.1.04.001")
		y := i.producto("NC-Y")
		f.E.Create(t, i.tok, "/api/inventario/entradas", map[string]any{"tipo": "Ajuste Positivo", "almacen_id": i.a, "fecha": hoy,
			"procesar": true, "detalles": []any{
				map[string]any{"producto_id": y, "cantidad": 3, "costo_unitario": 100, "lote": "A", "fecha_vencimiento": "2027-01-31"},
				map[string]any{"producto_id": y, "cantidad": 3, "costo_unitario": 150, "lote": "B", "fecha_vencimiento": "2027-06-30"}}})
		// 4 sold: 3 of A at 100 and 1 of B at 150; B keeps 2 @ 150.
		venta := vender(map[string]any{"detalles": []any{testenv.Linea(y, 4, "1000.00")}})
		paso("after the sale", y, base, "2.000", "300.00")
		// 2 come back at 450 / 4 = 112.5 into B: 4 @ 131.25.
		nc := vender(map[string]any{"tipo_comprobante": "nota_credito", "venta_referencia_id": venta, "codigo_referencia": "06",
			"razon_referencia": "Devolución de mercadería", "detalles": []any{testenv.Linea(y, 2, "1000.00")}})
		paso("after the credit note", y, base, "4.000", "525.00")
		// Cancelled: the 2 leave B at 112.5 and B costs 150 again (layers closed at 225).
		f.E.Must(t, http.StatusOK, i.tok, http.MethodDelete, testenv.Path("ventas", nc), nil)
		paso("after the cancelled credit note", y, base, "2.000", "300.00")
	})
}

func flatten(m map[string]any) []any {
	kv := make([]any, 0, 2*len(m))
	for k, v := range m {
		kv = append(kv, k, v)
	}
	return kv
}
