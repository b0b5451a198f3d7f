// Package esquema describes request bodies declaratively: the fields, their
// types, enumerations, required flags, bounds and examples that a domain's
// decoder enforces. The OpenAPI document (cmd/genopenapi) renders these
// descriptions as JSON Schema, and each domain's tests prove that its
// description and its decoder agree (AcceptsExample, RequiredFails), so the
// document cannot promise what the validators refuse. The package knows
// nothing of HTTP or of the domains.
package esquema

import (
	"encoding/json"
	"sort"
	"strconv"
)

// Tipo is the JSON type of a field.
type Tipo int

// Field types.
const (
	Texto Tipo = iota
	Entero
	// Decimal is a JSON number (a numeric string is accepted as well).
	Decimal
	Booleano
	// Fecha is a "YYYY-MM-DD" string.
	Fecha
	// FechaHora is an RFC 3339 date-time string.
	FechaHora
	// Objeto is a nested object described by Campos.
	Objeto
	// Lista is an array: of objects described by Campos, or of Elemento.
	Lista
	// Libre is any JSON value (a free-form object such as a payload).
	Libre
)

// Campo is one field of a body.
type Campo struct {
	Nombre    string
	Tipo      Tipo
	Requerido bool
	// Texto: MinLargo/MaxLargo in characters; Lista: MinItems/MaxItems.
	MinLargo, MaxLargo int
	MinItems, MaxItems int
	// Valores is an enumeration of a Texto (or the elements of a Lista of Texto).
	Valores []string
	// Minimo and Maximo are inclusive numeric bounds as decimal strings;
	// Positivo requires a value above zero.
	Minimo, Maximo string
	Positivo       bool
	// Patron is a regular expression a Texto matches (ECMA 262 syntax).
	Patron string
	// Formato is a JSON Schema format ("email", "uri", "password").
	Formato string
	// Elemento is the element type of a Lista of scalars.
	Elemento Tipo
	// Campos describes an Objeto, or the elements of a Lista of objects.
	Campos []Campo
	// Ejemplo is the value used in examples (and by AcceptsExample).
	Ejemplo any
	// Descripcion is a short Spanish note (cross-field rules, defaults).
	Descripcion string
}

// Cuerpo is a request body: a JSON object.
type Cuerpo struct {
	Campos []Campo
	// Descripcion notes rules across fields.
	Descripcion string
}

// Requeridos returns the names of the required top-level fields.
func (c Cuerpo) Requeridos() []string {
	var out []string
	for _, f := range c.Campos {
		if f.Requerido {
			out = append(out, f.Nombre)
		}
	}
	return out
}

// Schema renders the body as a JSON Schema (OpenAPI 3.1 dialect).
func (c Cuerpo) Schema() map[string]any {
	s := objeto(c.Campos)
	if c.Descripcion != "" {
		s["description"] = c.Descripcion
	}
	return s
}

// Ejemplo is a body with every field that has an example, plus the
// required ones (their example, or a value built from their rules).
func (c Cuerpo) Ejemplo() map[string]any { return ejemploObjeto(c.Campos) }

func objeto(campos []Campo) map[string]any {
	props := map[string]any{}
	var req []string
	for _, f := range campos {
		props[f.Nombre] = f.Schema()
		if f.Requerido {
			req = append(req, f.Nombre)
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(req) > 0 {
		sort.Strings(req)
		s["required"] = req
	}
	return s
}

// Schema renders one field.
func (f Campo) Schema() map[string]any {
	s := scalar(f.Tipo)
	switch f.Tipo {
	case Texto:
		if f.MaxLargo > 0 {
			s["maxLength"] = f.MaxLargo
		}
		if f.MinLargo > 0 {
			s["minLength"] = f.MinLargo
		} else if f.Requerido && len(f.Valores) == 0 {
			s["minLength"] = 1 // blank counts as absent
		}
		if len(f.Valores) > 0 {
			s["enum"] = f.Valores
		}
		if f.Formato != "" {
			s["format"] = f.Formato
		}
		if f.Patron != "" {
			s["pattern"] = f.Patron
		}
	case Entero, Decimal:
		if f.Positivo {
			s["exclusiveMinimum"] = 0
		}
		if f.Minimo != "" {
			s["minimum"] = numero(f.Minimo)
		}
		if f.Maximo != "" {
			s["maximum"] = numero(f.Maximo)
		}
	case Objeto:
		s = objeto(f.Campos)
	case Lista:
		var item map[string]any
		if len(f.Campos) > 0 {
			item = objeto(f.Campos)
		} else {
			item = Campo{Tipo: f.Elemento, Valores: f.Valores, Minimo: f.Minimo, Maximo: f.Maximo}.Schema()
		}
		s["items"] = item
		if f.MinItems > 0 {
			s["minItems"] = f.MinItems
		}
		if f.MaxItems > 0 {
			s["maxItems"] = f.MaxItems
		}
	}
	if f.Descripcion != "" {
		s["description"] = f.Descripcion
	}
	if f.Ejemplo != nil {
		s["examples"] = []any{f.Ejemplo}
	}
	return s
}

func scalar(t Tipo) map[string]any {
	switch t {
	case Entero:
		return map[string]any{"type": "integer"}
	case Decimal:
		return map[string]any{"type": "number"}
	case Booleano:
		return map[string]any{"type": "boolean"}
	case Fecha:
		return map[string]any{"type": "string", "format": "date"}
	case FechaHora:
		return map[string]any{"type": "string", "format": "date-time"}
	case Objeto:
		return map[string]any{"type": "object"}
	case Lista:
		return map[string]any{"type": "array"}
	case Libre:
		return map[string]any{}
	}
	return map[string]any{"type": "string"}
}

// numero renders a decimal bound as a JSON number (exactly as written).
func numero(s string) json.Number { return json.Number(s) }

func ejemploObjeto(campos []Campo) map[string]any {
	out := map[string]any{}
	for _, f := range campos {
		if f.Ejemplo == nil && !f.Requerido {
			continue
		}
		out[f.Nombre] = f.ValorEjemplo()
	}
	return out
}

// ValorEjemplo is the field's example, or a value that its own rules accept.
func (f Campo) ValorEjemplo() any {
	if f.Ejemplo != nil {
		return f.Ejemplo
	}
	switch f.Tipo {
	case Texto:
		if len(f.Valores) > 0 {
			return f.Valores[0]
		}
		n := max(f.MinLargo, 1)
		if f.MaxLargo > 0 {
			n = min(n, f.MaxLargo)
		}
		s := "Ejemplo"
		for len(s) < n {
			s += " ejemplo"
		}
		if f.MaxLargo > 0 && len(s) > f.MaxLargo {
			s = s[:f.MaxLargo]
		}
		return s
	case Entero, Decimal:
		if f.Minimo != "" {
			if n, err := strconv.ParseFloat(f.Minimo, 64); err == nil && n > 1 {
				return json.Number(f.Minimo)
			}
		}
		return 1
	case Booleano:
		return true
	case Fecha:
		return "2026-01-15"
	case FechaHora:
		return "2026-01-15T12:00:00Z"
	case Objeto:
		return ejemploObjeto(f.Campos)
	case Lista:
		if len(f.Campos) > 0 {
			return []any{ejemploObjeto(f.Campos)}
		}
		return []any{Campo{Tipo: f.Elemento, Valores: f.Valores, Minimo: f.Minimo}.ValorEjemplo()}
	}
	return map[string]any{}
}
