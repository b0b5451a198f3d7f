package lambdahttp

import (
	"encoding/json"
	"errors"
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
	d := decoder{b: payload}
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
	d.ws()
	if d.i != len(d.b) {
		return d.fail("data after the event")
	}
	return nil
}

type decoder struct {
	b []byte
	i int
}

var errEnd = errors.New("unexpected end of the event")

func (d *decoder) fail(what string) error {
	if d.i >= len(d.b) {
		return errEnd
	}
	return fmt.Errorf("invalid event at byte %d: %s", d.i, what)
}

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// null consumes a null literal if one is next.
func (d *decoder) null() bool {
	d.ws()
	if d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "null" {
		d.i += 4
		return true
	}
	return false
}

// object reads an object, calling field for each key with the decoder
// positioned on its value (which field must consume). null is no object.
func (d *decoder) object(field func(key string) error) error {
	if d.null() {
		return nil
	}
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return d.fail("object expected")
	}
	d.i++
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return nil
	}
	for {
		d.ws()
		key, err := d.key()
		if err != nil {
			return err
		}
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return d.fail("':' expected")
		}
		d.i++
		if err := field(key); err != nil {
			return err
		}
		if done, err := d.next('}'); done || err != nil {
			return err
		}
	}
}

// array reads an array, calling elem with the decoder on each element
// (which elem must consume).
func (d *decoder) array(elem func() error) error {
	if d.i >= len(d.b) || d.b[d.i] != '[' {
		return d.fail("array expected")
	}
	d.i++
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return nil
	}
	for {
		d.ws()
		if err := elem(); err != nil {
			return err
		}
		if done, err := d.next(']'); done || err != nil {
			return err
		}
	}
}

// next reads what follows a member or an element: ',' (another follows) or
// the closing byte (done).
func (d *decoder) next(closing byte) (done bool, err error) {
	d.ws()
	if d.i >= len(d.b) {
		return false, errEnd
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		return false, nil
	case closing:
		d.i++
		return true, nil
	}
	return false, d.fail("',' or '" + string(closing) + "' expected")
}

// stringEnd returns the index just past the closing quote of the string
// opening at d.i, and whether it holds an escape.
func (d *decoder) stringEnd() (int, bool, error) {
	escaped := false
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			return j + 1, escaped, nil
		case c == '\\':
			escaped = true
			j++
		case c < 0x20:
			d.i = j
			return 0, false, d.fail("control character in a string")
		}
	}
	return 0, false, errEnd
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

// text reads the string at d.i.
func (d *decoder) text() (string, error) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", d.fail("string expected")
	}
	end, escaped, err := d.stringEnd()
	if err != nil {
		return "", err
	}
	raw := d.b[d.i+1 : end-1]
	var s string
	if !escaped && utf8.Valid(raw) {
		s = string(raw)
	} else if s, err = unquote(d.b[d.i:end]); err != nil {
		return "", fmt.Errorf("invalid event at byte %d: %w", d.i, err)
	}
	d.i = end
	return s, nil
}

// key reads an object's key as a view of the payload when it needs no
// unescaping: the field functions compare it, and clone what they keep.
func (d *decoder) key() (string, error) {
	if d.i < len(d.b) && d.b[d.i] == '"' {
		end, escaped, err := d.stringEnd()
		if err != nil {
			return "", err
		}
		if raw := d.b[d.i+1 : end-1]; !escaped && utf8.Valid(raw) {
			d.i = end
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
	case d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "true":
		*v, d.i = true, d.i+4
	case d.i+5 <= len(d.b) && string(d.b[d.i:d.i+5]) == "false":
		*v, d.i = false, d.i+5
	default:
		return d.fail("boolean expected")
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
	err := d.array(func() error {
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
	start := d.i
	m := map[string]any{}
	plain := true
	err := d.object(func(key string) error {
		d.ws()
		if plain && d.i < len(d.b) && d.b[d.i] == '"' {
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
		if err := json.Unmarshal(d.b[start:d.i], &m); err != nil {
			return fmt.Errorf("invalid event at byte %d: %w", start, err)
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
	d.ws()
	if d.i >= len(d.b) {
		return errEnd
	}
	switch d.b[d.i] {
	case '"':
		end, _, err := d.stringEnd()
		if err != nil {
			return err
		}
		d.i = end
		return nil
	case '{':
		return d.object(func(string) error { return d.skip() })
	case '[':
		return d.array(d.skip)
	}
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if d.i == start {
				return d.fail("value expected")
			}
			return nil
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			d.i++
		default:
			return d.fail("value expected")
		}
	}
	return errEnd
}
