// Package comprobante models the Costa Rican electronic documents
// ("comprobantes electrónicos") of Hacienda's v4.4 formats, 2026 revision:
// Factura (01), Nota de Débito (02), Nota de Crédito (03) and Tiquete (04).
// It computes their amounts (Calcular), checks the rules that the XSDs do not
// express or express too late to give a useful message (Validar), and writes
// the unsigned XML (XML) that the signer completes with ds:Signature.
//
// Scope: the tax is IVA (Codigo 01) at the rates of Nota 8.1, including
// exempt lines; there are no exoneraciones, otros cargos, specific taxes,
// surtidos or the other document types (FEC, FEE, REP, mensajes). Those
// need fields this model does not have, and Validar rejects what it cannot
// represent rather than writing an incomplete document.
//
// Amounts follow the sale system (package montos): every line amount is
// rounded half-up to 2 decimals and totals are sums of rounded line amounts,
// so TotalComprobante equals the sale's monto_total to the cent. Amounts are
// in the document currency (CodigoMoneda); TipoCambio only informs the rate.
package comprobante

import (
	"time"

	"github.com/shopspring/decimal"
)

// Tipo is the document type code: positions 9-10 of NumeroConsecutivo and
// the discriminator of the root element.
type Tipo string

// The document types this package writes.
const (
	Factura     Tipo = "01" // FacturaElectronica
	NotaDebito  Tipo = "02" // NotaDebitoElectronica
	NotaCredito Tipo = "03" // NotaCreditoElectronica
	Tiquete     Tipo = "04" // TiqueteElectronico
)

// raices maps each type to its root element; the namespace is derived from it.
var raices = map[Tipo]string{
	Factura:     "FacturaElectronica",
	NotaDebito:  "NotaDebitoElectronica",
	NotaCredito: "NotaCreditoElectronica",
	Tiquete:     "TiqueteElectronico",
}

// nsBase is the common prefix of the v4.4 target namespaces.
const nsBase = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/"

// Valido reports whether t is one of Factura, NotaDebito, NotaCredito, Tiquete.
func (t Tipo) Valido() bool { _, ok := raices[t]; return ok }

// Raiz returns the root element name ("FacturaElectronica",
// "NotaDebitoElectronica", "NotaCreditoElectronica", "TiqueteElectronico"),
// which is also the key of the schema in package esquemas; "" for an unknown type.
func (t Tipo) Raiz() string { return raices[t] }

// Namespace returns the XSD target namespace of the type, e.g.
// "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica";
// "" for an unknown type. It is the root's name with a lower-case initial.
func (t Tipo) Namespace() string {
	r := raices[t]
	if r == "" {
		return ""
	}
	return nsBase + string(r[0]+'a'-'A') + r[1:]
}

// Identificacion is a party's identification (IdentificacionType).
type Identificacion struct {
	// Tipo: 01 cédula física, 02 cédula jurídica, 03 DIMEX, 04 NITE,
	// 05 extranjero no domiciliado, 06 no contribuyente.
	Tipo string
	// Numero without dashes: 9 digits (01), 10 alphanumerics (02), 11-12
	// digits (03), 10 digits (04), up to 20 characters (05, 06).
	Numero string
}

// Ubicacion is a Costa Rican address (UbicacionType), with the numeric codes
// of the official territorial division as text, as the XSD writes them.
type Ubicacion struct {
	Provincia  string // 1 digit, "1".."7"
	Canton     string // 2 digits, "01".."99"
	Distrito   string // 2 digits, "01".."99"
	Barrio     string // optional, free text of 5-50 characters
	OtrasSenas string // required, 5-250 characters
}

// Telefono is a phone number (TelefonoType).
type Telefono struct {
	CodigoPais string // up to 3 digits, e.g. "506"
	Numero     string // digits only, at least 100 (3-digit service numbers are allowed)
}

// Parte is the issuer (Emisor) or the receiver (Receptor) of a document.
// Which fields are required depends on the role and on the document type;
// see Validar.
type Parte struct {
	Nombre          string // 5-100 characters for the issuer, 3-100 for the receiver
	Identificacion  Identificacion
	NombreComercial string // optional, 3-80 characters
	// Ubicacion is required for the issuer of a factura or tiquete and
	// optional everywhere else.
	Ubicacion *Ubicacion
	// OtrasSenasExtranjero is the foreign address of a receiver (5-300
	// characters), usually one identified with Tipo 05. Receiver only.
	OtrasSenasExtranjero string
	Telefono             *Telefono // optional
	// CorreoElectronico: 1 to 4 addresses for the issuer, at most 1 for the receiver.
	CorreoElectronico []string
}

// CodigoComercial is a seller, buyer, industry or internal product code of a
// line (CodigoType).
type CodigoComercial struct {
	Tipo   string // 01 vendedor, 02 comprador, 03 industria, 04 interno, 99 otros
	Codigo string // 1-20 characters
}

// Descuento is a discount granted on a line.
type Descuento struct {
	// Monto is an amount in the document currency, not a percentage; it is
	// rounded half-up to 2 decimals like every amount.
	Monto decimal.Decimal
	// Codigo is CodigoDescuento: 01 regalía, 02 regalía con IVA cobrado al
	// cliente, 03 bonificación, 04 volumen, 05 temporada, 06 promocional,
	// 07 comercial, 08 frecuencia, 09 sostenido, 99 otros.
	Codigo string
	// Naturaleza describes the discount. Required (5-80 characters) for
	// code 99, where it is written both as CodigoDescuentoOTRO (which the XSD
	// demands for 99) and as NaturalezaDescuento; optional (3-80) otherwise.
	Naturaleza string
}

// Linea is a detail line (LineaDetalle) of goods or services.
type Linea struct {
	CodigoCABYS        string            // 13 digits, required
	CodigosComerciales []CodigoComercial // 0..5
	Cantidad           decimal.Decimal   // > 0, up to 3 decimals
	// UnidadMedida is an official code (UnidadMedidaType, case-sensitive),
	// e.g. "Unid", "Sp", "Kg", "m²".
	UnidadMedida string
	// UnidadMedidaComercial is the seller's own unit name, e.g. "Caja"
	// (optional, up to 20 characters).
	UnidadMedidaComercial string
	Detalle               string          // 3-200 characters
	PrecioUnitario        decimal.Decimal // >= 0, up to 5 decimals
	Descuentos            []Descuento     // 0..5
	// ImpuestoCodigo is the tax code; only "01" (IVA) is supported, and ""
	// means "01".
	ImpuestoCodigo string
	// CodigoTarifaIVA is the IVA rate code (Nota 8.1): "08" 13 %, "04" 4 %,
	// "10" exenta, ... See TarifaIVA.
	CodigoTarifaIVA string
	// Tarifa is the rate in percent; it must be the rate of CodigoTarifaIVA
	// (0 for exempt lines).
	Tarifa decimal.Decimal
	// EsServicio decides whether the line counts in the Servicio* or the
	// Mercancia* totals of the summary.
	EsServicio bool
}

// MedioPago is a means of payment of the summary (0..4 per document).
type MedioPago struct {
	// Tipo: 01 efectivo, 02 tarjeta, 03 cheque, 04 transferencia, 05
	// recaudado por terceros, 06 SINPE Móvil, 07 plataforma digital, 99 otros.
	Tipo string
	// Total paid with this means. Optional with one means of payment; with
	// several, each must say its amount. When any Total is given they must
	// add up to TotalComprobante.
	Total decimal.Decimal
	// Otros describes the means for Tipo 99 (3-100 characters).
	Otros string
}

// Referencia is a reference to another document (InformacionReferencia);
// notes (NC/ND) need at least one.
type Referencia struct {
	// TipoDoc is TipoDocIR (Nota 10): 01 FE, 02 ND, 03 NC, 04 TE, ... 99 otros.
	TipoDoc string
	// TipoDocOtro describes TipoDoc 99 (5-100 characters).
	TipoDocOtro string
	// Numero is the clave of the referenced comprobante (50 characters when
	// TipoDoc is 01-04), or the number of a non-electronic document (<= 50).
	Numero string
	// FechaEmision is the issue date of the referenced document.
	FechaEmision time.Time
	// Codigo is the reference code (Nota 9): 01 anula, 02 corrige monto, 04
	// referencia a otro documento, 05..16, 99 otros. Required on notes.
	Codigo string
	// CodigoOtro describes Codigo 99 (5-100 characters).
	CodigoOtro string
	// Razon is the reason, up to 180 characters.
	Razon string
}

// Documento is one comprobante: everything XML writes except the amounts,
// which Calcular derives from the lines.
type Documento struct {
	Tipo Tipo
	// Clave is the 50-character key; it must contain "506", the issuer's
	// identification padded to 12 and the NumeroConsecutivo.
	Clave string
	// ProveedorSistemas is the identification of the software provider
	// (the issuer's own for in-house software), up to 20 characters.
	ProveedorSistemas string
	// CodigoActividadEmisor is the issuer's economic activity (6 characters,
	// e.g. "4711.1"); required on facturas and tiquetes.
	CodigoActividadEmisor string
	// CodigoActividadReceptor is the receiver's activity (6 characters),
	// optional; tiquetes have no such element and reject it.
	CodigoActividadReceptor string
	NumeroConsecutivo       string // 20 digits, positions 9-10 equal to Tipo
	// FechaEmision is written in Costa Rica time (UTC-6) whatever its location.
	FechaEmision time.Time
	Emisor       Parte
	// Receptor is required on facturas; optional on tiquetes; on notes it is
	// required unless every reference points to a tiquete (which has none).
	Receptor *Parte
	// CondicionVenta: 01 contado, 02 crédito, 03 consignación, ... 99 otros
	// (per-type list in the XSDs).
	CondicionVenta string
	// CondicionVentaOtros describes CondicionVenta 99 (5-100 characters).
	CondicionVentaOtros string
	// PlazoCredito is the credit term in days; required (> 0) for
	// CondicionVenta 02 and 10 (at most 90 for 10), written only when > 0.
	PlazoCredito int
	Lineas       []Linea // 1..1000
	// CodigoMoneda is the ISO 4217 currency; "" means "CRC".
	CodigoMoneda string
	// TipoCambio is the exchange rate to colones: 1 for CRC (zero is taken as
	// 1 for CRC), > 0 otherwise, up to 5 decimals.
	TipoCambio  decimal.Decimal
	MediosPago  []MedioPago  // 0..4
	Referencias []Referencia // 0..10; 1..10 on notes
}

// LineaCalculada holds the computed amounts of one line, each rounded
// half-up to 2 decimals.
type LineaCalculada struct {
	NumeroLinea     int               // 1-based
	MontoTotal      decimal.Decimal   // Cantidad x PrecioUnitario
	Descuentos      []decimal.Decimal // each Descuento.Monto, rounded
	TotalDescuentos decimal.Decimal   // sum of Descuentos
	SubTotal        decimal.Decimal   // MontoTotal - TotalDescuentos
	BaseImponible   decimal.Decimal   // SubTotal (only IVA is supported)
	Impuesto        decimal.Decimal   // Tarifa % of BaseImponible; 0 when exempt
	ImpuestoNeto    decimal.Decimal   // Impuesto (nothing is exonerated or assumed)
	MontoTotalLinea decimal.Decimal   // SubTotal + ImpuestoNeto
	Exenta          bool              // CodigoTarifaIVA is 10
}

// DesgloseImpuesto is one TotalDesgloseImpuesto: the tax of the document
// grouped by (Codigo, CodigoTarifaIVA).
type DesgloseImpuesto struct {
	Codigo             string
	CodigoTarifaIVA    string
	TotalMontoImpuesto decimal.Decimal
}

// Calculo holds the computed amounts (line by line and the ResumenFactura
// totals), so callers can compare TotalComprobante with their own document
// total before generating.
//
// The Serv*/Merc* and Gravado/Exento totals add MontoTotal (before
// discounts), as the Anexos define them: TotalVenta is their sum,
// TotalVentaNeta = TotalVenta - TotalDescuentos and TotalComprobante =
// TotalVentaNeta + TotalImpuesto. Exonerado and NoSujeto are always zero in
// this model and exist so the struct mirrors ResumenFactura.
type Calculo struct {
	Lineas []LineaCalculada

	TotalServGravados, TotalServExentos, TotalServExonerado, TotalServNoSujeto             decimal.Decimal
	TotalMercanciasGravadas, TotalMercanciasExentas, TotalMercExonerada, TotalMercNoSujeta decimal.Decimal
	TotalGravado, TotalExento, TotalExonerado, TotalNoSujeto                               decimal.Decimal

	TotalVenta, TotalDescuentos, TotalVentaNeta, TotalImpuesto, TotalComprobante decimal.Decimal

	// Desglose is sorted by Codigo then CodigoTarifaIVA. Exempt lines appear
	// as (01, 10) with a zero amount, since the element lists the tax codes
	// used in the lines.
	Desglose []DesgloseImpuesto
}
