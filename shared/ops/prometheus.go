package ops

import (
	"sort"
	"strconv"
	"strings"
)

// expositor writes the Prometheus text exposition format (version 0.0.4):
// a family's # HELP and # TYPE lines, then its samples, all together.
type expositor struct {
	b strings.Builder
}

// ContentTypePrometheus is the media type of the text format.
const ContentTypePrometheus = "text/plain; version=0.0.4; charset=utf-8"

var (
	ayudaEscape    = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	etiquetaEscape = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

// etiqueta is one label; a sample's labels are written in the given order.
type etiqueta struct{ nombre, valor string }

func (e *expositor) familia(nombre, tipo, ayuda string) {
	e.b.WriteString("# HELP " + nombre + " " + ayudaEscape.Replace(ayuda) + "\n")
	e.b.WriteString("# TYPE " + nombre + " " + tipo + "\n")
}

func (e *expositor) muestra(nombre string, v float64, es ...etiqueta) {
	e.b.WriteString(nombre)
	if len(es) > 0 {
		e.b.WriteByte('{')
		for i, et := range es {
			if i > 0 {
				e.b.WriteByte(',')
			}
			e.b.WriteString(et.nombre + `="` + etiquetaEscape.Replace(et.valor) + `"`)
		}
		e.b.WriteByte('}')
	}
	e.b.WriteByte(' ')
	e.b.WriteString(numero(v))
	e.b.WriteByte('\n')
}

// gauge writes a one-sample family.
func (e *expositor) gauge(nombre, ayuda string, v float64, es ...etiqueta) {
	e.familia(nombre, "gauge", ayuda)
	e.muestra(nombre, v, es...)
}

// gauges writes a family with one sample per value of one label, in the
// order of valores (missing values read 0).
func (e *expositor) gauges(nombre, ayuda, etiq string, valores []string, m map[string]float64) {
	e.familia(nombre, "gauge", ayuda)
	for _, v := range valores {
		e.muestra(nombre, m[v], etiqueta{etiq, v})
	}
}

func numero(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// limite is a bucket's le label.
func limite(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func ordenar[T any](xs []T, clave func(T) string) {
	sort.SliceStable(xs, func(i, j int) bool { return clave(xs[i]) < clave(xs[j]) })
}
