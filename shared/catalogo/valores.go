package catalogo

import "encoding/json"

// intOf reads an integer that is being written, or else the current value.
func intOf(vals, current map[string]any, key string) *int64 {
	if v, ok := vals[key]; ok {
		if n, ok := v.(int64); ok {
			return &n
		}
		return nil
	}
	if n, ok := current[key].(json.Number); ok {
		if v, err := n.Int64(); err == nil {
			return &v
		}
	}
	return nil
}

// maxInt4 is the largest value of an integer (int4) column: a larger value
// must be a 422, not a failed write.
const maxInt4 = "2147483647"
