package comprobante

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestValidar_documentosValidos(t *testing.T) {
	for nombre, d := range generados(t) {
		if errs := Validar(d); errs != nil {
			t.Errorf("%s: %v", nombre, errs)
		}
	}
}

// TestValidar_reglas breaks one rule per case on an otherwise valid document
// and checks the path and the message the caller will show.
func TestValidar_reglas(t *testing.T) {
	casos := []struct {
		nombre  string
		tipo    Tipo
		romper  func(d *Documento)
		campo   string
		mensaje string // exact message; "" only checks that the path has one
	}{
		// Type, clave and consecutivo.
		{"tipo desconocido", Factura, func(d *Documento) { d.Tipo = "09" }, "Tipo",
			"El tipo de comprobante debe ser 01 (factura), 02 (nota de débito), 03 (nota de crédito) o 04 (tiquete)."},
		{"clave corta", Factura, func(d *Documento) { d.Clave = d.Clave[:49] }, "Clave",
			"La clave debe tener 50 caracteres, solo letras y dígitos."},
		{"clave con guion", Factura, func(d *Documento) { d.Clave = d.Clave[:49] + "-" }, "Clave",
			"La clave debe tener 50 caracteres, solo letras y dígitos."},
		{"clave de otro país", Factura, func(d *Documento) { d.Clave = "507" + d.Clave[3:] }, "Clave",
			"La clave debe empezar con 506, el código de país."},
		{"clave de otro emisor", Factura, func(d *Documento) { d.Emisor.Identificacion.Numero = "3101999999" }, "Clave",
			"Las posiciones 10 a 21 de la clave deben ser la identificación del emisor con ceros a la izquierda."},
		{"clave con otro consecutivo", Factura, func(d *Documento) { d.Clave = d.Clave[:40] + "9" + d.Clave[41:] }, "Clave",
			"Las posiciones 22 a 41 de la clave deben ser el número consecutivo."},
		{"clave con situación 4", Factura, func(d *Documento) { d.Clave = d.Clave[:41] + "4" + d.Clave[42:] }, "Clave",
			"La posición 42 de la clave (situación) debe ser 1, 2 o 3."},
		{"consecutivo corto", Factura, func(d *Documento) { d.NumeroConsecutivo = d.NumeroConsecutivo[1:] }, "NumeroConsecutivo",
			"El número consecutivo debe tener 20 dígitos."},
		{"consecutivo de otro tipo", Factura, func(d *Documento) {
			d.Clave, d.NumeroConsecutivo = claveDe(Tiquete, "3101123456", fechaBase, 4521)
		}, "NumeroConsecutivo", "Las posiciones 9 y 10 del consecutivo deben ser 01, el tipo del comprobante."},
		{"consecutivo cero", Factura, func(d *Documento) { d.Clave, d.NumeroConsecutivo = claveDe(Factura, "3101123456", fechaBase, 0) },
			"NumeroConsecutivo", "El número de comprobante del consecutivo (últimos 10 dígitos) no puede ser cero."},

		// Header.
		{"sin proveedor de sistemas", Factura, func(d *Documento) { d.ProveedorSistemas = "" }, "ProveedorSistemas",
			"Falta la identificación del proveedor de sistemas."},
		{"proveedor demasiado largo", Factura, func(d *Documento) { d.ProveedorSistemas = strings.Repeat("1", 21) }, "ProveedorSistemas",
			"La identificación del proveedor de sistemas debe tener entre 1 y 20 caracteres."},
		{"factura sin actividad", Factura, func(d *Documento) { d.CodigoActividadEmisor = "" }, "CodigoActividadEmisor",
			"Falta el código de actividad económica del emisor."},
		{"actividad de 5", Tiquete, func(d *Documento) { d.CodigoActividadEmisor = "47111" }, "CodigoActividadEmisor",
			"El código de actividad económica del emisor debe tener 6 caracteres."},
		{"tiquete con actividad del receptor", Tiquete, func(d *Documento) { d.CodigoActividadReceptor = "8690.9" }, "CodigoActividadReceptor",
			"El tiquete electrónico no lleva código de actividad del receptor."},
		{"actividad del receptor de 7", Factura, func(d *Documento) { d.CodigoActividadReceptor = "8690.91" }, "CodigoActividadReceptor",
			"El código de actividad económica del receptor debe tener 6 caracteres."},
		{"sin fecha", Factura, func(d *Documento) { d.FechaEmision = time.Time{} }, "FechaEmision", "Falta la fecha de emisión."},

		// Issuer.
		{"emisor con nombre corto", Factura, func(d *Documento) { d.Emisor.Nombre = "ABC" }, "Emisor.Nombre",
			"El nombre del emisor debe tener entre 5 y 100 caracteres."},
		{"emisor con nombre en blanco", Factura, func(d *Documento) { d.Emisor.Nombre = "      " }, "Emisor.Nombre",
			"Falta el nombre del emisor."},
		{"emisor con carácter de control", Factura, func(d *Documento) { d.Emisor.Nombre = "Ñandú\x00 S.A." }, "Emisor.Nombre",
			"El nombre del emisor contiene caracteres no permitidos."},
		{"emisor con UTF-8 inválido", Factura, func(d *Documento) { d.Emisor.Nombre = "Ñandú \xff S.A." }, "Emisor.Nombre",
			"El nombre del emisor contiene caracteres no permitidos."},
		{"emisor con tipo de identificación inválido", Factura, func(d *Documento) { d.Emisor.Identificacion.Tipo = "07" }, "Emisor.Identificacion.Tipo",
			`El tipo de identificación del emisor "07" no es un código válido.`},
		{"emisor extranjero", Factura, func(d *Documento) { d.Emisor.Identificacion.Tipo = "05" }, "Emisor.Identificacion.Tipo",
			"El emisor debe identificarse con cédula física, jurídica, DIMEX o NITE."},
		{"cédula jurídica con guiones", Factura, func(d *Documento) { d.Emisor.Identificacion.Numero = "3-101-123456" }, "Emisor.Identificacion.Numero",
			"El número de identificación del emisor debe tener 10 caracteres sin guiones."},
		{"factura sin ubicación del emisor", Factura, func(d *Documento) { d.Emisor.Ubicacion = nil }, "Emisor.Ubicacion",
			"Falta la ubicación del emisor."},
		{"provincia 8", Factura, func(d *Documento) { d.Emisor.Ubicacion.Provincia = "8" }, "Emisor.Ubicacion.Provincia",
			"La provincia del emisor debe ser un dígito del 1 al 7."},
		{"cantón 1", Factura, func(d *Documento) { d.Emisor.Ubicacion.Canton = "1" }, "Emisor.Ubicacion.Canton",
			"El cantón del emisor debe ser un código de 2 dígitos (01 a 99)."},
		{"distrito 00", Factura, func(d *Documento) { d.Emisor.Ubicacion.Distrito = "00" }, "Emisor.Ubicacion.Distrito",
			"El distrito del emisor debe ser un código de 2 dígitos (01 a 99)."},
		{"barrio corto", Factura, func(d *Documento) { d.Emisor.Ubicacion.Barrio = "Roma" }, "Emisor.Ubicacion.Barrio",
			"El barrio del emisor debe tener entre 5 y 50 caracteres."},
		{"sin otras señas", Factura, func(d *Documento) { d.Emisor.Ubicacion.OtrasSenas = "" }, "Emisor.Ubicacion.OtrasSenas",
			"Falta la dirección (otras señas) del emisor."},
		{"emisor con dirección extranjera", Factura, func(d *Documento) { d.Emisor.OtrasSenasExtranjero = "Miami, Florida" },
			"Emisor.OtrasSenasExtranjero", "Solo el receptor puede tener dirección en el extranjero."},
		{"teléfono con guion", Factura, func(d *Documento) { d.Emisor.Telefono.Numero = "2290-5555" }, "Emisor.Telefono.Numero",
			"El teléfono del emisor debe tener de 3 a 20 dígitos, sin espacios ni guiones."},
		{"código de país largo", Factura, func(d *Documento) { d.Emisor.Telefono.CodigoPais = "5060" }, "Emisor.Telefono.CodigoPais",
			"El código de país del teléfono del emisor debe tener de 1 a 3 dígitos."},
		{"emisor sin correo", Factura, func(d *Documento) { d.Emisor.CorreoElectronico = nil }, "Emisor.CorreoElectronico",
			"Falta el correo electrónico del emisor."},
		{"emisor con 5 correos", Factura, func(d *Documento) {
			d.Emisor.CorreoElectronico = []string{"a@x.cr", "b@x.cr", "c@x.cr", "d@x.cr", "e@x.cr"}
		}, "Emisor.CorreoElectronico", "El emisor puede indicar como máximo 4 correos electrónicos."},
		{"correo inválido", Factura, func(d *Documento) { d.Emisor.CorreoElectronico[1] = "contabilidad@nandu" }, "Emisor.CorreoElectronico.1",
			`El correo electrónico del emisor "contabilidad@nandu" no es una dirección válida.`},

		// Receiver, per type.
		{"factura sin receptor", Factura, func(d *Documento) { d.Receptor = nil }, "Receptor",
			"La factura electrónica debe indicar el receptor (use un tiquete si el cliente no se identifica)."},
		{"factura con receptor sin identificación", Factura, func(d *Documento) { d.Receptor.Identificacion = Identificacion{} },
			"Receptor.Identificacion.Tipo", "Falta el tipo de identificación del receptor."},
		{"nota de crédito sin receptor", NotaCredito, func(d *Documento) { d.Receptor = nil }, "Receptor",
			"La nota de crédito debe indicar el receptor del documento que ajusta."},
		{"nota de débito sin receptor", NotaDebito, func(d *Documento) { d.Receptor = nil }, "Receptor",
			"La nota de débito debe indicar el receptor del documento que ajusta."},
		{"cédula física de 10", Factura, func(d *Documento) { d.Receptor.Identificacion.Numero = "0112340567" }, "Receptor.Identificacion.Numero",
			"El número de identificación del receptor debe tener 9 dígitos sin guiones ni cero inicial."},
		{"DIMEX de 10", Factura, func(d *Documento) { d.Receptor.Identificacion = Identificacion{Tipo: "03", Numero: "1234567890"} },
			"Receptor.Identificacion.Numero", "El número de identificación del receptor debe tener 11 o 12 dígitos sin guiones ni cero inicial."},
		{"receptor con nombre de 2", Factura, func(d *Documento) { d.Receptor.Nombre = "Al" }, "Receptor.Nombre",
			"El nombre del receptor debe tener entre 3 y 100 caracteres."},
		{"receptor con 2 correos", Factura, func(d *Documento) { d.Receptor.CorreoElectronico = []string{"a@x.cr", "b@x.cr"} },
			"Receptor.CorreoElectronico", "El receptor puede indicar como máximo 1 correo electrónico."},
		{"dirección extranjera corta", Factura, func(d *Documento) { d.Receptor.OtrasSenasExtranjero = "USA" }, "Receptor.OtrasSenasExtranjero",
			"La dirección en el extranjero del receptor debe tener entre 5 y 300 caracteres."},

		// Sale condition.
		{"condición 12 en tiquete", Tiquete, func(d *Documento) { d.CondicionVenta = "12" }, "CondicionVenta",
			`La condición de venta "12" no es un código válido.`},
		{"condición 09 en factura", Factura, func(d *Documento) { d.CondicionVenta = "09" }, "CondicionVenta",
			`La condición de venta "09" no es un código válido.`},
		{"condición 99 sin descripción", Factura, func(d *Documento) { d.CondicionVenta = "99" }, "CondicionVentaOtros",
			"Falta la descripción de la condición de venta."},
		{"crédito sin plazo", Factura, func(d *Documento) { d.PlazoCredito = 0 }, "PlazoCredito",
			"Una venta a crédito debe indicar el plazo de crédito en días."},
		{"plazo negativo", Factura, func(d *Documento) { d.PlazoCredito = -1 }, "PlazoCredito",
			"El plazo de crédito debe estar entre 0 y 99999 días."},
		{"condición 10 a 91 días", Factura, func(d *Documento) { d.CondicionVenta, d.PlazoCredito = "10", 91 }, "PlazoCredito",
			"La venta a crédito de la condición 10 no puede superar 90 días."},

		// Lines.
		{"sin líneas", Factura, func(d *Documento) { d.Lineas = nil }, "Lineas",
			"El comprobante debe tener al menos una línea de detalle."},
		{"1001 líneas", Tiquete, func(d *Documento) {
			for len(d.Lineas) <= 1000 {
				d.Lineas = append(d.Lineas, linea13("1", "1"))
			}
			d.MediosPago = nil
		}, "Lineas", "El comprobante no puede tener más de 1000 líneas de detalle."},
		{"CABYS de 12", Factura, func(d *Documento) { d.Lineas[2].CodigoCABYS = "354210000020" }, "Lineas.2.CodigoCABYS",
			"La línea 3 no tiene código CABYS de 13 dígitos."},
		{"CABYS con letras", Factura, func(d *Documento) { d.Lineas[0].CodigoCABYS = "35421000002AB" }, "Lineas.0.CodigoCABYS",
			"La línea 1 no tiene código CABYS de 13 dígitos."},
		{"seis códigos comerciales", Factura, func(d *Documento) {
			for range 5 {
				d.Lineas[0].CodigosComerciales = append(d.Lineas[0].CodigosComerciales, CodigoComercial{"01", "X"})
			}
		}, "Lineas.0.CodigosComerciales", "La línea 1 puede tener como máximo 5 códigos comerciales."},
		{"código comercial de tipo 05", Factura, func(d *Documento) { d.Lineas[0].CodigosComerciales[0].Tipo = "05" },
			"Lineas.0.CodigosComerciales.0.Tipo", `El tipo del código comercial 1 de la línea 1 "05" no es un código válido.`},
		{"código comercial de 21", Factura, func(d *Documento) { d.Lineas[0].CodigosComerciales[0].Codigo = strings.Repeat("X", 21) },
			"Lineas.0.CodigosComerciales.0.Codigo", "El código comercial 1 de la línea 1 debe tener entre 1 y 20 caracteres."},
		{"cantidad cero", Factura, func(d *Documento) { d.Lineas[1].Cantidad = decimal.Zero }, "Lineas.1.Cantidad",
			"La cantidad de la línea 2 debe ser mayor que cero."},
		{"cantidad negativa", Factura, func(d *Documento) { d.Lineas[1].Cantidad = dec("-1") }, "Lineas.1.Cantidad",
			"La cantidad de la línea 2 debe ser mayor que cero."},
		{"cantidad con 4 decimales", Factura, func(d *Documento) { d.Lineas[1].Cantidad = dec("1.0005") }, "Lineas.1.Cantidad",
			"La cantidad de la línea 2 admite como máximo 3 decimales."},
		{"cantidad con 14 enteros", Factura, func(d *Documento) { d.Lineas[1].Cantidad, d.Lineas[1].PrecioUnitario = dec("10000000000000"), dec("0") },
			"Lineas.1.Cantidad", "La cantidad de la línea 2 admite como máximo 13 dígitos enteros."},
		{"unidad en minúscula", Factura, func(d *Documento) { d.Lineas[0].UnidadMedida = "unid" }, "Lineas.0.UnidadMedida",
			`La unidad de medida "unid" de la línea 1 no es un código oficial de Hacienda (por ejemplo Unid, Sp, Kg).`},
		{"sin unidad", Factura, func(d *Documento) { d.Lineas[0].UnidadMedida = "" }, "Lineas.0.UnidadMedida",
			"Falta la unidad de medida de la línea 1."},
		{"unidad comercial larga", Factura, func(d *Documento) { d.Lineas[0].UnidadMedidaComercial = strings.Repeat("c", 21) },
			"Lineas.0.UnidadMedidaComercial", "La unidad de medida comercial de la línea 1 debe tener entre 1 y 20 caracteres."},
		{"detalle corto", Factura, func(d *Documento) { d.Lineas[3].Detalle = "Lb" }, "Lineas.3.Detalle",
			"El detalle de la línea 4 debe tener entre 3 y 200 caracteres."},
		{"detalle de 201 caracteres acentuados", Factura, func(d *Documento) { d.Lineas[3].Detalle = strings.Repeat("é", 201) },
			"Lineas.3.Detalle", "El detalle de la línea 4 debe tener entre 3 y 200 caracteres."},
		{"precio negativo", Factura, func(d *Documento) { d.Lineas[0].PrecioUnitario = dec("-1") }, "Lineas.0.PrecioUnitario",
			"El precio unitario de la línea 1 no puede ser negativo."},
		{"precio con 6 decimales", Factura, func(d *Documento) { d.Lineas[0].PrecioUnitario = dec("1.000001") }, "Lineas.0.PrecioUnitario",
			"El precio unitario de la línea 1 admite como máximo 5 decimales."},
		{"seis descuentos", Factura, func(d *Documento) {
			for range 6 {
				d.Lineas[1].Descuentos = append(d.Lineas[1].Descuentos, Descuento{Monto: dec("1"), Codigo: "07"})
			}
		}, "Lineas.1.Descuentos", "La línea 2 puede tener como máximo 5 descuentos."},
		{"descuento cero", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Monto = decimal.Zero }, "Lineas.0.Descuentos.0.Monto",
			"El descuento 1 de la línea 1 debe ser mayor que cero."},
		{"descuento negativo", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Monto = dec("-5") }, "Lineas.0.Descuentos.0.Monto",
			"El descuento 1 de la línea 1 debe ser mayor que cero."},
		{"descuento mayor que la línea", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Monto = dec("3751.51") }, "Lineas.0.Descuentos",
			"Los descuentos de la línea 1 (3751.51) superan su monto total (3751.50)."},
		{"descuento sin código", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Codigo = "" }, "Lineas.0.Descuentos.0.Codigo",
			"Falta el código del descuento 1 de la línea 1."},
		{"descuento de código 10", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Codigo = "10" }, "Lineas.0.Descuentos.0.Codigo",
			`El código del descuento 1 de la línea 1 "10" no es un código válido.`},
		{"descuento 99 sin naturaleza", Factura, func(d *Documento) { d.Lineas[5].Descuentos[1].Naturaleza = "" }, "Lineas.5.Descuentos.1.Naturaleza",
			"Falta la naturaleza del descuento 2 de la línea 6 (código 99)."},
		{"descuento 99 con naturaleza de 4", Factura, func(d *Documento) { d.Lineas[5].Descuentos[1].Naturaleza = "Otro" }, "Lineas.5.Descuentos.1.Naturaleza",
			"La naturaleza del descuento 2 de la línea 6 (código 99) debe tener entre 5 y 80 caracteres."},
		{"naturaleza de 81", Factura, func(d *Documento) { d.Lineas[0].Descuentos[0].Naturaleza = strings.Repeat("n", 81) }, "Lineas.0.Descuentos.0.Naturaleza",
			"La naturaleza del descuento 1 de la línea 1 debe tener entre 3 y 80 caracteres."},
		{"impuesto selectivo", Factura, func(d *Documento) { d.Lineas[0].ImpuestoCodigo = "02" }, "Lineas.0.ImpuestoCodigo",
			"La línea 1 solo puede llevar el impuesto 01 (IVA)."},
		{"sin código de tarifa", Factura, func(d *Documento) { d.Lineas[0].CodigoTarifaIVA = "" }, "Lineas.0.CodigoTarifaIVA",
			"Falta el código de tarifa de IVA de la línea 1."},
		{"código de tarifa 12", Factura, func(d *Documento) { d.Lineas[0].CodigoTarifaIVA = "12" }, "Lineas.0.CodigoTarifaIVA",
			`El código de tarifa de IVA "12" de la línea 1 no es válido.`},
		{"tarifa 07 inhabilitada", Factura, func(d *Documento) { d.Lineas[0].CodigoTarifaIVA, d.Lineas[0].Tarifa = "07", dec("8") }, "Lineas.0.CodigoTarifaIVA",
			"El código de tarifa 07 de la línea 1 está inhabilitado por Hacienda."},
		{"tarifa transitoria en factura", Factura, func(d *Documento) { d.Lineas[0].CodigoTarifaIVA, d.Lineas[0].Tarifa = "06", dec("4") }, "Lineas.0.CodigoTarifaIVA",
			"El código de tarifa transitoria 06 de la línea 1 solo se admite en notas de crédito o débito."},
		{"tarifa que no corresponde", Factura, func(d *Documento) { d.Lineas[0].Tarifa = dec("12") }, "Lineas.0.Tarifa",
			"La tarifa de la línea 1 (12 %) no corresponde al código de tarifa 08 (13.00 %)."},
		{"exenta con tarifa", Factura, func(d *Documento) { d.Lineas[3].Tarifa = dec("13") }, "Lineas.3.Tarifa",
			"La tarifa de la línea 4 (13 %) no corresponde al código de tarifa 10 (0.00 %)."},
		{"monto de línea fuera del XSD", Factura, func(d *Documento) { d.Lineas[1].Cantidad = dec("9999999999999") }, "Lineas.1.MontoTotal",
			"Los montos de la línea 2 superan el máximo que admite Hacienda (9999999999999.99999)."},

		// Currency.
		{"moneda inventada", Factura, func(d *Documento) { d.CodigoMoneda = "XYZ" }, "CodigoMoneda",
			`La moneda "XYZ" no es un código ISO 4217 admitido por Hacienda.`},
		{"moneda en minúscula", Factura, func(d *Documento) { d.CodigoMoneda = "usd" }, "CodigoMoneda",
			`La moneda "usd" no es un código ISO 4217 admitido por Hacienda.`},
		{"colones con tipo de cambio", Factura, func(d *Documento) { d.TipoCambio = dec("505.25") }, "TipoCambio",
			"En colones el tipo de cambio debe ser 1."},
		{"dólares sin tipo de cambio", Factura, func(d *Documento) { d.CodigoMoneda, d.TipoCambio = "USD", decimal.Zero }, "TipoCambio",
			"Falta el tipo de cambio de USD a colones."},
		{"tipo de cambio con 6 decimales", Factura, func(d *Documento) { d.CodigoMoneda, d.TipoCambio = "USD", dec("505.123456") }, "TipoCambio",
			"El tipo de cambio admite como máximo 5 decimales y 13 enteros."},

		// Means of payment.
		{"cinco medios de pago", Factura, func(d *Documento) {
			d.MediosPago = []MedioPago{{Tipo: "01"}, {Tipo: "02"}, {Tipo: "03"}, {Tipo: "04"}, {Tipo: "06"}}
		}, "MediosPago", "El comprobante puede indicar como máximo 4 medios de pago."},
		{"medio de pago 08", Factura, func(d *Documento) { d.MediosPago[0].Tipo = "08" }, "MediosPago.0.Tipo",
			`El tipo del medio de pago 1 "08" no es un código válido.`},
		{"medio de pago 99 sin descripción", Factura, func(d *Documento) { d.MediosPago[0].Tipo = "99" }, "MediosPago.0.Otros",
			"Falta la descripción del medio de pago 1 (código 99)."},
		{"varios medios sin monto", Tiquete, func(d *Documento) { d.MediosPago[1].Total = decimal.Zero }, "MediosPago.1.Total",
			"Con varios medios de pago, el medio de pago 2 debe indicar su monto."},
		{"medios que no suman el total", Tiquete, func(d *Documento) { d.MediosPago[0].Total = dec("20000.01") }, "MediosPago",
			"Los medios de pago suman 432564.10 y el total del comprobante es 432564.09."},
		{"medio de pago negativo", Factura, func(d *Documento) { d.MediosPago[0].Total = dec("-1") }, "MediosPago.0.Total",
			"El monto del medio de pago 1 no puede ser negativo."},

		// References.
		{"nota de crédito sin referencias", NotaCredito, func(d *Documento) { d.Referencias = nil }, "Referencias",
			"La nota de crédito debe referenciar el comprobante que ajusta."},
		{"nota de débito sin referencias", NotaDebito, func(d *Documento) { d.Referencias = nil }, "Referencias",
			"La nota de débito debe referenciar el comprobante que ajusta."},
		{"once referencias", NotaCredito, func(d *Documento) {
			for len(d.Referencias) < 11 {
				d.Referencias = append(d.Referencias, d.Referencias[0])
			}
		}, "Referencias", "El comprobante puede tener como máximo 10 referencias."},
		{"referencia sin clave", NotaCredito, func(d *Documento) { d.Referencias[0].Numero = "" }, "Referencias.0.Numero",
			"Falta la clave del documento de la referencia 1."},
		{"referencia a factura sin clave de 50", NotaDebito, func(d *Documento) { d.Referencias[0].Numero = "00100001010000004400" }, "Referencias.0.Numero",
			"La referencia 1 debe indicar la clave de 50 caracteres del comprobante referenciado."},
		{"referencia de tipo 21", NotaCredito, func(d *Documento) { d.Referencias[0].TipoDoc = "21" }, "Referencias.0.TipoDoc",
			`El tipo de documento de la referencia 1 "21" no es un código válido.`},
		{"referencia tipo 99 sin descripción", NotaCredito, func(d *Documento) { d.Referencias[0].TipoDoc = "99" }, "Referencias.0.TipoDocOtro",
			"Falta la descripción del tipo de documento de la referencia 1 (código 99)."},
		{"referencia sin fecha", NotaCredito, func(d *Documento) { d.Referencias[0].FechaEmision = time.Time{} }, "Referencias.0.FechaEmision",
			"Falta la fecha de emisión del documento de la referencia 1."},
		{"referencia posterior", NotaCredito, func(d *Documento) { d.Referencias[0].FechaEmision = fechaBase.Add(time.Minute) }, "Referencias.0.FechaEmision",
			"El documento de la referencia 1 no puede ser posterior a este comprobante."},
		{"nota sin código de referencia", NotaCredito, func(d *Documento) { d.Referencias[0].Codigo = "" }, "Referencias.0.Codigo",
			"Falta el código de referencia (anula, corrige monto...) de la referencia 1."},
		{"código de referencia 03", NotaCredito, func(d *Documento) { d.Referencias[0].Codigo = "03" }, "Referencias.0.Codigo",
			`El código de la referencia 1 "03" no es un código válido.`},
		{"código de referencia 17 (solo REP)", NotaDebito, func(d *Documento) { d.Referencias[0].Codigo = "17" }, "Referencias.0.Codigo",
			`El código de la referencia 1 "17" no es un código válido.`},
		{"código 99 sin descripción", NotaCredito, func(d *Documento) { d.Referencias[0].Codigo = "99" }, "Referencias.0.CodigoOtro",
			"Falta la descripción del código de la referencia 1 (código 99)."},
		{"razón de 181", NotaCredito, func(d *Documento) { d.Referencias[0].Razon = strings.Repeat("r", 181) }, "Referencias.0.Razon",
			"La razón de la referencia 1 debe tener entre 1 y 180 caracteres."},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			d := documentoBase(t, c.tipo)
			c.romper(&d)
			errs := Validar(d)
			got, ok := errs[c.campo]
			if !ok {
				t.Fatalf("no message for %s; got %v", c.campo, errs)
			}
			if c.mensaje != "" && got != c.mensaje {
				t.Errorf("%s:\n got  %q\n want %q", c.campo, got, c.mensaje)
			}
			// XML refuses the same document with the same findings.
			if _, err := XML(d); err == nil {
				t.Fatal("XML accepted an invalid document")
			} else {
				var ev ErrorValidacion
				if !errors.As(err, &ev) || ev[c.campo] != got {
					t.Fatalf("XML error %v does not carry %s", err, c.campo)
				}
			}
		})
	}
}

// TestValidar_receptorOpcional covers the documents where the XSD lets the
// receiver go.
func TestValidar_receptorOpcional(t *testing.T) {
	te := documentoBase(t, Tiquete)
	if errs := Validar(te); errs != nil {
		t.Errorf("tiquete without receptor: %v", errs)
	}
	nc := documentoBase(t, NotaCredito)
	nc.Receptor = nil
	te1, _ := claveDe(Tiquete, "3101123456", fechaBase, 1)
	nc.Referencias = []Referencia{{TipoDoc: "04", Numero: te1, FechaEmision: fechaBase, Codigo: "01"}}
	if errs := Validar(nc); errs != nil {
		t.Errorf("credit note on a tiquete without receptor: %v", errs)
	}
	nc.Referencias = append(nc.Referencias, Referencia{TipoDoc: "01", Numero: nc.Clave, FechaEmision: fechaBase, Codigo: "01"})
	if errs := Validar(nc); errs["Receptor"] == "" {
		t.Errorf("credit note also on a factura must require the receptor: %v", errs)
	}
}

// TestValidar_varios checks that independent problems are all reported,
// one message per path, and that ErrorValidacion prints them sorted.
func TestValidar_varios(t *testing.T) {
	d := documentoBase(t, Factura)
	d.Lineas[0].CodigoCABYS = ""
	d.Lineas[1].CodigoCABYS = "1"
	d.Emisor.CorreoElectronico = nil
	errs := Validar(d)
	for _, c := range []string{"Lineas.0.CodigoCABYS", "Lineas.1.CodigoCABYS", "Emisor.CorreoElectronico"} {
		if errs[c] == "" {
			t.Errorf("missing %s in %v", c, errs)
		}
	}
	if len(errs) != 3 {
		t.Errorf("expected exactly 3 problems, got %v", errs)
	}
	want := "comprobante inválido: Emisor.CorreoElectronico: Falta el correo electrónico del emisor.; " +
		"Lineas.0.CodigoCABYS: La línea 1 no tiene código CABYS de 13 dígitos.; " +
		"Lineas.1.CodigoCABYS: La línea 2 no tiene código CABYS de 13 dígitos."
	if got := ErrorValidacion(errs).Error(); got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
}

// TestValidar_valoresPorDefecto covers the documented defaults: "" currency
// is CRC with rate 1, "" tax code is IVA.
func TestValidar_valoresPorDefecto(t *testing.T) {
	d := documentoBase(t, Factura)
	d.CodigoMoneda, d.TipoCambio = "", decimal.Zero
	for i := range d.Lineas {
		d.Lineas[i].ImpuestoCodigo = ""
	}
	if errs := Validar(d); errs != nil {
		t.Fatal(errs)
	}
	x, err := XML(d)
	if err != nil {
		t.Fatal(err)
	}
	contiene(t, string(x), "<CodigoMoneda>CRC</CodigoMoneda>", "<TipoCambio>1.00000</TipoCambio>", "<Codigo>01</Codigo>")
}
