package ventas

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

// maxMonto is the first amount a numeric(18,2) column cannot hold.
var maxMonto = decimal.New(1, 16)
