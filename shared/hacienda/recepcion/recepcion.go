// Package recepcion is the outbound client of Hacienda's "Recepción" API
// (comprobantes electrónicos v4.4): it obtains and caches OAuth tokens from
// the identity provider (Keycloak, password and refresh_token grants), posts
// signed documents (POST /recepcion) and polls their status
// (GET /recepcion/{clave}), within an outbound request budget per company.
//
// Error model, for the caller that decides what to do next:
//   - nil: the document is received (any 2xx, or the duplicate 400 "ya fue
//     recibido anteriormente" / "ya existe"): poll with Consultar.
//   - *Rechazo: Hacienda refused the request (4xx other than 404 on GET);
//     resending the same request will not help.
//   - ErrTemporal (wrapped): network errors, 5xx, 429 or a cancelled wait
//     after the retries: try again later.
//   - ErrNoEncontrado (wrapped, Consultar only): the clave is not indexed
//     yet: poll again later.
//   - ErrCredenciales (wrapped): the IdP refused the username/password.
//   - ErrEnvioInvalido (wrapped): the Envio is incomplete; nothing was sent.
package recepcion

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/erpcr/erp/shared/b64"
)

// Default values of Config.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMargen     = 30 * time.Second
	DefaultReintentos = 3
	DefaultBackoff    = time.Second
	DefaultBackoffMax = 30 * time.Second
	// DefaultLimite is the outbound budget per company (SPEC Limits:
	// "Outbound tax-authority API client: 60 requests per minute").
	DefaultLimite = 60
	// MaxEsperaReset caps a wait derived from X-Ratelimit-Reset or
	// Retry-After, so that a bogus header cannot park a worker for hours.
	MaxEsperaReset = 5 * time.Minute
	// maxCuerpo caps how much of a response body is read.
	maxCuerpo = 8 << 20
)

// Sentinel errors; test with errors.Is.
var (
	ErrTemporal      = errors.New("recepcion: error temporal de Hacienda")
	ErrNoEncontrado  = errors.New("recepcion: comprobante no encontrado (aún no indexado)")
	ErrCredenciales  = errors.New("recepcion: credenciales rechazadas por el IdP")
	ErrEnvioInvalido = errors.New("recepcion: envío incompleto")
)

// Rechazo is a definitive refusal of a request by Hacienda (4xx).
type Rechazo struct {
	Estado int    // HTTP status
	Causa  string // X-Error-Cause (or the body when the header is missing)
	// Validacion is the validation-exception header, when present.
	Validacion string
}

func (r *Rechazo) Error() string {
	s := fmt.Sprintf("recepcion: Hacienda respondió %d", r.Estado)
	if r.Causa != "" {
		s += ": " + r.Causa
	}
	if r.Validacion != "" {
		s += " (" + r.Validacion + ")"
	}
	return s
}

// Limitador is the outbound budget per company: Esperar returns when a
// request for empresaID may be made (or with ctx's error).
type Limitador interface {
	Esperar(ctx context.Context, empresaID int64) error
}

// Config configures a Cliente. Zero values take the defaults.
type Config struct {
	TokenURL string // IdP token endpoint, e.g. https://idp.comprobanteselectronicos.go.cr/auth/realms/rut-stag/protocol/openid-connect/token
	ClientID string // api-stag / api-prod
	BaseURL  string // e.g. https://api-sandbox.comprobanteselectronicos.go.cr/recepcion/v1 (a trailing slash is tolerated)

	HTTP *http.Client     // default: timeout 30 s
	Now  func() time.Time // default time.Now
	// Limitador is consulted before every HTTP request to the recepción
	// API (retries included; IdP calls are not counted). Default: in-memory
	// 60 per minute per company (NuevoLimitador).
	Limitador Limitador
	// Margen: a token is refreshed this long before it expires (default
	// 30 s; when it is not shorter than the token's lifetime, half the
	// lifetime is used instead).
	Margen time.Duration
	// Reintentos: retries per call after network errors, 5xx and 429
	// (default 3; a negative value means none).
	Reintentos int
	// Backoff is the first retry delay, doubled on each retry up to
	// BackoffMax (defaults 1 s and 30 s). 429 waits Retry-After instead.
	Backoff, BackoffMax time.Duration
	// Dormir waits d or until ctx is done (default: a timer). Every wait of
	// the client goes through it, so tests can advance a fake clock.
	Dormir func(ctx context.Context, d time.Duration) error
	// Encabezados, when set, adds headers to every recepción request (e.g.
	// the request's trace id from ctx).
	Encabezados func(ctx context.Context) http.Header
}

// Credenciales are the IdP username and password issued by Hacienda.
type Credenciales struct{ Usuario, Clave string }

// Identificacion is a party's id type (01..06) and number.
type Identificacion struct{ Tipo, Numero string }

// Envio is one document to submit.
type Envio struct {
	Clave    string
	Fecha    time.Time // sent as RFC 3339 in its own zone (e.g. -06:00)
	Emisor   Identificacion
	Receptor *Identificacion // nil to omit (e.g. TE without receptor)
	// ComprobanteXML is the signed XML; the client base64-encodes it.
	ComprobanteXML []byte
	CallbackURL    string // optional
	// ConsecutivoReceptor is only for a Mensaje Receptor (20 digits).
	ConsecutivoReceptor string
}

// Estado is the answer of GET /recepcion/{clave}.
type Estado struct {
	Clave string
	Fecha string
	// IndEstado: recibido | procesando | aceptado | rechazado | error
	// (lower-cased as received).
	IndEstado string
	// RespuestaXML is the decoded MensajeHacienda (nil until final).
	RespuestaXML []byte
	CallbackURL  string
}

// Final reports whether IndEstado is terminal (aceptado, rechazado, error).
func (e Estado) Final() bool {
	switch e.IndEstado {
	case "aceptado", "rechazado", "error":
		return true
	}
	return false
}

// Cliente is safe for concurrent use. Its token cache and rate-limit state
// live in memory, per process.
type Cliente struct {
	cfg Config

	mu      sync.Mutex
	tokens  map[claveToken]*entradaToken
	pausas  map[int64]time.Time // X-Ratelimit-Remaining 0: no call before
	baseURL string
}

// Nuevo returns a client with the defaults applied.
func Nuevo(cfg Config) *Cliente {
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: DefaultTimeout}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dormir == nil {
		cfg.Dormir = Dormir
	}
	if cfg.Margen <= 0 {
		cfg.Margen = DefaultMargen
	}
	if cfg.Reintentos == 0 {
		cfg.Reintentos = DefaultReintentos
	} else if cfg.Reintentos < 0 {
		cfg.Reintentos = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = DefaultBackoffMax
	}
	if cfg.Limitador == nil {
		cfg.Limitador = NuevoLimitador(DefaultLimite, time.Minute, cfg.Now, cfg.Dormir)
	}
	return &Cliente{
		cfg:     cfg,
		tokens:  map[claveToken]*entradaToken{},
		pausas:  map[int64]time.Time{},
		baseURL: strings.TrimRight(cfg.BaseURL, "/"),
	}
}

// Dormir is the default wait: d on a timer, or ctx's error.
func Dormir(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type cuerpoEnvio struct {
	Clave               string          `json:"clave"`
	Fecha               string          `json:"fecha"`
	Emisor              identificacion  `json:"emisor"`
	Receptor            *identificacion `json:"receptor,omitempty"`
	CallbackURL         string          `json:"callbackUrl,omitempty"`
	ConsecutivoReceptor string          `json:"consecutivoReceptor,omitempty"`
	ComprobanteXML      string          `json:"comprobanteXml"`
}

type identificacion struct {
	Tipo   string `json:"tipoIdentificacion"`
	Numero string `json:"numeroIdentificacion"`
}

// Enviar posts the document to /recepcion. See the package comment for the
// error model. On 401 the cached token is dropped, a new one is obtained
// with the password grant and the request is retried once.
func (c *Cliente) Enviar(ctx context.Context, empresaID int64, cred Credenciales, e Envio) error {
	if err := validarEnvio(e); err != nil {
		return err
	}
	b := cuerpoEnvio{
		Clave:               e.Clave,
		Fecha:               e.Fecha.Format(time.RFC3339),
		Emisor:              identificacion{e.Emisor.Tipo, e.Emisor.Numero},
		CallbackURL:         e.CallbackURL,
		ConsecutivoReceptor: e.ConsecutivoReceptor,
		ComprobanteXML:      base64.StdEncoding.EncodeToString(e.ComprobanteXML),
	}
	if e.Receptor != nil {
		b.Receptor = &identificacion{e.Receptor.Tipo, e.Receptor.Numero}
	}
	body, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("recepcion: %w", err)
	}
	resp, err := c.llamar(ctx, empresaID, cred, http.MethodPost, c.baseURL+"/recepcion", body)
	if err != nil {
		return err
	}
	switch {
	case resp.estado >= 200 && resp.estado < 300:
		return nil
	case (resp.estado == http.StatusBadRequest || resp.estado == http.StatusConflict) && EsDuplicado(resp.causa):
		return nil
	}
	return resp.rechazo()
}

// EsDuplicado reports whether an X-Error-Cause says the clave was already
// received ("ya fue recibido anteriormente", "XML ya existe en nuestras
// bases de datos").
func EsDuplicado(causa string) bool {
	c := strings.ToLower(causa)
	return strings.Contains(c, "ya fue recibido") || strings.Contains(c, "ya existe")
}

func validarEnvio(e Envio) error {
	var faltan []string
	if len(e.Clave) != 50 {
		faltan = append(faltan, "clave de 50 caracteres")
	}
	if e.Fecha.IsZero() {
		faltan = append(faltan, "fecha")
	}
	if e.Emisor.Tipo == "" || e.Emisor.Numero == "" {
		faltan = append(faltan, "emisor")
	}
	if e.Receptor != nil && (e.Receptor.Tipo == "" || e.Receptor.Numero == "") {
		faltan = append(faltan, "receptor completo (o nil)")
	}
	if len(e.ComprobanteXML) == 0 {
		faltan = append(faltan, "comprobanteXml")
	}
	if len(faltan) > 0 {
		return fmt.Errorf("%w: falta %s", ErrEnvioInvalido, strings.Join(faltan, ", "))
	}
	return nil
}

type cuerpoEstado struct {
	Clave        string `json:"clave"`
	Fecha        string `json:"fecha"`
	IndEstado    string `json:"ind-estado"`
	RespuestaXML string `json:"respuesta-xml"`
	CallbackURL  string `json:"callbackUrl"`
}

// Consultar gets /recepcion/{clave}. For a Mensaje Receptor pass the key
// the document was stored under (see the simulator: clave-consecutivo).
func (c *Cliente) Consultar(ctx context.Context, empresaID int64, cred Credenciales, clave string) (Estado, error) {
	if clave == "" {
		return Estado{}, fmt.Errorf("%w: falta la clave", ErrEnvioInvalido)
	}
	resp, err := c.llamar(ctx, empresaID, cred, http.MethodGet, c.baseURL+"/recepcion/"+url.PathEscape(clave), nil)
	if err != nil {
		return Estado{}, err
	}
	switch {
	case resp.estado == http.StatusNotFound:
		return Estado{}, fmt.Errorf("%w: %s", ErrNoEncontrado, resp.causa)
	case resp.estado != http.StatusOK:
		return Estado{}, resp.rechazo()
	}
	var b cuerpoEstado
	if err := json.Unmarshal(resp.cuerpo, &b); err != nil {
		return Estado{}, fmt.Errorf("%w: respuesta ilegible de GET /recepcion: %w", ErrTemporal, err)
	}
	est := Estado{
		Clave:       b.Clave,
		Fecha:       b.Fecha,
		IndEstado:   strings.ToLower(strings.TrimSpace(b.IndEstado)),
		CallbackURL: b.CallbackURL,
	}
	if b.RespuestaXML != "" {
		x, err := b64.Decodificar(b.RespuestaXML)
		if err != nil {
			return Estado{}, fmt.Errorf("%w: respuesta-xml no es base64: %w", ErrTemporal, err)
		}
		est.RespuestaXML = x
	}
	return est, nil
}

// respuesta is a final HTTP answer (after retries).
type respuesta struct {
	estado     int
	causa      string
	validacion string
	cuerpo     []byte
}

func (r respuesta) rechazo() *Rechazo {
	return &Rechazo{Estado: r.estado, Causa: r.causa, Validacion: r.validacion}
}

// llamar makes one API call: token, budget, retries, 401 re-login. It
// returns the final response for 2xx/4xx, or an error (ErrTemporal,
// ErrCredenciales, ctx).
func (c *Cliente) llamar(ctx context.Context, empresaID int64, cred Credenciales, metodo, url string, body []byte) (respuesta, error) {
	reautenticado := false
	intento := 0
	for {
		// The budget first: a long wait must not age the token.
		if err := c.esperarTurno(ctx, empresaID); err != nil {
			return respuesta{}, temporal(err)
		}
		tok, err := c.token(ctx, empresaID, cred)
		if err != nil {
			return respuesta{}, err
		}
		resp, espera, err := c.hacer(ctx, empresaID, tok, metodo, url, body)
		if err == nil && resp.estado == http.StatusUnauthorized && !reautenticado {
			reautenticado = true
			c.olvidarToken(empresaID, cred.Usuario)
			continue
		}
		reintentable := err != nil || resp.estado >= 500 || resp.estado == http.StatusTooManyRequests
		if !reintentable {
			return resp, nil
		}
		if ctx.Err() != nil {
			return respuesta{}, temporal(ctx.Err())
		}
		if intento >= c.cfg.Reintentos {
			if err != nil {
				return respuesta{}, fmt.Errorf("%w: %s %s tras %d intentos: %w", ErrTemporal, metodo, url, intento+1, err)
			}
			return respuesta{}, fmt.Errorf("%w: %s %s tras %d intentos: HTTP %d %s", ErrTemporal, metodo, url, intento+1, resp.estado, resp.causa)
		}
		if espera <= 0 {
			espera = c.backoff(intento)
		}
		intento++
		if err := c.cfg.Dormir(ctx, espera); err != nil {
			return respuesta{}, temporal(err)
		}
	}
}

func temporal(err error) error { return fmt.Errorf("%w: %w", ErrTemporal, err) }

func (c *Cliente) backoff(intento int) time.Duration {
	d := c.cfg.Backoff
	for i := 0; i < intento && d < c.cfg.BackoffMax; i++ {
		d *= 2
	}
	return min(d, c.cfg.BackoffMax)
}

// hacer sends one request. espera is the Retry-After of a 429.
func (c *Cliente) hacer(ctx context.Context, empresaID int64, tok, metodo, url string, body []byte) (respuesta, time.Duration, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, metodo, url, rd)
	if err != nil {
		return respuesta{}, 0, err
	}
	if c.cfg.Encabezados != nil {
		for k, vs := range c.cfg.Encabezados(ctx) {
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return respuesta{}, 0, err
	}
	defer res.Body.Close()
	cuerpo, err := io.ReadAll(io.LimitReader(res.Body, maxCuerpo))
	if err != nil {
		return respuesta{}, 0, err
	}
	c.anotarLimite(empresaID, res.Header)
	r := respuesta{
		estado:     res.StatusCode,
		causa:      Legible([]byte(res.Header.Get("X-Error-Cause")), maxCausa),
		validacion: Legible([]byte(res.Header.Get("Validation-Exception")), maxCausa),
		cuerpo:     cuerpo,
	}
	if r.causa == "" && res.StatusCode >= 400 {
		r.causa = Legible(cuerpo, 500)
	}
	var espera time.Duration
	if res.StatusCode == http.StatusTooManyRequests {
		espera = c.retryAfter(res.Header)
	}
	return r, espera, nil
}

// maxCausa bounds the characters kept of a header's explanation (the
// columns that store it hold 2000).
const maxCausa = 2000

// retryAfter parses Retry-After (seconds or an HTTP date), falling back to
// X-Ratelimit-Reset; 0 when neither says anything usable.
func (c *Cliente) retryAfter(h http.Header) time.Duration {
	now := c.cfg.Now()
	var d time.Duration
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.Atoi(v); err == nil {
			d = time.Duration(s) * time.Second
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(now)
		}
	}
	if d <= 0 {
		if t, ok := parseReset(h.Get("X-Ratelimit-Reset"), now); ok {
			d = t.Sub(now)
		}
	}
	if d > MaxEsperaReset {
		d = MaxEsperaReset
	}
	return d
}

// parseReset reads X-Ratelimit-Reset: UTC epoch seconds (a small value is
// taken as seconds from now, as some gateways send).
func parseReset(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, false
	}
	if n < 1_000_000_000 {
		return now.Add(time.Duration(n) * time.Second), true
	}
	return time.Unix(n, 0), true
}

// anotarLimite records X-Ratelimit-Remaining 0: no call for the company
// until X-Ratelimit-Reset.
func (c *Cliente) anotarLimite(empresaID int64, h http.Header) {
	rem := strings.TrimSpace(h.Get("X-Ratelimit-Remaining"))
	if rem == "" {
		return
	}
	n, err := strconv.Atoi(rem)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > 0 {
		delete(c.pausas, empresaID)
		return
	}
	now := c.cfg.Now()
	hasta, ok := parseReset(h.Get("X-Ratelimit-Reset"), now)
	if !ok {
		return
	}
	if hasta.Sub(now) > MaxEsperaReset {
		hasta = now.Add(MaxEsperaReset)
	}
	c.pausas[empresaID] = hasta
}

// esperarTurno honours a recorded pause, then the Limitador.
func (c *Cliente) esperarTurno(ctx context.Context, empresaID int64) error {
	c.mu.Lock()
	hasta, ok := c.pausas[empresaID]
	c.mu.Unlock()
	if ok {
		if d := hasta.Sub(c.cfg.Now()); d > 0 {
			if err := c.cfg.Dormir(ctx, d); err != nil {
				return err
			}
		}
		c.mu.Lock()
		if c.pausas[empresaID].Equal(hasta) {
			delete(c.pausas, empresaID)
		}
		c.mu.Unlock()
	}
	return c.cfg.Limitador.Esperar(ctx, empresaID)
}
