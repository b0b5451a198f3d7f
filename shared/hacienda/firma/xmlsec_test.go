package firma_test

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/hacienda/firma"
)

// Documents that are not what our generator writes but that Firmar must
// still sign correctly: the inclusive C14N of the KeyInfo and
// SignedProperties fragments depends on every namespace (and xml:*
// attribute) in scope, which xmlsec1 (libxml2) computes independently.
var contextosDificiles = map[string]string{
	"xml:lang, namespaces sin usar, CRLF, comentarios": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- antes -->\r\n" +
		"<MensajeReceptor xmlns=\"https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeReceptor\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:otro=\"urn:otro\" xml:lang=\"es\" xsi:schemaLocation=\"a b\">\r\n" +
		"  <Clave otro:marca=\"1\" nota=\"línea\nnueva\">50601012600310115499800100001010000514161100514161</Clave>\r\n" +
		"  <!-- dentro --><?pi dentro?>\r\n" +
		"  <DetalleMensaje>Aceptado &amp; conforme &#13; ñ</DetalleMensaje>\r\n" +
		"</MensajeReceptor>\r\n<!-- después -->\r\n",
	"raíz con prefijo":                 `<fe:FacturaElectronica xmlns:fe="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica"><fe:Clave>1</fe:Clave><Suelto xmlns="">2</Suelto></fe:FacturaElectronica>`,
	"xmlns:ds ya declarado en la raíz": `<FacturaElectronica xmlns="urn:fe" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><Clave>1</Clave></FacturaElectronica>`,
	"ds con otro URI en la raíz":       `<FacturaElectronica xmlns="urn:fe" xmlns:ds="urn:otra-cosa" xmlns:xades="urn:tambien"><ds:Clave>1</ds:Clave></FacturaElectronica>`,
	"sin namespace":                    "<r>\n\t<a b=\"1\">x</a>\n</r>",
}

func TestFirmarContextosDificiles(t *testing.T) {
	id := identidadPrueba(t)
	_, hayXmlsec := exec.LookPath("xmlsec1")
	dir := t.TempDir()
	confiable := escribir(t, dir, "cert.pem", certPEM(id.cert))
	i := 0
	for nombre, src := range contextosDificiles {
		i++
		t.Run(nombre, func(t *testing.T) {
			out, err := firma.Firmar([]byte(src), id.c, ahora())
			if err != nil {
				t.Fatal(err)
			}
			if err := firma.Verificar(out); err != nil {
				t.Errorf("Verificar: %v", err)
			}
			leerFirma(t, out)
			if hayXmlsec != nil {
				return
			}
			f := escribir(t, dir, "c"+string(rune('a'+i))+".xml", out)
			salida, ok, okRefs, total := xmlsecConfia(t, f, confiable)
			if !ok || okRefs != "3" || total != "3" {
				t.Errorf("xmlsec1:\n%s\n--- documento:\n%s", salida, out)
			}
		})
	}
}

// Signatures made by xmlsec1 (an independent signer) with inclusive and
// exclusive SignedInfo canonicalization, an InclusiveNamespaces PrefixList
// and fragments with prefixed attributes: Verificar must accept them and
// reject them once altered.
func TestVerificarFirmasDeXmlsec1(t *testing.T) {
	xmlsec1 := herramienta(t, "xmlsec1")
	dir, kf, cf, cert := pemPrueba(t)
	c14n := map[string]string{
		"inclusiva":              `<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>`,
		"exclusiva":              `<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>`,
		"exclusiva + PrefixList": `<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="#default xsi"/></ds:CanonicalizationMethod>`,
	}
	n := 0
	for nombre, cm := range c14n {
		n++
		t.Run(nombre, func(t *testing.T) {
			tpl := strings.Replace(plantillaXmlsec, "CANONICALIZACION", cm, 1)
			in := escribir(t, dir, "tpl.xml", []byte(tpl))
			out := dir + "/firmado" + string(rune('a'+n)) + ".xml"
			if b, err := exec.Command(xmlsec1, "--sign", "--privkey-pem", kf+","+cf, "--output", out, in).CombinedOutput(); err != nil {
				t.Fatalf("xmlsec1 --sign: %v\n%s", err, b)
			}
			firmado := leerArchivo(t, out)
			fi, err := firma.VerificarFirmante(firmado)
			if err != nil {
				t.Fatalf("Verificar rechaza una firma de xmlsec1: %v\n%s", err, firmado)
			}
			if !fi.Certificado.Equal(cert) {
				t.Error("certificado firmante distinto")
			}
			for _, alt := range [][2]string{
				{"<TotalFactura>100.00</TotalFactura>", "<TotalFactura>100.01</TotalFactura>"},
				{`p:a="1"`, `p:a="2"`},
				{`<ds:Object Id="obj2"><y xmlns="urn:y">`, `<ds:Object Id="obj2"><y xmlns="urn:y2">`},
			} {
				mal := bytes.Replace(firmado, []byte(alt[0]), []byte(alt[1]), 1)
				if bytes.Equal(mal, firmado) {
					t.Fatalf("%q no aparece", alt[0])
				}
				if err := firma.Verificar(mal); !errors.Is(err, firma.ErrFirmaInvalida) {
					t.Errorf("alteración %q aceptada: %v", alt[1], err)
				}
			}
		})
	}
}

const plantillaXmlsec = `<?xml version="1.0" encoding="UTF-8"?>
<MensajeReceptor xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeReceptor" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:lang="es" xsi:schemaLocation="x y">
  <Clave>50601012600310115499800100001010000514161100514161</Clave>
  <TotalFactura>100.00</TotalFactura>
<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="S1">
<ds:SignedInfo>
CANONICALIZACION
<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
<ds:Reference URI="">
<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></ds:Transforms>
<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
<ds:DigestValue/>
</ds:Reference>
<ds:Reference URI="#obj">
<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#sha384"/>
<ds:DigestValue/>
</ds:Reference>
<ds:Reference URI="#obj2">
<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="#default xsi"/></ds:Transform></ds:Transforms>
<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha512"/>
<ds:DigestValue/>
</ds:Reference>
</ds:SignedInfo>
<ds:SignatureValue/>
<ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo>
<ds:Object Id="obj"><p:x xmlns:p="urn:p" p:a="1" b="2">hola &amp; &#13; adiós</p:x></ds:Object>
<ds:Object Id="obj2"><y xmlns="urn:y"><p:z xmlns:p="urn:p"/></y></ds:Object>
</ds:Signature>
</MensajeReceptor>
`
