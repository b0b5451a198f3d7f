package exportar_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/exportar"
)

// A text cell a spreadsheet would run as a formula (= + - @, or a tab or
// carriage return before them) is written with a leading apostrophe; plain
// numbers and ordinary text are written as they are.
func TestCSVTextCellsNeverBecomeFormulas(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"an equals sign", `=HYPERLINK("http://x.cr","clic")`, `'=HYPERLINK("http://x.cr","clic")`},
		{"a plus sign", "+1+1", "'+1+1"},
		{"a minus sign", "-2+3", "'-2+3"},
		{"an at sign", "@SUM(A1:A9)", "'@SUM(A1:A9)"},
		{"a leading tab", "\t=1+1", "'\t=1+1"},
		{"a leading carriage return", "\r=1+1", "'\r=1+1"},
		{"a phone with its prefix", "+506 8888-7777", "'+506 8888-7777"},
		{"a lone minus", "-", "'-"},
		{"a negative amount as text stays a number", "-1500.00", "-1500.00"},
		{"a signed integer stays a number", "+3", "+3"},
		{"a JSON number is never touched", json.Number("-3"), "-3"},
		{"ordinary text", "Café = rico", "Café = rico"},
		{"an empty cell", nil, ""},
	}
	fila := make([]any, len(cases))
	cols := make([]string, len(cases))
	for i, c := range cases {
		fila[i], cols[i] = c.in, c.name
	}
	var buf bytes.Buffer
	if err := exportar.CSV(&buf, exportar.Tabla{Columnas: cols, Filas: [][]any{fila}}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(buf.Bytes(), []byte("\ufeff")))).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("%v %q", err, buf.Bytes())
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if recs[1][i] != c.want {
				t.Errorf("got %q, want %q", recs[1][i], c.want)
			}
		})
	}
}

// In a workbook the same text is an inline string: shown as written, with
// no formula behind it.
func TestExcelTextThatLooksLikeAFormulaIsText(t *testing.T) {
	var buf bytes.Buffer
	if err := exportar.Excel(&buf, "Datos", exportar.Tabla{Columnas: []string{"nombre"}, Filas: [][]any{{"=1+1"}}}); err != nil {
		t.Fatal(err)
	}
	x, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := x.GetCellValue("Datos", "A2")
	f, _ := x.GetCellFormula("Datos", "A2")
	typ, _ := x.GetCellType("Datos", "A2")
	if v != "=1+1" || f != "" || typ != excelize.CellTypeInlineString {
		t.Fatalf("value %q formula %q type %v", v, f, typ)
	}
}

// Timestamps are written as the API's JSON writes them (UTC ending in Z,
// no trailing zeros), not as PostgreSQL prints them; free text that looks
// like one is left alone.
func TestExportedTimestampsEndInZAsInTheJSON(t *testing.T) {
	fila := map[string]any{"creado_en": "2026-11-24T11:00:00.120000+00:00", "fecha_emision": "2026-11-24T05:00:00-06:00",
		"nota": "2026-11-24T11:00:00+00:00"}
	tabla, err := exportar.Aplanar([]map[string]any{fila})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for i, c := range tabla.Columnas {
		got[c] = tabla.Filas[0][i]
	}
	want := map[string]any{"creado_en": "2026-11-24T11:00:00.12Z", "fecha_emision": "2026-11-24T05:00:00-06:00", "nota": "2026-11-24T11:00:00+00:00"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}
