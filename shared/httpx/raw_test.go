package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// jsonbText writes v as PostgreSQL prints a jsonb value: keys shorter
// first, ", " and ": " between members, only quotes, backslashes and
// control characters escaped.
func jsonbText(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, c string) int {
			if len(a) != len(c) {
				return len(a) - len(c)
			}
			return strings.Compare(a, c)
		})
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			jsonbString(b, k)
			b.WriteString(": ")
			jsonbText(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			jsonbText(b, e)
		}
		b.WriteByte(']')
	case string:
		jsonbString(b, x)
	case json.Number:
		b.WriteString(string(x))
	case nil:
		b.WriteString("null")
	case bool:
		fmt.Fprint(b, x)
	}
}

func jsonbString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// viaTree is what AppendCanonical replaces: decode, then encode the tree.
func viaTree(src []byte) ([]byte, error) {
	v, err := DecodeValue(src)
	if err != nil {
		return nil, err
	}
	b, ok := appendValue(nil, v)
	if !ok {
		return nil, fmt.Errorf("appendValue refused %#v", v)
	}
	return b, nil
}

func TestCanonicalJSONIsWhatDecodingAndEncodingTheTreeWrite(t *testing.T) {
	casos := append([]string{}, rapidoCasos...)
	casos = append(casos, `null`, `"x"`, `[]`, ` [ {"b" : 1, "a" : {"d": [], "c": {}}} ] `, `{"a": "\u2028", "b": "ok \u00e1"}`,
		`{"k\u00e1": 1, "k": 2, "ka": 3}`, "{\"inv\": \"\xff\xfe ok\"}", `{"z": 1, "a": 2, "z": 3}`,
		`{"e":"\ud83d\ude00"}`, "{\"sep\": \"a\u2028b\"}", `{"1": 1, "10": 2, "2": 3, "": 4}`)
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		tree := randomTree(r, 0)
		casos = append(casos, string(slowEncode(t, tree)))
		var b strings.Builder
		jsonbText(&b, tree)
		casos = append(casos, b.String())
	}
	for _, c := range casos {
		want, err := viaTree([]byte(c))
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		got, err := AppendCanonical([]byte("prefix"), []byte(c))
		if err != nil {
			t.Fatalf("AppendCanonical(%q): %v", c, err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Fatalf("AppendCanonical(%q)\n got %s\nwant prefix%s", c, got, want)
		}
	}
}

func TestCanonicalJSONRefusesWhatDecodingRefuses(t *testing.T) {
	for _, c := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, `{"a":"` + "\x01" + `"}`, `{"a":tru}`, `{} {}`, `{"a":-}`, `{"a":1 "b":2}`, `["a" 1]`} {
		if _, err := AppendCanonical(nil, []byte(c)); err == nil {
			t.Errorf("AppendCanonical(%q) accepted invalid JSON", c)
		}
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, c := range rapidoCasos {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, werr := viaTree(src)
		got, gerr := AppendCanonical(nil, src)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: tree %v, canonical %v", src, werr, gerr)
		}
		if werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", src, got, want)
		}
	})
}

func TestRawIsSplicedIntoEnvelopesAndPages(t *testing.T) {
	m := map[string]any{"id": json.Number("7"), "nombre": "Leche <entera> & \"fresca\"", "precio": json.Number("1500.00")}
	raw, err := AppendCanonical(nil, []byte(`{"id": 7, "precio": 1500.00, "nombre": "Leche <entera> & \"fresca\""}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ fast, slow any }{
		{Envelope{Success: true, Data: Raw(raw)}, Envelope{Success: true, Data: m}},
		{Envelope{Success: true, Message: "Hecho.", Data: Raw(nil)}, Envelope{Success: true, Message: "Hecho.", Data: nil}},
		{NewPage(PageRequest{Page: 2, PerPage: 15}, []Raw{raw, raw}, 40), NewPage(PageRequest{Page: 2, PerPage: 15}, []map[string]any{m, m}, 40)},
		{NewPage(PageRequest{Page: 1, PerPage: 15}, []Raw{}, 0), NewPage(PageRequest{Page: 1, PerPage: 15}, []map[string]any{}, 0)},
	} {
		fast, ok := encodeRapido(c.fast)
		if !ok {
			t.Fatalf("encodeRapido refused %#v", c.fast)
		}
		if want := slowEncode(t, c.slow); !bytes.Equal(fast, want) {
			t.Errorf("encodeRapido:\n got %s\nwant %s", fast, want)
		}
		if slow := slowEncode(t, c.fast); !bytes.Equal(slow, fast) {
			t.Errorf("encoding/json of Raw:\n got %s\nwant %s", slow, fast)
		}
	}
}

func TestAppendUnquotedReadsStringsAsEncodingJSON(t *testing.T) {
	casos := []string{`""`, `"a"`, `"\"<x>\" \\ \/ \b\f\n\r\t"`, `"\u00e1\u2028 \ud83d\ude00 \ud83d x \ude00"`, "\"\xff\xfe ok ñ\"", `"{\"success\":true,\"data\":[]}"`}
	r := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		raw, _ := json.Marshal(randomString(r))
		casos = append(casos, string(raw), string(appendString(nil, randomString(r))))
	}
	for _, c := range casos {
		var want string
		if err := json.Unmarshal([]byte(c), &want); err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		got, err := AppendUnquoted([]byte("x"), []byte(c))
		if err != nil || string(got) != "x"+want {
			t.Fatalf("AppendUnquoted(%q) = %q, %v; want %q", c, got, err, want)
		}
	}
	for _, c := range []string{``, `"`, `"a`, `a"`, `"\x"`, "\"\x01\"", `"a" `} {
		if _, err := AppendUnquoted(nil, []byte(c)); err == nil {
			t.Errorf("AppendUnquoted(%q) accepted it", c)
		}
	}
}

func TestCanonicalObjectWithMembersIsTheMapWithThemAssigned(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		row := map[string]any{"id": json.Number("3"), "nombre": randomString(r), "categoria": "columna"}
		for range r.IntN(4) {
			row[randomString(r)] = randomTree(r, 1)
		}
		var src strings.Builder
		jsonbText(&src, row)
		var extra []Member
		want := map[string]any{}
		for k, v := range row {
			want[k] = v
		}
		for _, k := range []string{"busqueda", "categoria", "stock_total", randomString(r), "categoria", "nombre"} {
			if r.IntN(4) == 0 {
				extra = append(extra, Member{Key: k, Omit: true})
				delete(want, k)
				continue
			}
			v := randomTree(r, 1)
			var b strings.Builder
			jsonbText(&b, v)
			raw := []byte(b.String())
			if r.IntN(5) == 0 {
				raw, v = nil, nil
			}
			extra = append(extra, Member{Key: k, Value: raw})
			want[k] = v
		}
		wantRaw, ok := appendValue(nil, want)
		if !ok {
			t.Fatal("appendValue")
		}
		got, err := AppendCanonicalObject([]byte("x"), []byte(src.String()), extra)
		if err != nil || !bytes.Equal(got, append([]byte("x"), wantRaw...)) {
			t.Fatalf("%s + %v:\n got %s, %v\nwant x%s", src.String(), extra, got, err, wantRaw)
		}
	}
	if got, err := AppendCanonicalObject(nil, []byte(` {} `), []Member{{Key: "b", Value: []byte(`[1, {"z": 1, "a": 2}]`)}, {Key: "a"}}); err != nil || string(got) != `{"a":null,"b":[1,{"a":2,"z":1}]}` {
		t.Errorf("empty object: %s, %v", got, err)
	}
	if got, err := AppendCanonicalObject(nil, []byte(`{"busqueda": "x", "id": 1}`), []Member{{Key: "busqueda", Omit: true}, {Key: "nada", Omit: true}}); err != nil || string(got) != `{"id":1}` {
		t.Errorf("omitted keys: %s, %v", got, err)
	}
	for _, bad := range [][2]string{{`[]`, `1`}, {`{}`, `{`}, {`{"a":1}`, `1 2`}} {
		if _, err := AppendCanonicalObject(nil, []byte(bad[0]), []Member{{Key: "k", Value: []byte(bad[1])}}); err == nil {
			t.Errorf("%q + %q accepted", bad[0], bad[1])
		}
	}
}

// The rows of a page share their keys: the sort of the first is reused for
// the next ones (canon.sort), and must give what sorting each would, also
// when the keys change, repeat or are omitted.
func TestCanonicalObjectsOfTheSameKeysReuseTheSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	keys := []string{"id", "nombre", "busqueda", "precio_venta", "activo", "creado_en", "codigo", "empresa_id", "tipo", "descripcion"}
	c := &canon{}
	for i := range 200 {
		ks := keys
		if i%7 == 3 { // another order, then back
			ks = append([]string(nil), keys...)
			r.Shuffle(len(ks), func(a, b int) { ks[a], ks[b] = ks[b], ks[a] })
		}
		if i%11 == 5 { // a repeated key: the later value wins
			ks = append(append([]string(nil), ks...), "nombre")
		}
		var src strings.Builder
		src.WriteString("{")
		want := map[string]any{}
		for j, k := range ks {
			if j > 0 {
				src.WriteString(", ")
			}
			v := randomTree(r, 1)
			var b strings.Builder
			jsonbText(&b, v)
			src.WriteString(`"` + k + `": ` + b.String())
			want[k] = v
		}
		src.WriteString("}")
		extra := []Member{{Key: "busqueda", Omit: true}, {Key: "categoria", Value: []byte(`{"id": 1, "nombre": "x"}`)}}
		delete(want, "busqueda")
		want["categoria"] = map[string]any{"id": json.Number("1"), "nombre": "x"}
		wantRaw, ok := appendValue(nil, want)
		if !ok {
			t.Fatal("appendValue")
		}
		c.d = Scanner{B: []byte(src.String())}
		got, err := c.object(nil, extra)
		if err != nil || !bytes.Equal(got, wantRaw) {
			t.Fatalf("row %d %s:\n got %s, %v\nwant %s", i, src.String(), got, err, wantRaw)
		}
	}
}
