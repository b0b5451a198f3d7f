package gateway

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/routes"
)

// CORS is the HTTP API's CorsConfiguration as the local gateway applies it,
// following API Gateway's documented behaviour for HTTP APIs:
//
//   - a preflight (OPTIONS with Origin and Access-Control-Request-Method) is
//     answered by the gateway itself, for any path, without the authorizer or
//     a function: 204 with the allowed methods, headers and max age, plus
//     Access-Control-Allow-Origin when the origin is allowed (a disallowed
//     origin gets the 204 without CORS headers, and the browser stops there);
//   - every other answer to an allowed origin gets Access-Control-Allow-Origin
//     and Access-Control-Expose-Headers;
//   - CORS headers returned by a function are ignored (removed).
type CORS struct {
	// AllowOrigins are exact origins (scheme://host[:port], lower case) or "*".
	AllowOrigins []string
	routes.CORSPolicy
}

// NewCORS returns the API's policy (routes.CORS) for these origins.
func NewCORS(origins []string) *CORS {
	return &CORS{AllowOrigins: origins, CORSPolicy: routes.CORS()}
}

// allowOrigin returns the Access-Control-Allow-Origin value for a request's
// Origin, or "" when the origin is not allowed.
func (c *CORS) allowOrigin(origin string) string {
	if origin == "" {
		return ""
	}
	lower := strings.ToLower(origin)
	for _, o := range c.AllowOrigins {
		if o == "*" {
			return "*"
		}
		if strings.ToLower(o) == lower {
			return origin
		}
	}
	return ""
}

// preflight answers r when it is a CORS preflight and reports whether it did.
func (c *CORS) preflight(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if r.Method != http.MethodOptions || origin == "" || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h := w.Header()
	if allow := c.allowOrigin(origin); allow != "" {
		h.Set("Access-Control-Allow-Origin", allow)
		h.Set("Access-Control-Allow-Methods", strings.Join(c.AllowMethods, ","))
		h.Set("Access-Control-Allow-Headers", strings.Join(c.AllowHeaders, ","))
		if c.MaxAge > 0 {
			h.Set("Access-Control-Max-Age", strconv.Itoa(c.MaxAge))
		}
		if allow != "*" {
			addVary(h, "Origin")
		}
	}
	w.WriteHeader(http.StatusNoContent)
	return true
}

// corsWriter replaces the integration's CORS headers with the configured
// ones when the status line is written.
type corsWriter struct {
	http.ResponseWriter
	cors    *CORS
	origin  string
	written bool
}

func (cw *corsWriter) WriteHeader(code int) {
	if !cw.written {
		cw.written = true
		h := cw.Header()
		for k := range h {
			if strings.HasPrefix(k, "Access-Control-") {
				delete(h, k)
			}
		}
		if allow := cw.cors.allowOrigin(cw.origin); allow != "" {
			h.Set("Access-Control-Allow-Origin", allow)
			if len(cw.cors.ExposeHeaders) > 0 {
				h.Set("Access-Control-Expose-Headers", strings.Join(cw.cors.ExposeHeaders, ","))
			}
			if allow != "*" {
				addVary(h, "Origin")
			}
		}
	}
	cw.ResponseWriter.WriteHeader(code)
}

func (cw *corsWriter) Write(b []byte) (int, error) {
	if !cw.written {
		cw.WriteHeader(http.StatusOK)
	}
	return cw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (cw *corsWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

// addVary adds a field to Vary as one comma-separated line, as API Gateway
// does, so clients reading a single Vary header see every field.
func addVary(h http.Header, field string) {
	var parts []string
	for _, v := range h.Values("Vary") {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" && !strings.EqualFold(p, field) {
				parts = append(parts, p)
			}
		}
	}
	h.Set("Vary", strings.Join(append(parts, field), ", "))
}
