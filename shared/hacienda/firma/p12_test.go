package firma_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/firma/firmatest"
	"software.sslmate.com/src/go-pkcs12"
)

func TestCargarP12ModernoYLegado(t *testing.T) {
	id := identidadPrueba(t)
	for nombre, p12 := range map[string][]byte{"moderno": id.modern, "legado": id.legacy} {
		t.Run(nombre, func(t *testing.T) {
			c := cargar(t, nombre, p12, id.cert)
			if !c.Key.PublicKey.Equal(id.cert.PublicKey) {
				t.Error("la llave no corresponde al certificado")
			}
			if len(c.Chain) != 0 {
				t.Errorf("cadena inesperada: %d certificados", len(c.Chain))
			}
			if _, err := firma.CargarP12(p12, ""); !errors.Is(err, firma.ErrPIN) {
				t.Errorf("PIN vacío: err = %v, se esperaba ErrPIN", err)
			}
		})
	}
}

func TestCargarP12OtrosCifrados(t *testing.T) {
	key, cert, err := firmatest.Generar("Persona de Prueba")
	if err != nil {
		t.Fatal(err)
	}
	for nombre, enc := range map[string]*pkcs12.Encoder{
		"LegacyDES (3DES/3DES)": pkcs12.LegacyDES,
		"Modern2026 (PBMAC1)":   pkcs12.Modern2026,
	} {
		p12, err := enc.Encode(key, cert, nil, pinPrueba)
		if err != nil {
			t.Fatal(err)
		}
		cargar(t, nombre, p12, cert)
	}
}

func TestCargarP12Formato(t *testing.T) {
	casos := map[string][]byte{
		"vacío":                 nil,
		"basura":                []byte("esto no es un PKCS#12"),
		"PEM":                   certPEM(identidadPrueba(t).cert),
		"DER de un certificado": identidadPrueba(t).cert.Raw,
	}
	for nombre, b := range casos {
		if _, err := firma.CargarP12(b, pinPrueba); !errors.Is(err, firma.ErrFormato) {
			t.Errorf("%s: err = %v, se esperaba ErrFormato", nombre, err)
		}
	}

	// A PKCS#12 with an ECDSA key is well formed but unusable for Hacienda.
	ek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "ec"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ek.PublicKey, ek)
	if err != nil {
		t.Fatal(err)
	}
	ec, _ := x509.ParseCertificate(der)
	p12, err := pkcs12.Modern.Encode(ek, ec, nil, pinPrueba)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := firma.CargarP12(p12, pinPrueba); !errors.Is(err, firma.ErrFormato) {
		t.Errorf("ECDSA: err = %v, se esperaba ErrFormato", err)
	}
}

// The leaf is chosen by its key, not by its position, and the CA goes to
// Chain.
func TestCargarP12Cadena(t *testing.T) {
	caKey, caCert, err := firmatest.Generar("CA PERSONA JURIDICA DE PRUEBA")
	if err != nil {
		t.Fatal(err)
	}
	hoja, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1750353508756),
		Subject:      pkix.Name{CommonName: "EMPRESA DE PRUEBA SOCIEDAD ANONIMA", SerialNumber: "CPJ-3-101-123456", Country: []string{"CR"}},
		NotBefore:    time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(4, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &hoja.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	p12, err := pkcs12.LegacyRC2.Encode(hoja, leaf, []*x509.Certificate{caCert}, pinPrueba)
	if err != nil {
		t.Fatal(err)
	}
	c, err := firma.CargarP12(p12, pinPrueba)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Cert.Equal(leaf) || len(c.Chain) != 1 || !c.Chain[0].Equal(caCert) {
		t.Fatalf("Cert/Chain mal asignados: %v / %d", c.Cert.Subject, len(c.Chain))
	}
	info := firma.Describir(c)
	if info.Serie != "1750353508756" || info.Identificacion != "CPJ-3-101-123456" ||
		!strings.Contains(info.Emisor, "CN=CA PERSONA JURIDICA DE PRUEBA") ||
		!strings.Contains(info.Sujeto, "CN=EMPRESA DE PRUEBA SOCIEDAD ANONIMA") {
		t.Errorf("Describir = %+v", info)
	}
	if !info.ValidoDesde.Equal(leaf.NotBefore) || !info.ValidoHasta.Equal(leaf.NotAfter) {
		t.Errorf("vigencia = %v..%v", info.ValidoDesde, info.ValidoHasta)
	}
}

// .p12 files written by OpenSSL (an independent producer), in its modern
// default and with -legacy (RC2-40 certificates, 3DES keys, SHA-1 MAC).
func TestCargarP12OpenSSL(t *testing.T) {
	openssl := herramienta(t, "openssl")
	dir, kf, cf, cert := pemPrueba(t)
	for _, extra := range [][]string{nil, {"-legacy"}} {
		out := dir + "/x.p12"
		args := append([]string{"pkcs12", "-export", "-inkey", kf, "-in", cf, "-passout", "pass:" + pinPrueba, "-out", out}, extra...)
		if b, err := exec.Command(openssl, args...).CombinedOutput(); err != nil {
			if len(extra) > 0 {
				t.Logf("openssl %v no disponible: %s", extra, b)
				continue
			}
			t.Fatalf("openssl: %v: %s", err, b)
		}
		cargar(t, fmt.Sprint("openssl ", extra), leerArchivo(t, out), cert)
	}
}

// firmatest's two encodings are what they claim, as OpenSSL reads them.
func TestFirmatestCifradosSegunOpenSSL(t *testing.T) {
	openssl := herramienta(t, "openssl")
	id := identidadPrueba(t)
	dir := t.TempDir()
	info := func(p12 []byte, extra ...string) string {
		f := escribir(t, dir, "i.p12", p12)
		args := append([]string{"pkcs12", "-in", f, "-info", "-noout", "-passin", "pass:" + pinPrueba}, extra...)
		b, err := exec.Command(openssl, args...).CombinedOutput()
		if err != nil && len(extra) > 0 { // OpenSSL 1.1 has no -legacy and reads RC2 natively
			b, err = exec.Command(openssl, args[:len(args)-len(extra)]...).CombinedOutput()
		}
		if err != nil {
			t.Fatalf("openssl pkcs12 -info %v: %v: %s", extra, err, b)
		}
		return string(b)
	}
	if s := info(id.modern); !strings.Contains(s, "AES-256-CBC") || !strings.Contains(s, "MAC: sha256") {
		t.Errorf("moderno:\n%s", s)
	}
	s := info(id.legacy, "-legacy") // OpenSSL 3 needs the legacy provider for RC2
	if !strings.Contains(s, "pbeWithSHA1And40BitRC2-CBC") || !strings.Contains(s, "pbeWithSHA1And3-KeyTripleDES-CBC") || !strings.Contains(s, "MAC: sha1") {
		t.Errorf("legado:\n%s", s)
	}
}

func TestDescribir(t *testing.T) {
	id := identidadPrueba(t)
	info := firma.Describir(id.c)
	if info.Serie != id.cert.SerialNumber.String() || len(info.Serie) < 30 {
		t.Errorf("Serie = %q", info.Serie)
	}
	if !strings.Contains(info.Sujeto, "CN=3101123456") || info.Sujeto != info.Emisor {
		t.Errorf("Sujeto/Emisor = %q / %q", info.Sujeto, info.Emisor)
	}
	if info.Identificacion != "3101123456" {
		t.Errorf("Identificacion = %q", info.Identificacion)
	}
	if !info.ValidoDesde.Before(time.Now()) || !info.ValidoHasta.After(time.Now().AddDate(3, 0, 0)) {
		t.Errorf("vigencia %v..%v", info.ValidoDesde, info.ValidoHasta)
	}
	if !bytes.Contains(id.c.CertificadoPEM(), []byte("BEGIN CERTIFICATE")) {
		t.Error("CertificadoPEM")
	}
}
