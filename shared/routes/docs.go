package routes

// The docs group: the OpenAPI documents and the interactive page (issue
// 12). Public routes: with ERP_ENV=production the handlers themselves
// require a valid token (SPEC.md Authentication 8). Like every GET but
// health, metrics and real time (SPEC.md), they carry an ETag and answer
// 304 to a matching If-None-Match: the documents are megabytes.
func init() {
	Register(func() []Route {
		r := func(name, path, summary string) Route {
			return Route{Name: "docs." + name, Method: "GET", Path: path, Group: "docs", Public: true, Summary: summary}
		}
		return []Route{
			r("page", "/api/documentation", "Documentación interactiva (Swagger UI) con selector de versión"),
			r("json", "/api/documentation.json", "Documento OpenAPI 3.1 (version=v1 por omisión, o v2)"),
			r("version", "/api/documentation/{version}", "Documento OpenAPI 3.1 de una versión: v1.json o v2.json"),
			r("ui", "/api/documentation/ui/{archivo}", "Archivos de Swagger UI que usa la página"),
		}
	})
}
