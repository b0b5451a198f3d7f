package httpx

import (
	"fmt"
	"strings"
	"testing"
)

// benchRows is a list page as PostgreSQL's jsonb prints it: 15 rows of 20
// keys, a nested relation and an array each.
func benchRows() [][]byte {
	rows := make([][]byte, 15)
	for i := range rows {
		var sb strings.Builder
		fmt.Fprintf(&sb, `{"id": %d, "nombre": "Producto de prueba %04d", "codigo": "BENCH-%04d"`, i, i, i)
		for k := range 15 {
			fmt.Fprintf(&sb, `, "campo_%02d": "valor %d ñ"`, k, k)
		}
		sb.WriteString(`, "precio": 150.50, "activo": true, "categoria": {"id": 3, "nombre": "Bebidas"}, "tags": [1, 2, "x", null]}`)
		rows[i] = []byte(sb.String())
	}
	return rows
}

// BenchmarkCodec is the row codecs of the read path: the canonical rewrite
// of a page's rows (AppendCanonical), their decoding into trees
// (DecodeValue) and the envelope of one tree (appendRapido).
func BenchmarkCodec(b *testing.B) {
	rows := benchRows()
	b.Run("canonical", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = out[:0]
			for _, r := range rows {
				var err error
				if out, err = AppendCanonical(out, r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range rows {
				if _, err := DecodeValue(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	tree, err := DecodeRow(rows[0])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			var ok bool
			if out, ok = appendRapido(out[:0], Envelope{Success: true, Data: tree}); !ok {
				b.Fatal("not encoded")
			}
		}
	})
}
