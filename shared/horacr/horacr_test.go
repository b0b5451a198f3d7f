package horacr

import (
	"testing"
	"time"
)

func TestFechaIsTheCostaRicanDay(t *testing.T) {
	for _, c := range []struct {
		name, instante, dia string
	}{
		{"late evening in Costa Rica is already tomorrow in UTC", "2026-03-01T03:30:00Z", "2026-02-28"},
		{"six in the morning UTC is midnight in Costa Rica", "2026-03-01T06:00:00Z", "2026-03-01"},
		{"a year ends six hours after UTC's", "2027-01-01T05:59:59Z", "2026-12-31"},
	} {
		t.Run(c.name, func(t *testing.T) {
			at, err := time.Parse(time.RFC3339, c.instante)
			if err != nil {
				t.Fatal(err)
			}
			got := Fecha(at)
			if got.Format(time.DateOnly) != c.dia || got.Location() != time.UTC || got.Hour() != 0 {
				t.Fatalf("Fecha(%s) = %v, want %s at midnight UTC", c.instante, got, c.dia)
			}
		})
	}
}
