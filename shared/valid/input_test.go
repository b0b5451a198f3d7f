package valid

import (
	"encoding/json"
	"testing"

	"github.com/erpcr/erp/shared/apperr"
)

func input(t *testing.T, body string) *Input {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	return NewInput(raw)
}

func TestInputRulesGiveSpanishMessagesPerField(t *testing.T) {
	cases := []struct {
		name, body, field, msg string
		read                   func(in *Input)
	}{
		{"required", `{}`, "nombre", "El campo nombre es obligatorio.", func(in *Input) { in.String("nombre", Str{Required: true}) }},
		{"blank is missing", `{"nombre":"  "}`, "nombre", "El campo nombre es obligatorio.", func(in *Input) { in.String("nombre", Str{Required: true}) }},
		{"max", `{"nombre":"abcd"}`, "nombre", "El campo nombre no debe ser mayor que 3 caracteres.", func(in *Input) { in.String("nombre", Str{Max: 3}) }},
		{"string type", `{"nombre":5}`, "nombre", "El campo nombre debe ser una cadena de texto.", func(in *Input) { in.String("nombre", Str{}) }},
		{"email", `{"email":"a@b"}`, "email", "El campo email debe ser una dirección de correo electrónico válida.", func(in *Input) { in.String("email", Str{Email: true}) }},
		{"url", `{"sitio_web":"ftp://x"}`, "sitio_web", "El campo sitio web debe ser una URL válida.", func(in *Input) { in.String("sitio_web", Str{URL: true}) }},
		{"integer", `{"cargo_id":1.5}`, "cargo_id", "El campo cargo id debe ser un número entero.", func(in *Input) { in.Int("cargo_id", Int{}) }},
		{"min", `{"dias":-1}`, "dias", "El campo dias debe ser al menos 0.", func(in *Input) { in.Int("dias", Int{Min: Min(0)}) }},
		{"boolean", `{"activo":"quizas"}`, "activo", "El campo activo debe ser verdadero o falso.", func(in *Input) { in.Bool("activo", false) }},
		{"list", `{"roles":{}}`, "roles", "El campo roles debe ser una lista.", func(in *Input) { in.List("roles", false) }},
	}
	for _, c := range cases {
		in := input(t, c.body)
		c.read(in)
		err, ok := apperr.As(in.Err())
		if !ok || err.Kind != apperr.Invalid || len(err.Fields[c.field]) != 1 || err.Fields[c.field][0] != c.msg {
			t.Errorf("%s: %+v", c.name, in.Err())
		}
	}
}

func TestInputAcceptsWhatClientsSend(t *testing.T) {
	in := input(t, `{"n":"12","b":1,"s":"  hola  ","nulo":null,"pw":" a b "}`)
	if n, ok := in.Int("n", Int{Required: true}); !ok || n != 12 {
		t.Errorf("numeric string: %d %v", n, ok)
	}
	if b, ok := in.Bool("b", true); !ok || !b {
		t.Errorf("bool 1")
	}
	if s, _ := in.String("s", Str{}); s != "hola" {
		t.Errorf("trim: %q", s)
	}
	if s, _ := in.String("pw", Str{NoTrim: true}); s != " a b " {
		t.Errorf("no trim: %q", s)
	}
	if _, ok := in.String("nulo", Str{}); ok || !in.IsNull("nulo") || !in.Has("nulo") || in.Has("otro") {
		t.Errorf("null handling")
	}
	if in.Err() != nil {
		t.Errorf("unexpected errors: %v", in.Err())
	}
}

// A number float64 cannot hold (1e400) is still valid JSON: Decode accepts
// the body and the field's own reader refuses the value under its name,
// instead of the whole body being called malformed (400).
func TestDecodeLeavesHugeNumbersToTheirField(t *testing.T) {
	for _, c := range []struct {
		body, field string
		read        func(in *Input)
	}{
		{`{"dias":1e400}`, "dias", func(in *Input) { in.Int("dias", Int{}) }},
		{`{"monto":-1e400}`, "monto", func(in *Input) { in.Decimal("monto", Dec{Scale: 2}) }},
		{`{"lineas":[{"cantidad":1e999}]}`, "", nil},
	} {
		in, err := Decode([]byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if c.read == nil {
			continue
		}
		c.read(in)
		if e, ok := apperr.As(in.Err()); !ok || e.Kind != apperr.Invalid || len(e.Fields[c.field]) != 1 {
			t.Errorf("%s: %+v", c.body, in.Err())
		}
	}
}
