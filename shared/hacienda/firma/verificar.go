package firma

import (
	"crypto"
	"crypto/rsa"
	_ "crypto/sha512" // SHA-384/512 digests
	"crypto/subtle"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/b64"
	"github.com/erpcr/erp/shared/horacr"
)

// Firmante is what VerificarFirmante learned from a valid signature.
type Firmante struct {
	Certificado *x509.Certificate // the certificate whose key verified SignatureValue
	Info        Info
	// HoraFirma is the XAdES SigningTime (zero when the signature has none).
	HoraFirma time.Time
	// Politica and PoliticaDigest are the XAdES SigPolicyId Identifier and
	// SigPolicyHash DigestValue, as written (empty when absent). Verificar
	// does not check them: Hacienda accepts several policies in practice.
	Politica, PoliticaDigest string
}

// Verificar checks a signed document. For every ds:Signature child of the
// root it recomputes every Reference digest (URI="" and same-document
// "#Id" references; enveloped-signature, inclusive and exclusive C14N
// transforms; SHA-256/384/512) and checks SignatureValue (RSA with
// SHA-256/384/512 over SignedInfo, canonicalized as its
// CanonicalizationMethod says) with the certificate embedded in KeyInfo.
// It also requires that one Reference covers the whole document (URI=""),
// that an RSAKeyValue, when present, is the certificate's key, and, when
// XAdES SignedProperties are present, that a Reference covers them and that
// their SigningCertificate (CertDigest and X509SerialNumber) designates the
// verifying certificate. It does not validate the certificate chain, its
// validity period or the signature policy. The error wraps ErrFirmaInvalida
// (or ErrDocumento for XML it cannot read) and names what failed.
func Verificar(xml []byte) error {
	_, err := VerificarFirmante(xml)
	return err
}

// VerificarFirmante is Verificar returning the signer of the (first)
// signature.
func VerificarFirmante(xml []byte) (*Firmante, error) {
	doc, err := leer(xml)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDocumento, err)
	}
	var firmas []*elemento
	for _, h := range doc.raiz.hijosElem() {
		if h.es(NSDsig, "Signature") {
			firmas = append(firmas, h)
		}
	}
	if len(firmas) == 0 {
		return nil, fmt.Errorf("%w: <%s> no tiene ds:Signature como hijo", ErrFirmaInvalida, doc.raiz.nombre())
	}
	ids := map[string][]*elemento{}
	doc.raiz.recorrer(func(e *elemento) {
		for _, a := range e.attrs {
			if a.prefijo == "" && (a.local == "Id" || a.local == "ID" || a.local == "id") {
				ids[a.valor] = append(ids[a.valor], e)
			}
		}
	})
	var primero *Firmante
	for i, s := range firmas {
		f, err := verificarFirma(doc, s, ids)
		if err != nil {
			nombre := fmt.Sprintf("ds:Signature #%d", i+1)
			if id, ok := s.attr("Id"); ok {
				nombre = fmt.Sprintf("ds:Signature Id=%q", id)
			}
			return nil, fmt.Errorf("%w: %s: %s", ErrFirmaInvalida, nombre, err)
		}
		if primero == nil {
			primero = f
		}
	}
	return primero, nil
}

func verificarFirma(doc *documento, sig *elemento, ids map[string][]*elemento) (*Firmante, error) {
	si, err := requerido(sig, "SignedInfo")
	if err != nil {
		return nil, err
	}
	cm, err := requerido(si, "CanonicalizationMethod")
	if err != nil {
		return nil, err
	}
	modoSI, err := modoTransformada(cm)
	if err != nil {
		return nil, fmt.Errorf("CanonicalizationMethod: %v", err)
	}
	hashSM, err := algoritmo(si, "SignatureMethod", algoritmosFirma)
	if err != nil {
		return nil, err
	}

	// References.
	cubiertos := map[*elemento]bool{}
	cubreDocumento := false
	n := 0
	for _, ref := range si.hijosElem() {
		if !ref.es(NSDsig, "Reference") {
			continue
		}
		n++
		objetivo, err := verificarReferencia(doc, sig, ref, ids)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", describirReferencia(ref, n), err)
		}
		if objetivo == nil {
			cubreDocumento = true
		} else {
			cubiertos[objetivo] = true
		}
	}
	if n == 0 {
		return nil, errors.New("ds:SignedInfo sin ds:Reference")
	}
	if !cubreDocumento {
		return nil, errors.New(`ninguna ds:Reference con URI="" cubre el documento`)
	}

	// Certificates in KeyInfo.
	ki, err := requerido(sig, "KeyInfo")
	if err != nil {
		return nil, err
	}
	var certs []*x509.Certificate
	for _, xd := range ki.hijosElem() {
		if !xd.es(NSDsig, "X509Data") {
			continue
		}
		for _, xc := range xd.hijosElem() {
			if !xc.es(NSDsig, "X509Certificate") {
				continue
			}
			der, err := b64.Decodificar(xc.textoPlano())
			if err != nil {
				return nil, fmt.Errorf("X509Certificate: base64: %v", err)
			}
			crt, err := x509.ParseCertificate(der)
			if err != nil {
				return nil, fmt.Errorf("X509Certificate: %v", err)
			}
			certs = append(certs, crt)
		}
	}
	if len(certs) == 0 {
		return nil, errors.New("ds:KeyInfo sin ds:X509Certificate")
	}

	// SignatureValue.
	sv, err := base64Hijo(sig, "SignatureValue")
	if err != nil {
		return nil, err
	}
	h := hashSM.New()
	h.Write(c14nSubarbol(si, nil, modoSI))
	dSI := h.Sum(nil)
	var firmante *x509.Certificate
	for _, crt := range certs {
		pub, ok := crt.PublicKey.(*rsa.PublicKey)
		if ok && rsa.VerifyPKCS1v15(pub, hashSM, dSI, sv) == nil {
			firmante = crt
			break
		}
	}
	if firmante == nil {
		return nil, errors.New("SignatureValue no verifica con el certificado de ds:KeyInfo")
	}
	pub := firmante.PublicKey.(*rsa.PublicKey)
	if rkv := ki.ruta([2]string{NSDsig, "KeyValue"}, [2]string{NSDsig, "RSAKeyValue"}); rkv != nil {
		if err := compararRSAKeyValue(rkv, pub); err != nil {
			return nil, err
		}
	}

	f := &Firmante{Certificado: firmante, Info: DescribirCertificado(firmante)}
	if err := verificarXades(sig, firmante, cubiertos, f); err != nil {
		return nil, err
	}
	return f, nil
}

// verificarReferencia recomputes one Reference digest. It returns the
// referenced element, nil for the whole document.
func verificarReferencia(doc *documento, sig, ref *elemento, ids map[string][]*elemento) (*elemento, error) {
	uri, ok := ref.attr("URI")
	if !ok {
		return nil, errors.New("sin atributo URI (no soportado)")
	}
	var objetivo *elemento
	switch {
	case uri == "":
	case strings.HasPrefix(uri, "#") && !strings.HasPrefix(uri, "#xpointer("):
		els := ids[uri[1:]]
		if len(els) == 0 {
			return nil, fmt.Errorf("no hay elemento con Id %q", uri[1:])
		}
		if len(els) > 1 {
			return nil, fmt.Errorf("Id %q repetido en el documento", uri[1:])
		}
		objetivo = els[0]
	default:
		return nil, fmt.Errorf("URI %q no soportado (solo \"\" y #Id)", uri)
	}

	var excluir *elemento
	modo := modoC14N{}
	if ts := ref.hijo(NSDsig, "Transforms"); ts != nil {
		c14nHecha := false
		for _, t := range ts.hijosElem() {
			if !t.es(NSDsig, "Transform") {
				continue
			}
			if c14nHecha {
				return nil, errors.New("transformada después de la canonicalización (no soportado)")
			}
			alg, _ := t.attr("Algorithm")
			if alg == algEnveloped {
				excluir = sig
				continue
			}
			m, err := modoTransformada(t)
			if err != nil {
				return nil, fmt.Errorf("Transform: %v", err)
			}
			modo, c14nHecha = m, true
		}
	}
	// URI="" and #Id (bare-name XPointer) node-sets exclude comments.
	modo.comentarios = false

	var datos []byte
	if objetivo == nil {
		datos = c14nDocumento(doc, excluir, modo)
	} else {
		datos = c14nSubarbol(objetivo, excluir, modo)
	}

	hd, err := algoritmo(ref, "DigestMethod", algoritmosDigest)
	if err != nil {
		return nil, err
	}
	esperado, err := base64Hijo(ref, "DigestValue")
	if err != nil {
		return nil, err
	}
	h := hd.New()
	h.Write(datos)
	if subtle.ConstantTimeCompare(h.Sum(nil), esperado) != 1 {
		return nil, errors.New("el digest no coincide (contenido alterado)")
	}
	return objetivo, nil
}

// modoTransformada reads a C14N algorithm (CanonicalizationMethod or
// Transform), with the exclusive InclusiveNamespaces PrefixList.
func modoTransformada(e *elemento) (modoC14N, error) {
	alg, _ := e.attr("Algorithm")
	m, ok := modoDe(alg)
	if !ok {
		return m, fmt.Errorf("algoritmo %q no soportado", alg)
	}
	if m.exclusivo {
		if in := e.hijo(algExcC14N, "InclusiveNamespaces"); in != nil {
			lista, _ := in.attr("PrefixList")
			m.prefijos = prefijosInclusivos(lista)
		}
	}
	return m, nil
}

func describirReferencia(ref *elemento, n int) string {
	uri, _ := ref.attr("URI")
	if id, ok := ref.attr("Id"); ok {
		return fmt.Sprintf("ds:Reference Id=%q URI=%q", id, uri)
	}
	if t, ok := ref.attr("Type"); ok && t == tipoSignedProps {
		return fmt.Sprintf("ds:Reference SignedProperties URI=%q", uri)
	}
	return fmt.Sprintf("ds:Reference #%d URI=%q", n, uri)
}

func compararRSAKeyValue(rkv *elemento, pub *rsa.PublicKey) error {
	mE, eE := rkv.hijo(NSDsig, "Modulus"), rkv.hijo(NSDsig, "Exponent")
	if mE == nil || eE == nil {
		return errors.New("RSAKeyValue incompleto")
	}
	mb, err1 := b64.Decodificar(mE.textoPlano())
	eb, err2 := b64.Decodificar(eE.textoPlano())
	if err1 != nil || err2 != nil {
		return errors.New("RSAKeyValue: base64 inválido")
	}
	if new(big.Int).SetBytes(mb).Cmp(pub.N) != 0 || new(big.Int).SetBytes(eb).Cmp(big.NewInt(int64(pub.E))) != 0 {
		return errors.New("RSAKeyValue no es la llave del certificado firmante")
	}
	return nil
}

// verificarXades checks the XAdES binding of the signing certificate and
// reads SigningTime and the policy.
func verificarXades(sig *elemento, firmante *x509.Certificate, cubiertos map[*elemento]bool, f *Firmante) error {
	var sp *elemento
	for _, obj := range sig.hijosElem() {
		if !obj.es(NSDsig, "Object") {
			continue
		}
		for _, qp := range obj.hijosElem() {
			if qp.es(NSXades, "QualifyingProperties") {
				if x := qp.hijo(NSXades, "SignedProperties"); x != nil {
					if sp != nil {
						return errors.New("más de un xades:SignedProperties")
					}
					sp = x
				}
			}
		}
	}
	if sp == nil {
		return nil // plain XML-DSig: nothing more to bind
	}
	if !cubiertos[sp] {
		return errors.New("xades:SignedProperties no está cubierto por ninguna ds:Reference")
	}
	ssp := sp.hijo(NSXades, "SignedSignatureProperties")
	if ssp == nil {
		return nil
	}
	if st := ssp.hijo(NSXades, "SigningTime"); st != nil {
		t, err := leerDateTime(strings.TrimSpace(st.textoPlano()))
		if err != nil {
			return fmt.Errorf("xades:SigningTime %q: %v", st.textoPlano(), err)
		}
		f.HoraFirma = t
	}
	if sc := ssp.hijo(NSXades, "SigningCertificate"); sc != nil {
		if err := verificarSigningCertificate(sc, firmante); err != nil {
			return err
		}
	}
	if pid := ssp.ruta([2]string{NSXades, "SignaturePolicyIdentifier"}, [2]string{NSXades, "SignaturePolicyId"}); pid != nil {
		if id := pid.ruta([2]string{NSXades, "SigPolicyId"}, [2]string{NSXades, "Identifier"}); id != nil {
			f.Politica = strings.TrimSpace(id.textoPlano())
		}
		if dv := pid.ruta([2]string{NSXades, "SigPolicyHash"}, [2]string{NSDsig, "DigestValue"}); dv != nil {
			f.PoliticaDigest = strings.TrimSpace(dv.textoPlano())
		}
	}
	return nil
}

// verificarSigningCertificate requires one xades:Cert whose CertDigest is the
// digest of the verifying certificate; its X509SerialNumber, if present,
// must be that certificate's serial. X509IssuerName is not compared: its
// spelling (RFC 4514 or ", "-separated) varies between signers.
func verificarSigningCertificate(sc *elemento, firmante *x509.Certificate) error {
	for _, c := range sc.hijosElem() {
		if !c.es(NSXades, "Cert") {
			continue
		}
		cd := c.hijo(NSXades, "CertDigest")
		if cd == nil {
			continue
		}
		dm, dv := cd.hijo(NSDsig, "DigestMethod"), cd.hijo(NSDsig, "DigestValue")
		if dm == nil || dv == nil {
			continue
		}
		alg, _ := dm.attr("Algorithm")
		hd, ok := algoritmosDigest[alg]
		if !ok {
			continue
		}
		esperado, err := b64.Decodificar(dv.textoPlano())
		if err != nil {
			continue
		}
		h := hd.New()
		h.Write(firmante.Raw)
		if subtle.ConstantTimeCompare(h.Sum(nil), esperado) != 1 {
			continue
		}
		if sn := c.ruta([2]string{NSXades, "IssuerSerial"}, [2]string{NSDsig, "X509SerialNumber"}); sn != nil {
			v, ok := new(big.Int).SetString(strings.TrimSpace(sn.textoPlano()), 10)
			if !ok || v.Cmp(firmante.SerialNumber) != 0 {
				return fmt.Errorf("xades:IssuerSerial X509SerialNumber %q no es el serial decimal del certificado (%s)",
					strings.TrimSpace(sn.textoPlano()), firmante.SerialNumber)
			}
		}
		return nil
	}
	return errors.New("xades:SigningCertificate no contiene el CertDigest del certificado firmante")
}

// leerDateTime parses an xs:dateTime; without a zone it is read at -06:00.
func leerDateTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.ParseInLocation("2006-01-02T15:04:05.999999999", s, horacr.Zona)
}

var (
	algoritmosDigest = map[string]crypto.Hash{
		"http://www.w3.org/2001/04/xmlenc#sha256":       crypto.SHA256,
		"http://www.w3.org/2001/04/xmldsig-more#sha384": crypto.SHA384,
		"http://www.w3.org/2001/04/xmlenc#sha512":       crypto.SHA512,
	}
	algoritmosFirma = map[string]crypto.Hash{
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": crypto.SHA256,
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": crypto.SHA384,
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": crypto.SHA512,
	}
)

// requerido is the ds: child nombre of e, which the signature must have.
func requerido(e *elemento, nombre string) (*elemento, error) {
	x := e.hijo(NSDsig, nombre)
	if x == nil {
		return nil, errors.New("falta ds:" + nombre)
	}
	return x, nil
}

// algoritmo is the hash of the required ds: child nombre of e (a
// SignatureMethod or DigestMethod) by its Algorithm among the supported.
func algoritmo(e *elemento, nombre string, soportados map[string]crypto.Hash) (crypto.Hash, error) {
	x, err := requerido(e, nombre)
	if err != nil {
		return 0, err
	}
	alg, _ := x.attr("Algorithm")
	h, ok := soportados[alg]
	if !ok {
		return 0, fmt.Errorf("%s %q no soportado", nombre, alg)
	}
	return h, nil
}

// base64Hijo is the decoded content of the required ds: child nombre of e.
func base64Hijo(e *elemento, nombre string) ([]byte, error) {
	x, err := requerido(e, nombre)
	if err != nil {
		return nil, err
	}
	b, err := b64.Decodificar(x.textoPlano())
	if err != nil {
		return nil, fmt.Errorf("%s: base64: %v", nombre, err)
	}
	return b, nil
}
