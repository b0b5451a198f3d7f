package httpx

import (
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/valid"
)

var filterSorts = map[string]string{"id": "x.id", "fecha": "x.fecha"}

// fields is the 422's messages per field (nil when err is nil).
func fields(t *testing.T, err error) map[string][]string {
	t.Helper()
	if err == nil {
		return nil
	}
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid {
		t.Fatalf("error %v is not a 422", err)
	}
	return e.Fields
}

func TestFiltersSortReportsBadFiltersAndABadSortAtOnce(t *testing.T) {
	cases := []struct {
		name, query, order string
		newest             bool
		want               map[string][]string
	}{
		{"no sort: the default ascending", "", "x.id asc", false, nil},
		{"newest: no sort is the default descending", "", "x.id desc", true, nil},
		{"a known sort", "sort=fecha&order=desc", "x.fecha desc", false, nil},
		{"a bad sort alone", "sort=nada", "", false,
			map[string][]string{"sort": {"El campo sort no admite el valor nada."}}},
		{"a bad order alone", "order=arriba", "", true,
			map[string][]string{"order": {"El campo order debe ser asc o desc."}}},
		{"bad filters and a bad sort together", "sort=nada&cliente_id=x", "", false,
			map[string][]string{"cliente_id": {"El campo cliente_id debe ser un número entero positivo."}, "sort": {"El campo sort no admite el valor nada."}}},
		{"bad filters and a bad order together (newest)", "order=arriba&cliente_id=0", "", true,
			map[string][]string{"cliente_id": {"El campo cliente_id debe ser un número entero positivo."}, "order": {"El campo order debe ser asc o desc."}}},
		{"bad filters with a good sort", "sort=fecha&cliente_id=0", "", false,
			map[string][]string{"cliente_id": {"El campo cliente_id debe ser un número entero positivo."}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFilters(httptest.NewRequest("GET", "/x?"+c.query, nil))
			f.ID("cliente_id")
			sort := f.Sort
			if c.newest {
				sort = f.SortNewest
			}
			order, err := sort(filterSorts, "x.id")
			if got := fields(t, err); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("errors %v, want %v", got, c.want)
			}
			if order != c.order {
				t.Fatalf("order %q, want %q", order, c.order)
			}
		})
	}
}

// day is d as YYYY-MM-DD ("" for nil).
func day(d *time.Time) string {
	if d == nil {
		return ""
	}
	return d.Format(time.DateOnly)
}

func TestFiltersRange(t *testing.T) {
	cases := []struct {
		name, query string
		start, end  string
		want        map[string][]string
	}{
		{"both absent", "", "", "", nil},
		{"one day", "fecha_inicio=2026-03-01&fecha_fin=2026-03-01", "2026-03-01", "2026-03-01", nil},
		{"only the end", "fecha_fin=2026-03-01", "", "2026-03-01", nil},
		{"end before start", "fecha_inicio=2026-03-02&fecha_fin=2026-03-01", "2026-03-02", "2026-03-01",
			map[string][]string{"fecha_fin": {"El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio."}}},
		{"a bad date is not compared", "fecha_inicio=ayer&fecha_fin=2026-03-01", "", "2026-03-01",
			map[string][]string{"fecha_inicio": {valid.DateMessage("fecha_inicio")}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFilters(httptest.NewRequest("GET", "/x?"+c.query, nil))
			start, end := f.Range("fecha_inicio", "fecha_fin")
			if got := fields(t, f.Err()); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("errors %v, want %v", got, c.want)
			}
			if day(start) != c.start || day(end) != c.end {
				t.Fatalf("dates %s..%s, want %s..%s", day(start), day(end), c.start, c.end)
			}
		})
	}
}

func TestFiltersYear(t *testing.T) {
	cases := []struct {
		name, query string
		required    bool
		min         int64
		want        int64 // 0: nil
		errs        map[string][]string
	}{
		{"absent and optional", "", false, 1900, 0, nil},
		{"absent and required", "", true, 1901, 0, map[string][]string{"anio": {"El campo anio es obligatorio."}}},
		{"in range", "anio=2026", true, 1900, 2026, nil},
		{"the minimum", "anio=1901", false, 1901, 1901, nil},
		{"below the minimum", "anio=1900", true, 1901, 0,
			map[string][]string{"anio": {"El campo anio debe ser un año entre 1901 y 2999."}}},
		{"above 2999", "anio=3000", false, 1900, 0,
			map[string][]string{"anio": {"El campo anio debe ser un año entre 1900 y 2999."}}},
		{"not a number", "anio=dos", false, 1900, 0,
			map[string][]string{"anio": {"El campo anio debe ser un año entre 1900 y 2999."}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFilters(httptest.NewRequest("GET", "/x?"+c.query, nil))
			got := f.Year("anio", c.required, c.min)
			if (got == nil) != (c.want == 0) || got != nil && *got != c.want {
				t.Fatalf("year %v, want %d", got, c.want)
			}
			if errs := fields(t, f.Err()); !reflect.DeepEqual(errs, c.errs) {
				t.Fatalf("errors %v, want %v", errs, c.errs)
			}
		})
	}
}

func TestFiltersTextIsTrimmedAndNilWhenBlank(t *testing.T) {
	f := NewFilters(httptest.NewRequest("GET", "/x?evento=+venta.creada+&tipo=+++", nil))
	if v := f.Text("evento"); v == nil || *v != "venta.creada" {
		t.Fatalf("evento %v, want venta.creada", v)
	}
	for _, name := range []string{"tipo", "ausente"} {
		if v := f.Text(name); v != nil {
			t.Fatalf("%s %q, want nil", name, *v)
		}
	}
	if err := f.Err(); err != nil {
		t.Fatalf("text filters never fail: %v", err)
	}
}
