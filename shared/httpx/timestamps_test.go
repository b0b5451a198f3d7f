package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestNormalizeTimestamps(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain timestamp",
			`{"creado_en":"2026-11-24T11:00:00+00:00"}`,
			`{"creado_en":"2026-11-24T11:00:00Z"}`},
		{"with fraction",
			`{"creado_en":"2026-11-24T11:00:00.123456+00:00"}`,
			`{"creado_en":"2026-11-24T11:00:00.123456Z"}`},
		{"with trailing zeros",
			`{"creado_en":"2026-11-24T11:00:00.120+00:00","actualizado_en":"2026-11-24T11:00:00.1200Z"}`,
			`{"creado_en":"2026-11-24T11:00:00.12Z","actualizado_en":"2026-11-24T11:00:00.12Z"}`},
		{"fraction of only zeros loses the dot",
			`{"creado_en":"2026-11-24T11:00:00.000000+00:00","ocurrido_en":"2026-11-24T11:00:00.000000Z"}`,
			`{"creado_en":"2026-11-24T11:00:00Z","ocurrido_en":"2026-11-24T11:00:00Z"}`},
		{"already canonical is untouched",
			`{"creado_en":"2026-11-24T11:00:00.12Z","actualizado_en":"2026-11-24T11:00:10Z"}`,
			`{"creado_en":"2026-11-24T11:00:00.12Z","actualizado_en":"2026-11-24T11:00:10Z"}`},
		{"timestamp key suffixes and prefix",
			`{"last_used_at":"2026-01-02T03:04:05+00:00","fecha_emision":"2026-01-02T03:04:05.5+00:00","fecha":"2026-01-02T03:04:05+00:00"}`,
			`{"last_used_at":"2026-01-02T03:04:05Z","fecha_emision":"2026-01-02T03:04:05.5Z","fecha":"2026-01-02T03:04:05Z"}`},
		{"escaped quotes in a user's text",
			`{"observaciones":"x\",\"creado_en\":\"2026-11-24T11:00:00+00:00\"","creado_en":"2026-11-24T11:00:00+00:00"}`,
			`{"observaciones":"x\",\"creado_en\":\"2026-11-24T11:00:00+00:00\"","creado_en":"2026-11-24T11:00:00Z"}`},
		{"backslash before the closing quote",
			`{"nombre":"a\\","creado_en":"2026-11-24T11:00:00+00:00","nota":"\\\"fecha\\\":\"2026-11-24T11:00:00+00:00\""}`,
			`{"nombre":"a\\","creado_en":"2026-11-24T11:00:00Z","nota":"\\\"fecha\\\":\"2026-11-24T11:00:00+00:00\""}`},
		{"user text field untouched",
			`{"observaciones":"2026-11-24T11:00:00+00:00","nombre":"2026-11-24T11:00:00.500Z"}`,
			`{"observaciones":"2026-11-24T11:00:00+00:00","nombre":"2026-11-24T11:00:00.500Z"}`},
		{"key not a timestamp key untouched",
			`{"hora":"2026-11-24T11:00:00+00:00","enlace_en_x":"2026-11-24T11:00:00+00:00","origen":"2026-11-24T11:00:00+00:00","datos_at_1":"2026-11-24T11:00:00+00:00"}`,
			`{"hora":"2026-11-24T11:00:00+00:00","enlace_en_x":"2026-11-24T11:00:00+00:00","origen":"2026-11-24T11:00:00+00:00","datos_at_1":"2026-11-24T11:00:00+00:00"}`},
		{"another offset untouched",
			`{"fecha_emision":"2026-11-24T05:00:00-06:00","creado_en":"2026-11-24T11:00:00+01:00"}`,
			`{"fecha_emision":"2026-11-24T05:00:00-06:00","creado_en":"2026-11-24T11:00:00+01:00"}`},
		{"not the exact shape untouched",
			`{"fecha_venta":"2026-11-24","creado_en":"2026-11-24 11:00:00+00:00","a_en":"2026-11-24T11:00+00:00","b_en":"2026-11-24T11:00:00.+00:00","c_en":"2026-11-24T11:00:00.1234567890+00:00","d_en":"x2026-11-24T11:00:00+00:00","e_en":"2026-11-24T11:00:00+00:00 "}`,
			`{"fecha_venta":"2026-11-24","creado_en":"2026-11-24 11:00:00+00:00","a_en":"2026-11-24T11:00+00:00","b_en":"2026-11-24T11:00:00.+00:00","c_en":"2026-11-24T11:00:00.1234567890+00:00","d_en":"x2026-11-24T11:00:00+00:00","e_en":"2026-11-24T11:00:00+00:00 "}`},
		{"non-string values and arrays after a timestamp key untouched",
			`{"creado_en":null,"fecha_x":["2026-11-24T11:00:00+00:00"],"n_en":5,"o_en":{"p":"2026-11-24T11:00:00+00:00"}}`,
			`{"creado_en":null,"fecha_x":["2026-11-24T11:00:00+00:00"],"n_en":5,"o_en":{"p":"2026-11-24T11:00:00+00:00"}}`},
		{"nested objects and arrays",
			`{"success":true,"data":[{"id":1,"creado_en":"2026-11-24T11:00:00.1+00:00","categoria":{"id":2,"creado_en":"2026-11-24T11:00:00.20+00:00"},"detalles":[{"producto":{"actualizado_en":"2026-11-24T11:00:00.300+00:00"}}]}],"total":1}`,
			`{"success":true,"data":[{"id":1,"creado_en":"2026-11-24T11:00:00.1Z","categoria":{"id":2,"creado_en":"2026-11-24T11:00:00.2Z"},"detalles":[{"producto":{"actualizado_en":"2026-11-24T11:00:00.3Z"}}]}],"total":1}`},
		{"white space around the colon",
			"{ \"creado_en\" :\n \"2026-11-24T11:00:00+00:00\" , \"x\" : [ \"y\" ] }\n",
			"{ \"creado_en\" :\n \"2026-11-24T11:00:00Z\" , \"x\" : [ \"y\" ] }\n"},
		{"timestamp key as a value",
			`{"campo":"creado_en","valor":"2026-11-24T11:00:00+00:00"}`,
			`{"campo":"creado_en","valor":"2026-11-24T11:00:00+00:00"}`},
		{"truncated body",
			`{"creado_en":"2026-11-24T11:00:00+00:00","actualizado_en":"2026-11-24T11:00:00+00:00`,
			`{"creado_en":"2026-11-24T11:00:00Z","actualizado_en":"2026-11-24T11:00:00+00:00`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(NormalizeTimestamps([]byte(c.in)))
			if got != c.want {
				t.Fatalf("\n got  %s\n want %s", got, c.want)
			}
			if json.Valid([]byte(c.in)) && !json.Valid([]byte(got)) {
				t.Fatalf("output is not valid JSON: %s", got)
			}
		})
	}
}

func TestNormalizeTimestampsKeepsTheInstant(t *testing.T) {
	for _, in := range []string{
		"2026-11-24T11:00:00+00:00", "2026-11-24T11:00:00.5+00:00", "2026-11-24T11:00:00.123456789+00:00",
		"2026-11-24T11:00:00.100000+00:00", "2026-11-24T11:00:00.000001Z", "2026-11-24T11:00:00.000000Z",
	} {
		body := NormalizeTimestamps([]byte(`{"creado_en":"` + in + `"}`))
		var v struct {
			CreadoEn string `json:"creado_en"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		want, _ := time.Parse(time.RFC3339Nano, in)
		if v.CreadoEn != want.UTC().Format(time.RFC3339Nano) {
			t.Errorf("%s -> %s, want %s (Go's RFC3339Nano)", in, v.CreadoEn, want.UTC().Format(time.RFC3339Nano))
		}
	}
}

func TestNormalizeTimestampsNoOpFastPath(t *testing.T) {
	body := []byte(`{"success":true,"data":{"creado_en":"2026-11-24T11:00:00.12Z","nombre":"Ana"}}`)
	orig := string(body)
	got := NormalizeTimestamps(body)
	if &got[0] != &body[0] || len(got) != len(body) || string(got) != orig {
		t.Fatalf("body changed: %s", got)
	}
	if n := testing.AllocsPerRun(100, func() { NormalizeTimestamps(body) }); n != 0 {
		t.Fatalf("%v allocations on a body with nothing to rewrite", n)
	}
	// Rewriting happens in place, without allocating either.
	src := []byte(`{"creado_en":"2026-11-24T11:00:00.120+00:00"}`)
	buf := make([]byte, len(src))
	if n := testing.AllocsPerRun(100, func() { copy(buf, src); NormalizeTimestamps(buf) }); n != 0 {
		t.Fatalf("%v allocations when rewriting", n)
	}
}

func TestEncodeJSONNormalizesTimestamps(t *testing.T) {
	type fila struct {
		CreadoEn time.Time       `json:"creado_en"`
		Datos    json.RawMessage `json:"datos"`
	}
	body, err := EncodeJSON(fila{
		CreadoEn: time.Date(2026, 11, 24, 11, 0, 0, 120_000_000, time.UTC),
		Datos:    json.RawMessage(`{"creado_en": "2026-11-24T11:00:00.12+00:00", "nota": "<b>"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"creado_en":"2026-11-24T11:00:00.12Z","datos":{"creado_en":"2026-11-24T11:00:00.12Z","nota":"<b>"}}` + "\n"
	if string(body) != want {
		t.Fatalf("\n got  %s\n want %s", body, want)
	}
}

// reference is an independent, slow NormalizeTimestamps: decode, walk, rewrite
// with a regular expression, compare decoded values.
var referenceShape = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(?:Z|\+00:00)$`)

func reference(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && (strings.HasSuffix(k, "_en") || strings.HasSuffix(k, "_at") || strings.HasPrefix(k, "fecha")) {
				if m := referenceShape.FindStringSubmatch(s); m != nil {
					frac := strings.TrimRight(m[2], "0")
					if frac != "" {
						frac = "." + frac
					}
					x[k] = m[1] + frac + "Z"
				}
				continue
			}
			x[k] = reference(e)
		}
	case []any:
		for i, e := range x {
			x[i] = reference(e)
		}
	}
	return v
}

func randomDoc(r *rand.Rand, depth int) any {
	keys := []string{"creado_en", "actualizado_en", "last_used_at", "fecha", "fecha_emision", "nombre", "observaciones", "hora", "en", "_en", "x_at"}
	str := func() string {
		switch r.IntN(6) {
		case 0:
			return "2026-11-24T11:00:00+00:00"
		case 1:
			return fmt.Sprintf("2026-11-24T11:00:%02d.%0*d+00:00", r.IntN(60), 1+r.IntN(9), r.IntN(1000))
		case 2:
			return fmt.Sprintf("2026-11-24T11:00:%02d.%d0Z", r.IntN(60), r.IntN(1000))
		case 3:
			return `a"b\"c` + "\\" // quotes and backslashes
		case 4:
			return `{"creado_en":"2026-11-24T11:00:00+00:00"}`
		}
		return "2026-11-24T11:00:00-06:00"
	}
	if depth <= 0 {
		return str()
	}
	switch r.IntN(4) {
	case 0:
		m := map[string]any{}
		for range 1 + r.IntN(5) {
			m[keys[r.IntN(len(keys))]] = randomDoc(r, depth-1)
		}
		return m
	case 1:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomDoc(r, depth-1)
		}
		return a
	case 2:
		return r.IntN(100)
	}
	return str()
}

func TestNormalizeTimestampsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		raw, err := json.Marshal(randomDoc(r, 4))
		if err != nil {
			t.Fatal(err)
		}
		got := NormalizeTimestamps(bytes.Clone(raw))
		var gotV, wantV any
		if err := json.Unmarshal(got, &gotV); err != nil {
			t.Fatalf("doc %d: invalid output %s: %v", i, got, err)
		}
		_ = json.Unmarshal(raw, &wantV)
		if wantV = reference(wantV); !reflect.DeepEqual(gotV, wantV) {
			t.Fatalf("doc %d:\n in   %s\n got  %s", i, raw, got)
		}
	}
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func FuzzNormalizeTimestamps(f *testing.F) {
	f.Add([]byte(`{"creado_en":"2026-11-24T11:00:00.120+00:00","x":"\"creado_en\":\"2026-11-24T11:00:00+00:00\""}`))
	f.Add([]byte(`[{"fecha":"2026-11-24T11:00:00.0Z"},"a\\"]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			NormalizeTimestamps(bytes.Clone(in)) // must not panic
			return
		}
		got := NormalizeTimestamps(bytes.Clone(in))
		gotV, err := decode(got)
		if err != nil {
			t.Fatalf("invalid output %q from %q", got, in)
		}
		wantV, _ := decode(in)
		if wantV = reference(wantV); !reflect.DeepEqual(gotV, wantV) {
			t.Fatalf("\n in   %s\n got  %s", in, got)
		}
	})
}

// benchBody is a ~100 KB list response as PostgreSQL builds it: 150 rows
// with nested relations and four timestamps each.
func benchBody(offset string) []byte {
	var b strings.Builder
	b.WriteString(`{"success":true,"data":[`)
	for i := 0; b.Len() < 100_000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"codigo":"P-%05d","nombre":"Producto de prueba número %d","descripcion":"Descripción \"larga\" con texto libre del usuario, 2026-11-24T11:00:00+00:00 incluido","precio_venta":"3500.00","precio_compra":"2000.50","stock_total":"12.000","activo":true,`+
			`"categoria":{"id":1,"nombre":"General","creado_en":"2026-11-24T11:00:00.1234%s","actualizado_en":"2026-11-24T11:00:00.5%s"},`+
			`"unidad_medida":{"id":1,"codigo":"Unid","nombre":"Unidad"},"creado_en":"2026-11-24T11:%02d:00.123456%s","actualizado_en":"2026-11-24T11:%02d:00.1234%s"}`,
			i, i, i, offset, offset, i%60, offset, i%60, offset)
	}
	b.WriteString(`],"current_page":1,"per_page":100,"total":1000}` + "\n")
	return []byte(b.String())
}

func BenchmarkNormalizeTimestamps(b *testing.B) {
	for _, bc := range []struct{ name, offset string }{
		{"postgres_offsets", "+00:00"},
		{"to_char_trailing_zeros", "00Z"},
		{"already_utc_no_op", "1Z"},
	} {
		src := benchBody(bc.offset)
		buf := make([]byte, len(src))
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				copy(buf, src)
				NormalizeTimestamps(buf)
			}
		})
	}
	// For scale: encoding the same body, as WriteJSON does before rewriting.
	var v any
	if err := json.Unmarshal(benchBody("+00:00"), &v); err != nil {
		b.Fatal(err)
	}
	b.Run("encode_for_scale", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(v)
		}
	})
}
