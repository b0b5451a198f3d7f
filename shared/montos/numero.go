package montos

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"
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
		return fmt.Errorf("montos: numeric %v out of range", v)
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

// Monto is an amount whose column keeps more decimals than people read
// (a comprobante's totals, numeric(18,5)): at least 2 decimals and no
// trailing zeros beyond them ("1130.00", "12.34567").
type Monto struct{ Numero }

// MarshalJSON writes the number without trailing zeros beyond 2 decimals.
func (m Monto) MarshalJSON() ([]byte, error) {
	places := int32(2)
	for p := int32(5); p > 2; p-- {
		if !m.d.Equal(m.d.Truncate(p - 1)) {
			places = p
			break
		}
	}
	return []byte(m.d.StringFixed(places)), nil
}

// NuevoNumero wraps a decimal computed in Go (a variation, a zero).
func NuevoNumero(d decimal.Decimal) Numero { return Numero{d: d} }
