package comprobante

import (
	"strings"

	"github.com/shopspring/decimal"
)

// The code tables below are copies of the enumerations of the official 2026
// v4.4 XSDs (package esquemas). They live in Go, not parsed from the XSDs at
// run time, so Validar is cheap and has no start-up cost; catalogos_test.go
// compares every table with the embedded XSDs, so a schema update that
// changes a list breaks the build instead of silently diverging.

// conjunto builds a set from its members.
func conjunto(valores ...string) map[string]bool {
	s := make(map[string]bool, len(valores))
	for _, v := range valores {
		s[v] = true
	}
	return s
}

// tiposIdentificacion is IdentificacionType/Tipo: 01 física, 02 jurídica,
// 03 DIMEX, 04 NITE, 05 extranjero no domiciliado, 06 no contribuyente.
var tiposIdentificacion = conjunto("01", "02", "03", "04", "05", "06")

// tiposCodigoComercial is CodigoType/Tipo: 01 del vendedor, 02 del comprador,
// 03 asignado por la industria, 04 de uso interno, 99 otros.
var tiposCodigoComercial = conjunto("01", "02", "03", "04", "99")

// condicionesVenta is the CondicionVenta enumeration of each document: it
// differs per type (12 is not allowed on a tiquete; 09 and 11, which pay a
// previous credit sale, only on notes).
var condicionesVenta = map[Tipo]map[string]bool{
	Factura:     conjunto("01", "02", "03", "04", "05", "06", "07", "08", "10", "12", "13", "14", "15", "99"),
	Tiquete:     conjunto("01", "02", "03", "04", "05", "06", "07", "08", "10", "13", "14", "15", "99"),
	NotaCredito: conjunto("01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "99"),
	NotaDebito:  conjunto("01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "99"),
}

// codigosDescuento is CodigoDescuentoType (Nota 20).
var codigosDescuento = conjunto("01", "02", "03", "04", "05", "06", "07", "08", "09", "99")

// codigosImpuesto is CodigoImpuestoType (Nota 8). Only IVA (01) is computed
// by this package; the set exists so the cross-check test documents that.
var codigosImpuesto = conjunto("01", "02", "03", "04", "05", "06", "07", "08", "12", "99")

// tarifasIVA maps CodigoTarifaIVAType (Nota 8.1) to the rate, in percent,
// that the Tarifa element must carry. 10 (exenta) has no rate: its lines are
// written with Tarifa 0.00 and Monto 0.
var tarifasIVA = map[string]decimal.Decimal{
	"01": decimal.Zero,                     // tarifa 0 % (art. 32 num. 1 RLIVA)
	"02": decimal.NewFromInt(1),            // reducida 1 %
	"03": decimal.NewFromInt(2),            // reducida 2 %
	"04": decimal.NewFromInt(4),            // reducida 4 %
	"05": decimal.Zero,                     // transitoria 0 %
	"06": decimal.NewFromInt(4),            // transitoria 4 %
	"07": decimal.NewFromInt(8),            // transitoria 8 % (inhabilitada)
	"08": decimal.NewFromInt(13),           // general 13 %
	"09": decimal.RequireFromString("0.5"), // reducida 0.5 %
	"10": decimal.Zero,                     // exenta
	"11": decimal.Zero,                     // 0 % sin derecho a crédito
}

// TarifaExenta is the CodigoTarifaIVA of exempt lines. Their amounts go to
// the Exento totals of the summary and they carry no tax.
const TarifaExenta = "10"

// TarifaIVA returns the rate (percent) that goes with an IVA rate code
// (CodigoTarifaIVA, Nota 8.1 of the Anexos), e.g. "08" -> 13, "04" -> 4,
// "10" (exenta) -> 0. ok is false for codes the XSD does not define.
func TarifaIVA(codigo string) (tarifa decimal.Decimal, ok bool) {
	tarifa, ok = tarifasIVA[codigo]
	return tarifa, ok
}

// tiposMedioPago is ResumenFactura/MedioPago/TipoMedioPago (Nota 6).
var tiposMedioPago = conjunto("01", "02", "03", "04", "05", "06", "07", "99")

// tiposDocReferencia is TipoDocReferenciaType (Nota 10); 19 and 20 are new in
// the 2026 revision.
var tiposDocReferencia = conjunto("01", "02", "03", "04", "05", "06", "07", "08", "09", "10",
	"11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "99")

// tiposDocElectronico are the TipoDocIR values that name a comprobante with a
// 50-character clave (FE, ND, NC, TE).
var tiposDocElectronico = conjunto("01", "02", "03", "04")

// codigosReferencia is CodigoReferenciaType (Nota 9) of FE/TE/NC/ND: there is
// no 03, 13 to 16 are new in the 2026 revision and 17 exists only in the REP.
var codigosReferencia = conjunto("01", "02", "04", "05", "06", "07", "08", "09", "10",
	"11", "12", "13", "14", "15", "16", "99")

// unidadesMedida is UnidadMedidaType (case-sensitive, with non-ASCII symbols
// such as "m²"). The values are compared byte for byte, as the XSD does:
// callers must send the exact code points (no Unicode normalisation).
var unidadesMedida = conjunto(
	"1", "´", "´´", "°C", "1/m", "A", "A/m", "A/m²", "Acv", "Al", "Alc", "B", "Bq", "C", "C/kg",
	"C/m²", "C/m³", "Cc", "Cd", "cd/m²", "Cm", "cm", "Cu", "D", "eV", "F", "F/m", "Fa", "G", "Gal",
	"Gy", "Gy/s", "h", "H", "H/m", "Hz", "I", "J", "J/(kg·K)", "J/(mol·K)", "J/K", "J/kg", "J/m³",
	"J/mol", "K", "Kat", "kat/m³", "Kg", "kg/m³", "Km", "Kw", "kWh", "L", "Lm", "Ln", "Lx", "M",
	"m/s", "m/s²", "m²", "m³", "Min", "mL", "Mm", "Mol", "mol/m³", "N", "N/m", "N·m", "Np", "º",
	"Os", "Otros", "Oz", "Pa", "Pa·s", "Qq", "Rad", "rad/s", "rad/s²", "S", "s", "Sp", "Spe", "Sr",
	"St", "Sv", "t", "T", "U", "Ua", "Unid", "V", "V/m", "W", "W/(m·K)", "W/(m²·sr)", "W/m²",
	"W/sr", "Wb",
	"\u2126", // ohm: the XSD uses U+2126 OHM SIGN, not U+03A9 Greek capital omega; they look alike
)

// monedas is CodigoMonedaType/CodigoMoneda: the ISO 4217 list as Hacienda
// froze it (it still has BYR, MRO, STD, VEF...; it lacks later codes).
var monedas = conjunto(strings.Fields(`
	AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN
	BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYR BZD CAD CDF
	CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF
	DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
	GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK
	JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
	LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRO MUR MVR
	MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN
	PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG
	SEK SGD SHP SLL SOS SRD SSP STD SVC SYP SZL THB TJS TMT
	TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UZS VEF
	VND VUV WST XAF XCD XDR XOF XPF XSU XUA YER ZAR ZMW ZWL`)...)
