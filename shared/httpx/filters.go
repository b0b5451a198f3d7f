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

// Value returns a trimmed parameter ("" when absent), safe as SQL text
// (QueryText).
func (f *Filters) Value(name string) string { return QueryText(f.r.URL.Query().Get(name)) }

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

// Text reads an optional free-text parameter (nil when absent).
func (f *Filters) Text(name string) *string {
	if v := f.Value(name); v != "" {
		return &v
	}
	return nil
}

// Range reads the dates from and to (each as Date); a to before from is a
// 422 on to.
func (f *Filters) Range(from, to string) (start, end *time.Time) {
	start, end = f.Date(from), f.Date(to)
	if start != nil && end != nil && end.Before(*start) {
		f.Fail(to, "El campo "+to+" debe ser una fecha posterior o igual a "+from+".")
	}
	return start, end
}

// Year reads a year from min to 2999: nil when absent (a 422 when
// required) or bad.
func (f *Filters) Year(name string, required bool, min int64) *int64 {
	v := f.Value(name)
	if v == "" {
		if required {
			f.Fail(name, "El campo "+name+" es obligatorio.")
		}
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min || n > 2999 {
		f.Fail(name, "El campo "+name+" debe ser un año entre "+strconv.FormatInt(min, 10)+" y 2999.")
		return nil
	}
	return &n
}

// Sort ends a list's parsing: the ?sort=&order= expression (SortQuery), or
// the 422 of every bad filter read so far and of a bad sort or order, all
// at once.
func (f *Filters) Sort(allowed map[string]string, def string) (string, error) {
	return f.sort(SortQuery, allowed, def)
}

// SortNewest is Sort for the lists that show the newest first (SortNewest).
func (f *Filters) SortNewest(allowed map[string]string, def string) (string, error) {
	return f.sort(SortNewest, allowed, def)
}

func (f *Filters) sort(order func(*http.Request, map[string]string, string) (string, error), allowed map[string]string, def string) (string, error) {
	expr, err := order(f.r, allowed, def)
	apperr.Campos(f.errs).Juntar(err)
	if ferr := f.Err(); ferr != nil {
		return "", ferr
	}
	return expr, err
}

// Err is the 422 with every message, or nil.
func (f *Filters) Err() error {
	if len(f.errs) > 0 {
		return apperr.NewInvalid(f.errs)
	}
	return nil
}
