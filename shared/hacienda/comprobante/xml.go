package comprobante

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/horacr"
)

// formatoFecha is xs:dateTime in the RFC 3339 form the Anexos require,
// without fractions of a second (as the real documents have).
const formatoFecha = "2006-01-02T15:04:05-07:00"

// XML returns the document (UTF-8, XML declaration, the default namespace of
// its type and no other) WITHOUT signature: the signer inserts ds:Signature
// as the root's last child, which the XSDs require (1..5).
//
// The output is deterministic: the same Documento always gives the same
// bytes (dates are written in Costa Rica time whatever their location, the
// desglose is sorted, nothing depends on map order). It is indented with
// tabs and LF and ends exactly with the root's closing tag, with no trailing
// newline, so the signer can insert before bytes.LastIndex of "</"+Raiz()+">".
// Text is escaped the way Canonical XML writes it (&amp; &lt; &gt; and &#xD;
// in text), so canonicalization does not change character data.
//
// XML runs Validar first and returns its findings as an ErrorValidacion, so
// it never writes a document that the XSD or Hacienda would reject for a
// reason Validar knows.
//
// Elements written: the root sequence up to InformacionReferencia (OtrosCargos
// and Otros are not modelled). Optional elements are written only when they
// carry data, except those the real accepted documents always carry:
// TotalServGravados, TotalServExentos, TotalMercanciasGravadas,
// TotalMercanciasExentas, TotalGravado, TotalExento, TotalDescuentos and
// TotalImpuesto are written even when zero; the Exonerado/NoSujeto totals
// only when not zero. Each line has exactly one Impuesto (IVA), exempt lines
// included (CodigoTarifaIVA 10, Tarifa 0.00, Monto 0) because the XSD makes
// Impuesto, BaseImponible, ImpuestoAsumidoEmisorFabrica (always 0) and
// ImpuestoNeto mandatory on every line.
func XML(d Documento) ([]byte, error) {
	if errs := Validar(d); len(errs) > 0 {
		return nil, ErrorValidacion(errs)
	}
	c, err := Calcular(d)
	if err != nil {
		return nil, err // unreachable: Validar includes Calcular's findings
	}

	w := &escritor{}
	w.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	raiz := d.Tipo.Raiz()
	w.b.WriteString("<" + raiz + ` xmlns="` + d.Tipo.Namespace() + `">`)
	w.nivel++

	w.texto("Clave", d.Clave)
	w.texto("ProveedorSistemas", d.ProveedorSistemas)
	w.opcional("CodigoActividadEmisor", d.CodigoActividadEmisor)
	w.opcional("CodigoActividadReceptor", d.CodigoActividadReceptor)
	w.texto("NumeroConsecutivo", d.NumeroConsecutivo)
	w.texto("FechaEmision", fecha(d.FechaEmision))
	w.parte("Emisor", d.Emisor, true)
	if d.Receptor != nil {
		w.parte("Receptor", *d.Receptor, false)
	}
	w.texto("CondicionVenta", d.CondicionVenta)
	w.otros("CondicionVentaOtros", d.CondicionVenta, d.CondicionVentaOtros)
	if d.PlazoCredito > 0 {
		w.texto("PlazoCredito", strconv.Itoa(d.PlazoCredito))
	}

	w.abrir("DetalleServicio")
	for i, l := range d.Lineas {
		w.linea(l, c.Lineas[i])
	}
	w.cerrar("DetalleServicio")

	w.resumen(d, c)

	for _, r := range d.Referencias {
		w.abrir("InformacionReferencia")
		w.texto("TipoDocIR", r.TipoDoc)
		w.otros("TipoDocRefOTRO", r.TipoDoc, r.TipoDocOtro)
		w.opcional("Numero", r.Numero)
		w.texto("FechaEmisionIR", fecha(r.FechaEmision))
		w.opcional("Codigo", r.Codigo)
		w.otros("CodigoReferenciaOTRO", r.Codigo, r.CodigoOtro)
		w.opcional("Razon", r.Razon)
		w.cerrar("InformacionReferencia")
	}

	w.nivel--
	w.b.WriteString("\n</" + raiz + ">")
	return w.b.Bytes(), nil
}

// parte writes Emisor or Receptor in the order of EmisorType/ReceptorType.
func (w *escritor) parte(nombre string, p Parte, emisor bool) {
	w.abrir(nombre)
	w.texto("Nombre", p.Nombre)
	if emisor || p.Identificacion != (Identificacion{}) {
		w.abrir("Identificacion")
		w.texto("Tipo", p.Identificacion.Tipo)
		w.texto("Numero", p.Identificacion.Numero)
		w.cerrar("Identificacion")
	}
	w.opcional("NombreComercial", p.NombreComercial)
	if u := p.Ubicacion; u != nil {
		w.abrir("Ubicacion")
		w.texto("Provincia", u.Provincia)
		w.texto("Canton", u.Canton)
		w.texto("Distrito", u.Distrito)
		w.opcional("Barrio", u.Barrio)
		w.texto("OtrasSenas", u.OtrasSenas)
		w.cerrar("Ubicacion")
	}
	if !emisor {
		w.opcional("OtrasSenasExtranjero", p.OtrasSenasExtranjero)
	}
	if t := p.Telefono; t != nil {
		w.abrir("Telefono")
		w.texto("CodigoPais", t.CodigoPais)
		w.texto("NumTelefono", t.Numero)
		w.cerrar("Telefono")
	}
	for _, c := range p.CorreoElectronico {
		w.texto("CorreoElectronico", c)
	}
	w.cerrar(nombre)
}

// linea writes one LineaDetalle in the XSD order.
func (w *escritor) linea(l Linea, lc LineaCalculada) {
	w.abrir("LineaDetalle")
	w.texto("NumeroLinea", strconv.Itoa(lc.NumeroLinea))
	w.texto("CodigoCABYS", l.CodigoCABYS)
	for _, cc := range l.CodigosComerciales {
		w.abrir("CodigoComercial")
		w.texto("Tipo", cc.Tipo)
		w.texto("Codigo", cc.Codigo)
		w.cerrar("CodigoComercial")
	}
	w.texto("Cantidad", l.Cantidad.StringFixed(3))
	w.texto("UnidadMedida", l.UnidadMedida)
	w.opcional("UnidadMedidaComercial", l.UnidadMedidaComercial)
	w.texto("Detalle", l.Detalle)
	w.dinero("PrecioUnitario", l.PrecioUnitario)
	w.dinero("MontoTotal", lc.MontoTotal)
	for j, ds := range l.Descuentos {
		w.abrir("Descuento")
		w.dinero("MontoDescuento", lc.Descuentos[j])
		w.texto("CodigoDescuento", ds.Codigo)
		w.otros("CodigoDescuentoOTRO", ds.Codigo, ds.Naturaleza)
		w.opcional("NaturalezaDescuento", ds.Naturaleza)
		w.cerrar("Descuento")
	}
	w.dinero("SubTotal", lc.SubTotal)
	w.dinero("BaseImponible", lc.BaseImponible)
	w.abrir("Impuesto")
	w.texto("Codigo", l.codigoImpuesto())
	w.texto("CodigoTarifaIVA", l.CodigoTarifaIVA)
	w.texto("Tarifa", l.Tarifa.StringFixed(2))
	w.dinero("Monto", lc.Impuesto)
	w.cerrar("Impuesto")
	w.dinero("ImpuestoAsumidoEmisorFabrica", decimal.Zero)
	w.dinero("ImpuestoNeto", lc.ImpuestoNeto)
	w.dinero("MontoTotalLinea", lc.MontoTotalLinea)
	w.cerrar("LineaDetalle")
}

// resumen writes ResumenFactura.
func (w *escritor) resumen(d Documento, c Calculo) {
	w.abrir("ResumenFactura")
	w.abrir("CodigoTipoMoneda")
	w.texto("CodigoMoneda", d.moneda())
	w.dinero("TipoCambio", d.tipoCambio())
	w.cerrar("CodigoTipoMoneda")
	w.dinero("TotalServGravados", c.TotalServGravados)
	w.dinero("TotalServExentos", c.TotalServExentos)
	w.dineroNoCero("TotalServExonerado", c.TotalServExonerado)
	w.dineroNoCero("TotalServNoSujeto", c.TotalServNoSujeto)
	w.dinero("TotalMercanciasGravadas", c.TotalMercanciasGravadas)
	w.dinero("TotalMercanciasExentas", c.TotalMercanciasExentas)
	w.dineroNoCero("TotalMercExonerada", c.TotalMercExonerada)
	w.dineroNoCero("TotalMercNoSujeta", c.TotalMercNoSujeta)
	w.dinero("TotalGravado", c.TotalGravado)
	w.dinero("TotalExento", c.TotalExento)
	w.dineroNoCero("TotalExonerado", c.TotalExonerado)
	w.dineroNoCero("TotalNoSujeto", c.TotalNoSujeto)
	w.dinero("TotalVenta", c.TotalVenta)
	w.dinero("TotalDescuentos", c.TotalDescuentos)
	w.dinero("TotalVentaNeta", c.TotalVentaNeta)
	for _, g := range c.Desglose {
		w.abrir("TotalDesgloseImpuesto")
		w.texto("Codigo", g.Codigo)
		w.texto("CodigoTarifaIVA", g.CodigoTarifaIVA)
		w.dinero("TotalMontoImpuesto", g.TotalMontoImpuesto)
		w.cerrar("TotalDesgloseImpuesto")
	}
	w.dinero("TotalImpuesto", c.TotalImpuesto)
	for _, mp := range d.MediosPago {
		w.abrir("MedioPago")
		w.texto("TipoMedioPago", mp.Tipo)
		w.otros("MedioPagoOtros", mp.Tipo, mp.Otros)
		w.dineroNoCero("TotalMedioPago", mp.Total)
		w.cerrar("MedioPago")
	}
	w.dinero("TotalComprobante", c.TotalComprobante)
	w.cerrar("ResumenFactura")
}

// fecha formats a date-time in Costa Rica time.
func fecha(t time.Time) string { return t.In(horacr.Zona).Format(formatoFecha) }

// escritor writes indented elements. It is hand-rolled rather than
// encoding/xml so that element order, namespace declarations and escaping
// are exactly what the XSD and the signer expect.
type escritor struct {
	b     bytes.Buffer
	nivel int
}

// sangria starts a new line at the current depth.
func (w *escritor) sangria() {
	w.b.WriteByte('\n')
	for range w.nivel {
		w.b.WriteByte('\t')
	}
}

// abrir writes a start tag and goes one level down.
func (w *escritor) abrir(nombre string) {
	w.sangria()
	w.b.WriteString("<" + nombre + ">")
	w.nivel++
}

// cerrar goes one level up and writes an end tag.
func (w *escritor) cerrar(nombre string) {
	w.nivel--
	w.sangria()
	w.b.WriteString("</" + nombre + ">")
}

// texto writes an element with escaped character data.
func (w *escritor) texto(nombre, valor string) {
	w.sangria()
	w.b.WriteString("<" + nombre + ">")
	escapar(&w.b, valor)
	w.b.WriteString("</" + nombre + ">")
}

// opcional writes the element only when valor is not empty.
func (w *escritor) opcional(nombre, valor string) {
	if valor != "" {
		w.texto(nombre, valor)
	}
}

// otros writes the element that describes a catalog code 99 ("otros"),
// which Hacienda requires after that code and only then.
func (w *escritor) otros(nombre, codigo, descripcion string) {
	if codigo == "99" {
		w.texto(nombre, descripcion)
	}
}

// dinero writes a DecimalDineroType amount with its 5 fraction digits: one
// fixed width keeps unit prices (up to 5 decimals) and 2-decimal amounts alike.
func (w *escritor) dinero(nombre string, v decimal.Decimal) { w.texto(nombre, v.StringFixed(5)) }

// dineroNoCero writes an optional amount only when it is not zero.
func (w *escritor) dineroNoCero(nombre string, v decimal.Decimal) {
	if !v.IsZero() {
		w.dinero(nombre, v)
	}
}

// reemplazoTexto escapes character data as Canonical XML does: & < > and CR
// (which a parser would otherwise normalise to LF). Quotes stay literal.
var reemplazoTexto = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")

// escapar writes s escaped as character data.
func escapar(b *bytes.Buffer, s string) { _, _ = reemplazoTexto.WriteString(b, s) }
