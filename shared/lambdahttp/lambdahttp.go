// Package lambdahttp hosts a function group's handlers: it builds the
// group's mux from the route table, reads the authorizer context that API
// Gateway (or the local gateway) put into the event, enforces the route's
// permissions, and adapts API Gateway v2 events to http.Handler.
package lambdahttp

import (
	"errors"
	"fmt"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/routes"
)

// Handlers maps route names of one group to their handlers.
type Handlers map[string]httpx.HandlerFunc

// Mux builds the http.Handler of a group. Every route of the group in the
// route table must have a handler and every handler a route, so the table
// and the code cannot drift apart.
func Mux(group string, hs Handlers, o httpx.Options, lim Limitador) (http.Handler, error) {
	mux := http.NewServeMux()
	seen := map[string]bool{}
	hasDefault := false
	for _, rt := range routes.ByGroup(group) {
		h, ok := hs[rt.Name]
		if !ok {
			return nil, fmt.Errorf("lambdahttp: group %s: no handler for route %s (%s)", group, rt.Name, rt.Key())
		}
		seen[rt.Name] = true
		handler := metered(rt, httpx.Adapt(guard(rt, h, lim)))
		if rt.Path == routes.DefaultRoute {
			mux.Handle("/", handler)
			hasDefault = true
			continue
		}
		mux.Handle(rt.Pattern(), handler)
	}
	var extra []string
	for name := range hs {
		if !seen[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("lambdahttp: group %s: handlers without route: %v", group, extra)
	}
	if !hasDefault {
		mux.Handle("/", httpx.Adapt(NotFound))
	}
	return httpx.Observe(o, rejectMalformed(versionar(group, limpio(mux)))), nil
}

// limpio answers a path that is not in its clean form ("//", "/./",
// "/../") with the Spanish 404: http.ServeMux would redirect it to the
// clean path with an HTML body, which API Gateway never sends.
func limpio(mux http.Handler) http.Handler {
	notFound := httpx.Adapt(NotFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p != "/" && path.Clean(p) != strings.TrimSuffix(p, "/") {
			notFound.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// NotFound answers what no route serves; API Gateway sends it to the
// $default route. A path the route table knows, asked with another method,
// is a 405 whose Allow header lists the table's methods for that path; any
// other path is a 404.
//
// A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)
// is answered 204: the HTTP API answers preflights itself when its
// CorsConfiguration is set, but AWS documents that a $default route also
// catches OPTIONS requests, and should one arrive here, API Gateway adds the
// configured CORS headers to this 2xx rather than to an error.
func NotFound(w http.ResponseWriter, r *http.Request) error {
	if r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != "" {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	// A spelling the route table matches loosely ("/api/productos/") but
	// the group's mux does not serve reaches here with a method the path
	// does serve: "GET is not allowed; allowed: GET, POST" would be a lie,
	// so it is a 404 like any other path no route serves as written.
	if methods := routes.Methods(r.URL.Path); len(methods) > 0 && !slices.Contains(methods, r.Method) {
		allow := strings.Join(methods, ", ")
		w.Header().Set("Allow", allow)
		return &httpx.Error{Kind: apperr.MethodNotAllowed,
			Message: "El método " + r.Method + " no está permitido en esta ruta. Métodos permitidos: " + allow + "."}
	}
	return apperr.NewNotFound("La ruta solicitada no existe.")
}

// guard applies authentication, the rate limit, permissions and ETag as
// the route declares.
func guard(rt routes.Route, h httpx.HandlerFunc, lim Limitador) httpx.HandlerFunc {
	h = enlaces(rt, h)
	if !rt.NoETag {
		h = httpx.ETag(h)
	}
	if rt.Public {
		return func(w http.ResponseWriter, r *http.Request) error {
			if err := limitar(lim, rt, nil, w, r); err != nil {
				return err
			}
			return h(w, r)
		}
	}
	perms, roles := rt.Permissions, rt.Roles
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := Principal(r)
		if err != nil {
			return err
		}
		if err := limitar(lim, rt, &p, w, r); err != nil {
			return err
		}
		// A TargetTenant route aimed at another company checks the
		// permission there, in its handler (compared as numbers: "01" is 1).
		if !(rt.TargetTenant && elsewhere(r, p.EmpresaID)) && !p.Can(perms...) {
			return apperr.NewForbidden("No tiene permiso para realizar esta acción.")
		}
		if len(roles) > 0 && !p.HasRole(roles...) {
			return apperr.NewForbidden("Solo un Administrador puede realizar esta acción.")
		}
		if rt.Platform && !p.Plataforma {
			return apperr.NewForbidden("Solo un administrador de la plataforma puede modificar o eliminar registros de los catálogos globales, que comparten todas las empresas.")
		}
		return h(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
	}
}

// elsewhere reports whether the path's {id} names a valid company id other
// than the active one.
func elsewhere(r *http.Request, empresaID int64) bool {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return err == nil && id > 0 && id != empresaID
}

// Principal reads the authorizer's verdict from the API Gateway request
// context and turns a refusal into the specified 401/403/404 error.
func Principal(r *http.Request) (auth.Principal, error) {
	var m map[string]any
	if g, ok := gatewayFrom(r.Context()); ok {
		m = g.authorizer
	}
	p, refusal := auth.DecodeContext(m)
	switch {
	case refusal == nil:
		return p, nil
	case errors.Is(refusal, auth.ErrMissingToken):
		return p, apperr.NewUnauthenticated("No autenticado. Envíe el encabezado Authorization: Bearer <token>.")
	case errors.Is(refusal, auth.ErrInactiveUser):
		return p, apperr.NewForbidden("El usuario está inactivo.")
	case errors.Is(refusal, auth.ErrInvalidTenant):
		return p, apperr.NewBadRequest("El encabezado X-Empresa-Id debe ser un número entero positivo o X-Empresa-Subdominio un subdominio válido.")
	case errors.Is(refusal, auth.ErrUnknownTenant):
		return p, apperr.NewNotFound("La empresa indicada no existe.")
	case errors.Is(refusal, auth.ErrForeignTenant):
		return p, apperr.NewForbidden("No pertenece a la empresa indicada.")
	case errors.Is(refusal, auth.ErrInactiveTenant):
		return p, apperr.NewForbidden("La empresa indicada está inactiva.")
	case errors.Is(refusal, auth.ErrNoCompany):
		return p, apperr.NewForbidden(auth.MsgSinEmpresa)
	default:
		return p, apperr.NewUnauthenticated("El token de acceso no es válido, expiró o fue revocado.")
	}
}
