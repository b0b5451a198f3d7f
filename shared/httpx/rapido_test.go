package httpx

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// slowDecode and slowEncode are what the fast path replaces.
func slowDecode(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json: %v on %q", err, raw)
	}
	return v
}

func slowEncode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var rapidoCasos = []string{
	`{}`, `{"a":null}`, `{"id": 1, "nombre": "Leche <entera> & \"fresca\"", "precio": 2000.50, "n": -0.5e+10}`,
	`{"x": [1, 2.000, [], {}, [{"b": true, "a": false}]], "y": {"z": {"w": "\u00e1\n\t\r\b\f\u0001\u001f"}}}`,
	`{"s": "\ud83d\ude00 pair", "lone": "\ud83d x", "lone2": "\ude00", "bad": "\ud83d\u0041", "sep": "a\u2028b\u2029c"}`,
	`{"slash": "a\/b", "uni": "ñandú 漢字", "del": "\u007f", "big": 123456789012345678901234567890}`,
	`{"dup": 1, "dup": 2}`, `  {"ws" :  [ 1 , 2 ] }  `,
	`{"creado_en": "2026-11-25T19:00:00.123456+00:00", "vacio": ""}`,
}

func TestFastRowDecodingAndEncodingMatchEncodingJSON(t *testing.T) {
	casos := append([]string{}, rapidoCasos...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		casos = append(casos, string(slowEncode(t, randomTree(r, 0))))
	}
	for _, c := range casos {
		want := slowDecode(t, []byte(c))
		got, err := DecodeValue([]byte(c))
		if err != nil {
			t.Fatalf("DecodeValue(%q): %v", c, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeValue(%q) = %#v, want %#v", c, got, want)
		}
		if m, ok := want.(map[string]any); ok {
			row, err := DecodeRow([]byte(c))
			if err != nil || !reflect.DeepEqual(row, m) {
				t.Fatalf("DecodeRow(%q) = %#v, %v", c, row, err)
			}
			for _, env := range []any{
				Envelope{Success: true, Data: m}, Envelope{Success: true, Message: "Creado <ok> & \"bien\"", Data: m},
				Envelope{Success: true, Data: nil},
				NewPage(PageRequest{Page: 2, PerPage: 15}, []map[string]any{m, m}, 40),
				NewPage(PageRequest{Page: 1, PerPage: 15}, []map[string]any{}, 0),
			} {
				fast, ok := encodeRapido(env)
				if !ok {
					t.Fatalf("encodeRapido refused %#v", env)
				}
				if slow := slowEncode(t, env); !bytes.Equal(fast, slow) {
					t.Fatalf("encodeRapido:\n got %s\nwant %s", fast, slow)
				}
			}
		}
	}
}

func TestFastDecodingRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, c := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, `{"a":"` + "\x01" + `"}`, `{"a":tru}`, `{} {}`, `{"a":-}`} {
		if _, err := DecodeValue([]byte(c)); err == nil {
			t.Errorf("DecodeValue(%q) accepted invalid JSON", c)
		}
	}
}

func TestFastEncodingFallsBackForOtherValues(t *testing.T) {
	if _, ok := encodeRapido(Envelope{Success: true, Data: struct{ A int }{1}}); ok {
		t.Error("a struct must go through encoding/json")
	}
	if _, ok := encodeRapido(Envelope{Success: true, Data: map[string]any{"f": 1.5}}); ok {
		t.Error("a float must go through encoding/json")
	}
	got, err := EncodeJSON(Envelope{Success: true, Data: map[string]any{"f": 1.5, "creado_en": "2026-01-01T00:00:00+00:00"}})
	if err != nil || string(got) != `{"success":true,"data":{"creado_en":"2026-01-01T00:00:00Z","f":1.5}}`+"\n" {
		t.Errorf("EncodeJSON = %s, %v", got, err)
	}
}

func randomTree(r *rand.Rand, depth int) any {
	switch k := r.IntN(8); {
	case depth > 3 || k == 0:
		return randomString(r)
	case k == 1:
		return json.Number([]string{"0", "-1", "1500.00", "12.5000", "3e5", "-0.25E-3", "9007199254740993"}[r.IntN(7)])
	case k == 2:
		return r.IntN(2) == 0
	case k == 3:
		return nil
	case k == 4:
		n := r.IntN(4)
		a := make([]any, n)
		for i := range a {
			a[i] = randomTree(r, depth+1)
		}
		return a
	default:
		m := map[string]any{}
		for range r.IntN(6) {
			m[randomString(r)] = randomTree(r, depth+1)
		}
		return m
	}
}

func randomString(r *rand.Rand) string {
	alphabet := []string{"a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\x00", "\x1f", "\x7f", "á", "ñ", "漢", "😀", "\u2028", "\u2029", "\ufffd"}
	var b strings.Builder
	for range r.IntN(8) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}
