package handler

import (
	"encoding/json"

	"github.com/jackc/pgx/v5"
)

// ScanJSON is the Query.Scan of a list whose rows PostgreSQL builds as one
// jsonb column (jsonb_build_object): each row is kept as those bytes.
func ScanJSON(r pgx.CollectableRow) (json.RawMessage, error) {
	var b []byte
	err := r.Scan(&b)
	return b, err
}
