package testenv

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Created returns the 201 answers among concurrent ones and fails t for
// every other answer that is not a refusal (422) blaming one of fields:
// the race tests where only some of n identical requests may win (the last
// unit of stock, one payroll per period, a payable not overdrawn) and the
// losers must be told why.
func Created(t testing.TB, rs []Resp, fields ...string) []Resp {
	t.Helper()
	var created []Resp
	for i, r := range rs {
		switch r.Status {
		case http.StatusCreated:
			created = append(created, r)
		case http.StatusUnprocessableEntity:
			if !blames(r, fields) {
				t.Errorf("concurrent request %d refused without errors under %v: %s", i, fields, r.Raw)
			}
		default:
			t.Errorf("concurrent request %d: %d %s", i, r.Status, r.Raw)
		}
	}
	return created
}

// blames reports whether a 422 carries an error under one of fields (any
// 422 does when no field is named).
func blames(r Resp, fields []string) bool {
	if len(fields) == 0 {
		return true
	}
	for _, f := range fields {
		if len(r.FieldErrors(f)) > 0 {
			return true
		}
	}
	return false
}

// XLSX opens a downloaded workbook with excelize (the external reader the
// project's XLSX tests use), closed when the test ends, and returns it with
// the cells of one sheet, the first when sheet is "" (the file is for cell
// types and raw values).
func XLSX(t testing.TB, raw []byte, sheet string) (*excelize.File, [][]string) {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("excelize: %v", err)
	}
	t.Cleanup(func() { x.Close() })
	if sheet == "" {
		sheet = x.GetSheetName(0)
	}
	rows, err := x.GetRows(sheet)
	if err != nil {
		t.Fatalf("sheet %q: %v", sheet, err)
	}
	return x, rows
}

// CSVRows reads a downloaded CSV with encoding/csv, every record of it.
func CSVRows(t testing.TB, raw []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v", err)
	}
	return recs
}

// Barre runs one sweep of a scheduler's sweeper (Barrer of the Hacienda
// queue, of the scheduled reports) and fails t unless it succeeds taking
// want items (que says which step of the test it was).
func Barre(t testing.TB, barrer func(context.Context) (int, error), want int, que string) {
	t.Helper()
	n, err := barrer(context.Background())
	if err != nil {
		t.Fatalf("%s: sweep: %v", que, err)
	}
	if n != want {
		t.Fatalf("%s: the sweep took %d, want %d", que, n, want)
	}
}
