package firma_test

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"math/big"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/esquemas/esquemastest"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/firma/firmatest"
)

// casoFirma is one document signed for the tests.
type casoFirma struct {
	nombre   string
	original []byte
	firmado  []byte
}

// firmarCasos signs the testdata documents and the real samples (their
// ds:Signature removed first) with the test identity.
func firmarCasos(t *testing.T) []casoFirma {
	t.Helper()
	id := identidadPrueba(t)
	var casos []casoFirma
	agregar := func(nombre string, doc []byte) {
		out, err := firma.Firmar(doc, id.c, ahora())
		if err != nil {
			t.Fatalf("Firmar %s: %v", nombre, err)
		}
		casos = append(casos, casoFirma{nombre, doc, out})
	}
	for n, b := range documentos(t) {
		agregar(n, b)
	}
	for n, b := range muestras(t) {
		agregar("re-firmada "+n, quitarFirma(t, b))
	}
	return casos
}

// The oracle: xmlsec1 verifies all three references and the SignatureValue
// of every signed document, with the key taken only from the embedded
// certificate, which must chain to our test certificate; and with our
// certificate's key given explicitly. A different trusted certificate makes
// it fail, so the check is not vacuous.
func TestFirmarVerificaConXmlsec1(t *testing.T) {
	herramienta(t, "xmlsec1")
	id := identidadPrueba(t)
	dir := t.TempDir()
	confiable := escribir(t, dir, "cert.pem", certPEM(id.cert))
	_, otroCert, err := firmatest.Generar("3101123456")
	if err != nil {
		t.Fatal(err)
	}
	otro := escribir(t, dir, "otro.pem", certPEM(otroCert))

	for i, c := range firmarCasos(t) {
		t.Run(c.nombre, func(t *testing.T) {
			f := escribir(t, dir, "firmado"+string(rune('a'+i))+".xml", c.firmado)
			if err := firma.Verificar(c.firmado); err != nil {
				t.Errorf("Verificar: %v", err)
			}
			out, ok, okRefs, total := xmlsecConfia(t, f, confiable)
			if !ok || !strings.Contains(out, "\nOK\n") && !strings.HasPrefix(out, "OK\n") || okRefs != "3" || total != "3" {
				t.Errorf("xmlsec1 (x509 confiable) no verifica:\n%s", out)
			}
			out, ok, okRefs, total = xmlsecLlave(t, f, confiable)
			if !ok || okRefs != "3" || total != "3" {
				t.Errorf("xmlsec1 (--pubkey-cert-pem) no verifica:\n%s", out)
			}
			if out, ok, _, _ := xmlsecConfia(t, f, otro); ok {
				t.Errorf("xmlsec1 aceptó la firma confiando en OTRO certificado:\n%s", out)
			}
			if out, ok, _, _ := xmlsecLlave(t, f, otro); ok {
				t.Errorf("xmlsec1 aceptó la firma con OTRA llave:\n%s", out)
			}
		})
	}
}

// The signed documents are still valid against the official v4.4 XSDs
// (2026 set): ds:Signature sits where the schemas expect it.
func TestFirmadosValidanContraXSD(t *testing.T) {
	for _, c := range firmarCasos(t) {
		raiz := raizDe(t, c.firmado)
		if ok, out := esquemastest.Validar(t, raiz, c.firmado); !ok {
			t.Errorf("%s no valida contra el XSD de %s:\n%s", c.nombre, raiz, out)
		}
	}
}

func raizDe(t *testing.T, b []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}

// The document part of the output is the canonical form of the input: the
// signature adds, it does not rewrite content.
func TestFirmarConservaContenido(t *testing.T) {
	id := identidadPrueba(t)
	doc := documentos(t)["factura.xml"]
	out, err := firma.Firmar(doc, id.c, ahora())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n<FacturaElectronica ")) {
		t.Errorf("inicio inesperado: %.80q", out)
	}
	for _, s := range []string{
		"<Nombre>Distribuidora Ñandú &amp; Cía. S.A.</Nombre>",
		`<OtrasSenas>La Uruca, 200 m "norte" de la rotonda &lt;Juan Pablo II&gt;</OtrasSenas>`,
		`<OtroTexto codigo="Vacio"></OtroTexto>`,
		"<TotalComprobante>5650.00000</TotalComprobante>",
		"  </Otros>\n<ds:Signature ",
	} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("falta %q", s)
		}
	}
	if !bytes.HasSuffix(out, []byte("</ds:Signature></FacturaElectronica>")) {
		t.Errorf("final inesperado: %q", out[len(out)-60:])
	}
}

func TestFirmarDeterminista(t *testing.T) {
	id := identidadPrueba(t)
	doc := documentos(t)["tiquete.xml"]
	at := ahora()
	a, err := firma.Firmar(doc, id.c, at)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := firma.Firmar(doc, id.c, at)
	if !bytes.Equal(a, b) {
		t.Error("mismas entradas, salidas distintas")
	}
	c, _ := firma.Firmar(doc, id.c, at.Add(time.Second))
	if bytes.Equal(a, c) {
		t.Error("otra hora de firma, misma salida")
	}
}

// ---- XAdES properties, read independently with encoding/xml ----

type algoritmo struct {
	Algorithm string `xml:"Algorithm,attr"`
}

type referenciaXML struct {
	ID           string      `xml:"Id,attr"`
	URI          *string     `xml:"URI,attr"`
	Type         string      `xml:"Type,attr"`
	Transforms   []algoritmo `xml:"Transforms>Transform"`
	DigestMethod algoritmo   `xml:"DigestMethod"`
	DigestValue  string      `xml:"DigestValue"`
}

type firmaXML struct {
	XMLName    xml.Name `xml:"http://www.w3.org/2000/09/xmldsig# Signature"`
	ID         string   `xml:"Id,attr"`
	SignedInfo struct {
		C14N       algoritmo       `xml:"CanonicalizationMethod"`
		Metodo     algoritmo       `xml:"SignatureMethod"`
		Referencia []referenciaXML `xml:"Reference"`
	} `xml:"SignedInfo"`
	SignatureValue string `xml:"SignatureValue"`
	KeyInfo        struct {
		ID       string `xml:"Id,attr"`
		Cert     string `xml:"X509Data>X509Certificate"`
		Modulus  string `xml:"KeyValue>RSAKeyValue>Modulus"`
		Exponent string `xml:"KeyValue>RSAKeyValue>Exponent"`
	} `xml:"KeyInfo"`
	Object struct {
		QP struct {
			XMLName xml.Name `xml:"http://uri.etsi.org/01903/v1.3.2# QualifyingProperties"`
			Target  string   `xml:"Target,attr"`
			SP      struct {
				XMLName xml.Name `xml:"http://uri.etsi.org/01903/v1.3.2# SignedProperties"`
				ID      string   `xml:"Id,attr"`
				SSP     struct {
					SigningTime string `xml:"SigningTime"`
					Cert        struct {
						DigestMethod algoritmo `xml:"CertDigest>DigestMethod"`
						DigestValue  string    `xml:"CertDigest>DigestValue"`
						IssuerName   string    `xml:"IssuerSerial>X509IssuerName"`
						Serial       string    `xml:"IssuerSerial>X509SerialNumber"`
					} `xml:"SigningCertificate>Cert"`
					Politica struct {
						Identifier   string    `xml:"SigPolicyId>Identifier"`
						DigestMethod algoritmo `xml:"SigPolicyHash>DigestMethod"`
						DigestValue  string    `xml:"SigPolicyHash>DigestValue"`
					} `xml:"SignaturePolicyIdentifier>SignaturePolicyId"`
				} `xml:"SignedSignatureProperties"`
				DOF struct {
					ObjectReference string `xml:"ObjectReference,attr"`
					MimeType        string `xml:"MimeType"`
				} `xml:"SignedDataObjectProperties>DataObjectFormat"`
			}
		}
	} `xml:"Object"`
}

// leerFirma returns the ds:Signature of a signed document and checks that it
// is the root's last child (nothing but whitespace after it).
func leerFirma(t *testing.T, b []byte) firmaXML {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var f firmaXML
	prof, firmas := 0, 0
	ultimo := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if prof == 1 {
				ultimo = x.Name.Space + " " + x.Name.Local
				if x.Name.Space == firma.NSDsig && x.Name.Local == "Signature" {
					firmas++
					if err := d.DecodeElement(&f, &x); err != nil {
						t.Fatal(err)
					}
					continue
				}
			}
			prof++
		case xml.EndElement:
			prof--
		case xml.CharData:
			if prof == 1 && ultimo == firma.NSDsig+" Signature" && len(bytes.TrimSpace(x)) > 0 {
				t.Errorf("texto después de ds:Signature: %q", x)
			}
		}
	}
	if firmas != 1 || ultimo != firma.NSDsig+" Signature" {
		t.Fatalf("ds:Signature no es el último hijo de la raíz (firmas=%d, último=%q)", firmas, ultimo)
	}
	return f
}

func TestPropiedadesXades(t *testing.T) {
	id := identidadPrueba(t)
	at := time.Now().UTC() // nanoseconds: SigningTime keeps whole seconds
	doc := documentos(t)["mensaje_receptor.xml"]
	out, err := firma.Firmar(doc, id.c, at)
	if err != nil {
		t.Fatal(err)
	}
	f := leerFirma(t, out)
	ssp := f.Object.QP.SP.SSP

	// Algorithms and references.
	si := f.SignedInfo
	if si.C14N.Algorithm != "http://www.w3.org/2001/10/xml-exc-c14n#" ||
		si.Metodo.Algorithm != "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" {
		t.Errorf("algoritmos SignedInfo: %+v %+v", si.C14N, si.Metodo)
	}
	if len(si.Referencia) != 3 {
		t.Fatalf("%d referencias, se esperaban 3", len(si.Referencia))
	}
	r0, r1, r2 := si.Referencia[0], si.Referencia[1], si.Referencia[2]
	if r0.URI == nil || *r0.URI != "" || len(r0.Transforms) != 1 ||
		r0.Transforms[0].Algorithm != "http://www.w3.org/2000/09/xmldsig#enveloped-signature" {
		t.Errorf("referencia al documento: %+v", r0)
	}
	if r1.URI == nil || *r1.URI != "#"+f.KeyInfo.ID || len(r1.Transforms) != 0 || f.KeyInfo.ID == "" {
		t.Errorf("referencia a KeyInfo: %+v (KeyInfo Id %q)", r1, f.KeyInfo.ID)
	}
	if r2.URI == nil || *r2.URI != "#"+f.Object.QP.SP.ID || r2.Type != "http://uri.etsi.org/01903#SignedProperties" || len(r2.Transforms) != 0 {
		t.Errorf("referencia a SignedProperties: %+v", r2)
	}
	for _, r := range si.Referencia {
		if r.DigestMethod.Algorithm != "http://www.w3.org/2001/04/xmlenc#sha256" {
			t.Errorf("DigestMethod %q", r.DigestMethod.Algorithm)
		}
		if b, err := base64.StdEncoding.DecodeString(r.DigestValue); err != nil || len(b) != 32 {
			t.Errorf("DigestValue %q", r.DigestValue)
		}
	}
	if f.Object.QP.Target != "#"+f.ID {
		t.Errorf("QualifyingProperties Target %q, Signature Id %q", f.Object.QP.Target, f.ID)
	}
	if f.Object.QP.SP.DOF.ObjectReference != "#"+r0.ID || r0.ID == "" || f.Object.QP.SP.DOF.MimeType == "" {
		t.Errorf("DataObjectFormat %+v, referencia %q", f.Object.QP.SP.DOF, r0.ID)
	}

	// Embedded certificate, CertDigest, IssuerSerial.
	der, err := base64.StdEncoding.DecodeString(f.KeyInfo.Cert)
	if err != nil || !bytes.Equal(der, id.cert.Raw) {
		t.Fatal("X509Certificate no es el certificado firmante")
	}
	sum := sha256.Sum256(der)
	if ssp.Cert.DigestValue != base64.StdEncoding.EncodeToString(sum[:]) ||
		ssp.Cert.DigestMethod.Algorithm != "http://www.w3.org/2001/04/xmlenc#sha256" {
		t.Errorf("CertDigest %q (%s), esperado base64(SHA-256(DER)) %s", ssp.Cert.DigestValue,
			ssp.Cert.DigestMethod.Algorithm, base64.StdEncoding.EncodeToString(sum[:]))
	}
	if !regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(ssp.Cert.Serial) || ssp.Cert.Serial != id.cert.SerialNumber.Text(10) {
		t.Errorf("X509SerialNumber %q, esperado decimal %s", ssp.Cert.Serial, id.cert.SerialNumber.Text(10))
	}
	if ssp.Cert.IssuerName != id.cert.Issuer.String() || ssp.Cert.IssuerName == "" {
		t.Errorf("X509IssuerName %q", ssp.Cert.IssuerName)
	}
	mod, _ := base64.StdEncoding.DecodeString(f.KeyInfo.Modulus)
	if new(big.Int).SetBytes(mod).Cmp(id.c.Key.N) != 0 || f.KeyInfo.Exponent != "AQAB" {
		t.Error("RSAKeyValue no es la llave del certificado")
	}

	// Policy.
	if ssp.Politica.Identifier != firma.PoliticaIdentificador ||
		ssp.Politica.DigestValue != "DWxin1xWOeI8OuWQXazh4VjLWAaCLAA954em7DMh0h8=" ||
		ssp.Politica.DigestMethod.Algorithm != "http://www.w3.org/2001/04/xmlenc#sha256" {
		t.Errorf("política: %+v", ssp.Politica)
	}

	// SigningTime at -06:00, second precision.
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-06:00$`).MatchString(ssp.SigningTime) {
		t.Errorf("SigningTime %q", ssp.SigningTime)
	}
	st, err := time.Parse(time.RFC3339, ssp.SigningTime)
	if err != nil || !st.Equal(at.Truncate(time.Second)) {
		t.Errorf("SigningTime %q = %v, esperado %v (%v)", ssp.SigningTime, st, at.Truncate(time.Second), err)
	}

	// VerificarFirmante reads back the same facts.
	fi, err := firma.VerificarFirmante(out)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Certificado.Equal(id.cert) || !fi.HoraFirma.Equal(st) || fi.Politica != firma.PoliticaIdentificador ||
		fi.PoliticaDigest != firma.PoliticaDigest || fi.Info.Serie != ssp.Cert.Serial {
		t.Errorf("VerificarFirmante = %+v", fi)
	}
}

// ---- tampering ----

func TestAlteracionesDetectadas(t *testing.T) {
	id := identidadPrueba(t)
	out, err := firma.Firmar(documentos(t)["factura.xml"], id.c, ahora())
	if err != nil {
		t.Fatal(err)
	}
	f := leerFirma(t, out)
	_, otroCert, err := firmatest.Generar("otro")
	if err != nil {
		t.Fatal(err)
	}
	casos := []struct {
		nombre, viejo, nuevo string
		enError              string // Verificar must name this
		xmlsecFalla          bool   // the change is inside what xmlsec1 checks
	}{
		{"total", "<TotalComprobante>5650.00000<", "<TotalComprobante>5651.00000<", `URI=""`, true},
		{"SigningTime", "<xades:SigningTime>" + f.Object.QP.SP.SSP.SigningTime, "<xades:SigningTime>2020-01-01T00:00:00-06:00", "SignedProperties", true},
		{"certificado", f.KeyInfo.Cert, base64.StdEncoding.EncodeToString(otroCert.Raw), "ReferenceKeyInfo", true},
		{"SignatureValue", f.SignatureValue, strings.Repeat("A", len(f.SignatureValue)-2) + "==", "SignatureValue", true},
		{"digest", f.SignedInfo.Referencia[0].DigestValue, base64.StdEncoding.EncodeToString(make([]byte, 32)), `URI=""`, true},
		{"sin firma", string(out[bytes.Index(out, []byte("<ds:Signature")):bytes.LastIndex(out, []byte("</FacturaElectronica>"))]), "", "no tiene ds:Signature", false},
	}
	dir := t.TempDir()
	confiable := escribir(t, dir, "cert.pem", certPEM(id.cert))
	_, hayXmlsec := exec.LookPath("xmlsec1")
	for i, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			if !bytes.Contains(out, []byte(c.viejo)) {
				t.Fatalf("%q no aparece en la salida", c.viejo)
			}
			mal := bytes.Replace(out, []byte(c.viejo), []byte(c.nuevo), 1)
			err := firma.Verificar(mal)
			if err == nil || !errors.Is(err, firma.ErrFirmaInvalida) || !strings.Contains(err.Error(), c.enError) {
				t.Errorf("Verificar = %v; se esperaba ErrFirmaInvalida que mencione %q", err, c.enError)
			} else {
				t.Logf("Verificar: %v", err)
			}
			if c.xmlsecFalla && hayXmlsec == nil {
				p := escribir(t, dir, "mal"+string(rune('a'+i))+".xml", mal)
				salida, ok, okRefs, total := xmlsecConfia(t, p, confiable)
				if ok || !strings.Contains(salida, "FAIL") && !strings.Contains(salida, "ERROR") {
					t.Errorf("xmlsec1 no detectó la alteración:\n%s", salida)
				} else {
					t.Logf("xmlsec1: referencias %s/%s", okRefs, total)
				}
			}
		})
	}
}

// ---- the real, Hacienda-accepted samples ----

func TestVerificarMuestrasReales(t *testing.T) {
	for n, b := range muestras(t) {
		t.Run(n, func(t *testing.T) {
			fi, err := firma.VerificarFirmante(b)
			if err != nil {
				t.Fatalf("Verificar rechaza una firma aceptada por Hacienda: %v", err)
			}
			if !strings.HasPrefix(fi.Info.Identificacion, "CPJ-3-101-") ||
				fi.Info.Emisor != "CN=CA PERSONA JURIDICA,OU=DGT,O=MINISTERIO DE HACIENDA,C=CR" {
				t.Errorf("firmante: %+v", fi.Info)
			}
			if fi.HoraFirma.IsZero() || fi.HoraFirma.Year() != 2026 {
				t.Errorf("HoraFirma %v", fi.HoraFirma)
			}
			if !strings.Contains(fi.Politica, "hacienda.go.cr") || fi.PoliticaDigest == "" {
				t.Errorf("política %q %q", fi.Politica, fi.PoliticaDigest)
			}
			// Their CertDigest is base64(SHA-256(DER)) and their serial decimal.
			f := leerFirma(t, b)
			der, _ := base64.StdEncoding.DecodeString(f.KeyInfo.Cert)
			sum := sha256.Sum256(der)
			if f.Object.QP.SP.SSP.Cert.DigestValue != base64.StdEncoding.EncodeToString(sum[:]) ||
				f.Object.QP.SP.SSP.Cert.Serial != fi.Certificado.SerialNumber.String() {
				t.Errorf("CertDigest/Serial de la muestra no coinciden")
			}

			mal := regexp.MustCompile(`<TotalComprobante>([0-9.]+)</TotalComprobante>`).ReplaceAll(b, []byte("<TotalComprobante>1.0000</TotalComprobante>"))
			if bytes.Equal(mal, b) {
				t.Fatal("no se pudo alterar el total")
			}
			if err := firma.Verificar(mal); err == nil || !strings.Contains(err.Error(), `URI=""`) {
				t.Errorf("Verificar(total alterado) = %v", err)
			}
			mal = bytes.Replace(b, []byte("<xades:SigningTime>2026-"), []byte("<xades:SigningTime>2025-"), 1)
			if err := firma.Verificar(mal); err == nil || !strings.Contains(err.Error(), "SignedProperties") {
				t.Errorf("Verificar(SigningTime alterado) = %v", err)
			}
		})
	}
}

// Our own reading of the samples agrees with xmlsec1's.
func TestMuestrasRealesXmlsec1(t *testing.T) {
	herramienta(t, "xmlsec1")
	dir := t.TempDir()
	for n, b := range muestras(t) {
		p := escribir(t, dir, n, b)
		out, ok, okRefs, total := xmlsec(t, p, append([]string{"--enabled-key-data", "x509", "--insecure"}, idAttr...)...)
		if !ok || okRefs != "3" || total != "3" {
			t.Errorf("%s: xmlsec1:\n%s", n, out)
		}
	}
}

// ---- errors ----

func TestFirmarErrores(t *testing.T) {
	id := identidadPrueba(t)
	fac := documentos(t)["factura.xml"]
	casos := []struct {
		nombre string
		doc    []byte
		c      *firma.Certificado
		at     time.Time
		err    error
	}{
		{"antes de la vigencia", fac, id.c, id.cert.NotBefore.Add(-time.Minute), firma.ErrVigencia},
		{"después de la vigencia", fac, id.c, id.cert.NotAfter.Add(time.Minute), firma.ErrVigencia},
		{"ya firmado", muestras(t)["50601012600310115499800100001010000514161100514161.xml"], id.c, ahora(), firma.ErrDocumento},
		{"DOCTYPE", []byte(`<!DOCTYPE r [<!ENTITY e "x">]><r xmlns="urn:r">&e;</r>`), id.c, ahora(), firma.ErrDocumento},
		{"mal formado", []byte(`<r xmlns="urn:r"><a></r>`), id.c, ahora(), firma.ErrDocumento},
		{"dos raíces", []byte(`<r/><s/>`), id.c, ahora(), firma.ErrDocumento},
		{"vacío", nil, id.c, ahora(), firma.ErrDocumento},
		{"Latin-1", []byte("<r xmlns=\"urn:r\">Jos\xe9</r>"), id.c, ahora(), firma.ErrDocumento},
		{"anidado sin límite", []byte(strings.Repeat("<a>", 600) + strings.Repeat("</a>", 600)), id.c, ahora(), firma.ErrDocumento},
		{"prefijo sin declarar", []byte(`<r xmlns="urn:r"><p:a/></r>`), id.c, ahora(), firma.ErrDocumento},
		{"sin certificado", fac, &firma.Certificado{}, ahora(), firma.ErrFormato},
		{"llave ajena", fac, &firma.Certificado{Cert: id.cert, Key: otraLlave(t)}, ahora(), firma.ErrFormato},
	}
	for _, c := range casos {
		if _, err := firma.Firmar(c.doc, c.c, c.at); !errors.Is(err, c.err) {
			t.Errorf("%s: err = %v, se esperaba %v", c.nombre, err, c.err)
		}
	}
}

func otraLlave(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, _, err := firmatest.Generar("otra")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerificarErrores(t *testing.T) {
	for nombre, doc := range map[string][]byte{
		"sin firma":        documentos(t)["factura.xml"],
		"firma no es hija": []byte(`<r xmlns="urn:r"><a><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/></a></r>`),
		"firma vacía":      []byte(`<r xmlns="urn:r"><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/></r>`),
	} {
		if err := firma.Verificar(doc); !errors.Is(err, firma.ErrFirmaInvalida) {
			t.Errorf("%s: err = %v", nombre, err)
		}
	}
	if err := firma.Verificar([]byte("no es XML")); !errors.Is(err, firma.ErrDocumento) {
		t.Errorf("no XML: %v", err)
	}
}
