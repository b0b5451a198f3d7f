package lambdahttp

import (
	"net/http"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/routes"
)

// metered tells httpx.Observe which route of the table answered and for
// which company, so that request metrics are labelled by the route's
// pattern ("GET /api/ventas/{id}"), never by the raw path. It wraps each
// route's handler in Mux: routing happens inside Observe, so Observe
// cannot know the route itself. The catch-all is one series ("ANY
// $default") whatever method the client invented.
func metered(rt routes.Route, h http.Handler) http.Handler {
	method, route := rt.Method, rt.Path
	if rt.Path == routes.DefaultRoute {
		method = "ANY"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var empresa int64
		if !rt.Public {
			if p, err := Principal(r); err == nil {
				empresa = p.EmpresaID
			}
		}
		httpx.SetRoute(r.Context(), method, route, empresa)
		h.ServeHTTP(w, r)
	})
}
