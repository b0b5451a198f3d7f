package lambdahttp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/erpcr/erp/shared/httpx"
)

// decodeEvent reads an API Gateway v2 event into e in one pass over the
// payload, keeping only the fields the function uses (v2Event) and skipping
// the rest without building it. Strings are taken as they are when they
// hold no escape and are valid UTF-8 (nearly always); any other string, and
// an authorizer context with a value that is not a string, is handed to
// encoding/json, so what is read is exactly what encoding/json would read.
// Keys match exactly (API Gateway's spelling). A payload that is not a JSON
// object, or a read field of the wrong type, is an error; values skipped
// are only checked for their structure.
func decodeEvent(payload []byte, e *v2Event) error {
	d := decoder{httpx.Scanner{B: payload}}
	err := d.object(func(key string) error {
		switch key {
		case "version":
			return d.str(&e.Version)
		case "routeKey":
			return d.str(&e.RouteKey)
		case "rawPath":
			return d.str(&e.RawPath)
		case "rawQueryString":
			return d.str(&e.RawQueryString)
		case "cookies":
			return d.strings(&e.Cookies)
		case "headers":
			return d.stringMap(&e.Headers)
		case "queryStringParameters":
			return d.stringMap(&e.QueryStringParameters)
		case "body":
			return d.str(&e.Body)
		case "isBase64Encoded":
			return d.boolean(&e.IsBase64Encoded)
		case "requestContext":
			rc := &e.RequestContext
			return d.object(func(key string) error {
				switch key {
				case "domainName":
					return d.str(&rc.DomainName)
				case "http":
					return d.object(func(key string) error {
						switch key {
						case "method":
							return d.str(&rc.HTTP.Method)
						case "path":
							return d.str(&rc.HTTP.Path)
						case "sourceIp":
							return d.str(&rc.HTTP.SourceIP)
						}
						return d.skip()
					})
				case "authorizer":
					if d.null() {
						rc.Authorizer = nil
						return nil
					}
					if rc.Authorizer == nil {
						rc.Authorizer = &struct {
							Lambda map[string]any `json:"lambda"`
						}{}
					}
					a := rc.Authorizer
					return d.object(func(key string) error {
						if key == "lambda" {
							return d.anyMap(&a.Lambda)
						}
						return d.skip()
					})
				}
				return d.skip()
			})
		}
		return d.skip()
	})
	if err != nil {
		return err
	}
	d.Space()
	if d.I != len(d.B) {
		return d.Fail("data after the event")
	}
	return nil
}

// decoder is the event's reader on httpx's Scanner, which walks the
// structure (objects, arrays, separators) as it does for the row codecs.
type decoder struct{ httpx.Scanner }

// null consumes a null literal if one is next.
func (d *decoder) null() bool {
	d.Space()
	return d.Literal("null")
}

// object reads an object, calling field for each key with the decoder
// positioned on its value (which field must consume). null is no object.
func (d *decoder) object(field func(key string) error) error {
	if d.null() {
		return nil
	}
	return d.Object(d.key, field)
}

// stringEnd returns the index just past the closing quote of the string
// opening at d.I, and whether it holds an escape.
func (d *decoder) stringEnd() (int, bool, error) {
	escaped := false
	for j := d.I + 1; j < len(d.B); j++ {
		switch c := d.B[j]; {
		case c == '"':
			return j + 1, escaped, nil
		case c == '\\':
			escaped = true
			j++
		case c < 0x20:
			d.I = j
			return 0, false, d.Fail("control character in a string")
		}
	}
	d.I = len(d.B)
	return 0, false, d.Fail("")
}

// str reads a string (null leaves *s as it is, as encoding/json does).
func (d *decoder) str(s *string) error {
	if d.null() {
		return nil
	}
	v, err := d.text()
	if err == nil {
		*s = v
	}
	return err
}

// text reads the string at d.I.
func (d *decoder) text() (string, error) {
	if d.I >= len(d.B) || d.B[d.I] != '"' {
		return "", d.Fail("string expected")
	}
	end, escaped, err := d.stringEnd()
	if err != nil {
		return "", err
	}
	raw := d.B[d.I+1 : end-1]
	var s string
	if !escaped && utf8.Valid(raw) {
		s = string(raw)
	} else if s, err = unquote(d.B[d.I:end]); err != nil {
		return "", fmt.Errorf("invalid JSON at byte %d: %w", d.I, err)
	}
	d.I = end
	return s, nil
}

// key reads an object's key as a view of the payload when it needs no
// unescaping: the field functions compare it, and clone what they keep.
func (d *decoder) key() (string, error) {
	if d.I < len(d.B) && d.B[d.I] == '"' {
		end, escaped, err := d.stringEnd()
		if err != nil {
			return "", err
		}
		if raw := d.B[d.I+1 : end-1]; !escaped && utf8.Valid(raw) {
			d.I = end
			return unsafe.String(unsafe.SliceData(raw), len(raw)), nil
		}
	}
	return d.text()
}

// unquote is encoding/json's reading of a quoted string.
func unquote(quoted []byte) (string, error) {
	b, err := httpx.AppendUnquoted(nil, quoted)
	return string(b), err
}

func (d *decoder) boolean(v *bool) error {
	if d.null() {
		return nil
	}
	switch {
	case d.Literal("true"):
		*v = true
	case d.Literal("false"):
		*v = false
	default:
		return d.Fail("boolean expected")
	}
	return nil
}

// strings reads an array of strings (null is a nil slice).
func (d *decoder) strings(v *[]string) error {
	if d.null() {
		*v = nil
		return nil
	}
	out := []string{}
	err := d.Array(func() error {
		if d.null() {
			out = append(out, "")
			return nil
		}
		s, err := d.text()
		out = append(out, s)
		return err
	})
	if err != nil {
		return err
	}
	*v = out
	return nil
}

// stringMap reads an object of strings (null is a nil map).
func (d *decoder) stringMap(v *map[string]string) error {
	if d.null() {
		*v = nil
		return nil
	}
	m := *v
	if m == nil {
		m = map[string]string{}
	}
	err := d.object(func(key string) error {
		if d.null() {
			// encoding/json leaves a map's null as the zero value.
			m[strings.Clone(key)] = ""
			return nil
		}
		s, err := d.text()
		if err != nil {
			return err
		}
		m[strings.Clone(key)] = s
		return nil
	})
	*v = m
	return err
}

// anyMap reads the authorizer's context: strings directly, anything else
// (numbers, booleans, nested values) by encoding/json over the whole object.
func (d *decoder) anyMap(v *map[string]any) error {
	if d.null() {
		*v = nil
		return nil
	}
	start := d.I
	m := map[string]any{}
	plain := true
	err := d.object(func(key string) error {
		d.Space()
		if plain && d.I < len(d.B) && d.B[d.I] == '"' {
			s, err := d.text()
			if err != nil {
				return err
			}
			m[strings.Clone(key)] = s
			return nil
		}
		plain = false
		return d.skip()
	})
	if err != nil {
		return err
	}
	if !plain {
		m = nil
		if err := json.Unmarshal(d.B[start:d.I], &m); err != nil {
			return fmt.Errorf("invalid JSON at byte %d: %w", start, err)
		}
	}
	if *v == nil {
		*v = m
		return nil
	}
	for k, x := range m {
		(*v)[k] = x
	}
	return nil
}

// skip passes over one value: strings and nested objects and arrays by
// their structure, literals and numbers up to the next delimiter.
func (d *decoder) skip() error {
	d.Space()
	if d.I >= len(d.B) {
		return d.Fail("value expected")
	}
	switch d.B[d.I] {
	case '"':
		end, _, err := d.stringEnd()
		if err != nil {
			return err
		}
		d.I = end
		return nil
	case '{':
		return d.object(func(string) error { return d.skip() })
	case '[':
		return d.Array(d.skip)
	}
	start := d.I
	for d.I < len(d.B) {
		switch c := d.B[d.I]; {
		case c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if d.I == start {
				return d.Fail("value expected")
			}
			return nil
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			d.I++
		default:
			return d.Fail("value expected")
		}
	}
	return d.Fail("")
}
