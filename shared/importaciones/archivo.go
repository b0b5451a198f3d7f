package importaciones

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/recurso"
)

// MaxFilas bounds one import: 10,000 data rows.
const MaxFilas = 10_000

// MaxArchivo is the largest file accepted (5 MiB).
const MaxArchivo = 5 << 20

// A workbook is a zip: 5 MiB of it can unzip to gigabytes (a "zip bomb"),
// and excelize reads every part but the sheets and the shared strings
// whole into memory. The declared sizes are checked before excelize opens
// it (archive/zip refuses a part longer than it declares): at most
// MaxDescomprimido in all, and MaxParte for any other part. 10,000 rows of
// a resource's ~20 columns are about 15 MB of sheet XML.
const (
	MaxDescomprimido = 100 << 20
	MaxParte         = 16 << 20
)

// campoArchivo is the multipart field of the file, and the key of its errors.
const campoArchivo = "archivo"

func invalidoArchivo(msg string) error { return apperr.InvalidField(campoArchivo, msg) }

// leer reads a CSV (UTF-8, optional BOM, comma or semicolon separated) or
// XLSX file (its first sheet) with a header row naming the resource's
// columns. Blank rows are skipped; every other row keeps its number in the
// file as a spreadsheet shows it (the header is row 1).
func leer(nombre string, data []byte, columnas []string) ([]recurso.Fila, error) {
	var (
		tabla [][]string
		nums  []int
		err   error
	)
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		tabla, nums, err = leerXLSX(data)
	case strings.HasSuffix(strings.ToLower(nombre), ".xlsx") || strings.HasSuffix(strings.ToLower(nombre), ".xls"):
		return nil, invalidoArchivo("El archivo no es un libro de Excel (.xlsx) válido.")
	case utf8.Valid(data):
		tabla, nums, err = leerCSV(data)
	default:
		return nil, invalidoArchivo("El archivo debe ser un CSV en UTF-8 o un libro de Excel (.xlsx).")
	}
	if err != nil {
		return nil, err
	}
	if len(tabla) == 0 {
		return nil, invalidoArchivo("El archivo está vacío: debe tener una fila de encabezados con los nombres de los campos.")
	}
	header := make([]string, len(tabla[0]))
	for i, h := range tabla[0] {
		header[i] = strings.ToLower(strings.TrimSpace(h))
	}
	for len(header) > 0 && header[len(header)-1] == "" {
		header = header[:len(header)-1]
	}
	if len(header) == 0 {
		return nil, invalidoArchivo("La primera fila del archivo debe ser el encabezado con los nombres de los campos.")
	}
	vistos := map[string]bool{}
	for i, h := range header {
		switch {
		case h == "":
			return nil, invalidoArchivo(fmt.Sprintf("La columna %d del encabezado está vacía.", i+1))
		case !slices.Contains(columnas, h):
			return nil, invalidoArchivo(fmt.Sprintf("La columna %q no es un campo importable. Columnas válidas: %s.", h, strings.Join(columnas, ", ")))
		case vistos[h]:
			return nil, invalidoArchivo(fmt.Sprintf("La columna %q está repetida en el encabezado.", h))
		}
		vistos[h] = true
	}
	var filas []recurso.Fila
	for i, celdas := range tabla[1:] {
		if vacia(celdas) {
			continue
		}
		if len(filas) == MaxFilas {
			return nil, invalidoArchivo(fmt.Sprintf("El archivo tiene más de %d filas de datos; divídalo en varios archivos.", MaxFilas))
		}
		if len(celdas) > len(header) && !vacia(celdas[len(header):]) {
			return nil, invalidoArchivo(fmt.Sprintf("La fila %d tiene más valores que columnas el encabezado.", nums[i+1]))
		}
		f := recurso.Fila{Numero: nums[i+1], Celdas: make(map[string]string, len(header))}
		for j, h := range header {
			if j < len(celdas) {
				f.Celdas[h] = celdas[j]
			}
		}
		filas = append(filas, f)
	}
	if len(filas) == 0 {
		return nil, invalidoArchivo("El archivo no tiene filas de datos debajo del encabezado.")
	}
	return filas, nil
}

func vacia(celdas []string) bool {
	for _, c := range celdas {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// leerCSV returns the records and the row each is on as a spreadsheet
// numbers it (blank lines count, a quoted line break does not).
func leerCSV(data []byte) ([][]string, []int, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	// Spreadsheets in Spanish locales save CSV with semicolons.
	primera, _, _ := bytes.Cut(data, []byte("\n"))
	if bytes.Count(primera, []byte(";")) > bytes.Count(primera, []byte(",")) {
		r.Comma = ';'
	}
	var (
		tabla          [][]string
		nums           []int
		llenas, saltos int
	)
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, nil, invalidoArchivo(fmt.Sprintf("El CSV no es válido en la línea %d: %s.", pe.Line, traducirCSV(pe.Err)))
			}
			return nil, nil, fmt.Errorf("importaciones: csv: %w", err)
		}
		// A spreadsheet shows a record as one row even when a quoted
		// field spans lines: its row is its first line less the line
		// breaks inside the records before it.
		line, _ := r.FieldPos(0)
		tabla = append(tabla, rec)
		nums = append(nums, line-saltos)
		for _, c := range rec {
			saltos += strings.Count(c, "\n")
		}
		if !vacia(rec) {
			// The header and more than MaxFilas data rows: leer refuses
			// the file, reading on would only cost memory.
			if llenas++; llenas > MaxFilas+1 {
				break
			}
		}
	}
	return tabla, nums, nil
}

func traducirCSV(err error) string {
	switch {
	case errors.Is(err, csv.ErrQuote), errors.Is(err, csv.ErrBareQuote):
		return "comillas mal cerradas"
	case errors.Is(err, csv.ErrFieldCount):
		return "número de campos incorrecto"
	}
	return "formato incorrecto"
}

// leerXLSX returns the rows of the first sheet (raw cell values, so a
// number formatted "1,500.00" reads 1500) and their numbers.
func leerXLSX(data []byte) ([][]string, []int, error) {
	if err := revisarZip(data); err != nil {
		return nil, nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: MaxDescomprimido})
	if err != nil {
		return nil, nil, invalidoArchivo("El archivo no es un libro de Excel (.xlsx) válido.")
	}
	defer f.Close()
	hojas := f.GetSheetList()
	if len(hojas) == 0 {
		return nil, nil, invalidoArchivo("El libro de Excel no tiene hojas.")
	}
	rows, err := f.Rows(hojas[0])
	if err != nil {
		return nil, nil, invalidoArchivo("No se pudo leer la primera hoja del libro de Excel.")
	}
	defer rows.Close()
	var (
		tabla     [][]string
		nums      []int
		n, llenas int
	)
	for rows.Next() {
		n++
		cols, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, nil, invalidoArchivo(fmt.Sprintf("No se pudo leer la fila %d de la hoja %q.", n, hojas[0]))
		}
		if len(tabla) == 0 && vacia(cols) {
			continue // leading blank rows: the header is the first row with text
		}
		tabla = append(tabla, cols)
		nums = append(nums, n)
		if !vacia(cols) {
			if llenas++; llenas > MaxFilas+1 {
				break // as in leerCSV
			}
		}
	}
	if err := rows.Error(); err != nil {
		return nil, nil, invalidoArchivo("No se pudo leer la primera hoja del libro de Excel.")
	}
	return tabla, nums, nil
}

// revisarZip refuses a workbook whose parts unzip to more than
// MaxDescomprimido, or a part other than a sheet or the shared strings
// (which excelize streams from a temporary file when large) to more than
// MaxParte.
func revisarZip(data []byte) error {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return invalidoArchivo("El archivo no es un libro de Excel (.xlsx) válido.")
	}
	grande := invalidoArchivo(fmt.Sprintf("El libro de Excel descomprimido es demasiado grande (más de %d MB); guarde solo los datos a importar.", MaxDescomprimido>>20))
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
		nombre := strings.ToLower(strings.ReplaceAll(f.Name, "\\", "/"))
		hoja := strings.HasPrefix(nombre, "xl/worksheets/sheet") || nombre == "xl/sharedstrings.xml"
		if total > MaxDescomprimido || (!hoja && f.UncompressedSize64 > MaxParte) {
			return grande
		}
	}
	return nil
}
