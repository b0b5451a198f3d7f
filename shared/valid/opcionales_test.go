package valid

import (
	"slices"
	"testing"
)

func TestOptionalReadsAreNilWhenAbsentAndFailWhenInvalid(t *testing.T) {
	in := input(t, `{"moneda": "CRC", "tipo_cambio": "EUR", "cliente_id": 7, "caja_id": 0, "activo": false, "lineas": [{"a": 1}, 3]}`)
	if v := Opt(in.OneOf("moneda", false, []string{"CRC", "USD"})); v == nil || *v != "CRC" {
		t.Errorf("moneda = %v", v)
	}
	if v, ok := in.OneOf("tipo_cambio", false, []string{"CRC", "USD"}); ok || v != "" {
		t.Errorf("tipo_cambio accepted: %q", v)
	}
	if v := Opt(in.OneOf("ausente", false, []string{"x"})); v != nil {
		t.Errorf("absent enum = %v", *v)
	}
	if id := in.OptionalID("cliente_id"); id == nil || *id != 7 {
		t.Errorf("cliente_id = %v", id)
	}
	if id := in.OptionalID("caja_id"); id != nil {
		t.Errorf("caja_id 0 accepted: %v", *id)
	}
	if id := in.OptionalID("ausente"); id != nil {
		t.Errorf("absent id = %v", *id)
	}
	if b := in.OptionalBool("activo"); b == nil || *b {
		t.Errorf("activo = %v", b)
	}
	items, _ := in.List("lineas", true)
	if el, ok := in.Elemento("lineas", 0, items[0], "Cada línea debe ser un objeto."); !ok || !el.Has("a") {
		t.Errorf("first line not read as an object")
	}
	if _, ok := in.Elemento("lineas", 1, items[1], "Cada línea debe ser un objeto."); ok {
		t.Errorf("a number read as an object")
	}
	errs := in.errs
	if !slices.Equal(errs["tipo_cambio"], []string{"El campo tipo cambio debe ser uno de: CRC, USD."}) ||
		len(errs["caja_id"]) != 1 || !slices.Equal(errs["lineas.1"], []string{"Cada línea debe ser un objeto."}) || len(errs) != 3 {
		t.Errorf("errors %v", errs)
	}
}
