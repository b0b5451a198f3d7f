package ventas

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/httpx"
)

// Numero is a NUMERIC column as the API shows it: a JSON number with the
// column's scale ("1500.00", quantities "2.500"), never a float. Every
// numeric of a sale has at least 2 decimals, which also gives zero its
// scale (PostgreSQL sends a zero without one).
type Numero struct{ d decimal.Decimal }

// Decimal returns the value.
func (n Numero) Decimal() decimal.Decimal { return n.d }

// ScanNumeric implements pgtype.NumericScanner (the scale is kept).
func (n *Numero) ScanNumeric(v pgtype.Numeric) error {
	if !v.Valid {
		n.d = decimal.Zero
		return nil
	}
	if v.NaN || v.InfinityModifier != pgtype.Finite {
		return fmt.Errorf("ventas: numeric %v out of range", v)
	}
	n.d = decimal.NewFromBigInt(v.Int, v.Exp)
	return nil
}

// MarshalJSON writes the number with its scale.
func (n Numero) MarshalJSON() ([]byte, error) {
	places := max(-n.d.Exponent(), 2)
	return []byte(n.d.StringFixed(places)), nil
}

// UnmarshalJSON reads a JSON number (event payloads, tests).
func (n *Numero) UnmarshalJSON(b []byte) error {
	d, err := decimal.NewFromString(strings.Trim(string(b), `"`))
	n.d = d
	return err
}

func numeric(d decimal.Decimal) pgtype.Numeric {
	var n pgtype.Numeric
	_ = n.Scan(d.String())
	return n
}

var numberRe = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// maxMonto is the first amount a numeric(18,2) column cannot hold.
var maxMonto = decimal.New(1, 16)

// regla are the bounds of a decimal field.
type regla struct {
	required bool
	scale    int32
	min      *decimal.Decimal
	minMsg   string // replaces the default "at least" message
	max      *decimal.Decimal
}

func dec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

// readDecimal reads a JSON number or numeric string with a maximum number of
// decimals and inclusive bounds; it reports under key.
func readDecimal(in *httpx.Input, key string, r regla) (decimal.Decimal, bool) {
	if !in.Has(key) || in.IsNull(key) {
		if r.required {
			in.Required(key)
		}
		return decimal.Zero, false
	}
	name := strings.ReplaceAll(key, "_", " ")
	raw := in.Raw()[key]
	s := strings.TrimSpace(string(raw))
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(raw, &s); err != nil {
			s = ""
		}
		s = strings.TrimSpace(s)
	}
	d, err := decimal.NewFromString(s)
	if !numberRe.MatchString(s) || err != nil {
		in.Fail(key, "El campo "+name+" debe ser un número.")
		return decimal.Zero, false
	}
	if -d.Exponent() > r.scale && !d.Equal(d.Truncate(r.scale)) {
		in.Fail(key, fmt.Sprintf("El campo %s debe tener como máximo %d decimales.", name, r.scale))
		return decimal.Zero, false
	}
	if r.min != nil && d.LessThan(*r.min) {
		msg := r.minMsg
		if msg == "" {
			msg = "El campo " + name + " debe ser al menos " + r.min.String() + "."
		}
		in.Fail(key, msg)
		return decimal.Zero, false
	}
	if r.max != nil && d.GreaterThan(*r.max) {
		in.Fail(key, "El campo "+name+" no debe ser mayor que "+r.max.String()+".")
		return decimal.Zero, false
	}
	if d.Abs().GreaterThanOrEqual(maxMonto) {
		in.Fail(key, "El campo "+name+" es demasiado grande.")
		return decimal.Zero, false
	}
	return d.Truncate(r.scale), true
}
