package lambdahttp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/routes"
)

// Limitador counts one request of a rate-limit class for a key, shared by
// every instance (ratelimit.Clases: one PostgreSQL statement per check).
type Limitador interface {
	Contar(ctx context.Context, class, key string) (ratelimit.Resultado, error)
}

// contadaAparte are the classes whose handlers count for themselves:
// login counts only failures (shared/sesiones), and a Hacienda submission
// counts only when something is really submitted (a repeated or
// out-of-order call is not a submission).
var contadaAparte = map[routes.RateClass]bool{routes.RateLogin: true, routes.RateHacienda: true, routes.RateNone: true}

// claveLimite is whose requests count together: per user and company for
// most classes, per company for the company-wide ones (payroll payments),
// per client address on routes without a token.
func claveLimite(rt routes.Route, p *auth.Principal, r *http.Request) string {
	switch {
	case p == nil:
		return "ip:" + direccionCliente(r)
	case rt.Rate == routes.RatePaymentProcess:
		return "e" + strconv.FormatInt(p.EmpresaID, 10)
	default:
		return "u" + strconv.FormatInt(p.UsuarioID, 10) + ":e" + strconv.FormatInt(p.EmpresaID, 10)
	}
}

// direccionCliente is the caller's address as API Gateway saw it.
func direccionCliente(r *http.Request) string {
	if g, ok := gatewayFrom(r.Context()); ok && g.sourceIP != "" {
		return g.sourceIP
	}
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// limitar counts the request against its route's class and writes the
// X-RateLimit-* headers; over the limit it is a 429 with Retry-After. A
// limiter that cannot count (the database is down) lets the request
// through: the request itself will say what is wrong, and health must
// still answer 503 rather than a limiter's 500.
func limitar(lim Limitador, rt routes.Route, p *auth.Principal, w http.ResponseWriter, r *http.Request) error {
	if lim == nil || contadaAparte[rt.Rate] {
		return nil
	}
	res, err := lim.Contar(r.Context(), string(rt.Rate), claveLimite(rt, p, r))
	if err != nil {
		httpx.Logger(r.Context()).Warn("rate limit: not counted", "class", rt.Rate, "error", err.Error())
		return nil
	}
	if err := Encabezados(w, res, MensajeLimite(rt.Rate, res)); err != nil || rt.Descargas == "" || !pideArchivo(r) {
		return err
	}
	// A file asked for counts in its own class too; its headers are the
	// ones the caller is closest to running out of.
	res, err = lim.Contar(r.Context(), string(rt.Descargas), claveLimite(rt, p, r))
	if err != nil {
		httpx.Logger(r.Context()).Warn("rate limit: not counted", "class", rt.Descargas, "error", err.Error())
		return nil
	}
	return Encabezados(w, res, MensajeLimite(rt.Descargas, res))
}

// pideArchivo reports whether the request asks for a file (?formato= other
// than json).
func pideArchivo(r *http.Request) bool {
	f := strings.TrimSpace(r.URL.Query().Get("formato"))
	return f != "" && f != "json"
}

// Encabezados writes X-RateLimit-Limit, -Remaining and -Reset (Unix
// seconds) for a counted request, and returns the 429 when it is over the
// limit. Handlers that count for themselves (Hacienda submissions) use it
// too, so every limited answer looks the same.
func Encabezados(w http.ResponseWriter, res ratelimit.Resultado, msg string) error {
	if res.Limite <= 0 {
		return nil
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(res.Limite))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(res.Restantes))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(res.Reinicio.Unix(), 10))
	if !res.Permitido {
		return apperr.NewTooManyRequests(msg, res.Espera)
	}
	return nil
}

// nombresClase are the Spanish names of the classes in 429 messages.
var nombresClase = map[routes.RateClass]string{
	routes.RateGeneral:        "solicitudes a la API",
	routes.RateReports:        "generaciones de reportes",
	routes.RateExports:        "exportaciones",
	routes.RateImports:        "importaciones",
	routes.RateHacienda:       "envíos a Hacienda",
	routes.RatePaymentProcess: "procesos de pago",
}

// MensajeLimite is the Spanish message of a 429: which limit, and when to
// try again.
func MensajeLimite(class routes.RateClass, res ratelimit.Resultado) string {
	nombre := nombresClase[class]
	if nombre == "" {
		nombre = "solicitudes"
	}
	return fmt.Sprintf("Se alcanzó el límite de %d %s por %s. Intente de nuevo en %d segundos.",
		res.Limite, nombre, NombreVentana(res.Ventana), res.Espera)
}

// NombreVentana is a window's Spanish name ("minuto", "hora", "día").
func NombreVentana(d time.Duration) string {
	switch d.Seconds() {
	case 1:
		return "segundo"
	case 60:
		return "minuto"
	case 3600:
		return "hora"
	case 86400:
		return "día"
	}
	return d.String()
}
