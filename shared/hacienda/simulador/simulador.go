// Package simulador is a local stand-in for Hacienda's identity provider
// and Recepción API (comprobantes electrónicos v4.4), for development and
// tests only: it refuses to start in production.
//
// Routes (the suffix is what matters, so it can be mounted under the real
// prefixes, e.g. /auth/realms/rut-stag/protocol/openid-connect/token and
// /recepcion/v1/recepcion):
//
//	POST …/token               IdP: grant_type=password|refresh_token (form)
//	POST …/recepcion           submit a document (JSON, Bearer token)
//	GET  …/recepcion/{clave}   status (JSON, Bearer token)
//
// Documents accepted with 202 are validated at once (XSD of their root,
// signature, clave and emisor consistency) but the verdict is revealed over
// time measured with Opciones.Now: "recibido" for the first half of Demora,
// "procesando" for the second half, then "aceptado" or "rechazado" with a
// MensajeHacienda in respuesta-xml.
//
// The MensajeHacienda is not signed: its ds:Signature is a schema-valid
// placeholder with Id FirmaSimulada, whose SignatureValue is not a
// signature (it decodes to "SIMULADOR LOCAL: SIN FIRMA"). The document is
// therefore valid against MensajeHacienda_V4.4.xsd, and any cryptographic
// verification of it fails, as it should outside the real Hacienda.
//
// State lives in memory, per Simulador.
package simulador

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/erpcr/erp/shared/hacienda/recepcion"
)

// Defaults of Opciones.
const (
	DefaultTTLToken   = 300 * time.Second
	DefaultTTLRefresh = 1800 * time.Second
	DefaultLimite     = 60
)

// FirmaSimulada is the Id of the placeholder ds:Signature of the
// simulator's MensajeHacienda.
const FirmaSimulada = "SimuladorLocal-SinFirma"

// ErrProduccion is returned by Nuevo when Entorno is production.
var ErrProduccion = errors.New("simulador: no se ejecuta en producción")

// Opciones configures a Simulador. Zero values take the defaults.
type Opciones struct {
	// Demora: recibido -> procesando -> final after this delay, measured
	// with Now (0: final at once).
	Demora time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// TTLToken is the access token lifetime (default 300 s); TTLRefresh the
	// refresh token lifetime (default 1800 s).
	TTLToken, TTLRefresh time.Duration
	// Usuarios: username -> password accepted by the IdP; nil = accept any
	// non-empty pair.
	Usuarios map[string]string
	// ValidarXSD validates xml against the schema of its root element
	// (e.g. "FacturaElectronica"). nil = xmllint --nonet against the
	// embedded esquemas (skipped with a logged warning if xmllint is not
	// installed). The error text goes into DetalleMensaje.
	ValidarXSD func(raiz string, xml []byte) error
	// VerificarFirma verifies the XAdES signature. nil = only check that a
	// ds:Signature child of the root exists.
	VerificarFirma func(xml []byte) error
	// Entorno: Nuevo refuses "production" (also "prod", "produccion").
	Entorno string
	// Limite is the recepción budget per user and minute advertised in the
	// X-Ratelimit-* headers and enforced with 429 (default 60; negative =
	// unlimited, headers still sent with a limit of 1000000).
	Limite int
	// Log receives warnings (default slog.Default()).
	Log *slog.Logger
}

// Simulador is an http.Handler; safe for concurrent use.
type Simulador struct {
	o Opciones

	mu          sync.Mutex
	accesos     map[string]sesion // access token -> session
	refrescos   map[string]sesion // refresh token -> session
	documentos  map[string]*documento
	ventanas    map[string]ventana // rate-limit window per key
	esquemas    arbolEsquemas
	advertido   bool
	xmllintPath string
}

type sesion struct {
	usuario  string
	clientID string
	vence    time.Time
}

type ventana struct {
	inicio time.Time
	cuenta int
}

// Nuevo returns a simulator, or ErrProduccion.
func Nuevo(o Opciones) (*Simulador, error) {
	switch strings.ToLower(strings.TrimSpace(o.Entorno)) {
	case "production", "prod", "produccion", "producción":
		return nil, ErrProduccion
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TTLToken <= 0 {
		o.TTLToken = DefaultTTLToken
	}
	if o.TTLRefresh <= 0 {
		o.TTLRefresh = DefaultTTLRefresh
	}
	if o.Limite == 0 {
		o.Limite = DefaultLimite
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	s := &Simulador{
		o:          o,
		accesos:    map[string]sesion{},
		refrescos:  map[string]sesion{},
		documentos: map[string]*documento{},
		ventanas:   map[string]ventana{},
	}
	if s.o.ValidarXSD == nil {
		s.o.ValidarXSD = s.validarConXmllint
	}
	return s, nil
}

// Close removes the schema files the default XSD validator extracted.
func (s *Simulador) Close() error {
	s.mu.Lock()
	dir := s.esquemas.dir
	s.esquemas = arbolEsquemas{}
	s.mu.Unlock()
	if dir == "" {
		return nil
	}
	return os.RemoveAll(dir)
}

// ServeHTTP routes the IdP and Recepción endpoints.
func (s *Simulador) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimRight(r.URL.Path, "/")
	switch {
	case strings.HasSuffix(p, "/token"):
		if r.Method != http.MethodPost {
			metodoNoPermitido(w, http.MethodPost)
			return
		}
		s.token(w, r)
	case strings.HasSuffix(p, "/recepcion"):
		if r.Method != http.MethodPost {
			metodoNoPermitido(w, http.MethodPost)
			return
		}
		s.recibir(w, r)
	case strings.Contains(p, "/recepcion/"):
		if r.Method != http.MethodGet {
			metodoNoPermitido(w, http.MethodGet)
			return
		}
		s.consultar(w, r, p[strings.LastIndex(p, "/recepcion/")+len("/recepcion/"):])
	default:
		w.Header().Set("X-Error-Cause", "Recurso no encontrado")
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func metodoNoPermitido(w http.ResponseWriter, permitido string) {
	w.Header().Set("Allow", permitido)
	w.Header().Set("X-Error-Cause", "Método no permitido")
	w.WriteHeader(http.StatusMethodNotAllowed)
}

// --- IdP -------------------------------------------------------------------

// respuestaToken is the token answer the client reads.
type respuestaToken = recepcion.RespuestaToken

func errorIdP(w http.ResponseWriter, estado int, codigo, desc string) {
	escribirJSON(w, estado, map[string]string{"error": codigo, "error_description": desc})
}

func (s *Simulador) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		errorIdP(w, http.StatusBadRequest, "invalid_request", "Formulario inválido")
		return
	}
	f := r.PostForm
	clientID := f.Get("client_id")
	if clientID == "" {
		errorIdP(w, http.StatusUnauthorized, "invalid_client", "Invalid client credentials")
		return
	}
	now := s.o.Now()
	var usuario string
	switch f.Get("grant_type") {
	case "password":
		u, p := f.Get("username"), f.Get("password")
		if !s.credencialValida(u, p) {
			errorIdP(w, http.StatusUnauthorized, "invalid_grant", "Invalid user credentials")
			return
		}
		usuario = u
	case "refresh_token":
		s.mu.Lock()
		ses, ok := s.refrescos[f.Get("refresh_token")]
		s.mu.Unlock()
		if !ok || !now.Before(ses.vence) {
			errorIdP(w, http.StatusUnauthorized, "invalid_grant", "Token is not active")
			return
		}
		if ses.clientID != clientID {
			errorIdP(w, http.StatusUnauthorized, "invalid_grant", "Invalid refresh token. Token client and authorized client don't match")
			return
		}
		usuario = ses.usuario
	default:
		errorIdP(w, http.StatusBadRequest, "unsupported_grant_type", "Unsupported grant_type")
		return
	}
	acceso, refresco := aleatorio(), aleatorio()
	s.mu.Lock()
	// Forget expired sessions now and then (bounded memory in long runs).
	for k, v := range s.accesos {
		if !now.Before(v.vence) {
			delete(s.accesos, k)
		}
	}
	for k, v := range s.refrescos {
		if !now.Before(v.vence) {
			delete(s.refrescos, k)
		}
	}
	s.accesos[acceso] = sesion{usuario, clientID, now.Add(s.o.TTLToken)}
	s.refrescos[refresco] = sesion{usuario, clientID, now.Add(s.o.TTLRefresh)}
	s.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	escribirJSON(w, http.StatusOK, respuestaToken{
		AccessToken:      acceso,
		ExpiresIn:        int64(s.o.TTLToken / time.Second),
		RefreshToken:     refresco,
		RefreshExpiresIn: int64(s.o.TTLRefresh / time.Second),
		TokenType:        "bearer",
		SessionState:     aleatorio()[:16],
		Scope:            "profile email",
	})
}

func (s *Simulador) credencialValida(u, p string) bool {
	if u == "" || p == "" {
		return false
	}
	if s.o.Usuarios == nil {
		return true
	}
	want, ok := s.o.Usuarios[u]
	return ok && want == p
}

// autenticar returns the user of a valid Bearer token.
func (s *Simulador) autenticar(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	const pre = "bearer "
	if len(h) <= len(pre) || !strings.EqualFold(h[:len(pre)], pre) {
		return "", false
	}
	tok := strings.TrimSpace(h[len(pre):])
	s.mu.Lock()
	ses, ok := s.accesos[tok]
	s.mu.Unlock()
	if !ok || !s.o.Now().Before(ses.vence) {
		return "", false
	}
	return ses.usuario, true
}

func noAutorizado(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="rut-stag", error="invalid_token"`)
	w.Header().Set("X-Error-Cause", "Token de acceso ausente, inválido o expirado")
	w.WriteHeader(http.StatusUnauthorized)
}

// --- Rate limit ------------------------------------------------------------

// limitar counts one request for key in a fixed one-minute window, sets
// the X-Ratelimit-* headers, and reports whether it is within the limit
// (else it has written 429 with Retry-After).
func (s *Simulador) limitar(w http.ResponseWriter, key string) bool {
	now := s.o.Now()
	inicio := now.Truncate(time.Minute)
	fin := inicio.Add(time.Minute)
	limite := s.o.Limite
	if limite < 0 {
		limite = 1_000_000
	}
	s.mu.Lock()
	v := s.ventanas[key]
	if !v.inicio.Equal(inicio) {
		v = ventana{inicio: inicio}
	}
	v.cuenta++
	s.ventanas[key] = v
	s.mu.Unlock()
	restantes := max(limite-v.cuenta, 0)
	h := w.Header()
	h.Set("X-Ratelimit-Limit", strconv.Itoa(limite))
	h.Set("X-Ratelimit-Remaining", strconv.Itoa(restantes))
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(fin.Unix(), 10))
	if v.cuenta > limite {
		secs := int(fin.Sub(now).Seconds() + 0.999)
		h.Set("Retry-After", strconv.Itoa(max(secs, 1)))
		h.Set("X-Error-Cause", "Se excedió el límite de solicitudes por minuto")
		w.WriteHeader(http.StatusTooManyRequests)
		return false
	}
	return true
}

func clienteRemoto(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// --- helpers ----------------------------------------------------------------

func escribirJSON(w http.ResponseWriter, estado int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(estado)
	_ = json.NewEncoder(w).Encode(v)
}

func aleatorio() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
