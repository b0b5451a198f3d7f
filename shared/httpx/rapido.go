package httpx

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A faster path for the bodies the declared-resource engine writes: rows
// read from PostgreSQL as JSON are trees of map[string]any, []any,
// json.Number, string, bool and nil. encoding/json decodes and encodes
// them through reflection (a third of a list's CPU); DecodeRow and the
// encoder below do the same work directly and produce the same bytes:
// keys sorted, numbers as PostgreSQL wrote them, strings escaped as
// encoding/json does without HTML escaping. Any other value falls back to
// encoding/json.

var errRapido = errors.New("httpx: invalid JSON")

// DecodeRow decodes one JSON object as json.Decoder with UseNumber would.
func DecodeRow(raw []byte) (map[string]any, error) {
	v, err := DecodeValue(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return nil, nil
		}
		return nil, errRapido
	}
	return m, nil
}

// DecodeValue decodes any JSON value as json.Decoder with UseNumber would.
func DecodeValue(raw []byte) (any, error) {
	d := Scanner{B: raw}
	d.Space()
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	d.Space()
	if d.I != len(d.B) {
		return nil, errRapido
	}
	return v, nil
}

func (d *Scanner) value() (any, error) {
	if d.I >= len(d.B) {
		return nil, errRapido
	}
	switch c := d.B[d.I]; {
	case c == '{':
		m := map[string]any{}
		err := d.Object(d.str, func(k string) error {
			v, err := d.value()
			m[k] = v
			return err
		})
		return m, err
	case c == '[':
		a := []any{}
		err := d.Array(func() error {
			v, err := d.value()
			a = append(a, v)
			return err
		})
		return a, err
	case c == '"':
		return d.str()
	case c == 't':
		return d.lit("true", true)
	case c == 'f':
		return d.lit("false", false)
	case c == 'n':
		return d.lit("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := d.number()
		if err != nil {
			return nil, err
		}
		return json.Number(n), nil
	}
	return nil, errRapido
}

func (d *Scanner) lit(s string, v any) (any, error) {
	if !d.Literal(s) {
		return nil, errRapido
	}
	return v, nil
}

// str reads a string at d.I (on its opening quote), unescaping as
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD).
func (d *Scanner) str() (string, error) {
	d.I++
	start := d.I
	// Fast path: no escapes, plain ASCII or valid UTF-8.
	for d.I < len(d.B) {
		c := d.B[d.I]
		if c == '"' {
			s := d.B[start:d.I]
			d.I++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return string([]rune(string(s))), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.I++
	}
	d.I = start - 1
	out, err := d.appendStr(nil)
	return string(out), err
}

// AppendUnquoted appends the value of the JSON string quoted (its quotes
// included) as encoding/json reads it: escapes resolved, invalid UTF-8
// and lone surrogates as U+FFFD.
func AppendUnquoted(dst, quoted []byte) ([]byte, error) {
	out, n, err := AppendUnquotedPrefix(dst, quoted)
	if err == nil && n != len(quoted) {
		err = errRapido
	}
	return out, err
}

// AppendUnquotedPrefix is AppendUnquoted of the JSON string src starts
// with; n is its length in src (its quotes included).
func AppendUnquotedPrefix(dst, src []byte) (out []byte, n int, err error) {
	if len(src) == 0 || src[0] != '"' {
		return dst, 0, errRapido
	}
	d := Scanner{B: src}
	out, err = d.appendStr(dst)
	return out, d.I, err
}

// appendStr appends the string at d.I (on its opening quote) to out.
func (d *Scanner) appendStr(out []byte) ([]byte, error) {
	d.I++
	base := len(out)
	for d.I < len(d.B) {
		c := d.B[d.I]
		switch {
		case c == '"':
			d.I++
			if !utf8.Valid(out[base:]) {
				fixed := []rune(string(out[base:]))
				return append(out[:base], string(fixed)...), nil
			}
			return out, nil
		case c < 0x20:
			return out, errRapido
		case c == '\\':
			if d.I+1 >= len(d.B) {
				return out, errRapido
			}
			e := d.B[d.I+1]
			d.I += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return out, errRapido
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if d.I+1 < len(d.B) && d.B[d.I] == '\\' && d.B[d.I+1] == 'u' {
						save := d.I
						d.I += 2
						if x, ok := d.hex4(); ok {
							r2 = x
						} else {
							d.I = save
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							continue
						}
						d.I = save
					}
					out = utf8.AppendRune(out, utf8.RuneError)
					continue
				}
				out = utf8.AppendRune(out, r)
			default:
				return out, errRapido
			}
		default:
			// A run of plain bytes at once.
			j := d.I + 1
			for j < len(d.B) && d.B[j] != '"' && d.B[j] != '\\' && d.B[j] >= 0x20 {
				j++
			}
			out = append(out, d.B[d.I:j]...)
			d.I = j
		}
	}
	return out, errRapido
}

func (d *Scanner) hex4() (rune, bool) {
	if len(d.B)-d.I < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.B[d.I:d.I+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.I += 4
	return rune(n), true
}

// validNumber is encoding/json's number grammar.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

// appendValue appends v's JSON as encoding/json (without HTML escaping)
// would write it; ok is false for a value it does not handle.
func appendValue(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendString(b, x), true
	case json.Number:
		if x == "" {
			return append(b, '0'), true
		}
		if !validNumber(string(x)) {
			return b, false
		}
		return append(b, x...), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case Raw:
		return appendRaw(b, x)
	case map[string]any:
		return AppendObject(b, x, appendValue)
	case []any:
		return appendArray(b, x)
	case []map[string]any:
		return appendArray(b, x)
	case []Raw:
		return appendArray(b, x)
	}
	return b, false
}

// appendArray encodes a slice element by element (nil is null).
func appendArray[T any](b []byte, xs []T) ([]byte, bool) {
	if raws, ok := any(xs).([]Raw); ok {
		// Spliced as they are, without boxing each one.
		return AppendArray(b, raws, appendRaw)
	}
	return AppendArray(b, xs, func(b []byte, e T) ([]byte, bool) { return appendValue(b, e) })
}

// appendRaw splices r (null when empty).
func appendRaw(b []byte, r Raw) ([]byte, bool) {
	if len(r) == 0 {
		return append(b, "null"...), true
	}
	return append(b, r...), true
}

// AppendObject appends m as encoding/json writes a map: null when nil,
// else its keys sorted, each value written by val; ok is false as soon as
// val refuses a value (b is then incomplete).
func AppendObject[V any](b []byte, m map[string]V, val func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	// A row's or a header map's keys fit on the stack: no allocation.
	var small [32]string
	keys := small[:0]
	if len(m) > len(small) {
		keys = make([]string, 0, len(m))
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		var ok bool
		if b, ok = val(b, m[k]); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// AppendArray appends xs as encoding/json writes a slice: null when nil,
// else each element written by val; ok is false as soon as val refuses
// one (b is then incomplete).
func AppendArray[T any](b []byte, xs []T, val func([]byte, T) ([]byte, bool)) ([]byte, bool) {
	if xs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, e := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = val(b, e); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// AppendStringValue is AppendJSONString in the form AppendObject and
// AppendArray take (it refuses nothing).
func AppendStringValue(b []byte, s string) ([]byte, bool) { return appendString(b, s), true }

const hexDigits = "0123456789abcdef"

// appendString is encoding/json's string encoding with HTML escaping off.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// encodeRapido encodes the envelopes and pages of row trees and Raw rows;
// ok is false for anything else (EncodeJSON then uses encoding/json).
func encodeRapido(v any) ([]byte, bool) { return appendRapido(nil, v) }

// appendRapido is encodeRapido appending to b.
func appendRapido(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case Envelope:
		b = append(b, `{"success":`...)
		b = strconv.AppendBool(b, x.Success)
		if x.Message != "" {
			b = append(b, `,"message":`...)
			b = appendString(b, x.Message)
		}
		b = append(b, `,"data":`...)
		b, ok := appendData(b, x.Data)
		if !ok {
			return nil, false
		}
		return append(b, '}', '\n'), true
	case Page[map[string]any]:
		return appendPage(b, x)
	case Page[Raw]:
		return appendPage(b, x)
	}
	return nil, false
}

// appendPage writes a list page, its rows through appendValue.
func appendPage[T any](b []byte, x Page[T]) ([]byte, bool) {
	b = append(b, `{"data":`...)
	b, ok := appendArray(b, x.Data)
	if !ok {
		return nil, false
	}
	b = append(b, `,"current_page":`...)
	b = strconv.AppendInt(b, int64(x.CurrentPage), 10)
	b = append(b, `,"per_page":`...)
	b = strconv.AppendInt(b, int64(x.PerPage), 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(x.Total), 10)
	b = append(b, `,"last_page":`...)
	b = strconv.AppendInt(b, int64(x.LastPage), 10)
	b = append(b, `,"from":`...)
	b = appendIntPtr(b, x.From)
	b = append(b, `,"to":`...)
	b = appendIntPtr(b, x.To)
	return append(b, '}', '\n'), true
}

func appendData(b []byte, v any) ([]byte, bool) {
	switch v.(type) {
	case map[string]any, Raw, nil:
		return appendValue(b, v)
	}
	return b, false
}

func appendIntPtr(b []byte, p *int) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

// AppendJSONString appends s as a JSON string, as encoding/json writes it
// with HTML escaping off (invalid UTF-8 as \ufffd, U+2028/2029 escaped).
func AppendJSONString(b []byte, s string) []byte { return appendString(b, s) }
