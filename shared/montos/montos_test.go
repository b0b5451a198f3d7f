package montos

import (
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestLineAmountsRoundHalfUpAndTotalsAddUp(t *testing.T) {
	cases := []struct {
		name                  string
		l                     Linea
		sub, desc, imp, total string
	}{
		{"tax on the amount after discount", Linea{d("2"), d("1000"), d("100"), d("13")}, "2000", "100", "247", "2147"},
		{"half-up on the subtotal", Linea{d("0.333"), d("10.005"), d("0"), d("0")}, "3.33", "0", "0", "3.33"},
		{"half-up on the tax", Linea{d("1"), d("0.5"), d("0"), d("13")}, "0.5", "0", "0.07", "0.57"},
		{"no tax", Linea{d("3"), d("2.50"), d("0.5"), d("0")}, "7.5", "0.5", "0", "7"},
	}
	for _, c := range cases {
		got := Calcular(c.l)
		if !got.Subtotal.Equal(d(c.sub)) || !got.Descuento.Equal(d(c.desc)) || !got.Impuesto.Equal(d(c.imp)) || !got.Total.Equal(d(c.total)) {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
	tot := Sumar([]Importe{Calcular(cases[0].l), Calcular(cases[1].l)})
	if !tot.Total.Equal(d("2150.33")) || !tot.Total.Equal(tot.Subtotal.Sub(tot.Descuento).Add(tot.Impuesto)) {
		t.Errorf("totals %+v", tot)
	}
}
