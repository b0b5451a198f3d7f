package testenv

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// EncabezadoVacio checks a list's export whose filter matches nothing
// (vacia, the list's path with that filter): its CSV (read with
// encoding/csv) and its workbook (excelize) hold only the header that the
// export with rows (llena, a path that selects at least one row) starts
// with. It returns that header, for the caller's own checks.
func (e *Env) EncabezadoVacio(t testing.TB, tok, llena, vacia string) []string {
	t.Helper()
	full := csvDescargado(t, e.Get(conFormato(llena, "csv"), tok))
	if len(full) < 2 {
		t.Fatalf("export of %s has no row: %q", llena, full)
	}
	header := full[0]
	if empty := csvDescargado(t, e.Get(conFormato(vacia, "csv"), tok)); len(empty) != 1 || !slices.Equal(empty[0], header) {
		t.Fatalf("empty CSV export of %s:\n%q\nwant only the header\n%q", vacia, empty, header)
	}
	r := e.Get(conFormato(vacia, "excel"), tok)
	if r.Status != http.StatusOK {
		t.Fatalf("excel export of %s: %d %.300s", vacia, r.Status, r.Raw)
	}
	if _, rows := XLSX(t, r.Raw, "Datos"); len(rows) != 1 || !slices.Equal(rows[0], header) {
		t.Fatalf("empty workbook of %s:\n%q\nwant only the header\n%q", vacia, rows, header)
	}
	return header
}

// conFormato adds ?formato= (or &formato=) to a list's path.
func conFormato(path, formato string) string {
	if strings.Contains(path, "?") {
		return path + "&formato=" + formato
	}
	return path + "?formato=" + formato
}

// csvDescargado reads a 200 CSV download, without its BOM, with encoding/csv.
func csvDescargado(t testing.TB, r Resp) [][]string {
	t.Helper()
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv export: %d %v %.300s", r.Status, r.Header, r.Raw)
	}
	if !bytes.HasPrefix(r.Raw, []byte("\ufeff")) {
		t.Fatalf("no BOM: %q", r.Raw)
	}
	return CSVRows(t, bytes.TrimPrefix(r.Raw, []byte("\ufeff")))
}
