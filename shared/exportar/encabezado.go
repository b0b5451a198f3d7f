package exportar

import (
	"encoding"
	"encoding/json"
	"reflect"
)

// Encabezado is the header a list's rows would get, taken from one row of
// their shape (vacia: every field present, its values empty): an export
// with no rows still names its columns, the same ones, in the same order,
// an export with rows starts with.
func Encabezado[T any](vacia T) ([]string, error) {
	t, err := Aplanar([]T{vacia})
	return t.Columnas, err
}

// Vacia is the shape row of a struct type T, for Encabezado: its zero
// value with every nil pointer to a struct allocated (two levels, as deep
// as Aplanar looks), so a nested object such as a sale's cliente is
// flattened to its fields as it is when present, and every nil list empty
// (a list is no column). ok is false when T is not
// a struct (raw JSON rows, maps): its keys are not known from the type.
func Vacia[T any]() (vacia T, ok bool) {
	v := reflect.ValueOf(&vacia).Elem()
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct {
		v.Set(reflect.New(v.Type().Elem()))
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || propio(v.Type()) {
		return vacia, false
	}
	llenar(v, 2)
	return vacia, true
}

var (
	tipoMarshaler     = reflect.TypeFor[json.Marshaler]()
	tipoTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// propio reports a type that writes its own JSON (a decimal, a date): its
// fields are not the JSON's keys.
func propio(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(tipoMarshaler) || p.Implements(tipoMarshaler) ||
		t.Implements(tipoTextMarshaler) || p.Implements(tipoTextMarshaler)
}

// llenar allocates v's nil pointers to plain structs and its nil lists,
// then fills those structs and v's struct fields, down to depth levels.
func llenar(v reflect.Value, depth int) {
	if depth == 0 {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch {
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct && !propio(f.Type().Elem()):
			if f.IsNil() {
				f.Set(reflect.New(f.Type().Elem()))
			}
			llenar(f.Elem(), depth-1)
		case f.Kind() == reflect.Slice && f.IsNil() && f.Type().Elem().Kind() != reflect.Uint8 && !propio(f.Type()):
			// A list is left out of the table; nil would be a null cell.
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		case f.Kind() == reflect.Struct && !propio(f.Type()):
			// An embedded struct's fields are the row's own keys.
			d := depth - 1
			if v.Type().Field(i).Anonymous {
				d = depth
			}
			llenar(f, d)
		}
	}
}
