package programados

import (
	"testing"
	"time"

	"github.com/erpcr/erp/shared/horacr"
)

// cr is a wall-clock time of Costa Rica.
func cr(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, horacr.Zona)
	if err != nil {
		panic(err)
	}
	return t
}

func TestSiguienteIsTheFirstDueInstantAfterTheGivenOne(t *testing.T) {
	cases := []struct {
		nombre string
		c      Calendario
		desde  string
		want   string
	}{
		{"daily later today", Calendario{Frecuencia: Diaria, Hora: 8}, "2026-03-04 07:59", "2026-03-04 08:00"},
		{"daily at the instant is tomorrow", Calendario{Frecuencia: Diaria, Hora: 8}, "2026-03-04 08:00", "2026-03-05 08:00"},
		{"daily across the year", Calendario{Frecuencia: Diaria, Hora: 23, Minuto: 59}, "2026-12-31 23:59", "2027-01-01 23:59"},
		// 2026-03-04 is a Wednesday (ISO 3).
		{"weekly same day before the hour", Calendario{Frecuencia: Semanal, DiaSemana: 3, Hora: 8}, "2026-03-04 07:00", "2026-03-04 08:00"},
		{"weekly same day after the hour", Calendario{Frecuencia: Semanal, DiaSemana: 3, Hora: 8}, "2026-03-04 08:00", "2026-03-11 08:00"},
		{"weekly sunday is 7", Calendario{Frecuencia: Semanal, DiaSemana: 7, Hora: 6, Minuto: 30}, "2026-03-04 09:00", "2026-03-08 06:30"},
		{"weekly monday from sunday", Calendario{Frecuencia: Semanal, DiaSemana: 1, Hora: 0}, "2026-03-08 12:00", "2026-03-09 00:00"},
		{"monthly this month", Calendario{Frecuencia: Mensual, DiaMes: 15, Hora: 8}, "2026-03-04 08:00", "2026-03-15 08:00"},
		{"monthly next month", Calendario{Frecuencia: Mensual, DiaMes: 1, Hora: 8}, "2026-03-04 08:00", "2026-04-01 08:00"},
		{"31 in February is its last day", Calendario{Frecuencia: Mensual, DiaMes: 31, Hora: 8}, "2026-01-31 08:00", "2026-02-28 08:00"},
		{"31 in a leap February", Calendario{Frecuencia: Mensual, DiaMes: 31, Hora: 8}, "2028-01-31 09:00", "2028-02-29 08:00"},
		{"31 back to 31 after February", Calendario{Frecuencia: Mensual, DiaMes: 31, Hora: 8}, "2026-02-28 08:00", "2026-03-31 08:00"},
		{"30 in April", Calendario{Frecuencia: Mensual, DiaMes: 30, Hora: 8}, "2026-03-30 08:00", "2026-04-30 08:00"},
		{"31 in April is the 30th", Calendario{Frecuencia: Mensual, DiaMes: 31, Hora: 8}, "2026-03-31 08:00", "2026-04-30 08:00"},
		{"monthly across the year", Calendario{Frecuencia: Mensual, DiaMes: 29, Hora: 8}, "2026-12-29 08:00", "2027-01-29 08:00"},
	}
	for _, c := range cases {
		t.Run(c.nombre, func(t *testing.T) {
			got := c.c.Siguiente(cr(c.desde))
			if want := cr(c.want).UTC(); !got.Equal(want) || got.Location() != time.UTC {
				t.Fatalf("Siguiente(%s) = %s, want %s (UTC)", c.desde, got, want)
			}
		})
	}
}

func TestSiguienteReadsTheHourInCostaRicaWhateverTheZoneOfItsArgument(t *testing.T) {
	c := Calendario{Frecuencia: Diaria, Hora: 20}
	// 01:30 UTC on the 5th is 19:30 of the 4th in Costa Rica.
	got := c.Siguiente(time.Date(2026, 3, 5, 1, 30, 0, 0, time.UTC))
	if want := time.Date(2026, 3, 5, 2, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestRelativeDatesResolveToTheRunsDayInCostaRica(t *testing.T) {
	p := Programado{Tipo: "balanza-comprobacion", Parametros: map[string]string{"fecha_inicio": "", "fecha_fin": "2026-02-01"}}
	cases := []struct{ ahora, valor, want string }{
		{"2026-03-04 08:00", "hoy", "2026-03-04"},
		{"2026-03-04 08:00", "ayer", "2026-03-03"},
		{"2026-03-04 08:00", "inicio_semana", "2026-03-02"},
		{"2026-03-08 08:00", "inicio_semana", "2026-03-02"},
		{"2026-03-02 08:00", "inicio_semana", "2026-03-02"},
		{"2026-03-04 08:00", "inicio_semana_anterior", "2026-02-23"},
		{"2026-03-08 23:59", "fin_semana_anterior", "2026-03-01"},
		{"2026-01-15 08:00", "inicio_mes_anterior", "2025-12-01"},
		{"2026-03-01 00:00", "fin_mes_anterior", "2026-02-28"},
		{"2026-03-31 23:00", "inicio_mes", "2026-03-01"},
		{"2026-03-31 23:00", "inicio_anio", "2026-01-01"},
		{"2026-03-31 23:00", "inicio_anio_anterior", "2025-01-01"},
		{"2026-03-31 23:00", "fin_anio_anterior", "2025-12-31"},
		{"2026-03-31 23:00", "2026-03-15", "2026-03-15"},
	}
	for _, c := range cases {
		p.Parametros["fecha_inicio"] = c.valor
		// 23:00 of the 31st in Costa Rica is already April 1st in UTC.
		if got := p.valores(cr(c.ahora)).Get("fecha_inicio"); got != c.want {
			t.Errorf("%s on %s = %s, want %s", c.valor, c.ahora, got, c.want)
		}
	}
	// Only date parameters are resolved.
	p = Programado{Tipo: "ventas", Parametros: map[string]string{"agrupar": "hoy"}}
	if got := p.valores(cr("2026-03-04 08:00")).Get("agrupar"); got != "hoy" {
		t.Errorf("a text parameter became %s", got)
	}
}
