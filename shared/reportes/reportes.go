// Package reportes answers the reports of the API: the financial
// statements (income statement, balance sheet, cash flow) and the books
// (trial balance, general ledger, journal) computed from the posted
// entries of the double-entry books (migration 0012), in one shape that
// every report shares, cached per company and parameters (cache.go), and
// exported as JSON, PDF, Excel or CSV (exportar.go).
//
// Every report type is an entry of a registry (Registrar, Tipos): its key,
// parameters, formats, the order and titles of its totals, and the
// function that computes it. GET /api/reportes/tipos lists the registry,
// and the exports render any Reporte from its columns, so the operational
// reports of issue 14 register theirs here and get the cache, the formats
// and the listing without touching them.
package reportes

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/httpx"
)

// Formats of a report (?formato=).
const (
	FormatoJSON  = "json"
	FormatoPDF   = "pdf"
	FormatoExcel = "excel"
	FormatoCSV   = "csv"
)

// Formatos are every format, in the order GET /api/reportes/tipos shows them.
var Formatos = []string{FormatoJSON, FormatoPDF, FormatoExcel, FormatoCSV}

// Reporte is the answer of every report: {tipo, parametros, secciones,
// totales, comparacion?}. Each section lists its columns, so that a client
// (and the exports) can show any report without knowing its type.
type Reporte struct {
	Tipo       string             `json:"tipo"`
	Titulo     string             `json:"titulo"`
	Parametros map[string]any     `json:"parametros"`
	Secciones  []Seccion          `json:"secciones"`
	Totales    map[string]Importe `json:"totales"`
	// Comparacion is the previous period of the same length
	// (?comparar=periodo_anterior).
	Comparacion *Comparacion `json:"comparacion,omitempty"`
	// Paginacion is set by the paginated reports (libro-diario).
	Paginacion *httpx.Paginacion `json:"paginacion,omitempty"`
	// Movimientos is the kardex's rows in time order, also at the top level
	// (issue 14 names data.movimientos); the section keeps them for exports.
	Movimientos []Fila `json:"movimientos,omitempty"`
}

// Seccion is a block of rows under a title (Ingresos, Activo, an entry of
// the journal), with its own totals.
type Seccion struct {
	Clave    string             `json:"clave"`
	Titulo   string             `json:"titulo"`
	Columnas []Columna          `json:"columnas"`
	Filas    []Fila             `json:"filas"`
	Totales  map[string]Importe `json:"totales,omitempty"`
}

// Fila is one row: column key -> value (text, integer, Importe, or null).
type Fila map[string]any

// Kinds of column.
const (
	ColTexto      = "texto"
	ColEntero     = "entero"
	ColFecha      = "fecha"
	ColImporte    = "importe"
	ColPorcentaje = "porcentaje"
)

// Columna describes one column of a section (and one total of a type).
type Columna struct {
	Clave  string `json:"clave"`
	Titulo string `json:"titulo"`
	Tipo   string `json:"tipo"`
	// cantidad marks a quantity among the sums of a grouped report: Cant,
	// not Imp.
	cantidad bool
}

// valor wraps a sum of the column: a quantity with 3 decimals, an amount
// with 2.
func (c Columna) valor(d decimal.Decimal) Importe {
	if c.cantidad {
		return Cant(d)
	}
	return Imp(d)
}

// Comparacion is the same report for the previous period and, per total,
// the variation: amount and percentage of the previous figure (null when
// the previous figure is zero).
type Comparacion struct {
	Parametros map[string]any     `json:"parametros"`
	Secciones  []Seccion          `json:"secciones"`
	Totales    map[string]Importe `json:"totales"`
	Variacion  []Variacion        `json:"variacion"`
}

// Variacion is the change of one total against the previous period.
type Variacion struct {
	Clave      string   `json:"clave"`
	Actual     Importe  `json:"actual"`
	Anterior   Importe  `json:"anterior"`
	Monto      Importe  `json:"monto"`
	Porcentaje *Importe `json:"porcentaje"`
}

// Importe is an amount: a decimal (never a float) written as a JSON number
// with exactly 2 decimals; a quantity (Cant) keeps the 3 decimals stock and
// document lines have (8.792 kg is not 8.79).
type Importe struct {
	decimal.Decimal
	escala int32 // decimals written: 2 (the zero value) or escalaCantidad
}

// escalaCantidad is the scale of quantities (numeric(_, 3) in SQL).
const escalaCantidad = 3

// Imp wraps a decimal rounded to 2 decimals.
func Imp(d decimal.Decimal) Importe { return Importe{Decimal: d.Round(2)} }

// Cant wraps a quantity rounded to 3 decimals, written with 3.
func Cant(d decimal.Decimal) Importe {
	return Importe{Decimal: d.Round(escalaCantidad), escala: escalaCantidad}
}

// Escala is the number of decimals the value is written with.
func (i Importe) Escala() int32 { return max(i.escala, 2) }

// MarshalJSON writes the amount with 2 decimals (a quantity with 3).
func (i Importe) MarshalJSON() ([]byte, error) { return []byte(i.StringFixed(i.Escala())), nil }

// UnmarshalJSON reads a JSON number or numeric string (the cache); a value
// written with 3 decimals is a quantity again.
func (i *Importe) UnmarshalJSON(b []byte) error {
	d, err := decimal.NewFromString(strings.Trim(string(b), `"`))
	if err != nil {
		return fmt.Errorf("reportes: importe %s: %w", b, err)
	}
	i.Decimal, i.escala = d, 0
	if d.Exponent() == -escalaCantidad {
		i.escala = escalaCantidad
	}
	return nil
}

// Generador computes a report of the transaction's company.
type Generador func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error)

// Tipo is a report type of the registry.
type Tipo struct {
	// Clave is the value of ?tipo= (financial statements) or the last
	// segment of the path (/api/reportes/balanza-comprobacion).
	Clave       string
	Nombre      string
	Descripcion string
	// Ruta is how the report is asked for.
	Ruta string
	// Parametros are the query parameters it reads (besides formato).
	Parametros []esquema.Campo
	// Formatos are the formats it answers.
	Formatos []string
	// Totales are the keys and titles of its totals, in reading order.
	Totales []Columna
	// Limite is its rate-limit class (SPEC.md "Limits"): reports for the
	// ledger, the trial balance and every PDF or Excel export.
	Limite string
	// Paginado reports read page and per_page.
	Paginado bool
	Generar  Generador `json:"-"`
}

var (
	registroMu sync.RWMutex
	registro   = map[string]Tipo{}
)

// Registrar adds a report type; call it from an init function. A key
// registered twice is a programming error.
func Registrar(t Tipo) {
	registroMu.Lock()
	defer registroMu.Unlock()
	if _, ok := registro[t.Clave]; ok {
		panic("reportes: tipo registrado dos veces: " + t.Clave)
	}
	if len(t.Formatos) == 0 {
		t.Formatos = Formatos
	}
	for i := range t.Totales {
		if t.Totales[i].Tipo == "" {
			t.Totales[i].Tipo = ColImporte
		}
	}
	registro[t.Clave] = t
}

// Buscar returns a registered type.
func Buscar(clave string) (Tipo, bool) {
	registroMu.RLock()
	defer registroMu.RUnlock()
	t, ok := registro[clave]
	return t, ok
}

// Tipos returns every registered type, sorted by key.
func Tipos() []Tipo {
	registroMu.RLock()
	defer registroMu.RUnlock()
	out := make([]Tipo, 0, len(registro))
	for _, t := range registro {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Clave < out[j].Clave })
	return out
}

// TipoDoc is a type as GET /api/reportes/tipos shows it.
type TipoDoc struct {
	Clave       string         `json:"clave"`
	Nombre      string         `json:"nombre"`
	Descripcion string         `json:"descripcion"`
	Ruta        string         `json:"ruta"`
	Parametros  []ParametroDoc `json:"parametros"`
	Formatos    []string       `json:"formatos"`
	Totales     []Columna      `json:"totales"`
	Limite      string         `json:"limite"`
}

// ParametroDoc is one parameter of a type.
type ParametroDoc struct {
	Nombre      string   `json:"nombre"`
	Tipo        string   `json:"tipo"`
	Requerido   bool     `json:"requerido"`
	Valores     []string `json:"valores,omitempty"`
	Descripcion string   `json:"descripcion,omitempty"`
}

var nombresTipo = map[esquema.Tipo]string{esquema.Texto: "texto", esquema.Entero: "entero", esquema.Fecha: "fecha",
	esquema.Booleano: "booleano", esquema.Decimal: "decimal"}

// Documentar is the registry as GET /api/reportes/tipos answers it.
func Documentar() []TipoDoc {
	tipos := Tipos()
	out := make([]TipoDoc, 0, len(tipos))
	for _, t := range tipos {
		d := TipoDoc{Clave: t.Clave, Nombre: t.Nombre, Descripcion: t.Descripcion, Ruta: t.Ruta, Formatos: t.Formatos,
			Totales: t.Totales, Limite: t.Limite, Parametros: []ParametroDoc{}}
		for _, p := range t.Parametros {
			d.Parametros = append(d.Parametros, ParametroDoc{Nombre: p.Nombre, Tipo: nombresTipo[p.Tipo], Requerido: p.Requerido,
				Valores: p.Valores, Descripcion: p.Descripcion})
		}
		d.Parametros = append(d.Parametros, ParametroDoc{Nombre: "formato", Tipo: "texto", Valores: t.Formatos,
			Descripcion: "Por omisión json; pdf, excel y csv descargan un archivo."})
		out = append(out, d)
	}
	return out
}

// decodificar reads a cached report back (numbers kept as json.Number,
// amounts as Importe).
func decodificar(raw []byte) (*Reporte, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var r Reporte
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("reportes: leer reporte guardado: %w", err)
	}
	return &r, nil
}
