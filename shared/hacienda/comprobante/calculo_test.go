package comprobante

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/erpcr/erp/shared/montos"
	"github.com/shopspring/decimal"
)

// linea13 is a 13 % goods line.
func linea13(cant, precio string, descuentos ...string) Linea {
	l := Linea{CodigoCABYS: "3212100000100", Cantidad: dec(cant), UnidadMedida: "Unid", Detalle: "Artículo",
		PrecioUnitario: dec(precio), CodigoTarifaIVA: "08", Tarifa: dec("13")}
	for _, m := range descuentos {
		l.Descuentos = append(l.Descuentos, Descuento{Monto: dec(m), Codigo: "07"})
	}
	return l
}

func TestCalcular_lineas(t *testing.T) {
	casos := []struct {
		nombre                                                      string
		linea                                                       Linea
		montoTotal, descuentos, subTotal, impuesto, montoTotalLinea string
	}{
		// 3 x 33.335 = 100.005: half-up gives 100.01 (banker's would give 100.00).
		{"monto total redondea hacia arriba en .5", linea13("3", "33.335"), "100.01", "0", "100.01", "13.00", "113.01"},
		// 0.50 x 13 % = 0.065 -> 0.07 (banker's: 0.06).
		{"impuesto redondea hacia arriba en .5", linea13("1", "0.50"), "0.50", "0", "0.50", "0.07", "0.57"},
		// 0.xx4 rounds down.
		{"redondeo hacia abajo", linea13("1", "1.004"), "1.00", "0", "1.00", "0.13", "1.13"},
		// The discount is rounded on its own (5.005 -> 5.01) before the subtraction.
		{"descuento redondeado", linea13("2", "10.005", "5.005"), "20.01", "5.01", "15.00", "1.95", "16.95"},
		{"varios descuentos", linea13("10", "100", "100", "50.50", "0.25"), "1000.00", "150.75", "849.25", "110.40", "959.65"},
		{"descuento total", linea13("1", "100", "100"), "100.00", "100.00", "0.00", "0.00", "0.00"},
		{"precio cero", linea13("5", "0"), "0.00", "0", "0.00", "0.00", "0.00"},
		{"cantidad con 3 decimales", linea13("0.333", "3"), "1.00", "0", "1.00", "0.13", "1.13"},
		{"tarifa 4 %", Linea{Cantidad: dec("3"), PrecioUnitario: dec("41.65"), CodigoTarifaIVA: "04", Tarifa: dec("4")}, "124.95", "0", "124.95", "5.00", "129.95"},
		{"tarifa 0.5 %", Linea{Cantidad: dec("1"), PrecioUnitario: dec("101"), CodigoTarifaIVA: "09", Tarifa: dec("0.5")}, "101.00", "0", "101.00", "0.51", "101.51"},
		// Exempt: no tax even if a rate were given.
		{"exenta", Linea{Cantidad: dec("2"), PrecioUnitario: dec("1000"), CodigoTarifaIVA: "10", Tarifa: dec("13")}, "2000.00", "0", "2000.00", "0", "2000.00"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			r, err := Calcular(Documento{Lineas: []Linea{c.linea}})
			if err != nil {
				t.Fatal(err)
			}
			lc := r.Lineas[0]
			for _, x := range []struct {
				campo     string
				got, want decimal.Decimal
			}{
				{"MontoTotal", lc.MontoTotal, dec(c.montoTotal)},
				{"TotalDescuentos", lc.TotalDescuentos, dec(c.descuentos)},
				{"SubTotal", lc.SubTotal, dec(c.subTotal)},
				{"BaseImponible", lc.BaseImponible, dec(c.subTotal)},
				{"Impuesto", lc.Impuesto, dec(c.impuesto)},
				{"ImpuestoNeto", lc.ImpuestoNeto, dec(c.impuesto)},
				{"MontoTotalLinea", lc.MontoTotalLinea, dec(c.montoTotalLinea)},
			} {
				if !x.got.Equal(x.want) {
					t.Errorf("%s = %s, want %s", x.campo, x.got, x.want)
				}
			}
			if lc.NumeroLinea != 1 || lc.Exenta != (c.linea.CodigoTarifaIVA == "10") {
				t.Errorf("NumeroLinea %d, Exenta %v", lc.NumeroLinea, lc.Exenta)
			}
		})
	}
}

// TestCalcular_resumen checks every ResumenFactura total and the desglose on
// the realistic fixture (values computed by hand in the comments).
func TestCalcular_resumen(t *testing.T) {
	d := documentoBase(t, Factura)
	c, err := Calcular(d)
	if err != nil {
		t.Fatal(err)
	}
	// Lines (MontoTotal / discounts / tax):
	// 1 goods 13 %: 3 x 1250.50 = 3751.50 / 375.15 / 13 % of 3376.35 = 438.9255 -> 438.93
	// 2 service 13 %: 1.5 x 25000 = 37500.00 / 0 / 4875.00
	// 3 goods 4 %: 2 x 3333.335 = 6666.67 / 0 / 266.6668 -> 266.67
	// 4 goods exempt: 9800.00
	// 5 service exempt: 350000.00
	// 6 goods 13 %: 12.25 x 1480.12345 = 18131.5122625 -> 18131.51 / 500 + 250.555 -> 250.56 / 13 % of 17380.95 = 2259.5235 -> 2259.52
	want := map[string]string{
		"TotalServGravados": "37500", "TotalServExentos": "350000", "TotalServExonerado": "0", "TotalServNoSujeto": "0",
		"TotalMercanciasGravadas": "28549.68", "TotalMercanciasExentas": "9800", "TotalMercExonerada": "0", "TotalMercNoSujeta": "0",
		"TotalGravado": "66049.68", "TotalExento": "359800", "TotalExonerado": "0", "TotalNoSujeto": "0",
		"TotalVenta": "425849.68", "TotalDescuentos": "1125.71", "TotalVentaNeta": "424723.97",
		"TotalImpuesto": "7840.12", "TotalComprobante": "432564.09",
	}
	got := map[string]decimal.Decimal{
		"TotalServGravados": c.TotalServGravados, "TotalServExentos": c.TotalServExentos, "TotalServExonerado": c.TotalServExonerado, "TotalServNoSujeto": c.TotalServNoSujeto,
		"TotalMercanciasGravadas": c.TotalMercanciasGravadas, "TotalMercanciasExentas": c.TotalMercanciasExentas, "TotalMercExonerada": c.TotalMercExonerada, "TotalMercNoSujeta": c.TotalMercNoSujeta,
		"TotalGravado": c.TotalGravado, "TotalExento": c.TotalExento, "TotalExonerado": c.TotalExonerado, "TotalNoSujeto": c.TotalNoSujeto,
		"TotalVenta": c.TotalVenta, "TotalDescuentos": c.TotalDescuentos, "TotalVentaNeta": c.TotalVentaNeta,
		"TotalImpuesto": c.TotalImpuesto, "TotalComprobante": c.TotalComprobante,
	}
	for k, w := range want {
		if !got[k].Equal(dec(w)) {
			t.Errorf("%s = %s, want %s", k, got[k], w)
		}
	}
	wantDesglose := []DesgloseImpuesto{{"01", "04", dec("266.67")}, {"01", "08", dec("7573.45")}, {"01", "10", decimal.Zero}}
	if len(c.Desglose) != len(wantDesglose) {
		t.Fatalf("Desglose = %v", c.Desglose)
	}
	for i, w := range wantDesglose {
		g := c.Desglose[i]
		if g.Codigo != w.Codigo || g.CodigoTarifaIVA != w.CodigoTarifaIVA || !g.TotalMontoImpuesto.Equal(w.TotalMontoImpuesto) {
			t.Errorf("Desglose[%d] = %+v, want %+v", i, g, w)
		}
	}
	// The desglose adds up to TotalImpuesto and the lines to TotalComprobante.
	var sumD, sumL decimal.Decimal
	for _, g := range c.Desglose {
		sumD = sumD.Add(g.TotalMontoImpuesto)
	}
	for _, l := range c.Lineas {
		sumL = sumL.Add(l.MontoTotalLinea)
	}
	if !sumD.Equal(c.TotalImpuesto) || !sumL.Equal(c.TotalComprobante) {
		t.Errorf("desglose %s vs impuesto %s; lines %s vs comprobante %s", sumD, c.TotalImpuesto, sumL, c.TotalComprobante)
	}
}

// TestCalcular_igualQueVentas proves that TotalComprobante equals the sale's
// monto_total as package montos (the sale system) computes it, over many
// random lines with awkward decimals.
func TestCalcular_igualQueVentas(t *testing.T) {
	rnd := rand.New(rand.NewSource(20261120))
	tarifas := []struct{ codigo, tarifa string }{{"08", "13"}, {"04", "4"}, {"02", "1"}, {"03", "2"}, {"09", "0.5"}, {"10", "0"}, {"01", "0"}}
	for doc := 0; doc < 200; doc++ {
		var lineas []Linea
		var importes []montos.Importe
		for i := 0; i < 1+rnd.Intn(8); i++ {
			cant := decimal.New(1+rnd.Int63n(50000), -3)     // 0.001 .. 50.000
			precio := decimal.New(rnd.Int63n(100000000), -5) // 0 .. 999.99999
			tf := tarifas[rnd.Intn(len(tarifas))]
			l := Linea{Cantidad: cant, PrecioUnitario: precio, CodigoTarifaIVA: tf.codigo, Tarifa: dec(tf.tarifa)}
			bruto := cant.Mul(precio).Round(2)
			var desc decimal.Decimal
			if rnd.Intn(2) == 0 && bruto.IsPositive() {
				desc = decimal.New(rnd.Int63n(bruto.Shift(2).IntPart()+1), -2)
				l.Descuentos = []Descuento{{Monto: desc, Codigo: "07"}}
			}
			lineas = append(lineas, l)
			importes = append(importes, montos.Calcular(montos.Linea{Cantidad: cant, PrecioUnitario: precio, Descuento: desc, PorcentajeImpuesto: dec(tf.tarifa)}))
		}
		c, err := Calcular(Documento{Lineas: lineas})
		if err != nil {
			t.Fatal(err)
		}
		venta := montos.Sumar(importes)
		for i, imp := range importes {
			lc := c.Lineas[i]
			if !lc.MontoTotal.Equal(imp.Subtotal) || !lc.TotalDescuentos.Equal(imp.Descuento) || !lc.Impuesto.Equal(imp.Impuesto) || !lc.MontoTotalLinea.Equal(imp.Total) {
				t.Fatalf("doc %d line %d: %+v vs sale %+v", doc, i, lc, imp)
			}
		}
		if !c.TotalComprobante.Equal(venta.Total) || !c.TotalVenta.Equal(venta.Subtotal) || !c.TotalDescuentos.Equal(venta.Descuento) || !c.TotalImpuesto.Equal(venta.Impuesto) {
			t.Fatalf("doc %d: TotalComprobante %s vs sale monto_total %s", doc, c.TotalComprobante, venta.Total)
		}
	}
}

func TestCalcular_errores(t *testing.T) {
	casos := []struct {
		nombre string
		linea  Linea
		campo  string
	}{
		{"cantidad negativa", linea13("-1", "10"), "Lineas.0.Cantidad"},
		{"precio negativo", linea13("1", "-10"), "Lineas.0.PrecioUnitario"},
		{"descuento negativo", linea13("1", "10", "-1"), "Lineas.0.Descuentos.0.Monto"},
		{"descuentos mayores que el monto", linea13("1", "10", "6", "4.01"), "Lineas.0.Descuentos"},
		{"monto fuera del XSD", linea13("10000", "1000000000"), "Lineas.0.MontoTotal"},
		{"precio fuera del XSD", linea13("0.001", "10000000000000"), "Lineas.0.PrecioUnitario"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			_, err := Calcular(Documento{Lineas: []Linea{c.linea}})
			var ev ErrorValidacion
			if !errors.As(err, &ev) {
				t.Fatalf("err = %v, want ErrorValidacion", err)
			}
			if ev[c.campo] == "" {
				t.Fatalf("no message for %s in %v", c.campo, ev)
			}
		})
	}
	// Many lines that each fit but together exceed the maximum.
	var lineas []Linea
	for range 2 {
		lineas = append(lineas, linea13("1", "8000000000000"))
	}
	if _, err := Calcular(Documento{Lineas: lineas}); err == nil || err.(ErrorValidacion)["Lineas"] == "" {
		t.Fatalf("err = %v, want a Lineas total error", err)
	}
}
