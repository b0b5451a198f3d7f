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
