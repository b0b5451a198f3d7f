package exportar_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/exportar"
)

// The hand-written workbook is opened by excelize, the external reader of
// the tests: one sheet with the given name, a bold header, number cells
// for numbers and text (escaped, accents kept) for the rest.
func TestExcelIsAWorkbookExcelizeReadsCellByCell(t *testing.T) {
	cols := make([]string, 28) // past Z: AA, AB
	for i := range cols {
		cols[i] = "c" + string(rune('a'+i%26))
	}
	cols[0], cols[1], cols[2], cols[3] = "nombre", "monto", "activo", "nota"
	fila := make([]any, len(cols))
	fila[0], fila[1], fila[2], fila[3] = "Ñandú & <Cía> \"S.A.\"", json.Number("1500.50"), true, "  con espacios\x01 "
	fila[27] = json.Number("-3")
	grande := make([]any, len(cols))
	grande[0], grande[1] = strings.Repeat("x", 40000), json.Number("1e5")
	var buf bytes.Buffer
	if err := exportar.Excel(&buf, "Datos", exportar.Tabla{Columnas: cols, Filas: [][]any{fila, grande}}); err != nil {
		t.Fatal(err)
	}
	x, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := x.GetSheetList(); len(got) != 1 || got[0] != "Datos" {
		t.Fatalf("sheets %v", got)
	}
	rows, err := x.GetRows("Datos")
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows %d %v", len(rows), err)
	}
	if rows[0][0] != "nombre" || rows[0][27] != cols[27] {
		t.Errorf("header %v", rows[0])
	}
	tests := []struct {
		name, cell, want string
		typ              excelize.CellType
	}{
		{"text is escaped and keeps its accents", "A2", `Ñandú & <Cía> "S.A."`, excelize.CellTypeInlineString},
		{"a number is a number cell", "B2", "1500.5", excelize.CellTypeUnset},
		{"a boolean reads sí", "C2", "sí", excelize.CellTypeInlineString},
		{"spaces are kept, a control character is replaced", "D2", "  con espacios\uFFFD ", excelize.CellTypeInlineString},
		{"column 28 is AB", "AB2", "-3", excelize.CellTypeUnset},
		{"an exponent stays text", "B3", "1e5", excelize.CellTypeInlineString},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := x.GetCellValue("Datos", tt.cell)
			typ, _ := x.GetCellType("Datos", tt.cell)
			if v != tt.want || typ != tt.typ {
				t.Errorf("%s = %q (%v), want %q (%v)", tt.cell, v, typ, tt.want, tt.typ)
			}
		})
	}
	if v, _ := x.GetCellValue("Datos", "A3"); len(v) != 32767 {
		t.Errorf("a long text is cut to Excel's 32767 characters, got %d", len(v))
	}
	for cell, bold := range map[string]bool{"A1": true, "AB1": true, "A2": false} {
		id, _ := x.GetCellStyle("Datos", cell)
		st, err := x.GetStyle(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Font != nil && st.Font.Bold; got != bold {
			t.Errorf("%s bold = %v", cell, got)
		}
	}
}

// A sheet written row by row keeps its column widths and the styles a
// report uses: bold, and #,##0.00 amounts (plain or bold).
func TestASheetKeepsWidthsAndAmountStyles(t *testing.T) {
	var buf bytes.Buffer
	h, err := exportar.NuevaHoja(&buf, "Reporte", exportar.Ancho{Desde: 1, Hasta: 1, Ancho: 18}, exportar.Ancho{Desde: 2, Hasta: 2, Ancho: 40},
		exportar.Ancho{Desde: 3, Hasta: 5, Ancho: 18})
	if err != nil {
		t.Fatal(err)
	}
	h.Fila(exportar.Texto("Demo S.A.", exportar.Negrita))
	h.Fila()
	h.Fila(exportar.Texto("Ventas", exportar.Normal), exportar.Numero(15000.5, exportar.Importe), exportar.Numero(-88000, exportar.ImporteNegrita))
	if err := h.Cerrar(); err != nil {
		t.Fatal(err)
	}
	x, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cell, raw string
		bold      bool
		fmt       int
	}{
		{"A1", "Demo S.A.", true, 0},
		{"A2", "", false, 0},
		{"A3", "Ventas", false, 0},
		{"B3", "15000.5", false, 4},
		{"C3", "-88000", true, 4},
	} {
		raw, _ := x.GetCellValue("Reporte", c.cell, excelize.Options{RawCellValue: true})
		id, _ := x.GetCellStyle("Reporte", c.cell)
		st, err := x.GetStyle(id)
		if err != nil {
			t.Fatal(err)
		}
		if bold := st.Font != nil && st.Font.Bold; raw != c.raw || bold != c.bold || st.NumFmt != c.fmt {
			t.Errorf("%s = %q bold %v format %d, want %q %v %d", c.cell, raw, bold, st.NumFmt, c.raw, c.bold, c.fmt)
		}
	}
	if v, _ := x.GetCellValue("Reporte", "B3"); v != "15,000.50" {
		t.Errorf("B3 formatted = %q", v)
	}
	for col, w := range map[string]float64{"A": 18, "B": 40, "C": 18, "E": 18} {
		if got, _ := x.GetColWidth("Reporte", col); got != w {
			t.Errorf("column %s width %v, want %v", col, got, w)
		}
	}
}

func TestExcelRefusesASheetNameExcelWouldNot(t *testing.T) {
	for _, name := range []string{"", "a/b", "[x]", strings.Repeat("h", 32)} {
		if _, err := exportar.NuevaHoja(&bytes.Buffer{}, name); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
}

func TestColumnWidthsThatOverlapAreRefused(t *testing.T) {
	for name, anchos := range map[string][]exportar.Ancho{
		"overlapping":  {{Desde: 1, Hasta: 3, Ancho: 18}, {Desde: 2, Hasta: 2, Ancho: 40}},
		"out of order": {{Desde: 3, Hasta: 3, Ancho: 18}, {Desde: 1, Hasta: 1, Ancho: 40}},
		"column 0":     {{Desde: 0, Hasta: 1, Ancho: 18}},
		"no width":     {{Desde: 1, Hasta: 1}},
	} {
		if _, err := exportar.NuevaHoja(&bytes.Buffer{}, "Hoja", anchos...); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
