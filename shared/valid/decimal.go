package valid

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// Dec are the rules of a decimal field.
type Dec struct {
	Required bool
	// Scale is the maximum number of decimals (the column's scale).
	Scale int32
	// Positive requires > 0; otherwise Min applies (nil: >= 0, unless
	// Negative allows any sign).
	Positive bool
	Negative bool
	Min      *decimal.Decimal
	MinMsg   string // replaces the default "al menos" message
	Max      *decimal.Decimal
	// Limit: the absolute value must stay below it (the column's precision);
	// zero means 10^16, what numeric(18,2) holds.
	Limit decimal.Decimal
}

// D is a decimal literal for rules ("0.01").
func D(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

var decimalRe = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// Decimal reads a JSON number or a numeric string exactly (never through
// float64), with Spanish messages under key. ok is false when absent, null
// or invalid.
func (in *Input) Decimal(key string, r Dec) (decimal.Decimal, bool) {
	raw, present := in.raw[key]
	if !present || in.IsNull(key) {
		if r.Required {
			in.Required(key)
		}
		return decimal.Zero, false
	}
	name := label(key)
	s := strings.TrimSpace(string(raw))
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(raw, &s); err != nil {
			s = ""
		}
		s = strings.TrimSpace(s)
	}
	d, err := decimal.NewFromString(s)
	if !decimalRe.MatchString(s) || err != nil {
		in.Fail(key, "El campo "+name+" debe ser un número.")
		return decimal.Zero, false
	}
	limit := r.Limit
	if limit.IsZero() {
		limit = decimal.New(1, 16)
	}
	min := decimal.Zero
	if r.Min != nil {
		min = *r.Min
	}
	switch {
	case r.Positive && !d.IsPositive():
		in.Fail(key, "El campo "+name+" debe ser mayor que 0.")
	case !r.Positive && !(r.Negative && r.Min == nil) && d.LessThan(min):
		msg := r.MinMsg
		if msg == "" {
			msg = "El campo " + name + " debe ser al menos " + min.String() + "."
		}
		in.Fail(key, msg)
	case r.Max != nil && d.GreaterThan(*r.Max):
		in.Fail(key, "El campo "+name+" no debe ser mayor que "+r.Max.String()+".")
	case !d.Equal(d.Truncate(r.Scale)):
		in.Fail(key, fmt.Sprintf("El campo %s debe tener como máximo %d decimales.", name, r.Scale))
	case d.Abs().GreaterThanOrEqual(limit):
		in.Fail(key, "El campo "+name+" es demasiado grande.")
	default:
		return d.Truncate(r.Scale), true
	}
	return decimal.Zero, false
}
