package reportes

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/exportar"
)

// Encabezado is the company every exported page names.
type Encabezado struct {
	Empresa string
	// Cedula is the company's cédula jurídica (empresas.nit_ruc).
	Cedula string
}

// Exportar renders any report (of any registered type) as a file: the
// sections with their columns and totals, the comparison when present,
// and the report's totals in the type's order. Amounts stay decimals up
// to the file: text in CSV and PDF, number cells (IEEE doubles, as Excel
// stores every number) with a 2-decimal format in Excel.
func Exportar(r *Reporte, t Tipo, h Encabezado, formato string) (exportar.Archivo, error) {
	b := bloques(r, t)
	nombre := nombreArchivo(r)
	switch formato {
	case FormatoCSV:
		d, err := exportarCSV(b)
		return exportar.Archivo{Nombre: nombre + ".csv", ContentType: exportar.MediaCSV, Datos: d}, err
	case FormatoExcel:
		d, err := exportarExcel(r, b, h)
		return exportar.Archivo{Nombre: nombre + ".xlsx", ContentType: exportar.MediaExcel, Datos: d}, err
	case FormatoPDF:
		d, err := exportarPDF(r, b, h)
		return exportar.Archivo{Nombre: nombre + ".pdf", ContentType: exportar.MediaPDF, Datos: d}, err
	}
	return exportar.Archivo{}, fmt.Errorf("reportes: formato desconocido %q", formato)
}

// nombreArchivo is <tipo>_<fecha_inicio>_<fecha_fin>.
func nombreArchivo(r *Reporte) string {
	parts := []string{strings.ReplaceAll(r.Tipo, "-", "_")}
	for _, k := range []string{"fecha_inicio", "fecha_fin"} {
		if s, ok := r.Parametros[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "_")
}

// periodo is the period line of the header.
func periodo(r *Reporte) string {
	ini, _ := r.Parametros["fecha_inicio"].(string)
	fin, _ := r.Parametros["fecha_fin"].(string)
	moneda, _ := r.Parametros["moneda"].(string)
	corte, _ := r.Parametros["fecha_corte"].(string)
	if corte == "" {
		corte, _ = r.Parametros["fecha"].(string) // the inventory valuation's date
	}
	var s string
	switch {
	case corte != "":
		s = "Al " + corte
	case r.Tipo == BalanceGeneral:
		s = "Al " + fin
	case ini != "":
		s = "Del " + ini + " al " + fin
	default:
		s = "Al " + fin
	}
	if moneda == USD {
		return s + " · Montos en dólares (USD)"
	}
	return s + " · Montos en colones (CRC)"
}

// bloque is a table of the export: a title, columns and rows of cells.
type bloque struct {
	clave    string
	titulo   string
	columnas []Columna
	filas    [][]celda
}

// celda is one cell: text, or an amount.
type celda struct {
	texto   string
	importe *decimal.Decimal
	escala  int32 // decimals of importe: 2, or 3 for a quantity
	total   bool
}

// bloques lays the report out: its sections, the comparison, the totals.
func bloques(r *Reporte, t Tipo) []bloque {
	var out []bloque
	for _, s := range r.Secciones {
		b := bloque{clave: s.Clave, titulo: s.Titulo, columnas: s.Columnas}
		for _, f := range s.Filas {
			fila := make([]celda, len(s.Columnas))
			for i, c := range s.Columnas {
				fila[i] = valorCelda(f[c.Clave], c.Tipo)
				if c.Clave == "nombre" && c.Tipo == ColTexto {
					if n, ok := entero(f["nivel"]); ok && n > 1 {
						fila[i].texto = strings.Repeat("  ", int(n-1)) + fila[i].texto
					}
				}
			}
			b.filas = append(b.filas, fila)
		}
		if len(s.Totales) > 0 {
			b.filas = append(b.filas, filaTotal(s.Columnas, "Total "+minuscula(s.Titulo), s.Totales))
		}
		out = append(out, b)
	}
	if c := r.Comparacion; c != nil {
		ini, _ := c.Parametros["fecha_inicio"].(string)
		fin, _ := c.Parametros["fecha_fin"].(string)
		b := bloque{clave: "comparacion", titulo: "Comparación con el período anterior (" + ini + " al " + fin + ")",
			columnas: []Columna{{Clave: "concepto", Titulo: "Concepto", Tipo: ColTexto}, {Clave: "actual", Titulo: "Actual", Tipo: ColImporte},
				{Clave: "anterior", Titulo: "Anterior", Tipo: ColImporte}, {Clave: "variacion", Titulo: "Variación", Tipo: ColImporte},
				{Clave: "porcentaje", Titulo: "Variación %", Tipo: ColPorcentaje}}}
		for _, v := range c.Variacion {
			fila := []celda{{texto: tituloTotal(t, v.Clave)}, imp(v.Actual.Decimal), imp(v.Anterior.Decimal), imp(v.Monto.Decimal), {texto: "—"}}
			if v.Porcentaje != nil {
				fila[4] = imp(v.Porcentaje.Decimal)
			}
			b.filas = append(b.filas, fila)
		}
		out = append(out, b)
	}
	tot := bloque{clave: "totales", titulo: "Totales", columnas: []Columna{{Clave: "concepto", Titulo: "Concepto", Tipo: ColTexto},
		{Clave: "monto", Titulo: "Monto", Tipo: ColImporte}}}
	for _, col := range t.Totales {
		if v, ok := r.Totales[col.Clave]; ok {
			c := impDe(v)
			c.total = true
			tot.filas = append(tot.filas, []celda{{texto: col.Titulo, total: true}, c})
		}
	}
	return append(out, tot)
}

// filaTotal places a section's totals under their columns: "total" under
// the last amount column, any other key under the column of that key.
func filaTotal(cols []Columna, titulo string, tot map[string]Importe) []celda {
	fila := make([]celda, len(cols))
	ultimo, primero := -1, -1
	for i, c := range cols {
		if c.Tipo == ColImporte {
			ultimo = i
		} else if primero < 0 {
			primero = i
		}
		if v, ok := tot[c.Clave]; ok {
			fila[i] = impDe(v)
		}
	}
	if v, ok := tot["total"]; ok && ultimo >= 0 {
		fila[ultimo] = impDe(v)
	}
	if primero < 0 {
		primero = 0
	}
	// The title goes in the widest text column after the first (the name).
	pos := primero
	for i, c := range cols {
		if c.Tipo == ColTexto && (c.Clave == "nombre" || c.Clave == "descripcion" || c.Clave == "cuenta") {
			pos = i
			break
		}
	}
	fila[pos] = celda{texto: titulo}
	for i := range fila {
		fila[i].total = true
	}
	return fila
}

// minuscula lowers a title's first letter when it starts a word
// ("Ingresos de operación"), not an acronym or a number ("AS-2026-000001").
func minuscula(s string) string {
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

func tituloTotal(t Tipo, clave string) string {
	for _, c := range t.Totales {
		if c.Clave == clave {
			return c.Titulo
		}
	}
	return clave
}

func imp(d decimal.Decimal) celda { d = d.Round(2); return celda{importe: &d, escala: 2} }

// impDe is the cell of a report's value: an amount, or a quantity with its
// 3 decimals.
func impDe(i Importe) celda {
	d := i.Round(i.Escala())
	return celda{importe: &d, escala: i.Escala()}
}

// valorCelda reads a row's value (as computed, or as read back from the
// cache: json.Number, string, float64) as a cell of the column's kind.
func valorCelda(v any, tipo string) celda {
	if tipo == ColImporte || tipo == ColPorcentaje {
		switch x := v.(type) {
		case Importe:
			return impDe(x)
		case json.Number, string:
			// read back from the cache: a quantity has 3 decimals
			var i Importe
			if err := i.UnmarshalJSON([]byte(fmt.Sprint(x))); err == nil {
				return impDe(i)
			}
		}
		if d, ok := decimalDe(v); ok {
			return imp(d)
		}
		return celda{}
	}
	switch x := v.(type) {
	case nil:
		return celda{}
	case string:
		return celda{texto: x}
	case json.Number:
		return celda{texto: x.String()}
	case Importe:
		return celda{texto: x.StringFixed(2)}
	default:
		return celda{texto: fmt.Sprint(x)}
	}
}

func decimalDe(v any) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case Importe:
		return x.Decimal, true
	case decimal.Decimal:
		return x, true
	case json.Number:
		d, err := decimal.NewFromString(x.String())
		return d, err == nil
	case string:
		d, err := decimal.NewFromString(x)
		return d, err == nil
	case float64:
		return decimal.NewFromFloat(x), true
	}
	return decimal.Zero, false
}

func entero(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		return int64(x), true
	}
	return 0, false
}

// plano is a cell as text: amounts as plain decimals (CSV).
func (c celda) plano() string {
	if c.importe != nil {
		return c.importe.StringFixed(max(c.escala, 2))
	}
	return c.texto
}

// legible is a cell as people read it: amounts with thousands separators.
func (c celda) legible() string {
	if c.importe == nil {
		return c.texto
	}
	if c.escala > 2 {
		return milesCon(*c.importe, c.escala)
	}
	return Miles(*c.importe)
}

// Miles writes an amount with 2 decimals and comma thousands separators
// ("-1,234,567.89"), as the PDF shows it.
func Miles(d decimal.Decimal) string { return milesCon(d, 2) }

// milesCon is Miles with escala decimals (a quantity's 3).
func milesCon(d decimal.Decimal, escala int32) string {
	s := d.Abs().StringFixed(escala)
	ent, dec := s[:len(s)-int(escala)-1], s[len(s)-int(escala):]
	var b strings.Builder
	for i, ch := range ent {
		if i > 0 && (len(ent)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	out := b.String() + "." + dec
	if d.Round(escala).IsNegative() {
		return "-" + out
	}
	return out
}

// exportarCSV writes one table: the header is "seccion" and the columns of
// the first section (keys, machine-friendly); other blocks put their cells
// in order under it. The section totals' rows carry the section key; the
// report's totals come last with seccion "totales" (concept, amount).
func exportarCSV(bs []bloque) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	ancho := 0
	var cab []string
	for _, b := range bs {
		if len(b.columnas) > ancho {
			ancho = len(b.columnas)
		}
	}
	if len(bs) > 0 {
		cab = append(cab, "seccion")
		for _, c := range bs[0].columnas {
			cab = append(cab, c.Clave)
		}
		for len(cab) < ancho+1 {
			cab = append(cab, "columna_"+strconv.Itoa(len(cab)))
		}
	}
	if err := w.Write(cab); err != nil {
		return nil, fmt.Errorf("reportes: csv: %w", err)
	}
	for _, b := range bs {
		for _, f := range b.filas {
			rec := make([]string, len(cab))
			rec[0] = b.clave
			for i, c := range f {
				if i+1 < len(rec) {
					rec[i+1] = c.plano()
					if c.importe == nil {
						rec[i+1] = exportar.SinFormula(rec[i+1])
					}
				}
			}
			if err := w.Write(rec); err != nil {
				return nil, fmt.Errorf("reportes: csv: %w", err)
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("reportes: csv: %w", err)
	}
	return buf.Bytes(), nil
}

// exportarExcel writes one sheet: the company header, then each block
// with its title, a header row and its rows; amounts are number cells.
func exportarExcel(r *Reporte, bs []bloque, h Encabezado) ([]byte, error) {
	maxCols := 2
	for _, b := range bs {
		maxCols = max(maxCols, len(b.columnas))
	}
	anchos := []exportar.Ancho{{Desde: 1, Hasta: 1, Ancho: 18}, {Desde: 2, Hasta: 2, Ancho: 40}}
	if maxCols > 2 {
		anchos = append(anchos, exportar.Ancho{Desde: 3, Hasta: maxCols, Ancho: 18})
	}
	var buf bytes.Buffer
	x, err := exportar.NuevaHoja(&buf, "Reporte", anchos...)
	if err != nil {
		return nil, fmt.Errorf("reportes: excel: %w", err)
	}
	for _, l := range []string{h.Empresa, "Cédula jurídica: " + h.Cedula, r.Titulo, periodo(r)} {
		x.Fila(exportar.Texto(l, exportar.Negrita))
	}
	for _, b := range bs {
		x.Fila()
		x.Fila(exportar.Texto(b.titulo, exportar.Negrita))
		titulos := make([]exportar.Celda, len(b.columnas))
		for i, c := range b.columnas {
			titulos[i] = exportar.Texto(c.Titulo, exportar.Negrita)
		}
		x.Fila(titulos...)
		for _, cs := range b.filas {
			fila := make([]exportar.Celda, len(cs))
			for i, c := range cs {
				switch {
				case c.importe != nil && c.escala > 2 && c.total:
					fila[i] = exportar.Numero(c.importe.InexactFloat64(), exportar.CantidadNegrita)
				case c.importe != nil && c.escala > 2:
					fila[i] = exportar.Numero(c.importe.InexactFloat64(), exportar.Cantidad)
				case c.importe != nil && c.total:
					fila[i] = exportar.Numero(c.importe.InexactFloat64(), exportar.ImporteNegrita)
				case c.importe != nil:
					fila[i] = exportar.Numero(c.importe.InexactFloat64(), exportar.Importe)
				case c.total:
					fila[i] = exportar.Texto(c.texto, exportar.Negrita)
				default:
					fila[i] = exportar.Texto(c.texto, exportar.Normal)
				}
			}
			x.Fila(fila...)
		}
	}
	if err := x.Cerrar(); err != nil {
		return nil, fmt.Errorf("reportes: excel: %w", err)
	}
	return buf.Bytes(), nil
}

// exportarPDF writes an A4 document (landscape when the tables are wide):
// on every page the company's name and cédula jurídica, the report's title
// and period, and "Página N de M" at the foot.
func exportarPDF(r *Reporte, bs []bloque, h Encabezado) ([]byte, error) {
	orientacion, importe := "P", 27.0
	for _, b := range bs {
		if anchoFijo(b.columnas, importe) > 120 {
			orientacion, importe = "L", 31
		}
	}
	pdf := fpdf.New(orientacion, "mm", "A4", "")
	tr := pdf.UnicodeTranslatorFromDescriptor("") // UTF-8 -> cp1252 of the core fonts
	pdf.SetTitle(r.Titulo, true)
	pdf.SetAuthor(h.Empresa, true)
	pdf.SetMargins(12, 12, 12)
	pdf.SetAutoPageBreak(true, 15)
	pdf.AliasNbPages("{nb}")
	anchoPagina, _ := pdf.GetPageSize()
	util := anchoPagina - 24
	pdf.SetHeaderFunc(func() {
		pdf.SetFont("Helvetica", "B", 12)
		pdf.CellFormat(util, 6, tr(h.Empresa), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.CellFormat(util, 5, tr("Cédula jurídica: "+h.Cedula), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "B", 11)
		pdf.CellFormat(util, 6, tr(r.Titulo), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.CellFormat(util, 5, tr(periodo(r)), "B", 1, "L", false, 0, "")
		pdf.Ln(3)
	})
	pdf.SetFooterFunc(func() {
		pdf.SetY(-12)
		pdf.SetFont("Helvetica", "", 8)
		pdf.CellFormat(util, 5, tr(fmt.Sprintf("Página %d de {nb}", pdf.PageNo())), "", 0, "C", false, 0, "")
	})
	pdf.AddPage()
	for _, b := range bs {
		anchos := anchosColumnas(b.columnas, util, importe)
		pdf.SetFont("Helvetica", "B", 10)
		pdf.CellFormat(util, 6, tr(b.titulo), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "B", 7)
		for i, c := range b.columnas {
			pdf.CellFormat(anchos[i], 5, recortar(pdf, tr(c.Titulo), anchos[i]-1), "B", 0, alineacion(c.Tipo), false, 0, "")
		}
		pdf.Ln(-1)
		for _, fila := range b.filas {
			for i, c := range fila {
				if c.total {
					pdf.SetFont("Helvetica", "B", 8)
				} else {
					pdf.SetFont("Helvetica", "", 8)
				}
				txt := recortar(pdf, tr(c.legible()), anchos[i]-1)
				pdf.CellFormat(anchos[i], 5, txt, "", 0, alineacion(b.columnas[i].Tipo), false, 0, "")
			}
			pdf.Ln(-1)
		}
		pdf.Ln(3)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("reportes: pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// anchoFijo is the width (mm) of the columns that are not free text, an
// amount column being importe wide.
func anchoFijo(cs []Columna, importe float64) float64 {
	w := 0.0
	for _, c := range cs {
		w += anchoTipo(c, importe)
	}
	return w
}

func anchoTipo(c Columna, importe float64) float64 {
	switch c.Tipo {
	case ColImporte:
		return importe
	case ColPorcentaje:
		return 20
	case ColFecha:
		return 20
	case ColEntero:
		return 11
	}
	if c.Clave == "codigo" || c.Clave == "numero" {
		return 26
	}
	return 0
}

// anchosColumnas gives the fixed columns their width and shares the rest
// among the free text columns.
func anchosColumnas(cs []Columna, util, importe float64) []float64 {
	out := make([]float64, len(cs))
	libres := 0
	for i, c := range cs {
		out[i] = anchoTipo(c, importe)
		if out[i] == 0 {
			libres++
		}
	}
	resto := util - anchoFijo(cs, importe)
	for i := range out {
		if out[i] == 0 {
			out[i] = max(resto/float64(libres), 20)
		}
	}
	return out
}

func alineacion(tipo string) string {
	if tipo == ColImporte || tipo == ColPorcentaje || tipo == ColEntero {
		return "R"
	}
	return "L"
}

// recortar shortens s to fit w millimetres.
func recortar(pdf *fpdf.Fpdf, s string, w float64) string {
	if pdf.GetStringWidth(s) <= w {
		return s
	}
	for len(s) > 1 && pdf.GetStringWidth(s+"...") > w {
		s = s[:len(s)-1]
	}
	return s + "..."
}
