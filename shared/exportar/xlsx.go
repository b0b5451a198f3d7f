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

// Excel writes the table as one sheet with a bold header row; numbers are
// number cells.
//
// The file is the smallest SpreadsheetML package Excel, LibreOffice and
// excelize open (content types, relationships, workbook, styles, one
// worksheet with inline strings), written by hand with archive/zip: a
// list's export needs no more, and excelize would cost every function
// that serves a list about 1.5 MB of binary (it stays where a file is
// read or richly formatted: shared/importaciones, shared/reportes).
func Excel(w io.Writer, hoja string, t Tabla) error {
	if err := nombreHoja(hoja); err != nil {
		return err
	}
	z := zip.NewWriter(w)
	for _, p := range [...]struct{ nombre, xml string }{
		{"[Content_Types].xml", contentTypes},
		{"_rels/.rels", rels},
		{"xl/workbook.xml", fmt.Sprintf(workbook, escapar(hoja))},
		{"xl/_rels/workbook.xml.rels", workbookRels},
		{"xl/styles.xml", styles},
	} {
		if err := parte(z, p.nombre, func(b *bufio.Writer) { b.WriteString(p.xml) }); err != nil {
			return err
		}
	}
	if err := parte(z, "xl/worksheets/sheet1.xml", func(b *bufio.Writer) { hojaXML(b, t) }); err != nil {
		return err
	}
	return z.Close()
}

// parte writes one deflated member of the package.
func parte(z *zip.Writer, nombre string, escribir func(*bufio.Writer)) error {
	f, err := z.Create(nombre)
	if err != nil {
		return fmt.Errorf("exportar: excel: %w", err)
	}
	b := bufio.NewWriter(f)
	b.WriteString(xml.Header)
	escribir(b)
	if err := b.Flush(); err != nil {
		return fmt.Errorf("exportar: excel: %w", err)
	}
	return nil
}

// hojaXML is the worksheet: the header (style 1, bold) in row 1, then the
// rows; numbers without an exponent are number cells, the rest inline
// strings.
func hojaXML(b *bufio.Writer, t Tabla) {
	b.WriteString(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	fila := func(r int, celdas int, valor func(i int) (texto string, numero, negrita bool)) {
		fmt.Fprintf(b, `<row r="%d">`, r)
		for i := range celdas {
			s, num, bold := valor(i)
			ref := columna(i) + strconv.Itoa(r)
			switch {
			case num:
				fmt.Fprintf(b, `<c r="%s"><v>%s</v></c>`, ref, s)
			case s == "":
			default:
				b.WriteString(`<c r="` + ref + `"`)
				if bold {
					b.WriteString(` s="1"`)
				}
				b.WriteString(` t="inlineStr"><is><t xml:space="preserve">`)
				b.WriteString(escapar(recortar(s)))
				b.WriteString(`</t></is></c>`)
			}
		}
		b.WriteString(`</row>`)
	}
	fila(1, len(t.Columnas), func(i int) (string, bool, bool) { return t.Columnas[i], false, true })
	for r, f := range t.Filas {
		fila(r+2, len(f), func(i int) (string, bool, bool) {
			if n, ok := f[i].(json.Number); ok && !strings.ContainsAny(string(n), "eE") {
				if v, err := strconv.ParseFloat(string(n), 64); err == nil {
					return strconv.FormatFloat(v, 'f', -1, 64), true, false
				}
			}
			return texto(f[i]), false, false
		})
	}
	b.WriteString(`</sheetData></worksheet>`)
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

// nombreHoja checks a sheet name as Excel does: 1 to 31 characters, none of : \ / ? * [ ].
func nombreHoja(s string) error {
	if n := utf8.RuneCountInString(s); n == 0 || n > 31 || strings.ContainsAny(s, `:\/?*[]`) {
		return fmt.Errorf("exportar: excel: nombre de hoja inválido %q", s)
	}
	return nil
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

// styles: font 0 is the default, font 1 its bold; cell format 1 uses it.
const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
	`<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>` +
	`<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
	`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
	`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
	`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
	`<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
	`<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
	`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
	`</styleSheet>`
