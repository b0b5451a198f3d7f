package comprobante

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// ErrorValidacion maps a field path of Documento (e.g. "Lineas.2.CodigoCABYS",
// "Emisor.CorreoElectronico.0"; indexes are 0-based) to a Spanish message
// for the user (line numbers in messages are 1-based). Validar returns it as
// a map; Calcular and XML return it as an error, so callers can recover it
// with errors.As and answer 422.
type ErrorValidacion map[string]string

// Error lists the problems sorted by path, so the text is stable.
func (e ErrorValidacion) Error() string {
	campos := make([]string, 0, len(e))
	for c := range e {
		campos = append(campos, c)
	}
	sort.Strings(campos)
	var b strings.Builder
	b.WriteString("comprobante inválido:")
	for i, c := range campos {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(" " + c + ": " + e[c])
	}
	return b.String()
}

// agregar records the first problem of a path: the first rule broken is
// usually the most useful to fix first, and later ones often follow from it.
func (e ErrorValidacion) agregar(campo, mensaje string) {
	if _, ya := e[campo]; !ya {
		e[campo] = mensaje
	}
}

var (
	reClave       = regexp.MustCompile(`^[A-Za-z0-9]{50}$`)
	reConsecutivo = regexp.MustCompile(`^[0-9]{20}$`)
	reCABYS       = regexp.MustCompile(`^[0-9]{13}$`)
	reProvincia   = regexp.MustCompile(`^[1-7]$`)
	reCanton      = regexp.MustCompile(`^(0[1-9]|[1-9][0-9])$`) // positiveInteger with pattern \d\d: "00" is not positive
	reCodigoPais  = regexp.MustCompile(`^[0-9]{1,3}$`)
	reTelefono    = regexp.MustCompile(`^[1-9][0-9]{2,19}$`) // integer 100 .. 10^20-1
	// reCorreo is the pattern the XSD documentation prescribes for e-mails.
	reCorreo = regexp.MustCompile(`^\s*\w+([-+.']\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*\s*$`)
	// Identification formats by type (Anexos v4.4; jurídicas may be
	// alphanumeric since the 2026 revision).
	reIdentificacion = map[string]*regexp.Regexp{
		"01": regexp.MustCompile(`^[1-9][0-9]{8}$`),
		"02": regexp.MustCompile(`^[A-Za-z0-9]{10}$`),
		"03": regexp.MustCompile(`^[1-9][0-9]{10,11}$`),
		"04": regexp.MustCompile(`^[0-9]{10}$`),
		"05": regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`),
		"06": regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`),
	}
	formatoIdentificacion = map[string]string{
		"01": "9 dígitos sin guiones ni cero inicial",
		"02": "10 caracteres sin guiones",
		"03": "11 o 12 dígitos sin guiones ni cero inicial",
		"04": "10 dígitos sin guiones",
		"05": "de 1 a 20 letras o dígitos",
		"06": "de 1 a 20 letras o dígitos",
	}
)

// nombresTipo are the Spanish names used in messages.
var nombresTipo = map[Tipo]string{Factura: "la factura", NotaDebito: "la nota de débito", NotaCredito: "la nota de crédito", Tiquete: "el tiquete"}

// esNota reports whether t is a credit or debit note.
func (t Tipo) esNota() bool { return t == NotaCredito || t == NotaDebito }

// validador accumulates problems; its helpers check the facets shared by
// many elements so each rule is stated once.
type validador struct{ e ErrorValidacion }

// texto checks an optional text against the XSD length facets (counted in
// characters, as xs:string does) and the characters XML 1.0 can carry.
// requerido also rejects blank text, which passes a length facet but is
// meaningless to Hacienda.
func (v validador) texto(campo, nombre, s string, requerido bool, min, max int) bool {
	if strings.TrimSpace(s) == "" {
		if requerido {
			v.e.agregar(campo, fmt.Sprintf("Falta %s.", nombre))
			return false
		}
		if s == "" {
			return true
		}
	}
	if !textoXML(s) {
		v.e.agregar(campo, fmt.Sprintf("%s contiene caracteres no permitidos.", mayuscula(nombre)))
		return false
	}
	if n := utf8.RuneCountInString(s); n < min || n > max {
		if min == max {
			v.e.agregar(campo, fmt.Sprintf("%s debe tener %d caracteres.", mayuscula(nombre), min))
		} else {
			v.e.agregar(campo, fmt.Sprintf("%s debe tener entre %d y %d caracteres.", mayuscula(nombre), min, max))
		}
		return false
	}
	return true
}

// codigo checks a required code against its table.
func (v validador) codigo(campo, nombre, s string, tabla map[string]bool) bool {
	if s == "" {
		v.e.agregar(campo, fmt.Sprintf("Falta %s.", nombre))
		return false
	}
	if !tabla[s] {
		v.e.agregar(campo, fmt.Sprintf("%s %q no es un código válido.", mayuscula(nombre), s))
		return false
	}
	return true
}

// textoXML reports whether s is valid UTF-8 made only of characters that
// XML 1.0 allows (no control characters other than tab, LF and CR).
func textoXML(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
	}
	return true
}

// mayuscula capitalises the first letter of a message fragment.
func mayuscula(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// decimales reports whether d has at most n significant decimals.
func decimales(d decimal.Decimal, n int32) bool { return d.Equal(d.Round(n)) }

// Validar checks what the XSD cannot (or can only with an opaque message):
// the clave and consecutivo and their consistency with the type and the
// issuer, CABYS codes, receiver rules per type, references required on
// notes, amounts never negative and within the XSD facets, at most 1000
// lines, 1..4 issuer e-mails, codes of the official tables, rate codes that
// match their rates, text lengths. It returns nil when the document can be
// written, or a map field-path -> Spanish message (see ErrorValidacion),
// e.g. "Lineas.2.CodigoCABYS": "La línea 3 no tiene código CABYS de 13 dígitos."
//
// A document that passes Validar produces XML that validates against the
// official 2026 XSD of its type (the tests prove it with xmllint).
func Validar(d Documento) map[string]string {
	v := validador{e: ErrorValidacion{}}
	tipoOK := d.Tipo.Valido()
	if !tipoOK {
		v.e.agregar("Tipo", "El tipo de comprobante debe ser 01 (factura), 02 (nota de débito), 03 (nota de crédito) o 04 (tiquete).")
	}

	v.clave(d)
	v.texto("ProveedorSistemas", "la identificación del proveedor de sistemas", d.ProveedorSistemas, true, 1, 20)
	if d.CodigoActividadEmisor != "" || d.Tipo == Factura || d.Tipo == Tiquete {
		v.texto("CodigoActividadEmisor", "el código de actividad económica del emisor", d.CodigoActividadEmisor, true, 6, 6)
	}
	if d.CodigoActividadReceptor != "" {
		if d.Tipo == Tiquete {
			v.e.agregar("CodigoActividadReceptor", "El tiquete electrónico no lleva código de actividad del receptor.")
		} else {
			v.texto("CodigoActividadReceptor", "el código de actividad económica del receptor", d.CodigoActividadReceptor, true, 6, 6)
		}
	}
	if d.FechaEmision.IsZero() {
		v.e.agregar("FechaEmision", "Falta la fecha de emisión.")
	}

	v.parte("Emisor", "del emisor", d.Emisor, true, d.Tipo)
	v.receptor(d)

	if tipoOK && v.codigo("CondicionVenta", "la condición de venta", d.CondicionVenta, condicionesVenta[d.Tipo]) {
		if d.CondicionVenta == "99" {
			v.texto("CondicionVentaOtros", "la descripción de la condición de venta", d.CondicionVentaOtros, true, 5, 100)
		}
	}
	switch {
	case d.PlazoCredito < 0 || d.PlazoCredito > 99999:
		v.e.agregar("PlazoCredito", "El plazo de crédito debe estar entre 0 y 99999 días.")
	case (d.CondicionVenta == "02" || d.CondicionVenta == "10") && d.PlazoCredito == 0:
		v.e.agregar("PlazoCredito", "Una venta a crédito debe indicar el plazo de crédito en días.")
	case d.CondicionVenta == "10" && d.PlazoCredito > 90:
		v.e.agregar("PlazoCredito", "La venta a crédito de la condición 10 no puede superar 90 días.")
	}

	switch {
	case len(d.Lineas) == 0:
		v.e.agregar("Lineas", "El comprobante debe tener al menos una línea de detalle.")
	case len(d.Lineas) > 1000:
		v.e.agregar("Lineas", "El comprobante no puede tener más de 1000 líneas de detalle.")
	}
	for i, l := range d.Lineas {
		v.linea(i, l, d.Tipo)
	}

	v.moneda(d)
	calc, err := Calcular(d)
	if e, ok := err.(ErrorValidacion); ok {
		for c, m := range e {
			v.e.agregar(c, m)
		}
	}
	v.mediosPago(d, calc, err == nil)
	v.referencias(d)

	if len(v.e) == 0 {
		return nil
	}
	return v.e
}

// clave checks the clave and the consecutivo and that they agree with each
// other, with the type and with the issuer: a clave built from the wrong
// pieces is rejected by Hacienda only after signing and sending.
func (v validador) clave(d Documento) {
	claveOK := reClave.MatchString(d.Clave)
	if !claveOK {
		v.e.agregar("Clave", "La clave debe tener 50 caracteres, solo letras y dígitos.")
	}
	consOK := reConsecutivo.MatchString(d.NumeroConsecutivo)
	switch {
	case !consOK:
		v.e.agregar("NumeroConsecutivo", "El número consecutivo debe tener 20 dígitos.")
	case d.Tipo.Valido() && d.NumeroConsecutivo[8:10] != string(d.Tipo):
		v.e.agregar("NumeroConsecutivo", fmt.Sprintf("Las posiciones 9 y 10 del consecutivo deben ser %s, el tipo del comprobante.", d.Tipo))
	case strings.Trim(d.NumeroConsecutivo[10:], "0") == "":
		v.e.agregar("NumeroConsecutivo", "El número de comprobante del consecutivo (últimos 10 dígitos) no puede ser cero.")
	}
	if !claveOK {
		return
	}
	if d.Clave[:3] != "506" {
		v.e.agregar("Clave", "La clave debe empezar con 506, el código de país.")
		return
	}
	if id := d.Emisor.Identificacion.Numero; id != "" && len(id) <= 12 && d.Clave[9:21] != strings.Repeat("0", 12-len(id))+id {
		v.e.agregar("Clave", "Las posiciones 10 a 21 de la clave deben ser la identificación del emisor con ceros a la izquierda.")
		return
	}
	if consOK && d.Clave[21:41] != d.NumeroConsecutivo {
		v.e.agregar("Clave", "Las posiciones 22 a 41 de la clave deben ser el número consecutivo.")
		return
	}
	if s := d.Clave[41]; s < '1' || s > '3' {
		v.e.agregar("Clave", "La posición 42 de la clave (situación) debe ser 1, 2 o 3.")
	}
}

// parte checks an issuer (emisor true) or a receiver.
func (v validador) parte(p, de string, x Parte, emisor bool, tipo Tipo) {
	if emisor {
		v.texto(p+".Nombre", "el nombre "+de, x.Nombre, true, 5, 100)
	} else {
		v.texto(p+".Nombre", "el nombre "+de, x.Nombre, true, 3, 100)
	}
	// The receiver of a tiquete or a note may omit its identification (the
	// XSD allows it there); it is then left out of the XML entirely.
	opcionalID := !emisor && tipo != Factura && x.Identificacion == (Identificacion{})
	if !opcionalID {
		id := x.Identificacion
		if v.codigo(p+".Identificacion.Tipo", "el tipo de identificación "+de, id.Tipo, tiposIdentificacion) {
			switch {
			case emisor && (id.Tipo == "05" || id.Tipo == "06"):
				v.e.agregar(p+".Identificacion.Tipo", "El emisor debe identificarse con cédula física, jurídica, DIMEX o NITE.")
			case id.Numero == "":
				v.e.agregar(p+".Identificacion.Numero", "Falta el número de identificación "+de+".")
			case !reIdentificacion[id.Tipo].MatchString(id.Numero):
				v.e.agregar(p+".Identificacion.Numero", fmt.Sprintf("El número de identificación %s debe tener %s.", de, formatoIdentificacion[id.Tipo]))
			}
		}
	}
	v.texto(p+".NombreComercial", "el nombre comercial "+de, x.NombreComercial, false, 3, 80)

	if x.Ubicacion == nil {
		if emisor && (tipo == Factura || tipo == Tiquete) {
			v.e.agregar(p+".Ubicacion", "Falta la ubicación "+de+".")
		}
	} else {
		u := x.Ubicacion
		if !reProvincia.MatchString(u.Provincia) {
			v.e.agregar(p+".Ubicacion.Provincia", "La provincia "+de+" debe ser un dígito del 1 al 7.")
		}
		if !reCanton.MatchString(u.Canton) {
			v.e.agregar(p+".Ubicacion.Canton", "El cantón "+de+" debe ser un código de 2 dígitos (01 a 99).")
		}
		if !reCanton.MatchString(u.Distrito) {
			v.e.agregar(p+".Ubicacion.Distrito", "El distrito "+de+" debe ser un código de 2 dígitos (01 a 99).")
		}
		v.texto(p+".Ubicacion.Barrio", "el barrio "+de, u.Barrio, false, 5, 50)
		v.texto(p+".Ubicacion.OtrasSenas", "la dirección (otras señas) "+de, u.OtrasSenas, true, 5, 250)
	}
	if x.OtrasSenasExtranjero != "" {
		if emisor {
			v.e.agregar(p+".OtrasSenasExtranjero", "Solo el receptor puede tener dirección en el extranjero.")
		} else {
			v.texto(p+".OtrasSenasExtranjero", "la dirección en el extranjero "+de, x.OtrasSenasExtranjero, true, 5, 300)
		}
	}
	if t := x.Telefono; t != nil {
		if !reCodigoPais.MatchString(t.CodigoPais) {
			v.e.agregar(p+".Telefono.CodigoPais", "El código de país del teléfono "+de+" debe tener de 1 a 3 dígitos.")
		}
		if !reTelefono.MatchString(t.Numero) {
			v.e.agregar(p+".Telefono.Numero", "El teléfono "+de+" debe tener de 3 a 20 dígitos, sin espacios ni guiones.")
		}
	}

	switch n := len(x.CorreoElectronico); {
	case emisor && n == 0:
		v.e.agregar(p+".CorreoElectronico", "Falta el correo electrónico "+de+".")
	case emisor && n > 4:
		v.e.agregar(p+".CorreoElectronico", "El emisor puede indicar como máximo 4 correos electrónicos.")
	case !emisor && n > 1:
		v.e.agregar(p+".CorreoElectronico", "El receptor puede indicar como máximo 1 correo electrónico.")
	}
	for i, c := range x.CorreoElectronico {
		campo := fmt.Sprintf("%s.CorreoElectronico.%d", p, i)
		if v.texto(campo, "el correo electrónico "+de, c, true, 1, 160) && !reCorreo.MatchString(c) {
			v.e.agregar(campo, fmt.Sprintf("El correo electrónico %s %q no es una dirección válida.", de, c))
		}
	}
}

// receptor applies the per-type receiver rules. The FE XSD requires it; TE,
// NC and ND make it optional. A note is not addressed to nobody, though:
// it must name the receiver unless every document it adjusts is a tiquete,
// which itself may have none.
func (v validador) receptor(d Documento) {
	if d.Receptor != nil {
		v.parte("Receptor", "del receptor", *d.Receptor, false, d.Tipo)
		return
	}
	switch {
	case d.Tipo == Factura:
		v.e.agregar("Receptor", "La factura electrónica debe indicar el receptor (use un tiquete si el cliente no se identifica).")
	case d.Tipo.esNota():
		soloTiquetes := len(d.Referencias) > 0
		for _, r := range d.Referencias {
			soloTiquetes = soloTiquetes && r.TipoDoc == string(Tiquete)
		}
		if !soloTiquetes {
			v.e.agregar("Receptor", fmt.Sprintf("%s debe indicar el receptor del documento que ajusta.", mayuscula(nombresTipo[d.Tipo])))
		}
	}
}

// linea checks one detail line.
func (v validador) linea(i int, l Linea, tipo Tipo) {
	p := fmt.Sprintf("Lineas.%d.", i)
	n := i + 1
	if !reCABYS.MatchString(l.CodigoCABYS) {
		v.e.agregar(p+"CodigoCABYS", fmt.Sprintf("La línea %d no tiene código CABYS de 13 dígitos.", n))
	}
	if len(l.CodigosComerciales) > 5 {
		v.e.agregar(p+"CodigosComerciales", fmt.Sprintf("La línea %d puede tener como máximo 5 códigos comerciales.", n))
	}
	for j, cc := range l.CodigosComerciales {
		q := fmt.Sprintf("%sCodigosComerciales.%d.", p, j)
		v.codigo(q+"Tipo", fmt.Sprintf("el tipo del código comercial %d de la línea %d", j+1, n), cc.Tipo, tiposCodigoComercial)
		v.texto(q+"Codigo", fmt.Sprintf("el código comercial %d de la línea %d", j+1, n), cc.Codigo, true, 1, 20)
	}
	switch {
	case !l.Cantidad.IsPositive():
		v.e.agregar(p+"Cantidad", fmt.Sprintf("La cantidad de la línea %d debe ser mayor que cero.", n))
	case !decimales(l.Cantidad, 3):
		v.e.agregar(p+"Cantidad", fmt.Sprintf("La cantidad de la línea %d admite como máximo 3 decimales.", n))
	case l.Cantidad.GreaterThanOrEqual(decimal.New(1, 13)):
		v.e.agregar(p+"Cantidad", fmt.Sprintf("La cantidad de la línea %d admite como máximo 13 dígitos enteros.", n))
	}
	if l.UnidadMedida == "" {
		v.e.agregar(p+"UnidadMedida", fmt.Sprintf("Falta la unidad de medida de la línea %d.", n))
	} else if !unidadesMedida[l.UnidadMedida] {
		v.e.agregar(p+"UnidadMedida", fmt.Sprintf("La unidad de medida %q de la línea %d no es un código oficial de Hacienda (por ejemplo Unid, Sp, Kg).", l.UnidadMedida, n))
	}
	v.texto(p+"UnidadMedidaComercial", fmt.Sprintf("la unidad de medida comercial de la línea %d", n), l.UnidadMedidaComercial, false, 1, 20)
	v.texto(p+"Detalle", fmt.Sprintf("el detalle de la línea %d", n), l.Detalle, true, 3, 200)
	if !decimales(l.PrecioUnitario, 5) {
		v.e.agregar(p+"PrecioUnitario", fmt.Sprintf("El precio unitario de la línea %d admite como máximo 5 decimales.", n))
	}

	if len(l.Descuentos) > 5 {
		v.e.agregar(p+"Descuentos", fmt.Sprintf("La línea %d puede tener como máximo 5 descuentos.", n))
	}
	for j, ds := range l.Descuentos {
		q := fmt.Sprintf("%sDescuentos.%d.", p, j)
		if !ds.Monto.IsPositive() {
			v.e.agregar(q+"Monto", fmt.Sprintf("El descuento %d de la línea %d debe ser mayor que cero.", j+1, n))
		}
		if v.codigo(q+"Codigo", fmt.Sprintf("el código del descuento %d de la línea %d", j+1, n), ds.Codigo, codigosDescuento) && ds.Codigo == "99" {
			v.texto(q+"Naturaleza", fmt.Sprintf("la naturaleza del descuento %d de la línea %d (código 99)", j+1, n), ds.Naturaleza, true, 5, 80)
		} else {
			v.texto(q+"Naturaleza", fmt.Sprintf("la naturaleza del descuento %d de la línea %d", j+1, n), ds.Naturaleza, false, 3, 80)
		}
	}

	if l.codigoImpuesto() != "01" {
		v.e.agregar(p+"ImpuestoCodigo", fmt.Sprintf("La línea %d solo puede llevar el impuesto 01 (IVA).", n))
	}
	tarifa, ok := tarifasIVA[l.CodigoTarifaIVA]
	switch {
	case l.CodigoTarifaIVA == "":
		v.e.agregar(p+"CodigoTarifaIVA", fmt.Sprintf("Falta el código de tarifa de IVA de la línea %d.", n))
	case !ok:
		v.e.agregar(p+"CodigoTarifaIVA", fmt.Sprintf("El código de tarifa de IVA %q de la línea %d no es válido.", l.CodigoTarifaIVA, n))
	case l.CodigoTarifaIVA == "07":
		// Nota 8.1 of the Anexos marks 07 (transitoria 8 %) as disabled.
		v.e.agregar(p+"CodigoTarifaIVA", fmt.Sprintf("El código de tarifa 07 de la línea %d está inhabilitado por Hacienda.", n))
	case (l.CodigoTarifaIVA == "05" || l.CodigoTarifaIVA == "06") && !tipo.esNota():
		// The transitional rates only survive to adjust old documents.
		v.e.agregar(p+"CodigoTarifaIVA", fmt.Sprintf("El código de tarifa transitoria %s de la línea %d solo se admite en notas de crédito o débito.", l.CodigoTarifaIVA, n))
	case !l.Tarifa.Equal(tarifa):
		v.e.agregar(p+"Tarifa", fmt.Sprintf("La tarifa de la línea %d (%s %%) no corresponde al código de tarifa %s (%s %%).",
			n, l.Tarifa.String(), l.CodigoTarifaIVA, tarifa.StringFixed(2)))
	}
}

// moneda checks the currency and the exchange rate.
func (v validador) moneda(d Documento) {
	m := d.moneda()
	if !monedas[m] {
		v.e.agregar("CodigoMoneda", fmt.Sprintf("La moneda %q no es un código ISO 4217 admitido por Hacienda.", m))
		return
	}
	tc := d.tipoCambio()
	switch {
	case m == "CRC" && !tc.Equal(decimal.NewFromInt(1)):
		v.e.agregar("TipoCambio", "En colones el tipo de cambio debe ser 1.")
	case !tc.IsPositive():
		v.e.agregar("TipoCambio", fmt.Sprintf("Falta el tipo de cambio de %s a colones.", m))
	case !decimales(tc, 5) || tc.GreaterThan(maxDinero):
		v.e.agregar("TipoCambio", "El tipo de cambio admite como máximo 5 decimales y 13 enteros.")
	}
}

// mediosPago checks the means of payment against the computed total, when
// there is one (calculado): comparing with a total that could not be
// computed would only add a confusing second message.
func (v validador) mediosPago(d Documento, c Calculo, calculado bool) {
	if len(d.MediosPago) > 4 {
		v.e.agregar("MediosPago", "El comprobante puede indicar como máximo 4 medios de pago.")
	}
	var suma decimal.Decimal
	conMonto := false
	for i, mp := range d.MediosPago {
		q := fmt.Sprintf("MediosPago.%d.", i)
		if v.codigo(q+"Tipo", fmt.Sprintf("el tipo del medio de pago %d", i+1), mp.Tipo, tiposMedioPago) && mp.Tipo == "99" {
			v.texto(q+"Otros", fmt.Sprintf("la descripción del medio de pago %d (código 99)", i+1), mp.Otros, true, 3, 100)
		}
		switch {
		case mp.Total.IsNegative():
			v.e.agregar(q+"Total", fmt.Sprintf("El monto del medio de pago %d no puede ser negativo.", i+1))
		case !decimales(mp.Total, 5) || mp.Total.GreaterThan(maxDinero):
			v.e.agregar(q+"Total", fmt.Sprintf("El monto del medio de pago %d admite como máximo 5 decimales y 13 enteros.", i+1))
		case mp.Total.IsZero() && len(d.MediosPago) > 1:
			v.e.agregar(q+"Total", fmt.Sprintf("Con varios medios de pago, el medio de pago %d debe indicar su monto.", i+1))
		}
		if !mp.Total.IsZero() {
			conMonto = true
		}
		suma = suma.Add(mp.Total)
	}
	if calculado && conMonto && !suma.Equal(c.TotalComprobante) {
		v.e.agregar("MediosPago", fmt.Sprintf("Los medios de pago suman %s y el total del comprobante es %s.",
			suma.StringFixed(2), c.TotalComprobante.StringFixed(2)))
	}
}

// referencias checks InformacionReferencia: required on notes, since a note
// only exists to adjust another document.
func (v validador) referencias(d Documento) {
	switch {
	case len(d.Referencias) == 0 && d.Tipo.esNota():
		v.e.agregar("Referencias", fmt.Sprintf("%s debe referenciar el comprobante que ajusta.", mayuscula(nombresTipo[d.Tipo])))
	case len(d.Referencias) > 10:
		v.e.agregar("Referencias", "El comprobante puede tener como máximo 10 referencias.")
	}
	for i, r := range d.Referencias {
		q := fmt.Sprintf("Referencias.%d.", i)
		n := i + 1
		if v.codigo(q+"TipoDoc", fmt.Sprintf("el tipo de documento de la referencia %d", n), r.TipoDoc, tiposDocReferencia) && r.TipoDoc == "99" {
			v.texto(q+"TipoDocOtro", fmt.Sprintf("la descripción del tipo de documento de la referencia %d (código 99)", n), r.TipoDocOtro, true, 5, 100)
		}
		switch {
		case r.Numero == "" && d.Tipo.esNota():
			v.e.agregar(q+"Numero", fmt.Sprintf("Falta la clave del documento de la referencia %d.", n))
		case r.Numero != "" && tiposDocElectronico[r.TipoDoc] && !reClave.MatchString(r.Numero):
			v.e.agregar(q+"Numero", fmt.Sprintf("La referencia %d debe indicar la clave de 50 caracteres del comprobante referenciado.", n))
		default:
			v.texto(q+"Numero", fmt.Sprintf("el número del documento de la referencia %d", n), r.Numero, false, 1, 50)
		}
		switch {
		case r.FechaEmision.IsZero():
			v.e.agregar(q+"FechaEmision", fmt.Sprintf("Falta la fecha de emisión del documento de la referencia %d.", n))
		case !d.FechaEmision.IsZero() && r.FechaEmision.After(d.FechaEmision):
			v.e.agregar(q+"FechaEmision", fmt.Sprintf("El documento de la referencia %d no puede ser posterior a este comprobante.", n))
		}
		if r.Codigo == "" {
			if d.Tipo.esNota() {
				v.e.agregar(q+"Codigo", fmt.Sprintf("Falta el código de referencia (anula, corrige monto...) de la referencia %d.", n))
			}
		} else if v.codigo(q+"Codigo", fmt.Sprintf("el código de la referencia %d", n), r.Codigo, codigosReferencia) && r.Codigo == "99" {
			v.texto(q+"CodigoOtro", fmt.Sprintf("la descripción del código de la referencia %d (código 99)", n), r.CodigoOtro, true, 5, 100)
		}
		v.texto(q+"Razon", fmt.Sprintf("la razón de la referencia %d", n), r.Razon, false, 1, 180)
	}
}

// moneda is the document currency, CRC when unset.
func (d Documento) moneda() string {
	if d.CodigoMoneda == "" {
		return "CRC"
	}
	return d.CodigoMoneda
}

// tipoCambio is the exchange rate, 1 when unset on a CRC document.
func (d Documento) tipoCambio() decimal.Decimal {
	if d.TipoCambio.IsZero() && d.moneda() == "CRC" {
		return decimal.NewFromInt(1)
	}
	return d.TipoCambio
}
