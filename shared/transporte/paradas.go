package transporte

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/erpcr/erp/shared/valid"
)

// DiasSemana are the accepted dia_semana values, Monday first (the order
// horarios are listed in).
var DiasSemana = []string{"lunes", "martes", "miercoles", "jueves", "viernes", "sabado", "domingo"}

// Limits of a route's nested lists: a request stays bounded whatever is sent.
const (
	maxParadas  = 200
	maxHorarios = 500
)

// parada is one stop as written (coordinates as decimal strings, exact).
type parada struct {
	Orden             int64
	Nombre            string
	Latitud, Longitud string
}

// horario is one departure: a weekday and a time "HH:MM" (24 h).
type horario struct {
	Dia, Hora string
}

var horaRe = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// lista reads the body's nested list key of at most tope elements: ok is
// false when it was not sent or is invalid; null is an empty list (which
// clears it).
func lista(in *valid.Input, key string, tope int) (items []json.RawMessage, ok bool) {
	if !in.Has(key) {
		return nil, false
	}
	if in.IsNull(key) {
		return nil, true
	}
	if items, ok = in.List(key, false); !ok {
		return nil, false
	}
	if len(items) > tope {
		in.Fail(key, "Una ruta admite como máximo "+strconv.Itoa(tope)+" "+key+".")
		return nil, false
	}
	return items, true
}

// leerParadas reads the body's paradas (nil when not sent; an empty list
// when sent as [] or null, which clears them). Errors go under
// paradas.N.campo; the orders must be unique and consecutive from 1 (the
// stops' sequence along the route), in any order in the list.
func leerParadas(in *valid.Input) ([]parada, bool) {
	items, ok := lista(in, "paradas", maxParadas)
	if !ok {
		return nil, false
	}
	primera := map[int64]int{} // orden -> first index
	return valid.Elementos(in, "paradas", items, "Cada elemento de paradas debe ser un objeto.", func(el *valid.Input, i int) parada {
		var p parada
		p.Nombre, _ = el.String("nombre", valid.Str{Required: true, Max: 255})
		var okOrden bool
		p.Orden, okOrden = el.Int("orden", valid.Int{Required: true, Min: valid.Min(1), Max: valid.Min(maxParadas)})
		if okOrden {
			if j, dup := primera[p.Orden]; dup {
				el.Fail("orden", fmt.Sprintf("El orden %d ya lo tiene la parada %d: los órdenes no se repiten.", p.Orden, j))
			} else {
				primera[p.Orden] = i
				if p.Orden > int64(len(items)) {
					el.Fail("orden", fmt.Sprintf("Los órdenes de las paradas deben ser consecutivos desde 1 (de 1 a %d).", len(items)))
				}
			}
		}
		if d, ok := el.Decimal("latitud", valid.Dec{Required: true, Scale: 6, Negative: true, Min: valid.D("-90"), Max: valid.D("90")}); ok {
			p.Latitud = d.String()
		}
		if d, ok := el.Decimal("longitud", valid.Dec{Required: true, Scale: 6, Negative: true, Min: valid.D("-180"), Max: valid.D("180")}); ok {
			p.Longitud = d.String()
		}
		return p
	}), true
}

// leerHorarios reads the body's horarios like leerParadas: errors under
// horarios.N.campo, a weekday and time given twice is refused.
func leerHorarios(in *valid.Input) ([]horario, bool) {
	items, ok := lista(in, "horarios", maxHorarios)
	if !ok {
		return nil, false
	}
	vistos := map[horario]int{}
	return valid.Elementos(in, "horarios", items, "Cada elemento de horarios debe ser un objeto.", func(el *valid.Input, i int) horario {
		var h horario
		var okDia, okHora bool
		h.Dia, okDia = el.OneOf("dia_semana", true, DiasSemana)
		if h.Hora, okHora = el.String("hora_salida", valid.Str{Required: true}); okHora && !horaRe.MatchString(h.Hora) {
			el.Fail("hora_salida", "El campo hora salida debe ser una hora válida con formato HH:MM (00:00 a 23:59).")
			okHora = false
		}
		if okDia && okHora {
			if j, dup := vistos[h]; dup {
				el.Fail("hora_salida", fmt.Sprintf("La salida del %s a las %s ya está en el horario %d.", h.Dia, h.Hora, j))
			} else {
				vistos[h] = i
			}
		}
		return h
	}), true
}
