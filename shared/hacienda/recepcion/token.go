package recepcion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// claveToken keys the token cache: one session per company and username.
type claveToken struct {
	empresa int64
	usuario string
}

// entradaToken is one cached session. mu serialises its refresh, so that
// concurrent calls of a company make one IdP request, not one each.
type entradaToken struct {
	mu         chan struct{} // 1-slot semaphore (a lock that honours ctx)
	acceso     string
	accesoHast time.Time // already minus the margin
	refresco   string
	refrescoHa time.Time // zero: no expiry known
	clave      string    // the password the session was opened with
}

// RespuestaToken is the IdP's answer to a token request (Keycloak's, as
// Hacienda runs it): the tokens and their lifetimes in seconds, or an
// OAuth error. The simulator answers with the same type.
type RespuestaToken struct {
	AccessToken      string `json:"access_token"`
	ExpiresIn        int64  `json:"expires_in"`
	RefreshToken     string `json:"refresh_token"`
	RefreshExpiresIn int64  `json:"refresh_expires_in"`
	TokenType        string `json:"token_type"`
	NotBeforePolicy  int    `json:"not-before-policy"`
	SessionState     string `json:"session_state"`
	Scope            string `json:"scope"`
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`
}

func (c *Cliente) entrada(empresaID int64, usuario string) *entradaToken {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := claveToken{empresaID, usuario}
	e, ok := c.tokens[k]
	if !ok {
		e = &entradaToken{mu: make(chan struct{}, 1)}
		c.tokens[k] = e
	}
	return e
}

// olvidarToken drops the whole session (access and refresh token), so the
// next call logs in with the password grant.
func (c *Cliente) olvidarToken(empresaID int64, usuario string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.tokens, claveToken{empresaID, usuario})
}

// token returns a valid access token: the cached one until its expiry
// minus Margen, else a refresh_token grant while the refresh token is
// valid, else (or when the refresh fails) a password grant.
func (c *Cliente) token(ctx context.Context, empresaID int64, cred Credenciales) (string, error) {
	if cred.Usuario == "" || cred.Clave == "" {
		return "", fmt.Errorf("%w: usuario o clave vacíos", ErrCredenciales)
	}
	e := c.entrada(empresaID, cred.Usuario)
	select {
	case e.mu <- struct{}{}:
	case <-ctx.Done():
		return "", temporal(ctx.Err())
	}
	defer func() { <-e.mu }()

	now := c.cfg.Now()
	if e.clave != cred.Clave {
		// New password (credentials rotated): the old session is not ours.
		*e = entradaToken{mu: e.mu}
	}
	if e.acceso != "" && now.Before(e.accesoHast) {
		return e.acceso, nil
	}
	if e.refresco != "" && (e.refrescoHa.IsZero() || now.Before(e.refrescoHa)) {
		rt, err := c.pedirToken(ctx, url.Values{
			"grant_type":    {"refresh_token"},
			"client_id":     {c.cfg.ClientID},
			"refresh_token": {e.refresco},
		})
		if err == nil {
			c.guardar(e, rt, cred.Clave, now)
			return e.acceso, nil
		}
		if !errors.Is(err, ErrCredenciales) {
			return "", err
		}
		// The refresh token was refused (expired, revoked, session ended):
		// fall through to a fresh login.
	}
	rt, err := c.pedirToken(ctx, url.Values{
		"grant_type": {"password"},
		"client_id":  {c.cfg.ClientID},
		"username":   {cred.Usuario},
		"password":   {cred.Clave},
	})
	if err != nil {
		*e = entradaToken{mu: e.mu}
		return "", err
	}
	c.guardar(e, rt, cred.Clave, now)
	return e.acceso, nil
}

func (c *Cliente) guardar(e *entradaToken, rt RespuestaToken, clave string, now time.Time) {
	vida := time.Duration(rt.ExpiresIn) * time.Second
	if vida <= 0 {
		vida = 300 * time.Second // Keycloak's default; SPEC: 300 s
	}
	margen := c.cfg.Margen
	if margen >= vida {
		margen = vida / 2
	}
	e.acceso = rt.AccessToken
	e.accesoHast = now.Add(vida - margen)
	e.clave = clave
	if rt.RefreshToken != "" {
		e.refresco = rt.RefreshToken
		e.refrescoHa = time.Time{}
		if rt.RefreshExpiresIn > 0 {
			rv := time.Duration(rt.RefreshExpiresIn) * time.Second
			rm := c.cfg.Margen
			if rm >= rv {
				rm = rv / 2
			}
			e.refrescoHa = now.Add(rv - rm)
		}
	} else {
		e.refresco, e.refrescoHa = "", time.Time{}
	}
}

// pedirToken posts one grant to the IdP, with the same retry policy as the
// API for network errors and 5xx. 400/401 are ErrCredenciales.
func (c *Cliente) pedirToken(ctx context.Context, form url.Values) (RespuestaToken, error) {
	intento := 0
	for {
		rt, estado, err := c.postToken(ctx, form)
		if err == nil && estado == http.StatusOK {
			if rt.AccessToken == "" {
				return rt, fmt.Errorf("%w: el IdP no devolvió access_token", ErrTemporal)
			}
			return rt, nil
		}
		if err == nil && estado < 500 && estado != http.StatusTooManyRequests {
			desc := rt.Error
			if rt.ErrorDescription != "" {
				desc += ": " + rt.ErrorDescription
			}
			return rt, fmt.Errorf("%w: %s (HTTP %d, grant %s)", ErrCredenciales, Legible([]byte(desc), 500), estado, form.Get("grant_type"))
		}
		if ctx.Err() != nil {
			return rt, temporal(ctx.Err())
		}
		if intento >= c.cfg.Reintentos {
			if err != nil {
				return rt, fmt.Errorf("%w: IdP tras %d intentos: %w", ErrTemporal, intento+1, err)
			}
			return rt, fmt.Errorf("%w: IdP tras %d intentos: HTTP %d", ErrTemporal, intento+1, estado)
		}
		d := c.backoff(intento)
		intento++
		if err := c.cfg.Dormir(ctx, d); err != nil {
			return rt, temporal(err)
		}
	}
}

func (c *Cliente) postToken(ctx context.Context, form url.Values) (RespuestaToken, int, error) {
	var rt RespuestaToken
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return rt, 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return rt, 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return rt, 0, err
	}
	if err := json.Unmarshal(b, &rt); err != nil && res.StatusCode == http.StatusOK {
		return rt, 0, fmt.Errorf("respuesta del IdP ilegible: %w", err)
	}
	return rt, res.StatusCode, nil
}
