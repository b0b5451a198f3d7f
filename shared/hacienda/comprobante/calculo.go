package comprobante

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// maxDinero is the maxInclusive of DecimalDineroType: 13 integer digits and
// 5 decimals. Every amount written must stay at or below it.
var maxDinero = decimal.RequireFromString("9999999999999.99999")

// redondear rounds half-up to 2 decimals. decimal.Round rounds half away
// from zero, which is half-up for the non-negative amounts of a comprobante,
// and it is exactly what package montos (the sale system) does.
func redondear(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// exenta reports whether a line is exempt (CodigoTarifaIVA 10). Zero rates
// (01, 05, 11) are taxed at 0 %, not exempt, so they count as Gravado.
func (l Linea) exenta() bool { return l.CodigoTarifaIVA == TarifaExenta }

// codigoImpuesto is the line's tax code, "01" when unset.
func (l Linea) codigoImpuesto() string {
	if l.ImpuestoCodigo == "" {
		return "01"
	}
	return l.ImpuestoCodigo
}

// Calcular computes the amounts of every line and the ResumenFactura totals.
//
// Per line: MontoTotal = round(Cantidad x PrecioUnitario); each discount is
// rounded; SubTotal = MontoTotal - discounts; BaseImponible = SubTotal;
// Impuesto = round(BaseImponible x Tarifa / 100), zero on exempt lines;
// MontoTotalLinea = SubTotal + Impuesto. Rounding is half-up to 2 decimals.
//
// It fails, with an ErrorValidacion naming the fields, only when the
// arithmetic cannot produce a valid document: a negative input, discounts
// above the line amount, or an amount beyond the XSD maximum
// (9999999999999.99999). It does not check codes or texts; that is Validar's job.
func Calcular(d Documento) (Calculo, error) {
	errs := ErrorValidacion{}
	var c Calculo
	grupos := map[[2]string]decimal.Decimal{}
	for i, l := range d.Lineas {
		p := fmt.Sprintf("Lineas.%d.", i)
		n := i + 1
		if l.Cantidad.IsNegative() {
			errs.agregar(p+"Cantidad", fmt.Sprintf("La cantidad de la línea %d no puede ser negativa.", n))
		}
		if l.PrecioUnitario.IsNegative() {
			errs.agregar(p+"PrecioUnitario", fmt.Sprintf("El precio unitario de la línea %d no puede ser negativo.", n))
		}
		if l.Tarifa.IsNegative() {
			errs.agregar(p+"Tarifa", fmt.Sprintf("La tarifa de la línea %d no puede ser negativa.", n))
		}
		lc := LineaCalculada{NumeroLinea: n, Exenta: l.exenta()}
		lc.MontoTotal = redondear(l.Cantidad.Mul(l.PrecioUnitario))
		for j, ds := range l.Descuentos {
			if ds.Monto.IsNegative() {
				errs.agregar(fmt.Sprintf("%sDescuentos.%d.Monto", p, j),
					fmt.Sprintf("El descuento %d de la línea %d no puede ser negativo.", j+1, n))
			}
			m := redondear(ds.Monto)
			lc.Descuentos = append(lc.Descuentos, m)
			lc.TotalDescuentos = lc.TotalDescuentos.Add(m)
		}
		lc.SubTotal = lc.MontoTotal.Sub(lc.TotalDescuentos)
		if lc.SubTotal.IsNegative() && !lc.MontoTotal.IsNegative() {
			errs.agregar(p+"Descuentos", fmt.Sprintf("Los descuentos de la línea %d (%s) superan su monto total (%s).",
				n, lc.TotalDescuentos.StringFixed(2), lc.MontoTotal.StringFixed(2)))
		}
		lc.BaseImponible = lc.SubTotal
		if !lc.Exenta {
			// Shift(-2) divides by 100 exactly; the product has at most 4
			// decimals, so the only rounding is the final half-up one.
			lc.Impuesto = redondear(lc.BaseImponible.Mul(l.Tarifa).Shift(-2))
		}
		lc.ImpuestoNeto = lc.Impuesto
		lc.MontoTotalLinea = lc.SubTotal.Add(lc.ImpuestoNeto)
		for campo, v := range map[string]decimal.Decimal{"PrecioUnitario": l.PrecioUnitario, "MontoTotal": lc.MontoTotal, "MontoTotalLinea": lc.MontoTotalLinea} {
			if v.GreaterThan(maxDinero) {
				errs.agregar(p+campo, fmt.Sprintf("Los montos de la línea %d superan el máximo que admite Hacienda (%s).", n, maxDinero))
			}
		}
		c.Lineas = append(c.Lineas, lc)

		switch {
		case lc.Exenta && l.EsServicio:
			c.TotalServExentos = c.TotalServExentos.Add(lc.MontoTotal)
		case lc.Exenta:
			c.TotalMercanciasExentas = c.TotalMercanciasExentas.Add(lc.MontoTotal)
		case l.EsServicio:
			c.TotalServGravados = c.TotalServGravados.Add(lc.MontoTotal)
		default:
			c.TotalMercanciasGravadas = c.TotalMercanciasGravadas.Add(lc.MontoTotal)
		}
		c.TotalDescuentos = c.TotalDescuentos.Add(lc.TotalDescuentos)
		c.TotalImpuesto = c.TotalImpuesto.Add(lc.ImpuestoNeto)
		k := [2]string{l.codigoImpuesto(), l.CodigoTarifaIVA}
		grupos[k] = grupos[k].Add(lc.Impuesto)
	}
	c.TotalGravado = c.TotalServGravados.Add(c.TotalMercanciasGravadas)
	c.TotalExento = c.TotalServExentos.Add(c.TotalMercanciasExentas)
	c.TotalExonerado = c.TotalServExonerado.Add(c.TotalMercExonerada)
	c.TotalNoSujeto = c.TotalServNoSujeto.Add(c.TotalMercNoSujeta)
	c.TotalVenta = c.TotalGravado.Add(c.TotalExento).Add(c.TotalExonerado).Add(c.TotalNoSujeto)
	c.TotalVentaNeta = c.TotalVenta.Sub(c.TotalDescuentos)
	c.TotalComprobante = c.TotalVentaNeta.Add(c.TotalImpuesto)

	// Sorted so the XML does not depend on line order or map iteration.
	for k, v := range grupos {
		c.Desglose = append(c.Desglose, DesgloseImpuesto{Codigo: k[0], CodigoTarifaIVA: k[1], TotalMontoImpuesto: v})
	}
	sort.Slice(c.Desglose, func(i, j int) bool {
		a, b := c.Desglose[i], c.Desglose[j]
		if a.Codigo != b.Codigo {
			return a.Codigo < b.Codigo
		}
		return a.CodigoTarifaIVA < b.CodigoTarifaIVA
	})

	// TotalVenta and TotalComprobante bound every other total (amounts are
	// non-negative), so checking them covers the summary.
	if c.TotalVenta.GreaterThan(maxDinero) || c.TotalComprobante.GreaterThan(maxDinero) {
		errs.agregar("Lineas", fmt.Sprintf("El total del comprobante supera el máximo que admite Hacienda (%s).", maxDinero))
	}
	if len(errs) > 0 {
		return c, errs
	}
	return c, nil
}
