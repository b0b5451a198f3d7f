package firma_test

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/firma/firmatest"
)

const pinPrueba = "4321"

// identidad is one generated signing identity shared by the tests of this
// package (RSA-2048 generation is the slow part).
type identidad struct {
	modern, legacy []byte
	cert           *x509.Certificate
	c              *firma.Certificado
}

var (
	idOnce sync.Once
	idC    *firma.Certificado
	idErr  error
)

func identidadPrueba(t *testing.T) identidad {
	t.Helper()
	x, err := firmatest.Compartida("3101123456", pinPrueba)
	if err != nil {
		t.Fatal(err)
	}
	idOnce.Do(func() { idC, idErr = firma.CargarP12(x.Modern, pinPrueba) })
	if idErr != nil {
		t.Fatal(idErr)
	}
	return identidad{modern: x.Modern, legacy: x.Legacy, cert: x.Cert, c: idC}
}

// cargar opens p12 with the test PIN, failing t unless it holds cert and
// a wrong PIN is refused as ErrPIN: what every encoding of a .p12 must do.
func cargar(t *testing.T, nombre string, p12 []byte, cert *x509.Certificate) *firma.Certificado {
	t.Helper()
	c, err := firma.CargarP12(p12, pinPrueba)
	if err != nil {
		t.Fatalf("%s: %v", nombre, err)
	}
	if !c.Cert.Equal(cert) {
		t.Errorf("%s: el certificado cargado no es el generado", nombre)
	}
	if _, err := firma.CargarP12(p12, "0000"); !errors.Is(err, firma.ErrPIN) {
		t.Errorf("%s: PIN incorrecto: err = %v, se esperaba ErrPIN", nombre, err)
	}
	return c
}

// ahora is a signing time inside the test certificates' validity.
func ahora() time.Time { return time.Now() }

func herramienta(t *testing.T, nombre string) string {
	t.Helper()
	p, err := exec.LookPath(nombre)
	if err != nil {
		t.Skipf("%s no está instalado (CI lo instala: apt-get install xmlsec1 libxml2-utils)", nombre)
	}
	return p
}

func escribir(t *testing.T, dir, nombre string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, nombre)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func certPEM(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

func llavePEM(t *testing.T, k *rsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

var reRefs = regexp.MustCompile(`SignedInfo References \(ok/all\): (\d+)/(\d+)`)

// xmlsec runs `xmlsec1 --verify args... file` and returns its combined output,
// whether it exited 0 and the "ok/all" reference counts it printed.
func xmlsec(t *testing.T, file string, args ...string) (salida string, ok bool, refsOK, refsTotal string) {
	t.Helper()
	bin := herramienta(t, "xmlsec1")
	cmd := exec.Command(bin, append(append([]string{"--verify"}, args...), file)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	salida = out.String()
	if m := reRefs.FindStringSubmatch(salida); m != nil {
		refsOK, refsTotal = m[1], m[2]
	}
	return salida, err == nil, refsOK, refsTotal
}

// idAttr is harmless for xmlsec1 1.2.37 (it finds Id attributes without it)
// and needed by stricter builds.
var idAttr = []string{"--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"}

// xmlsecConfia verifies with the key taken ONLY from the embedded X509
// certificate, which must chain to trusted (our self-signed test cert):
// this proves the embedded certificate is ours and its key made the
// signature. (Without --enabled-key-data, xmlsec1 falls back to the
// RSAKeyValue in KeyInfo and would accept any key.)
func xmlsecConfia(t *testing.T, file, trustedPEM string) (string, bool, string, string) {
	return xmlsec(t, file, append([]string{"--enabled-key-data", "x509", "--trusted-pem", trustedPEM}, idAttr...)...)
}

// xmlsecLlave verifies with the given certificate's key only (KeyInfo is not
// used to find the key).
func xmlsecLlave(t *testing.T, file, certPEMFile string) (string, bool, string, string) {
	return xmlsec(t, file, append([]string{"--enabled-key-data", "key-name", "--pubkey-cert-pem", certPEMFile}, idAttr...)...)
}

// quitarFirma removes the ds:Signature element (and nothing else) from a
// real sample.
func quitarFirma(t *testing.T, b []byte) []byte {
	t.Helper()
	s := string(b)
	i := strings.Index(s, "<ds:Signature")
	j := strings.Index(s, "</ds:Signature>")
	if i < 0 || j < 0 || strings.Count(s, "<ds:Signature ") != 1 {
		t.Fatal("muestra sin una única ds:Signature")
	}
	return []byte(s[:i] + s[j+len("</ds:Signature>"):])
}

// muestras returns the real signed invoices Hacienda accepted.
func muestras(t *testing.T) map[string][]byte {
	t.Helper()
	return archivosXML(t, filepath.Join("testdata", "hacienda"))
}

// documentos returns the unsigned v4.4 documents of testdata.
func documentos(t *testing.T) map[string][]byte {
	t.Helper()
	return archivosXML(t, "testdata")
}

// archivosXML reads every .xml file of dir, by base name; dir may not be
// empty.
func archivosXML(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil || len(fs) == 0 {
		t.Fatalf("sin documentos XML en %s: %v", dir, err)
	}
	m := map[string][]byte{}
	for _, f := range fs {
		m[filepath.Base(f)] = leerArchivo(t, f)
	}
	return m
}

func leerArchivo(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pemPrueba writes a fresh key and certificate as PEM files in a temporary
// directory, for the external tools (openssl, xmlsec1) that read files; it
// returns the directory, both paths and the certificate.
func pemPrueba(t *testing.T) (dir, llave, certificado string, cert *x509.Certificate) {
	t.Helper()
	key, cert, err := firmatest.Generar("3101123456")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	return dir, escribir(t, dir, "k.pem", llavePEM(t, key)), escribir(t, dir, "c.pem", certPEM(cert)), cert
}
