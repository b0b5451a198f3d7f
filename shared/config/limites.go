package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Limite is one rate limit: Max requests per Ventana. Max 0 means no limit.
type Limite struct {
	Max     int
	Ventana time.Duration
}

// String prints the limit the way it is configured ("60/min").
func (l Limite) String() string {
	for _, u := range unidadesLimite {
		if l.Ventana == u.d {
			return strconv.Itoa(l.Max) + "/" + u.nombres[0]
		}
	}
	return strconv.Itoa(l.Max) + "/" + l.Ventana.String()
}

var unidadesLimite = []struct {
	nombres []string
	d       time.Duration
}{
	{[]string{"s", "sec", "second", "segundo"}, time.Second},
	{[]string{"min", "m", "minute", "minuto"}, time.Minute},
	{[]string{"h", "hour", "hora"}, time.Hour},
	{[]string{"day", "d", "dia", "día"}, 24 * time.Hour},
}

// ParseLimite reads "<n>/<unit>" (unit s, min, h or day; "60/min", "5/h",
// "5/day"); "0/min" (any unit) turns the limit off.
func ParseLimite(s string) (Limite, error) {
	n, u, ok := strings.Cut(strings.TrimSpace(s), "/")
	max, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || max < 0 {
		return Limite{}, fmt.Errorf("%q: expected <n>/<unit> such as 60/min, 5/h or 5/day", s)
	}
	u = strings.ToLower(strings.TrimSpace(u))
	for _, x := range unidadesLimite {
		for _, name := range x.nombres {
			if u == name {
				return Limite{Max: max, Ventana: x.d}, nil
			}
		}
	}
	return Limite{}, fmt.Errorf("%q: unknown unit %q (s, min, h or day)", s, u)
}

// LimitesPorDefecto are SPEC.md's limits ("Limits"), by rate-limit class of
// the route table; login has its own limiter (ERP_LOGIN_*).
var LimitesPorDefecto = map[string]string{
	"general":         "60/min",
	"reports":         "5/h",
	"exports":         "5/day",
	"imports":         "2/day",
	"hacienda":        "10/h",
	"payment_process": "3/h",
}

// LimiteEnv is the environment variable that sets class's limit
// (ERP_RATE_LIMIT_GENERAL, ERP_RATE_LIMIT_PAYMENT_PROCESS, ...).
func LimiteEnv(class string) string { return "ERP_RATE_LIMIT_" + strings.ToUpper(class) }

// loadLimites reads every class's limit. ERP_HACIENDA_MAX_ENVIOS_HORA, the
// older name of the hacienda limit, still counts when the new one is unset.
func loadLimites() (map[string]Limite, error) {
	out := map[string]Limite{}
	for class, def := range LimitesPorDefecto {
		v := os.Getenv(LimiteEnv(class))
		if v == "" && class == "hacienda" {
			if n := os.Getenv("ERP_HACIENDA_MAX_ENVIOS_HORA"); n != "" {
				v = n + "/h"
			}
		}
		if v == "" {
			v = def
		}
		l, err := ParseLimite(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", LimiteEnv(class), err)
		}
		out[class] = l
	}
	return out, nil
}
