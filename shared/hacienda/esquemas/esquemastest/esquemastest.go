// Package esquemastest judges XML in tests with a real validator: xmllint
// (libxml2) against the official XSDs embedded in package esquemas, not our
// own reading of the schemas. It lives apart from testenv because the
// comprobante package's own tests use it, and testenv links the whole
// application (comprobante included).
package esquemastest

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/hacienda/esquemas"
)

// Disponible reports whether xmllint is installed (CI installs it:
// apt-get install libxml2-utils).
func Disponible() bool {
	_, err := exec.LookPath("xmllint")
	return err == nil
}

// Validar runs xmllint on doc against the schema of its root element raiz
// (e.g. "FacturaElectronica") and returns whether it validates and what
// xmllint said. It skips t where xmllint is not installed.
func Validar(t testing.TB, raiz string, doc []byte) (bool, string) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (apt-get install libxml2-utils; CI installs it): the XML was NOT validated against the XSD")
	}
	xsd, err := esquemas.Extraer(t.TempDir(), raiz)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--nonet", "--noout", "--schema", xsd, "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running xmllint: %v", err)
	}
	return err == nil && strings.Contains(string(out), "validates"), string(out)
}

// Exigir fails t unless doc validates against the schema of raiz (and
// skips t where xmllint is not installed).
func Exigir(t testing.TB, raiz string, doc []byte) {
	t.Helper()
	if ok, out := Validar(t, raiz, doc); !ok {
		t.Fatalf("xmllint rejected the %s:\n%s\n--- document ---\n%s", raiz, out, doc)
	}
}
