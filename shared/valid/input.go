// Package valid reads a JSON object field by field with Spanish validation
// messages keyed by field. It knows nothing of HTTP: handlers decode the
// body (httpx.ReadInput) and domain functions validate with it.
package valid

import (
	"bytes"
	"encoding/json"
	"net/mail"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/erpcr/erp/shared/apperr"
)

// Input is a JSON object body read field by field, collecting Spanish
// validation messages keyed by field. Reading fields one by one (rather than
// unmarshalling into a struct) tells "absent" from "null" for partial updates
// and gives each wrong type its own message instead of a 500 or a vague 400.
type Input struct {
	raw  map[string]json.RawMessage
	errs map[string][]string
	body []byte
}

// Decode reads a request body as a JSON object (an empty body is an empty
// object). Malformed JSON, invalid UTF-8 or anything but an object is a
// BadRequest error with a Spanish message.
func Decode(body []byte) (*Input, error) {
	in := NewInput(map[string]json.RawMessage{})
	if len(bytes.TrimSpace(body)) == 0 {
		return in, nil
	}
	if !utf8.Valid(body) {
		return nil, apperr.NewBadRequest("El cuerpo de la solicitud debe estar codificado en UTF-8.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	// Numbers are checked here only for their syntax: 1e400 is valid JSON
	// that a float64 cannot hold, and each field's reader answers it (a 422
	// under the field) rather than the whole body being malformed.
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, apperr.NewBadRequest("El cuerpo de la solicitud no es un JSON válido.")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, apperr.NewBadRequest("El cuerpo de la solicitud debe ser un objeto JSON.")
	}
	if err := json.Unmarshal(body, &in.raw); err != nil {
		return nil, apperr.NewBadRequest("El cuerpo de la solicitud no es un JSON válido.")
	}
	in.body = body
	return in, nil
}

// Body returns the body as sent (for fingerprints).
func (in *Input) Body() []byte { return in.body }

// NewInput wraps an already decoded object (nested lines, tests).
func NewInput(raw map[string]json.RawMessage) *Input {
	return &Input{raw: raw, errs: map[string][]string{}}
}

// Has reports whether the field was sent (even as null).
func (in *Input) Has(key string) bool {
	_, ok := in.raw[key]
	return ok
}

// IsNull reports whether the field was sent as null.
func (in *Input) IsNull(key string) bool {
	v, ok := in.raw[key]
	return ok && string(bytes.TrimSpace(v)) == "null"
}

// Fail records a message for a field.
func (in *Input) Fail(key, msg string) {
	in.errs[key] = append(in.errs[key], msg)
}

// Failed reports whether the field already has a message.
func (in *Input) Failed(key string) bool { return len(in.errs[key]) > 0 }

// Merge copies the messages of a nested input under prefix ("detalles.0.").
func (in *Input) Merge(prefix string, other *Input) {
	for k, v := range other.errs {
		in.errs[prefix+k] = append(in.errs[prefix+k], v...)
	}
}

// Err returns a 422 with every collected message, or nil.
func (in *Input) Err() error {
	if len(in.errs) == 0 {
		return nil
	}
	return apperr.NewInvalid(in.errs)
}

func label(key string) string {
	return strings.ReplaceAll(key, "_", " ")
}

// Required records the "obligatorio" message.
func (in *Input) Required(key string) {
	in.Fail(key, "El campo "+label(key)+" es obligatorio.")
}

// Str are the rules of a string field.
type Str struct {
	Required bool
	Min, Max int // in characters; 0 = no limit
	Email    bool
	URL      bool
	// Keep whitespace as sent (passwords); otherwise values are trimmed.
	NoTrim bool
}

var emailRe = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// String reads a string field. ok is false when absent, null or invalid; a
// present empty string counts as absent for Required.
func (in *Input) String(key string, rule Str) (string, bool) {
	raw, present := in.raw[key]
	if !present || in.IsNull(key) {
		if rule.Required {
			in.Required(key)
		}
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		in.Fail(key, "El campo "+label(key)+" debe ser una cadena de texto.")
		return "", false
	}
	// "\u0000" is valid JSON but PostgreSQL text cannot store it (a 500).
	if strings.ContainsRune(s, 0) {
		in.Fail(key, "El campo "+label(key)+" contiene caracteres no válidos.")
		return "", false
	}
	if !rule.NoTrim {
		s = strings.TrimSpace(s)
	}
	if s == "" {
		if rule.Required {
			in.Required(key)
		}
		return "", false
	}
	n := utf8.RuneCountInString(s)
	if rule.Max > 0 && n > rule.Max {
		in.Fail(key, "El campo "+label(key)+" no debe ser mayor que "+strconv.Itoa(rule.Max)+" caracteres.")
		return "", false
	}
	if rule.Min > 0 && n < rule.Min {
		in.Fail(key, "El campo "+label(key)+" debe tener al menos "+strconv.Itoa(rule.Min)+" caracteres.")
		return "", false
	}
	if rule.Email {
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || !emailRe.MatchString(s) {
			in.Fail(key, "El campo "+label(key)+" debe ser una dirección de correo electrónico válida.")
			return "", false
		}
	}
	if rule.URL {
		u, err := url.ParseRequestURI(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			in.Fail(key, "El campo "+label(key)+" debe ser una URL válida.")
			return "", false
		}
	}
	return s, true
}

// Int are the rules of an integer field.
type Int struct {
	Required bool
	Min, Max *int64
}

// Min is a helper for Int rules.
func Min(n int64) *int64 { return &n }

// Int reads an integer field; a numeric string ("12") is accepted as well.
func (in *Input) Int(key string, rule Int) (int64, bool) {
	raw, present := in.raw[key]
	if !present || in.IsNull(key) {
		if rule.Required {
			in.Required(key)
		}
		return 0, false
	}
	n, ok := parseInt(raw)
	if !ok {
		in.Fail(key, "El campo "+label(key)+" debe ser un número entero.")
		return 0, false
	}
	if rule.Min != nil && n < *rule.Min {
		in.Fail(key, "El campo "+label(key)+" debe ser al menos "+strconv.FormatInt(*rule.Min, 10)+".")
		return 0, false
	}
	if rule.Max != nil && n > *rule.Max {
		in.Fail(key, "El campo "+label(key)+" no debe ser mayor que "+strconv.FormatInt(*rule.Max, 10)+".")
		return 0, false
	}
	return n, true
}

func parseInt(raw json.RawMessage) (int64, bool) {
	var num json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return 0, false
	}
	switch x := v.(type) {
	case json.Number:
		num = x
	case string:
		num = json.Number(strings.TrimSpace(x))
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// Bool reads a boolean field (true/false, 1/0, "true"/"false").
func (in *Input) Bool(key string, required bool) (bool, bool) {
	raw, present := in.raw[key]
	if !present || in.IsNull(key) {
		if required {
			in.Required(key)
		}
		return false, false
	}
	switch strings.Trim(string(bytes.TrimSpace(raw)), `"`) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	in.Fail(key, "El campo "+label(key)+" debe ser verdadero o falso.")
	return false, false
}

// List reads an array field as raw elements.
func (in *Input) List(key string, required bool) ([]json.RawMessage, bool) {
	raw, present := in.raw[key]
	if !present || in.IsNull(key) {
		if required {
			in.Required(key)
		}
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		in.Fail(key, "El campo "+label(key)+" debe ser una lista.")
		return nil, false
	}
	return items, true
}

// Raw returns the body's fields as sent (for readers that need the exact
// JSON text, such as decimals).
func (in *Input) Raw() map[string]json.RawMessage { return in.raw }

// Keys returns the names of the fields sent, sorted.
func (in *Input) Keys() []string {
	keys := make([]string, 0, len(in.raw))
	for k := range in.raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
