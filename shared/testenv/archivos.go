package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/horacr"
)

// HoyCR is today's date in Costa Rica (the civil day the API counts ages,
// expirations and "today" to), at midnight UTC so that AddDate and Format
// are plain calendar arithmetic.
func HoyCR() time.Time {
	return horacr.Hoy()
}

// PDFTexto is the text pdftotext (poppler-utils, the external tool made for
// PDFs) reads from pdf with -layout. The test is skipped where it is not
// installed; CI installs it (.ci/run, make tools).
func PDFTexto(t testing.TB, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed here; CI installs it (.ci/run, make tools)")
	}
	path := filepath.Join(t.TempDir(), "documento.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}
