package httpx

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/valid"
)

// Filters reads list query parameters, collecting a Spanish 422 message per
// bad parameter so that every mistake is reported at once.
type Filters struct {
	r    *http.Request
	errs map[string][]string
	// Loc is the time zone of date parameters (nil: UTC).
	Loc *time.Location
}

// NewFilters starts reading r's query.
func NewFilters(r *http.Request) *Filters {
	return &Filters{r: r, errs: map[string][]string{}}
}

// Value returns a trimmed parameter ("" when absent).
func (f *Filters) Value(name string) string { return strings.TrimSpace(f.r.URL.Query().Get(name)) }

// Fail records a message for a parameter.
func (f *Filters) Fail(name, msg string) { f.errs[name] = append(f.errs[name], msg) }

// ID reads a positive integer (nil when absent or bad).
func (f *Filters) ID(name string) *int64 {
	v := f.Value(name)
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		f.Fail(name, "El campo "+name+" debe ser un número entero positivo.")
		return nil
	}
	return &n
}

// Date reads a YYYY-MM-DD date in f.Loc.
func (f *Filters) Date(name string) *time.Time {
	v := f.Value(name)
	if v == "" {
		return nil
	}
	d, ok := valid.ParseDate(v, f.Loc)
	if !ok {
		f.Fail(name, valid.DateMessage(name))
		return nil
	}
	return &d
}

// OneOf reads a parameter restricted to values.
func (f *Filters) OneOf(name string, values []string) *string {
	v := f.Value(name)
	if v == "" {
		return nil
	}
	if !slices.Contains(values, v) {
		f.Fail(name, "El campo "+name+" debe ser uno de: "+strings.Join(values, ", ")+".")
		return nil
	}
	return &v
}

// Bool reads 1/true/si or 0/false/no (nil when absent or bad).
func (f *Filters) Bool(name string) *bool {
	b, err := BoolQuery(f.r, name)
	if err != nil {
		f.Fail(name, "El campo "+name+" debe ser verdadero o falso.")
	}
	return b
}

// Err is the 422 with every message, or nil.
func (f *Filters) Err() error {
	if len(f.errs) > 0 {
		return apperr.NewInvalid(f.errs)
	}
	return nil
}
