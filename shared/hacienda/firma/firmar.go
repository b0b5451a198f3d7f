package firma

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/big"
	"time"

	"github.com/erpcr/erp/shared/horacr"
)

// Namespaces and algorithm URIs written by Firmar.
const (
	NSDsig  = "http://www.w3.org/2000/09/xmldsig#"
	NSXades = "http://uri.etsi.org/01903/v1.3.2#"

	algEnveloped      = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
	algRSASHA256      = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
	algSHA256         = "http://www.w3.org/2001/04/xmlenc#sha256"
	tipoSignedProps   = "http://uri.etsi.org/01903#SignedProperties"
	mimeDocumento     = "application/octet-stream"
	declaracionXML    = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	formatoSigningTim = "2006-01-02T15:04:05-07:00"
)

// Firmar signs a v4.4 document with XAdES-EPES (see the package
// documentation for the exact shape) and returns the signed document: an XML
// declaration followed by the canonical form of the root with ds:Signature
// as its last child.
//
// xml must be UTF-8 with a single root (any v4.4 root: FacturaElectronica,
// TiqueteElectronico, NotaCreditoElectronica, NotaDebitoElectronica,
// MensajeReceptor, ...), no DOCTYPE and no ds:Signature yet. at is the
// signing time: it must fall within the certificate's validity (ErrVigencia)
// and is written with second precision at -06:00.
//
// Ids are derived from the document, the certificate and at, so the same
// inputs give the same bytes (RSA PKCS#1 v1.5 is deterministic).
func Firmar(xml []byte, c *Certificado, at time.Time) ([]byte, error) {
	if c == nil || c.Cert == nil || c.Key == nil {
		return nil, fmt.Errorf("%w: certificado incompleto", ErrFormato)
	}
	pub, ok := c.Cert.PublicKey.(*rsa.PublicKey)
	if !ok || !pub.Equal(&c.Key.PublicKey) {
		return nil, fmt.Errorf("%w: la llave privada no corresponde al certificado", ErrFormato)
	}
	at = at.Truncate(time.Second)
	if at.Before(c.Cert.NotBefore) || at.After(c.Cert.NotAfter) {
		return nil, fmt.Errorf("%w: %s fuera de [%s, %s]", ErrVigencia,
			at.In(horacr.Zona).Format(formatoSigningTim),
			c.Cert.NotBefore.In(horacr.Zona).Format(formatoSigningTim),
			c.Cert.NotAfter.In(horacr.Zona).Format(formatoSigningTim))
	}

	doc, err := leer(xml)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDocumento, err)
	}
	existentes := map[string]bool{}
	var firmado bool
	doc.raiz.recorrer(func(e *elemento) {
		if e.es(NSDsig, "Signature") {
			firmado = true
		}
		for _, a := range e.attrs {
			if a.prefijo == "" && (a.local == "Id" || a.local == "ID" || a.local == "id") {
				existentes[a.valor] = true
			}
		}
	})
	if firmado {
		return nil, fmt.Errorf("%w: ya contiene una ds:Signature", ErrDocumento)
	}

	// 1. Digest of the document (inclusive C14N, the signature not attached
	// yet: the same bytes as the enveloped-signature transform yields later).
	dDoc := sha256.Sum256(c14nDocumento(doc, nil, modoC14N{}))
	dCert := sha256.Sum256(c.Cert.Raw)

	ids := nuevosIDs(dDoc[:], dCert[:], at)
	for _, id := range []string{ids.firma, ids.referencia, ids.valor, ids.keyInfo, ids.objeto, ids.calificantes, ids.propiedades} {
		if existentes[id] {
			return nil, fmt.Errorf("%w: el Id %q ya existe en el documento", ErrDocumento, id)
		}
	}

	f := construirFirma(ids, c, at, dCert[:])
	doc.raiz.agregar(f.firma)

	// 2. KeyInfo and SignedProperties, inclusive C14N in their final context.
	dKI := sha256.Sum256(c14nSubarbol(f.keyInfo, nil, modoC14N{}))
	dSP := sha256.Sum256(c14nSubarbol(f.propiedades, nil, modoC14N{}))
	ponerTexto(f.digestDoc, aBase64(dDoc[:]))
	ponerTexto(f.digestKI, aBase64(dKI[:]))
	ponerTexto(f.digestSP, aBase64(dSP[:]))

	// 3. SignedInfo, exclusive C14N, RSA-SHA256.
	dSI := sha256.Sum256(c14nSubarbol(f.signedInfo, nil, modoC14N{exclusivo: true}))
	sv, err := rsa.SignPKCS1v15(nil, c.Key, crypto.SHA256, dSI[:])
	if err != nil {
		return nil, fmt.Errorf("firma: RSA: %w", err)
	}
	ponerTexto(f.valor, aBase64(sv))

	out := append([]byte(declaracionXML), c14nDocumento(doc, nil, modoC14N{comentarios: true})...)
	if err := Verificar(out); err != nil {
		return nil, fmt.Errorf("firma: la firma producida no se verifica (error interno): %w", err)
	}
	return out, nil
}

type idsFirma struct {
	firma, referencia, valor, keyInfo, objeto, calificantes, propiedades string
}

// nuevosIDs derives the Ids from the inputs: UUID-shaped (RFC 9562 version 8,
// "custom") values from SHA-256, the same naming as the accepted samples.
func nuevosIDs(doc, cert []byte, at time.Time) idsFirma {
	uuid := func(etiqueta string) string {
		h := sha256.New()
		h.Write([]byte("erp/firma\x00" + etiqueta + "\x00"))
		h.Write(doc)
		h.Write(cert)
		var t [8]byte
		binary.BigEndian.PutUint64(t[:], uint64(at.Unix()))
		h.Write(t[:])
		s := h.Sum(nil)
		s[6] = s[6]&0x0f | 0x80 // version 8
		s[8] = s[8]&0x3f | 0x80 // RFC 9562 variant
		return fmt.Sprintf("%x-%x-%x-%x-%x", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
	}
	u := uuid("Signature")
	sig := "Signature-" + u
	return idsFirma{
		firma:        sig,
		referencia:   "Reference-" + uuid("Reference"),
		valor:        "SignatureValue-" + u,
		keyInfo:      "KeyInfoId-" + sig,
		objeto:       "XadesObjectId-" + uuid("Object"),
		calificantes: "QualifyingProperties-" + uuid("QualifyingProperties"),
		propiedades:  "SignedProperties-" + sig,
	}
}

// partes are the nodes of the signature Firmar fills in after building it.
type partes struct {
	firma, signedInfo, keyInfo, propiedades *elemento
	digestDoc, digestKI, digestSP, valor    *elemento
}

func construirFirma(ids idsFirma, c *Certificado, at time.Time, dCert []byte) partes {
	var p partes
	ds := func(local string, attrs ...string) *elemento { return nuevo("ds", local, attrs...) }
	xa := func(local string, attrs ...string) *elemento { return nuevo("xades", local, attrs...) }
	txt := func(e *elemento, s string) *elemento { e.agregar(texto(s)); return e }

	referencia := func(attrs []string, transform string) (*elemento, *elemento) {
		r := ds("Reference", attrs...)
		if transform != "" {
			r.agregar(con(ds("Transforms"), ds("Transform", "Algorithm", transform)))
		}
		dv := ds("DigestValue")
		r.agregar(ds("DigestMethod", "Algorithm", algSHA256))
		r.agregar(dv)
		return r, dv
	}
	refDoc, dvDoc := referencia([]string{"Id", ids.referencia, "URI", ""}, algEnveloped)
	refKI, dvKI := referencia([]string{"Id", "ReferenceKeyInfo", "URI", "#" + ids.keyInfo}, "")
	refSP, dvSP := referencia([]string{"Type", tipoSignedProps, "URI", "#" + ids.propiedades}, "")
	p.digestDoc, p.digestKI, p.digestSP = dvDoc, dvKI, dvSP

	p.signedInfo = con(ds("SignedInfo"),
		ds("CanonicalizationMethod", "Algorithm", algExcC14N),
		ds("SignatureMethod", "Algorithm", algRSASHA256),
		refDoc, refKI, refSP)
	p.valor = ds("SignatureValue", "Id", ids.valor)

	pub := &c.Key.PublicKey
	p.keyInfo = con(ds("KeyInfo", "Id", ids.keyInfo),
		con(ds("X509Data"), txt(ds("X509Certificate"), aBase64(c.Cert.Raw))),
		con(ds("KeyValue"), con(ds("RSAKeyValue"),
			txt(ds("Modulus"), aBase64(pub.N.Bytes())),
			txt(ds("Exponent"), aBase64(big.NewInt(int64(pub.E)).Bytes())))))

	p.propiedades = con(xa("SignedProperties", "Id", ids.propiedades),
		con(xa("SignedSignatureProperties"),
			txt(xa("SigningTime"), at.In(horacr.Zona).Format(formatoSigningTim)),
			con(xa("SigningCertificate"), con(xa("Cert"),
				con(xa("CertDigest"),
					ds("DigestMethod", "Algorithm", algSHA256),
					txt(ds("DigestValue"), aBase64(dCert))),
				con(xa("IssuerSerial"),
					txt(ds("X509IssuerName"), c.Cert.Issuer.String()),
					txt(ds("X509SerialNumber"), c.Cert.SerialNumber.String())))),
			con(xa("SignaturePolicyIdentifier"), con(xa("SignaturePolicyId"),
				con(xa("SigPolicyId"),
					txt(xa("Identifier"), PoliticaIdentificador),
					xa("Description")),
				con(xa("SigPolicyHash"),
					ds("DigestMethod", "Algorithm", algSHA256),
					txt(ds("DigestValue"), PoliticaDigest))))),
		con(xa("SignedDataObjectProperties"),
			con(xa("DataObjectFormat", "ObjectReference", "#"+ids.referencia),
				txt(xa("MimeType"), mimeDocumento))))

	qp := con(xa("QualifyingProperties", "Id", ids.calificantes, "Target", "#"+ids.firma), p.propiedades)
	qp.decls = []declNS{{"xades", NSXades}}

	p.firma = con(ds("Signature", "Id", ids.firma),
		p.signedInfo, p.valor, p.keyInfo,
		con(ds("Object", "Id", ids.objeto), qp))
	p.firma.decls = []declNS{{"ds", NSDsig}}
	return p
}

// nuevo builds an element; attrs are name/value pairs of unprefixed attributes.
func nuevo(prefijo, local string, attrs ...string) *elemento {
	e := &elemento{prefijo: prefijo, local: local}
	for i := 0; i+1 < len(attrs); i += 2 {
		e.attrs = append(e.attrs, atributo{"", attrs[i], attrs[i+1]})
	}
	return e
}

func con(e *elemento, hijos ...*elemento) *elemento {
	for _, h := range hijos {
		e.agregar(h)
	}
	return e
}

func ponerTexto(e *elemento, s string) { e.hijos = []nodo{texto(s)} }

func aBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
