package exportar

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The workbooks are the smallest SpreadsheetML package Excel, LibreOffice
// and excelize open (content types, relationships, workbook, four styles,
// one worksheet with inline strings), streamed by hand with archive/zip.
// Writing one with excelize made every function that can export link its
// write path, which reaches a reflective deep copy (go-deepcopy calls
// reflect's Method): the linker then keeps every exported method of every
// reachable type, the whole S3 or SQS client included, about 4 MB of each
// binary. excelize stays where a workbook is read (shared/importaciones).

// Estilo is a cell's style: weight and number format.
type Estilo uint8

// The styles of styles.xml's cellXfs, in order.
const (
	Normal Estilo = iota
	Negrita
	// Importe is the number format #,##0.00 (Excel's built-in format 4).
	Importe
	ImporteNegrita
	// Cantidad is a quantity's #,##0.000 (stock and lines have 3 decimals).
	Cantidad
	CantidadNegrita
)

// Celda is one cell: a number cell when Numero is set (its value as
// Excel stores it), else text; an empty cell is left out.
type Celda struct {
	Texto  string
	Numero string
	Estilo Estilo
}

// Texto is a text cell.
func Texto(s string, e Estilo) Celda { return Celda{Texto: s, Estilo: e} }

// Numero is a number cell (Excel keeps numbers as IEEE doubles).
func Numero(v float64, e Estilo) Celda {
	return Celda{Numero: strconv.FormatFloat(v, 'f', -1, 64), Estilo: e}
}

// Ancho sets the width (in characters) of the columns Desde..Hasta
// (1-based); a sheet's ranges go left to right without overlapping, as
// Excel requires.
type Ancho struct {
	Desde, Hasta int
	Ancho        float64
}

// Hoja writes a one-sheet workbook row by row: NuevaHoja, Fila for each
// row from row 1, Cerrar.
type Hoja struct {
	z    *zip.Writer
	b    *bufio.Writer
	fila int
}

// NuevaHoja starts a workbook whose one sheet is named nombre (1 to 31
// characters, none of : \ / ? * [ ], as Excel wants).
func NuevaHoja(w io.Writer, nombre string, anchos ...Ancho) (*Hoja, error) {
	if n := utf8.RuneCountInString(nombre); n == 0 || n > 31 || strings.ContainsAny(nombre, `:\/?*[]`) {
		return nil, fmt.Errorf("exportar: excel: nombre de hoja inválido %q", nombre)
	}
	for i, a := range anchos {
		if a.Desde < 1 || a.Hasta < a.Desde || a.Ancho <= 0 || i > 0 && a.Desde <= anchos[i-1].Hasta {
			return nil, fmt.Errorf("exportar: excel: columnas %d-%d: rangos de ancho inválidos o superpuestos", a.Desde, a.Hasta)
		}
	}
	h := &Hoja{z: zip.NewWriter(w)}
	for _, p := range [...]struct{ nombre, xml string }{
		{"[Content_Types].xml", contentTypes},
		{"_rels/.rels", rels},
		{"xl/workbook.xml", fmt.Sprintf(workbook, escapar(nombre))},
		{"xl/_rels/workbook.xml.rels", workbookRels},
		{"xl/styles.xml", styles},
		{"xl/worksheets/sheet1.xml", worksheet},
	} {
		if h.b != nil {
			if err := h.b.Flush(); err != nil {
				return nil, fmt.Errorf("exportar: excel: %w", err)
			}
		}
		f, err := h.z.Create(p.nombre)
		if err != nil {
			return nil, fmt.Errorf("exportar: excel: %w", err)
		}
		h.b = bufio.NewWriter(f)
		h.b.WriteString(xml.Header)
		h.b.WriteString(p.xml)
	}
	// The worksheet stays open: its columns, then the rows.
	if len(anchos) > 0 {
		h.b.WriteString(`<cols>`)
		for _, a := range anchos {
			fmt.Fprintf(h.b, `<col min="%d" max="%d" width="%s" customWidth="1"/>`, a.Desde, a.Hasta, strconv.FormatFloat(a.Ancho, 'f', -1, 64))
		}
		h.b.WriteString(`</cols>`)
	}
	h.b.WriteString(`<sheetData>`)
	return h, nil
}

// Fila writes the next row (no cells: an empty row).
func (h *Hoja) Fila(celdas ...Celda) {
	h.fila++
	r := strconv.Itoa(h.fila)
	h.b.WriteString(`<row r="` + r + `">`)
	for i, c := range celdas {
		if c.Numero == "" && c.Texto == "" {
			continue
		}
		h.b.WriteString(`<c r="` + columna(i) + r + `"`)
		if c.Estilo != Normal {
			h.b.WriteString(` s="` + strconv.Itoa(int(c.Estilo)) + `"`)
		}
		if c.Numero != "" {
			h.b.WriteString(`><v>` + c.Numero + `</v></c>`)
			continue
		}
		h.b.WriteString(` t="inlineStr"><is><t xml:space="preserve">`)
		h.b.WriteString(escapar(recortar(c.Texto)))
		h.b.WriteString(`</t></is></c>`)
	}
	h.b.WriteString(`</row>`)
}

// Cerrar ends the sheet and the package.
func (h *Hoja) Cerrar() error {
	h.b.WriteString(`</sheetData></worksheet>`)
	if err := h.b.Flush(); err != nil {
		return fmt.Errorf("exportar: excel: %w", err)
	}
	if err := h.z.Close(); err != nil {
		return fmt.Errorf("exportar: excel: %w", err)
	}
	return nil
}

// Excel writes the table as one sheet with a bold header row; numbers
// (without an exponent) are number cells.
func Excel(w io.Writer, hoja string, t Tabla) error {
	h, err := NuevaHoja(w, hoja)
	if err != nil {
		return err
	}
	celdas := make([]Celda, len(t.Columnas))
	for i, c := range t.Columnas {
		celdas[i] = Texto(c, Negrita)
	}
	h.Fila(celdas...)
	for _, f := range t.Filas {
		celdas = celdas[:0]
		for _, v := range f {
			c := Texto(texto(v), Normal)
			if n, ok := v.(json.Number); ok && !strings.ContainsAny(string(n), "eE") {
				if x, err := strconv.ParseFloat(string(n), 64); err == nil {
					c = Numero(x, Normal)
				}
			}
			celdas = append(celdas, c)
		}
		h.Fila(celdas...)
	}
	return h.Cerrar()
}

// columna is a zero-based column index as Excel letters (0 -> A, 26 -> AA).
func columna(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// maxTexto is the most characters an Excel cell holds.
const maxTexto = 32767

func recortar(s string) string {
	if utf8.RuneCountInString(s) <= maxTexto {
		return s
	}
	return string([]rune(s)[:maxTexto])
}

// escapar escapes text for XML; characters XML 1.0 cannot carry become U+FFFD.
func escapar(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}

const contentTypes = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
	`<Default Extension="xml" ContentType="application/xml"/>` +
	`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
	`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
	`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
	`</Types>`

const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
	`</Relationships>`

const workbook = `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
	`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
	`<sheets><sheet name="%s" sheetId="1" r:id="rId1"/></sheets></workbook>`

const workbookRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
	`</Relationships>`

// styles: font 1 is font 0 in bold; cellXfs are Normal, Negrita, Importe
// (numFmtId 4: #,##0.00), ImporteNegrita, Cantidad (numFmtId 164:
// #,##0.000) and CantidadNegrita, in Estilo's order.
const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
	`<numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.000"/></numFmts>` +
	`<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>` +
	`<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
	`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
	`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
	`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
	`<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
	`<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
	`<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`<xf numFmtId="4" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>` +
	`<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/></cellXfs>` +
	`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
	`</styleSheet>`

// worksheet opens the sheet; NuevaHoja adds the columns and sheetData.
const worksheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`
