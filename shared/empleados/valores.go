package empleados

import (
	"time"

	"github.com/erpcr/erp/shared/valid"
)

// fecha is the new value of a date field (time.Time, or nil when cleared),
// else the current one (the JSON "YYYY-MM-DD" of the record).
func fecha(vals, current map[string]any, key string) (time.Time, bool) {
	if v, ok := vals[key]; ok {
		t, ok := v.(time.Time)
		return t, ok
	}
	s, ok := current[key].(string)
	if !ok {
		return time.Time{}, false
	}
	return valid.ParseDate(s, nil)
}
