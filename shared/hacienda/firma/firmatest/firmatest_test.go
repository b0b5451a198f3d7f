package firmatest

import (
	"crypto/rsa"
	"crypto/x509"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

func TestNuevo(t *testing.T) {
	modern, legacy, cert, err := Nuevo("3-101-123456", "1234")
	if err != nil {
		t.Fatal(err)
	}
	for nombre, p12 := range map[string][]byte{"moderno": modern, "legado": legacy} {
		key, c, err := pkcs12.Decode(p12, "1234")
		if err != nil {
			t.Fatalf("%s: %v", nombre, err)
		}
		if !c.Equal(cert) || !key.(*rsa.PrivateKey).PublicKey.Equal(cert.PublicKey) {
			t.Errorf("%s: llave o certificado distintos", nombre)
		}
		if _, _, err := pkcs12.Decode(p12, "0000"); err == nil {
			t.Errorf("%s: PIN incorrecto aceptado", nombre)
		}
	}
	if cert.PublicKey.(*rsa.PublicKey).N.BitLen() != 2048 {
		t.Error("la llave no es RSA-2048")
	}
	if cert.Subject.CommonName != "3-101-123456" || cert.Subject.SerialNumber != "3-101-123456" || cert.Issuer.String() != cert.Subject.String() {
		t.Errorf("sujeto %v / emisor %v", cert.Subject, cert.Issuer)
	}
	if err := cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature); err != nil {
		t.Errorf("no es autofirmado: %v", err)
	}
	now := time.Now()
	if now.Before(cert.NotBefore) || now.After(cert.NotAfter) {
		t.Error("no está vigente ahora")
	}
	if cert.KeyUsage&x509.KeyUsageDigitalSignature == 0 || cert.KeyUsage&x509.KeyUsageContentCommitment == 0 {
		t.Errorf("keyUsage %v", cert.KeyUsage)
	}
	if cert.SerialNumber.Sign() <= 0 || len(cert.SerialNumber.String()) != 39 {
		t.Errorf("serial %s", cert.SerialNumber)
	}
	_, _, c2, err := Nuevo("José Pérez", "")
	if err != nil || c2.Subject.SerialNumber != "" || c2.SerialNumber.Cmp(cert.SerialNumber) == 0 {
		t.Errorf("segundo certificado: %v %v", c2.Subject, err)
	}
}
