// Package montos computes document amounts with decimal arithmetic: every
// line amount is rounded half-up to 2 decimals, and document totals are sums
// of the rounded line amounts, so a document always adds up line by line.
package montos

import "github.com/shopspring/decimal"

// Cien is 100.
var Cien = decimal.NewFromInt(100)

// Linea is what a document line says.
type Linea struct {
	Cantidad           decimal.Decimal
	PrecioUnitario     decimal.Decimal
	Descuento          decimal.Decimal // an amount, not a percentage
	PorcentajeImpuesto decimal.Decimal // 0..100
}

// Importe are the computed amounts of a line or of a whole document.
type Importe struct {
	Subtotal  decimal.Decimal // cantidad x precio_unitario
	Descuento decimal.Decimal
	Impuesto  decimal.Decimal // porcentaje applied to (subtotal - descuento)
	Total     decimal.Decimal // subtotal - descuento + impuesto
}

// round2 rounds half-up (half away from zero; amounts are never negative).
func round2(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// Calcular computes one line.
func Calcular(l Linea) Importe {
	sub := round2(l.Cantidad.Mul(l.PrecioUnitario))
	desc := round2(l.Descuento)
	imp := round2(sub.Sub(desc).Mul(l.PorcentajeImpuesto).Div(Cien))
	return Importe{Subtotal: sub, Descuento: desc, Impuesto: imp, Total: sub.Sub(desc).Add(imp)}
}

// Sumar adds line amounts into document totals.
func Sumar(lineas []Importe) Importe {
	var t Importe
	for _, l := range lineas {
		t.Subtotal = t.Subtotal.Add(l.Subtotal)
		t.Descuento = t.Descuento.Add(l.Descuento)
		t.Impuesto = t.Impuesto.Add(l.Impuesto)
	}
	t.Total = t.Subtotal.Sub(t.Descuento).Add(t.Impuesto)
	return t
}
