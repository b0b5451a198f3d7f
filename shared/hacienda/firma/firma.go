// Package firma signs and verifies Costa Rica "comprobantes electrónicos" v4.4
// with XAdES-EPES, the enveloped XML signature Hacienda requires.
//
// # What Firmar produces
//
// The ds:Signature is appended as the LAST child of the document's root (the
// XSDs declare it last in every v4.4 root). Its shape mirrors the real
// production invoices Hacienda accepted in 2026:
//
//	ds:Signature Id="Signature-<id>"
//	  ds:SignedInfo
//	    CanonicalizationMethod  exclusive C14N 1.0 (http://www.w3.org/2001/10/xml-exc-c14n#)
//	    SignatureMethod         RSA-SHA256
//	    Reference Id="Reference-<id>" URI=""     enveloped-signature transform, SHA-256
//	    Reference Id="ReferenceKeyInfo" URI="#KeyInfoId-Signature-<id>"     SHA-256
//	    Reference Type="http://uri.etsi.org/01903#SignedProperties"
//	              URI="#SignedProperties-Signature-<id>"                     SHA-256
//	  ds:SignatureValue   base64, one line
//	  ds:KeyInfo          X509Certificate (the signer's, DER) and RSAKeyValue
//	  ds:Object/xades:QualifyingProperties/xades:SignedProperties
//	    SigningTime (-06:00), SigningCertificate (CertDigest = SHA-256 of the DER
//	    certificate, IssuerSerial with the decimal serial), SignaturePolicyIdentifier
//	    (PoliticaIdentificador, PoliticaDigest), DataObjectFormat -> #Reference-<id>
//
// # Canonicalization
//
// The References carry no C14N transform, so (XML-DSig §4.3.3.2) the
// document, the KeyInfo and the SignedProperties are digested with INCLUSIVE
// C14N 1.0 without comments. Inclusive C14N renders on the apex of a fragment
// every namespace in scope there: the KeyInfo fragment therefore carries the
// root's default namespace and its other declarations (xmlns:xsi ...) plus
// xmlns:ds, and the SignedProperties fragment additionally xmlns:xades. The
// package computes every digest from one tree of the final document with its
// own C14N implementation (c14n.go), which handles inclusive and exclusive
// C14N 1.0 for the signatures it verifies too.
//
// SignedInfo is canonicalized with EXCLUSIVE C14N 1.0: that is what the
// accepted production samples use, and it makes the SignedInfo bytes
// independent of the namespaces of the document it is embedded in
// (<ds:SignedInfo xmlns:ds="...">...). CRLibre's inclusive choice is accepted
// by Hacienda too; Verificar accepts both.
//
// # Output bytes
//
// Firmar does not splice text into the input: it parses it, appends the
// signature to the tree and writes the whole document in canonical form (an
// XML declaration, then the C14N form of the root, comments kept). The output
// is therefore byte-for-byte what a verifier canonicalizes, apart from the
// ds:Signature subtree it removes. The visible differences from a hand-written
// input are those of C14N: empty elements become start/end pairs, attributes
// are ordered, redundant namespace declarations disappear.
//
// Firmar verifies its own output with Verificar before returning it.
//
// # Verification
//
// Verificar (used by the simulator) recomputes every Reference and the
// SignatureValue with the certificate embedded in KeyInfo, for our output and
// for other signers' (the real samples: exclusive SignedInfo, a legacy policy,
// a default-namespace redeclaration inside SignaturePolicyIdentifier;
// xmlsec1's: inclusive SignedInfo, InclusiveNamespaces). It does not validate
// the certificate chain against Hacienda's CA, nor the validity period, nor
// the policy: see Verificar.
//
// The tests use xmlsec1 (libxml2) as the oracle: `xmlsec1 --verify
// --enabled-key-data x509 --trusted-pem cert.pem file.xml` must print OK with
// "SignedInfo References (ok/all): 3/3" for every signed document.
package firma

import (
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// Signature policy of the v4.4 "Anexos y Estructuras" (Anexo 2): the
// Resolución General MH-DGT-RES-0027-2024 and the base64 SHA-256 of that
// PDF. Anexo 2 prints the identifier with ".../xmlschemas/..."; the file is
// served (and most working implementations point) at ".../xml-schemas/...",
// which is the spelling used here. Hacienda is not known to compare either
// value, but it rejects signatures without a policy ("La firma del documento
// no tiene el Policy Id").
const (
	PoliticaIdentificador = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/Resoluci%C3%B3n_General_sobre_disposiciones_t%C3%A9cnicas_comprobantes_electr%C3%B3nicos_para_efectos_tributarios.pdf"
	PoliticaDigest        = "DWxin1xWOeI8OuWQXazh4VjLWAaCLAA954em7DMh0h8="
)

// Errors. CargarP12 and Firmar wrap them, so test with errors.Is.
var (
	// ErrPIN: the PIN does not open the .p12 (MAC or decryption failure).
	ErrPIN = errors.New("firma: PIN incorrecto para la llave criptográfica")
	// ErrFormato: the bytes are not a PKCS#12 file, or it holds no RSA key,
	// no certificate, or no certificate for its key.
	ErrFormato = errors.New("firma: la llave criptográfica no es un PKCS#12 válido con llave RSA y certificado")
	// ErrVigencia: Firmar was asked to sign at a time outside the
	// certificate's validity.
	ErrVigencia = errors.New("firma: el certificado no está vigente en la fecha de firma")
	// ErrDocumento: the document to sign is not acceptable XML (not UTF-8,
	// DOCTYPE, already signed, ...).
	ErrDocumento = errors.New("firma: documento XML no válido para firmar")
	// ErrFirmaInvalida: Verificar found no signature, or a signature that
	// does not verify (a digest, the SignatureValue, the XAdES certificate
	// binding) or that it cannot process.
	ErrFirmaInvalida = errors.New("firma: firma inválida")
)

// Certificado is a signing identity loaded from the taxpayer's .p12
// ("llave criptográfica"). Cert is the certificate of Key; Chain holds the
// other certificates the file carried (intermediates, root), in file order.
type Certificado struct {
	Cert  *x509.Certificate
	Key   *rsa.PrivateKey
	Chain []*x509.Certificate
}

// CargarP12 opens a PKCS#12 file with its PIN. Both the modern encoding
// (PBES2/PBKDF2/AES-256, HMAC-SHA-256) and the legacy ones (PBE-SHA1-3DES
// keys, PBE-SHA1-RC2-40 or 3DES certificates, HMAC-SHA-1) are read. The
// certificate whose public key matches the private key becomes Cert
// whatever its position in the file; the others go to Chain. Errors wrap
// ErrPIN or ErrFormato.
func CargarP12(p12 []byte, pin string) (*Certificado, error) {
	if len(p12) == 0 {
		return nil, fmt.Errorf("%w: archivo vacío", ErrFormato)
	}
	key, leaf, cas, err := pkcs12.DecodeChain(p12, pin)
	if err != nil {
		if errors.Is(err, pkcs12.ErrIncorrectPassword) || errors.Is(err, pkcs12.ErrDecryption) {
			return nil, ErrPIN
		}
		return nil, fmt.Errorf("%w: %v", ErrFormato, err)
	}
	rk, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: la llave privada es %T, no RSA", ErrFormato, key)
	}
	if err := rk.Validate(); err != nil {
		return nil, fmt.Errorf("%w: llave RSA inválida: %v", ErrFormato, err)
	}
	all := append([]*x509.Certificate{leaf}, cas...)
	c := &Certificado{Key: rk}
	for _, crt := range all {
		if pub, ok := crt.PublicKey.(*rsa.PublicKey); ok && c.Cert == nil && pub.Equal(&rk.PublicKey) {
			c.Cert = crt
			continue
		}
		c.Chain = append(c.Chain, crt)
	}
	if c.Cert == nil {
		return nil, fmt.Errorf("%w: ningún certificado corresponde a la llave privada", ErrFormato)
	}
	return c, nil
}

// Info describes a certificate for the API.
type Info struct {
	Sujeto string // subject DN, RFC 4514 ("SERIALNUMBER=CPJ-3-101-154998,C=CR,...,CN=...")
	Emisor string // issuer DN, RFC 4514
	Serie  string // serial number in decimal, as in X509SerialNumber
	// Identificacion is the subject's serialNumber attribute, where Hacienda's
	// CA puts the holder's identification ("CPJ-3-101-154998",
	// "CPF-01-0234-0567"); empty when absent.
	Identificacion string
	ValidoDesde    time.Time
	ValidoHasta    time.Time
	// HuellaSHA256 is the base64 SHA-256 of the DER certificate (the XAdES
	// CertDigest).
	HuellaSHA256 string
}

// Describir describes the signing certificate of c.
func Describir(c *Certificado) Info {
	return DescribirCertificado(c.Cert)
}

// DescribirCertificado describes any certificate (e.g. the one Verificar
// found in a received document).
func DescribirCertificado(crt *x509.Certificate) Info {
	sum := sha256.Sum256(crt.Raw)
	return Info{
		Sujeto:         crt.Subject.String(),
		Emisor:         crt.Issuer.String(),
		Serie:          crt.SerialNumber.String(),
		Identificacion: crt.Subject.SerialNumber,
		ValidoDesde:    crt.NotBefore,
		ValidoHasta:    crt.NotAfter,
		HuellaSHA256:   base64.StdEncoding.EncodeToString(sum[:]),
	}
}

// CertificadoPEM returns the signing certificate in PEM (e.g. for
// `xmlsec1 --pubkey-cert-pem`).
func (c *Certificado) CertificadoPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw})
}
