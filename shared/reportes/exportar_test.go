package reportes_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/testenv"
)

// The downloads come through the local gateway as a client gets them (the
// Lambda adapter sends binary bodies base64-encoded; the gateway, like API
// Gateway, decodes them): right media type and file name, and files that
// their readers open with the figures of the JSON report.
func TestExportsOpenInTheirReadersWithTheReportsFigures(t *testing.T) {
	f := escenario(t)
	nombre := "estado_resultados_2026-03-01_2026-03-31"

	t.Run("pdf", func(t *testing.T) {
		r := f.descarga(t, fin("estado_resultados", "formato=pdf", "comparar=periodo_anterior"), exportar.MediaPDF, nombre+".pdf")
		if !bytes.HasPrefix(r.Raw, []byte("%PDF-")) {
			t.Fatalf("not a PDF: %q", r.Raw[:min(20, len(r.Raw))])
		}
		text := testenv.PDFTexto(t, r.Raw)
		for _, s := range []string{"Demo S.A.", "Cédula jurídica:", "Estado de resultados", "Del 2026-03-01 al 2026-03-31",
			"Utilidad neta", "-88,000.00", "15,000.00", "Comparación con el período anterior", "Página 1 de 1"} {
			if !strings.Contains(text, s) {
				t.Errorf("the PDF text lacks %q:\n%s", s, text)
			}
		}
	})

	t.Run("excel", func(t *testing.T) {
		r := f.descarga(t, fin("estado_resultados", "formato=excel"), exportar.MediaExcel, nombre+".xlsx")
		x, rows := testenv.XLSX(t, r.Raw, "Reporte")
		if rows[0][0] != "Demo S.A." {
			t.Errorf("header: %v", rows[:4])
		}
		totales := map[string]string{}
		for i, row := range rows {
			if len(row) < 2 {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(2, i+1)
			typ, _ := x.GetCellType("Reporte", cell)
			raw, _ := x.GetCellValue("Reporte", cell, excelize.Options{RawCellValue: true})
			if typ == excelize.CellTypeNumber || typ == excelize.CellTypeUnset {
				totales[row[0]] = raw
			}
		}
		for label, w := range map[string]string{"Ingresos de operación": "15000", "Costo de ventas": "3000", "Utilidad neta": "-88000"} {
			if totales[label] != w {
				t.Errorf("Excel total %q = %q, want the number %s (%v)", label, totales[label], w, totales)
			}
		}
		// Amount cells are numbers, not text.
		cell := ""
		for i, row := range rows {
			if len(row) > 0 && row[0] == "Utilidad neta" {
				cell, _ = excelize.CoordinatesToCellName(2, i+1)
			}
		}
		if typ, _ := x.GetCellType("Reporte", cell); typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
			t.Errorf("Utilidad neta is a text cell (%v)", typ)
		}
	})

	t.Run("csv", func(t *testing.T) {
		r := f.descarga(t, "/api/reportes/balanza-comprobacion?"+marzo+"&formato=csv", exportar.MediaCSV, "balanza_comprobacion_2026-03-01_2026-03-31.csv")
		recs := testenv.CSVRows(t, r.Raw)
		if strings.Join(recs[0], ",") != "seccion,codigo,nombre,saldo_inicial_deudor,saldo_inicial_acreedor,debe,haber,saldo_final_deudor,saldo_final_acreedor" {
			t.Errorf("header row: %v", recs[0])
		}
		tot := map[string]string{}
		var banco []string
		for _, rec := range recs[1:] {
			if rec[0] == "totales" {
				tot[rec[1]] = rec[2]
			}
			if rec[1] == "1.1.02.001" {
				banco = rec
			}
		}
		if tot["Total debe"] != "469950.00" || tot["Total haber"] != "469950.00" {
			t.Errorf("CSV totals: %v", tot)
		}
		if strings.Join(banco, ",") != "cuentas,1.1.02.001,Banco cuenta principal,916000.00,0.00,50000.00,400000.00,566000.00,0.00" {
			t.Errorf("bank row: %v", banco)
		}
	})

	t.Run("pdf of the journal", func(t *testing.T) {
		r := f.descarga(t, "/api/reportes/libro-diario?"+marzo+"&formato=pdf", exportar.MediaPDF, "libro_diario_2026-03-01_2026-03-31.pdf")
		if !bytes.HasPrefix(r.Raw, []byte("%PDF-")) {
			t.Fatalf("journal pdf: %q", r.Raw[:min(20, len(r.Raw))])
		}
	})
}
