package recurso

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/valid"
)

var sample = &Resource{Name: "muestras", Fields: []Field{
	{Name: "nombre", Kind: Text, Required: true, Max: 10},
	{Name: "tipo", Kind: Text, Values: []string{"a", "b"}},
	{Name: "precio", Kind: Decimal, Required: true, MinValue: "0"},
	{Name: "cantidad", Kind: Integer, MinValue: "0", MaxValue: "5"},
	{Name: "fecha", Kind: Date},
	{Name: "activo", Kind: Boolean},
	{Name: "padre_id", Kind: Ref},
	{Name: "codigo", Kind: Text, Immutable: true},
	{Name: "nivel", Kind: Text, Default: "basico"},
}}

func read(t *testing.T, body string, creating bool) (map[string]any, map[string][]string) {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	in := valid.NewInput(raw)
	vals := sample.values(in, raw, creating)
	if err, ok := in.Err().(*httpx.Error); ok {
		return vals, err.Fields
	}
	return vals, nil
}

func TestFieldRulesReportEachFieldInSpanish(t *testing.T) {
	cases := []struct {
		name, body, field, contains string
		creating                    bool
	}{
		{"required on create", `{"precio": 1}`, "nombre", "obligatorio", true},
		{"blank counts as missing", `{"nombre": " ", "precio": 1}`, "nombre", "obligatorio", true},
		{"required null on update", `{"nombre": null}`, "nombre", "obligatorio", false},
		{"max characters", `{"nombre": "ñandúñandúx", "precio": 1}`, "nombre", "mayor que 10", true},
		{"enumeration", `{"nombre": "x", "precio": 1, "tipo": "c"}`, "tipo", "uno de: a, b", true},
		{"decimal type", `{"nombre": "x", "precio": "diez"}`, "precio", "número", true},
		{"decimal minimum", `{"nombre": "x", "precio": -0.01}`, "precio", "al menos 0", true},
		{"decimal scale", `{"nombre": "x", "precio": 1.005}`, "precio", "2 decimales", true},
		{"decimal too large", `{"nombre": "x", "precio": 1e20}`, "precio", "número", true},
		{"integer bounds", `{"nombre": "x", "precio": 1, "cantidad": 6}`, "cantidad", "mayor que 5", true},
		{"integer type", `{"nombre": "x", "precio": 1, "cantidad": 1.5}`, "cantidad", "entero", true},
		{"date format", `{"nombre": "x", "precio": 1, "fecha": "21/11/2026"}`, "fecha", "AAAA-MM-DD", true},
		{"impossible date", `{"nombre": "x", "precio": 1, "fecha": "2026-02-30"}`, "fecha", "AAAA-MM-DD", true},
		{"boolean null", `{"nombre": "x", "precio": 1, "activo": null}`, "activo", "verdadero o falso", true},
		{"reference must be positive", `{"nombre": "x", "precio": 1, "padre_id": 0}`, "padre_id", "al menos 1", true},
		{"immutable on update", `{"codigo": "X"}`, "codigo", "no se puede modificar", false},
	}
	for _, c := range cases {
		_, errs := read(t, c.body, c.creating)
		if len(errs[c.field]) == 0 || !strings.Contains(errs[c.field][0], c.contains) {
			t.Errorf("%s: errors %v", c.name, errs)
		}
	}
}

func TestFieldValuesAreTypedForTheDatabase(t *testing.T) {
	vals, errs := read(t, `{"nombre": " Caja ", "precio": "1500.5", "cantidad": "3", "activo": true, "fecha": "2026-11-21", "tipo": null}`, true)
	if errs != nil {
		t.Fatal(errs)
	}
	if vals["nombre"] != "Caja" || vals["cantidad"] != int64(3) || vals["activo"] != true || vals["nivel"] != "basico" {
		t.Errorf("values: %#v", vals)
	}
	if _, ok := vals["tipo"]; !ok || vals["tipo"] != nil {
		t.Errorf("an explicit null clears an optional field: %#v", vals["tipo"])
	}
	if _, ok := vals["precio"]; !ok {
		t.Errorf("precio missing")
	}
	// Partial update: only what was sent, no defaults.
	vals, errs = read(t, `{"cantidad": 2}`, false)
	if errs != nil || len(vals) != 1 {
		t.Errorf("partial update: %v %v", vals, errs)
	}
}
