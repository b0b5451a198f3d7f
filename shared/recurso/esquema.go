package recurso

import (
	"sort"
	"strings"

	"github.com/erpcr/erp/shared/esquema"
)

// Esquema describes the body of a create (creating: Required applies) or of
// an update (every field optional, immutable ones absent) from the same
// field declarations that values() enforces, for the OpenAPI document.
func (res *Resource) Esquema(creating bool) esquema.Cuerpo {
	var c esquema.Cuerpo
	for _, f := range res.Fields {
		if f.Immutable && !creating {
			continue
		}
		campo := esquema.Campo{Nombre: f.Name, Requerido: creating && f.Required, Ejemplo: f.Ejemplo}
		switch f.Kind {
		case Text:
			campo.Tipo, campo.MaxLargo, campo.Valores = esquema.Texto, f.Max, f.Values
			switch {
			case f.Email:
				campo.Formato = "email"
			case f.URL:
				campo.Formato = "uri"
			}
		case Integer, Ref:
			campo.Tipo, campo.Minimo, campo.Maximo = esquema.Entero, f.MinValue, f.MaxValue
			if f.Kind == Ref && campo.Minimo == "" {
				campo.Minimo = "1"
			}
			if f.Kind == Ref {
				campo.Descripcion = "Id de un registro existente de " + f.RefTable + "."
			}
		case Decimal:
			scale := f.Scale
			if scale == 0 {
				scale = 2
			}
			campo.Tipo, campo.Minimo, campo.Maximo = esquema.Decimal, f.MinValue, f.MaxValue
			campo.Descripcion = "Hasta " + itoa(int(scale)) + " decimales."
		case Boolean:
			campo.Tipo = esquema.Booleano
		case Date:
			campo.Tipo = esquema.Fecha
		}
		if f.Unique != NotUnique {
			campo.Descripcion = strings.TrimSpace(campo.Descripcion + " Único" + map[Unique]string{UniquePerTenant: " en la empresa.", UniqueGlobal: "."}[f.Unique])
		}
		c.Campos = append(c.Campos, campo)
	}
	c.Campos = append(c.Campos, res.Listas...)
	return c
}

// Respuesta describes one record as the API shows it: id, the declared
// fields (null when unset), computed keys, relations, counts and, when
// detail, the nested lists of a show. Columns the declaration does not
// name are still output, hence additionalProperties.
func (res *Resource) Respuesta(detail bool) map[string]any {
	hidden := map[string]bool{}
	for _, h := range res.Hidden {
		hidden[h] = true
	}
	nullable := func(t string) map[string]any { return map[string]any{"type": []any{t, "null"}} }
	props := map[string]any{
		"id": map[string]any{"type": "integer"},
	}
	for _, f := range res.Fields {
		if hidden[f.Name] {
			continue
		}
		switch f.Kind {
		case Text, Date:
			props[f.Name] = nullable("string")
		case Integer, Ref:
			props[f.Name] = nullable("integer")
		case Decimal:
			props[f.Name] = nullable("number")
		case Boolean:
			props[f.Name] = nullable("boolean")
		}
	}
	if !res.ReadOnly {
		props["creado_en"] = nullable("string")
		props["actualizado_en"] = nullable("string")
	}
	for k := range res.Computed {
		props[k] = map[string]any{}
	}
	for _, rel := range res.Relations {
		rp := map[string]any{}
		for _, col := range rel.Cols {
			rp[col] = map[string]any{}
		}
		props[rel.Name] = map[string]any{"type": []any{"object", "null"}, "properties": rp, "additionalProperties": true}
	}
	for _, ag := range res.Aggregates {
		if ag.DetailOnly && !detail {
			continue
		}
		props[ag.Name] = map[string]any{}
	}
	if detail {
		for _, d := range res.Details {
			props[d.Name] = map[string]any{"type": "array"}
		}
	}
	return map[string]any{"type": "object", "required": []any{"id"}, "properties": props, "additionalProperties": true}
}

// FiltrosDoc lists the list query parameters of the resource: its filters
// (with their enumerations), and activos, search and sort when they apply.
func (res *Resource) FiltrosDoc() []esquema.Campo {
	var out []esquema.Campo
	for _, f := range res.Filters {
		c := esquema.Campo{Nombre: f.Param}
		switch f.Kind {
		case Integer, Ref:
			c.Tipo, c.Minimo, c.Maximo = esquema.Entero, f.MinValue, f.MaxValue
			if f.Kind == Ref && c.Minimo == "" {
				c.Minimo = "1" // an id (read.go refuses less)
			}
		case Boolean:
			c.Tipo = esquema.Booleano
		default:
			c.Tipo, c.Valores = esquema.Texto, f.Values
		}
		out = append(out, c)
	}
	if res.Search {
		out = append(out, esquema.Campo{Nombre: "search", Tipo: esquema.Texto, Descripcion: "Búsqueda por texto (sin distinguir mayúsculas ni acentos)."})
	}
	sorts := append([]string{"id", "creado_en", "actualizado_en"}, res.Sorts...)
	sort.Strings(sorts)
	out = append(out, esquema.Campo{Nombre: "sort", Tipo: esquema.Texto, Valores: sorts})
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}
