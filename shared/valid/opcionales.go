package valid

import (
	"slices"
	"strings"
)

// Opt is the pointer form of a read: &v when ok, nil otherwise, for the
// optional fields of a change (nil = not sent), e.g.
// d.Moneda = valid.Opt(in.OneOf("moneda", false, Monedas)).
func Opt[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

// Valor is Opt's inverse: *p, or T's zero value for nil (an optional
// column or field shown as "" or 0).
func Valor[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// OneOf reads a text field restricted to values. ok is false when it is
// absent, null or not one of them (the last with a message listing them).
func (in *Input) OneOf(key string, required bool, values []string) (string, bool) {
	v, ok := in.String(key, Str{Required: required})
	if !ok {
		return "", false
	}
	if !slices.Contains(values, v) {
		in.Fail(key, "El campo "+label(key)+" debe ser uno de: "+strings.Join(values, ", ")+".")
		return "", false
	}
	return v, true
}

// OptionalID reads an optional reference: an id (an integer >= 1), nil when
// absent, null or invalid (the last with a message).
func (in *Input) OptionalID(key string) *int64 {
	return Opt(in.Int(key, Int{Min: Min(1)}))
}

// OptionalBool reads an optional boolean, nil when absent, null or invalid.
func (in *Input) OptionalBool(key string) *bool {
	return Opt(in.Bool(key, false))
}
