// Package exportar writes a list's rows as a file: CSV (UTF-8 with a BOM
// so spreadsheet programs read the accents, a header row) or Excel (one
// sheet, numbers as number cells). Rows are whatever a list answers in
// JSON: their scalar fields become columns in the order of the first row,
// and a nested object contributes its scalar fields as "objeto.campo".
package exportar

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"

	"github.com/erpcr/erp/shared/httpx"
)

// Formatos are the file formats a list can be exported to.
var Formatos = []string{"csv", "excel"}

// MaxFilas bounds one export: a file travels in one Lambda response (6 MB).
const MaxFilas = 50_000

// Tabla is the flattened rows: a header and the cells (strings, or
// json.Number for numbers so Excel gets number cells).
type Tabla struct {
	Columnas []string
	Filas    [][]any
}

// Aplanar turns rows (marshalled to JSON objects) into a table.
func Aplanar[T any](rows []T) (Tabla, error) {
	var t Tabla
	index := map[string]int{}
	for _, row := range rows {
		raw, err := json.Marshal(row)
		if err != nil {
			return t, fmt.Errorf("exportar: %w", err)
		}
		// The timestamps as the list's JSON shows them (…Z), not as
		// PostgreSQL prints them in the row (…+00:00).
		raw = httpx.NormalizeTimestamps(raw)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var obj orderedObject
		if err := dec.Decode(&obj); err != nil {
			return t, fmt.Errorf("exportar: row is not an object: %w", err)
		}
		fila := make([]any, len(t.Columnas))
		obj.each("", func(k string, v any) {
			i, ok := index[k]
			if !ok {
				i = len(t.Columnas)
				index[k] = i
				t.Columnas = append(t.Columnas, k)
				fila = append(fila, nil)
			}
			fila[i] = v
		})
		t.Filas = append(t.Filas, fila)
	}
	for i := range t.Filas {
		for len(t.Filas[i]) < len(t.Columnas) {
			t.Filas[i] = append(t.Filas[i], nil)
		}
	}
	return t, nil
}

// orderedObject keeps a JSON object's keys in the order they came.
type orderedObject struct {
	keys []string
	vals map[string]any
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return err
	}
	o.vals = map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var v any
		if len(raw) > 0 && raw[0] == '{' {
			var child orderedObject
			if err := json.Unmarshal(raw, &child); err != nil {
				return err
			}
			v = &child
		} else {
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return err
			}
		}
		o.keys = append(o.keys, k)
		o.vals[k] = v
	}
	return nil
}

// each visits the scalar fields (one level of nesting, "a.b"); lists are
// left out (a sale's lines belong in their own export).
func (o *orderedObject) each(prefix string, fn func(string, any)) {
	for _, k := range o.keys {
		switch v := o.vals[k].(type) {
		case *orderedObject:
			if prefix == "" {
				v.each(k+".", fn)
			}
		case []any:
		default:
			fn(prefix+k, v)
		}
	}
}

func texto(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "sí"
		}
		return "no"
	}
	return fmt.Sprint(v)
}

// SinFormula keeps a CSV text cell from being run as a formula by the
// spreadsheet that opens the file ("CSV injection", OWASP): text starting
// with = + - @, or with a tab or carriage return (which some programs skip
// before looking at the sign), gets a leading apostrophe, so a customer
// named =HYPERLINK(...) is shown as text. A plain number ("-1500.00",
// "+3") is left as it is: it is a value, not a formula. Excel files need
// no such care: their text cells are inline strings, never formulas.
func SinFormula(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '@', '\t', '\r':
	case '+', '-':
		if numero(s[1:]) {
			return s
		}
	default:
		return s
	}
	return "'" + s
}

// numero reports whether s is digits with at most one decimal point.
func numero(s string) bool {
	digitos, punto := 0, false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digitos++
		case c == '.' && !punto:
			punto = true
		default:
			return false
		}
	}
	return digitos > 0
}

// CSV writes the table as UTF-8 CSV with a BOM and a header row; text
// cells go through SinFormula.
func CSV(w io.Writer, t Tabla) error {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columnas); err != nil {
		return err
	}
	row := make([]string, len(t.Columnas))
	for _, f := range t.Filas {
		for i, v := range f {
			row[i] = texto(v)
			if _, esNumero := v.(json.Number); !esNumero {
				row[i] = SinFormula(row[i])
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
