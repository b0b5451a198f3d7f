package programados

import (
	"net/url"
	"sort"
	"time"

	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/reportes"
)

// A date parameter of a schedule may hold a relative date instead of a
// fixed one, resolved to the run's day in Costa Rica (and to the day of
// the write when validated): a weekly report of "the previous week" or a
// monthly one of "the previous month". Weeks start on Monday.
var fechasRelativas = map[string]func(hoy time.Time) time.Time{
	"hoy":  func(h time.Time) time.Time { return h },
	"ayer": func(h time.Time) time.Time { return h.AddDate(0, 0, -1) },
	"inicio_semana": func(h time.Time) time.Time {
		return h.AddDate(0, 0, -diaISO(h)+1)
	},
	"inicio_semana_anterior": func(h time.Time) time.Time { return h.AddDate(0, 0, -diaISO(h)-6) },
	"fin_semana_anterior":    func(h time.Time) time.Time { return h.AddDate(0, 0, -diaISO(h)) },
	"inicio_mes":             func(h time.Time) time.Time { return time.Date(h.Year(), h.Month(), 1, 0, 0, 0, 0, time.UTC) },
	"inicio_mes_anterior":    func(h time.Time) time.Time { return time.Date(h.Year(), h.Month()-1, 1, 0, 0, 0, 0, time.UTC) },
	"fin_mes_anterior":       func(h time.Time) time.Time { return time.Date(h.Year(), h.Month(), 0, 0, 0, 0, 0, time.UTC) },
	"inicio_anio":            func(h time.Time) time.Time { return time.Date(h.Year(), 1, 1, 0, 0, 0, 0, time.UTC) },
	"inicio_anio_anterior":   func(h time.Time) time.Time { return time.Date(h.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC) },
	"fin_anio_anterior":      func(h time.Time) time.Time { return time.Date(h.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC) },
}

// FechasRelativas are the relative dates, sorted (documentation).
func FechasRelativas() []string {
	out := make([]string, 0, len(fechasRelativas))
	for k := range fechasRelativas {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func diaISO(t time.Time) int {
	if d := int(t.Weekday()); d != 0 {
		return d
	}
	return 7
}

// valores are the parameters as the report's query string at an instant:
// the relative dates of its date parameters resolved to that day in
// Costa Rica.
func (p Programado) valores(ahora time.Time) url.Values {
	fechas := map[string]bool{}
	if t, ok := reportes.Buscar(p.Tipo); ok {
		for _, c := range t.Parametros {
			if c.Tipo == esquema.Fecha {
				fechas[c.Nombre] = true
			}
		}
	}
	hoy := horacr.Fecha(ahora)
	v := url.Values{}
	for k, s := range p.Parametros {
		if f, ok := fechasRelativas[s]; ok && fechas[k] {
			s = f(hoy).Format(time.DateOnly)
		}
		v.Set(k, s)
	}
	return v
}
