package routes

// The ops group's operational routes besides /api/health (routes.go):
// metrics and the real-time dashboard (shared/ops). None takes part in
// ETag/304: each answer is a fresh reading.
func init() {
	Register(func() []Route {
		return []Route{
			// Administrador of the company: the business gauges and request
			// series are the caller company's (a platform administrator's
			// request series are the whole service's). Rate class reports
			// (SPEC.md "Limits": metrics).
			{Name: "ops.metrics", Method: "GET", Path: "/api/metrics", Group: "ops", Roles: []string{"administrador"},
				Rate: RateReports, NoETag: true, Summary: "Métricas en formato de texto de Prometheus"},
			// Sales figures: whoever may read the company's sales.
			{Name: "ops.tiempo_real", Method: "GET", Path: "/api/tiempo-real", Group: "ops", Permissions: []string{"ventas.leer"},
				NoETag: true, Summary: "Contadores en tiempo real (JSON, o eventos SSE con Accept: text/event-stream)"},
		}
	})
}
