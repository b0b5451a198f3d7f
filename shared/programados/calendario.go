package programados

import (
	"fmt"
	"time"

	"github.com/erpcr/erp/shared/horacr"
)

// Frequencies of a scheduled report.
const (
	Diaria  = "diaria"
	Semanal = "semanal"
	Mensual = "mensual"
)

// Frecuencias are the accepted frequencies.
var Frecuencias = []string{Diaria, Semanal, Mensual}

// Calendario is when a schedule runs: every day, on an ISO weekday
// (1 lunes .. 7 domingo) or on a day of the month, at Hora:Minuto in
// Costa Rica.
type Calendario struct {
	Frecuencia   string
	DiaSemana    int
	DiaMes       int
	Hora, Minuto int
}

// Siguiente is the first instant strictly after desde at which c is due,
// in UTC. A monthly day past the month's end (29, 30 or 31 in a shorter
// month) is the month's last day: dia_mes 31 runs on 30 April and on
// 28 (or 29) February, then on 31 March again.
func (c Calendario) Siguiente(desde time.Time) time.Time {
	l := desde.In(horacr.Zona)
	hoy := time.Date(l.Year(), l.Month(), l.Day(), c.Hora, c.Minuto, 0, 0, horacr.Zona)
	var t time.Time
	switch c.Frecuencia {
	case Semanal:
		// Go's weekday is 0 for Sunday; ISO's is 7.
		wd := int(l.Weekday())
		if wd == 0 {
			wd = 7
		}
		t = hoy.AddDate(0, 0, (c.DiaSemana-wd+7)%7)
		if !t.After(desde) {
			t = t.AddDate(0, 0, 7)
		}
	case Mensual:
		for m := 0; ; m++ {
			primero := time.Date(l.Year(), l.Month()+time.Month(m), 1, c.Hora, c.Minuto, 0, 0, horacr.Zona)
			t = primero.AddDate(0, 0, min(c.DiaMes, diasDelMes(primero))-1)
			if t.After(desde) {
				break
			}
		}
	default:
		t = hoy
		if !t.After(desde) {
			t = t.AddDate(0, 0, 1)
		}
	}
	return t.UTC()
}

// diasDelMes is the number of days of t's month.
func diasDelMes(t time.Time) int {
	return time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// parseHora reads "HH:MM" (00:00 to 23:59).
func parseHora(s string) (h, m int, err error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, 0, fmt.Errorf("hora %q: formato HH:MM", s)
	}
	return t.Hour(), t.Minute(), nil
}
