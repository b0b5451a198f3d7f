package lambdahttp

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/routes"
)

type versionKey struct{}

// Version is the API version the request asked for (routes.V1 or V2).
func Version(ctx context.Context) int {
	if v, ok := ctx.Value(versionKey{}).(int); ok {
		return v
	}
	return routes.V1
}

// versionar resolves the version of a request before the group's mux routes
// it: a /api/v1/ or /api/v2/ prefix, else Accept: application/vnd.erp.v2+json,
// else v1. The path is rewritten to the route table's own spelling, so one
// handler serves every version. A v2 answer says so in its Content-Type; a
// v1 answer of a group whose v1 is deprecated carries Deprecation, Sunset
// and a Link to its v2 successor.
func versionar(group string, next http.Handler) http.Handler {
	dep, deprecado := routes.DeprecacionV1(group)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		version, canonical, explicit := routes.Versionada(r.URL.Path)
		if !explicit && aceptaV2(r.Header.Get("Accept")) {
			version = routes.V2
		}
		w.Header().Add("Vary", "Accept")
		if explicit || version == routes.V2 {
			r.URL.Path, r.URL.RawPath = routes.Declarada(r.Method, r.URL.Path), ""
		}
		r = r.WithContext(context.WithValue(r.Context(), versionKey{}, version))
		if version == routes.V2 {
			w = &v2Writer{ResponseWriter: w}
		} else if deprecado {
			h := w.Header()
			h.Set("Deprecation", "@"+strconv.FormatInt(dep.Desde.Unix(), 10))
			h.Set("Sunset", dep.Sunset.Format(http.TimeFormat))
			h.Set("Link", "<"+(&url.URL{Path: "/api/v2" + strings.TrimPrefix(canonical, "/api"), RawQuery: r.URL.RawQuery}).String()+
				`>; rel="successor-version"`)
		}
		next.ServeHTTP(w, r)
	})
}

// aceptaV2: Accept names the v2 media type, without q=0.
func aceptaV2(accept string) bool { return httpx.Acepta(accept, routes.MediaTypeV2) }

// v2Writer marks JSON answers with the v2 media type.
type v2Writer struct {
	http.ResponseWriter
	wrote bool
}

func (w *v2Writer) WriteHeader(status int) {
	if !w.wrote {
		w.wrote = true
		if ct := w.Header().Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
			w.Header().Set("Content-Type", routes.MediaTypeV2+"; charset=utf-8")
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *v2Writer) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush keeps streaming answers streaming.
func (w *v2Writer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// enlaces adds v2's hypermedia links to a route's JSON answers (before the
// ETag is computed, so each representation has its own).
func enlaces(rt routes.Route, h httpx.HandlerFunc) httpx.HandlerFunc {
	col := coleccionDe(rt)
	return func(w http.ResponseWriter, r *http.Request) error {
		if Version(r.Context()) != routes.V2 {
			return h(w, r)
		}
		buf := &httpx.BufferWriter{HeaderMap: w.Header()} // sharing the real header map
		if err := h(buf, r); err != nil {
			return err
		}
		body := buf.Body.Bytes()
		if buf.Status == 0 {
			buf.Status = http.StatusOK
		}
		if buf.Status < 300 && strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			if out, ok := conEnlaces(body, col, r); ok {
				body = out
				w.Header().Del("Content-Length")
			}
		}
		w.WriteHeader(buf.Status)
		_, _ = w.Write(body)
		return nil
	}
}

// coleccionDe is the collection (canonical path) of the object a route
// answers with: /api/ventas for GET /api/ventas, GET /api/ventas/{id} and
// POST /api/ventas/{id}/anular (an action answers its record), and the
// nested list itself for GET /api/webhooks/{id}/entregas.
func coleccionDe(rt routes.Route) string {
	p := rt.Canonica()
	if strings.HasSuffix(p, "/{id}") {
		return strings.TrimSuffix(p, "/{id}")
	}
	if i := strings.LastIndex(p, "/{id}/"); i >= 0 && !esLista(p) {
		return p[:i]
	}
	return p
}

// esLista reports whether a GET route lists p (a nested collection).
func esLista(p string) bool {
	for _, r := range routes.All() {
		if r.Method == "GET" && r.Canonica() == p {
			return true
		}
	}
	return false
}
