package simulador

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"regexp"
	"strings"
)

// Texts of the simulator's DetalleMensaje. The first line mirrors the real
// sandbox's ("Este comprobante fue recibido en el ambiente de pruebas…").
const (
	detallePrefijo   = "Este comprobante fue recibido en el simulador local de Hacienda, por lo cual no tiene validez para fines tributarios."
	detalleAceptado  = "Comprobante electrónico aceptado satisfactoriamente."
	detalleRechazado = "El comprobante electrónico tiene los siguientes errores:"
)

// reDecimal is a value valid for the decimal(18,5) amounts of the XSD.
var reDecimal = regexp.MustCompile(`^\d{1,13}(\.\d{1,5})?$`)

// mensajeHacienda builds the answer: Mensaje 1 (Aceptado) when errores is
// empty, else 3 (Rechazado) with the reasons. The element order is
// MensajeHacienda_V4.4.xsd's; the ds:Signature is the FirmaSimulada
// placeholder (see the package comment).
func mensajeHacienda(b *cuerpoEnvio, d datos, errores []string) []byte {
	var x bytes.Buffer
	el := func(nombre, valor string) {
		x.WriteString("\t<" + nombre + ">")
		_ = xml.EscapeText(&x, []byte(valor))
		x.WriteString("</" + nombre + ">\n")
	}
	x.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	x.WriteString(`<MensajeHacienda xmlns="` + nsBase + `mensajeHacienda" xmlns:ds="` + nsDsig + `">` + "\n")
	el("Clave", b.Clave)
	el("NombreEmisor", recortarRunas(d.emisor.nombre, 100))
	el("TipoIdentificacionEmisor", b.Emisor.Tipo)
	el("NumeroCedulaEmisor", b.Emisor.Numero)
	if b.Receptor != nil {
		el("NombreReceptor", recortarRunas(d.receptor.nombre, 100))
		el("TipoIdentificacionReceptor", b.Receptor.Tipo)
		el("NumeroCedulaReceptor", b.Receptor.Numero)
	}
	detalle := detallePrefijo + "\n"
	if len(errores) == 0 {
		el("Mensaje", "1")
		el("EstadoMensaje", "Aceptado")
		detalle += detalleAceptado
	} else {
		el("Mensaje", "3")
		el("EstadoMensaje", "Rechazado")
		detalle += detalleRechazado
		for _, e := range errores {
			detalle += "\n[ " + e + " ]"
		}
	}
	el("DetalleMensaje", detalle)
	if reDecimal.MatchString(d.totalImpuesto) {
		el("MontoTotalImpuesto", d.totalImpuesto)
	}
	total := d.totalComprobante
	if !reDecimal.MatchString(total) {
		total = "0"
	}
	el("TotalFactura", total)
	x.WriteString(firmaSimulada)
	x.WriteString("</MensajeHacienda>\n")
	return x.Bytes()
}

// firmaSimulada is schema-valid for ds:Signature but signs nothing.
var firmaSimulada = `	<ds:Signature Id="` + FirmaSimulada + `">
		<ds:SignedInfo>
			<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>
			<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
			<ds:Reference URI="">
				<ds:Transforms>
					<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>
				</ds:Transforms>
				<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
				<ds:DigestValue>` + base64.StdEncoding.EncodeToString(make([]byte, 32)) + `</ds:DigestValue>
			</ds:Reference>
		</ds:SignedInfo>
		<ds:SignatureValue>` + base64.StdEncoding.EncodeToString([]byte("SIMULADOR LOCAL: SIN FIRMA")) + `</ds:SignatureValue>
		<ds:Object>Respuesta del simulador local: no está firmada y no tiene validez tributaria.</ds:Object>
	</ds:Signature>
`

func recortarRunas(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}
