package valid

import (
	"strings"
	"time"
)

// ParseDate reads YYYY-MM-DD in loc (nil: UTC). Years outside 1900..2999 are
// typing mistakes, and dates computed from them (due dates) must stay in
// range, so they are refused too.
func ParseDate(s string, loc *time.Location) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	d, err := time.ParseInLocation(time.DateOnly, strings.TrimSpace(s), loc)
	if err != nil || d.Year() < 1900 || d.Year() > 2999 {
		return time.Time{}, false
	}
	return d, true
}

// DateMessage is the Spanish message of an invalid date field or parameter.
func DateMessage(field string) string {
	return "El campo " + label(field) + " debe ser una fecha válida con formato AAAA-MM-DD (entre 1900 y 2999)."
}

// Date reads a YYYY-MM-DD body field.
func (in *Input) Date(key string, required bool) (time.Time, bool) {
	s, ok := in.String(key, Str{Required: required})
	if !ok {
		return time.Time{}, false
	}
	d, ok := ParseDate(s, nil)
	if !ok {
		in.Fail(key, DateMessage(key))
	}
	return d, ok
}
