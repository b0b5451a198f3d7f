// Package openapi builds the API's OpenAPI 3.1 documents (v1 and v2) from
// the route table (shared/routes) and from the request and response
// schemas the domains declare (Fuentes, assembled by shared/docs/fuentes).
// cmd/genopenapi writes the result to shared/docs/openapi/v1.json and
// v2.json, which the docs function embeds: the docs Lambda links neither
// this builder's sources nor any domain.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// Versions are the documents there are.
var Versions = []string{"v1", "v2"}

// MediaV2 is the vendor media type that selects version 2 (SPEC.md Versioning).
const MediaV2 = "application/vnd.erp.v2+json"

// Fuentes are the schemas the route table does not hold, by route name.
type Fuentes struct {
	// Cuerpos are request bodies.
	Cuerpos map[string]esquema.Cuerpo
	// Datos are the data object of a success response (the element of a
	// list's data for list routes); absent means an object of unknown keys.
	Datos map[string]map[string]any
	// Cuerpo replaces the whole success body of a route that does not answer
	// the {success, message?, data} envelope (health, me).
	Respuestas map[string]map[string]any
	// Consultas are the query parameters of a route besides the page ones.
	Consultas map[string][]esquema.Campo
	// Parametros describe path parameters that are not record ids.
	Parametros map[string][]esquema.Campo
	// Medios are the media type of routes that do not answer JSON.
	Medios map[string]string
	// Descargas are the media types a route answers besides JSON (a
	// report's formato=pdf|excel|csv), comma-separated: binary files.
	Descargas map[string]string
	// Listas are the routes that answer a page.
	Listas map[string]bool
	// Ejemplos are examples of success responses' data, by route name.
	Ejemplos map[string]any
	// Formularios are multipart/form-data request bodies (a file upload),
	// as JSON Schemas of the form's parts.
	Formularios map[string]map[string]any
	// Estados replace the success statuses of a route (an import answers
	// 200 when it only validates, 201 when it creates).
	Estados map[string][]string
	// Condicionales are the writes that honour If-Match in v1 (the ETag of
	// the record's GET, or *): a 412 when the record changed since.
	Condicionales map[string]bool
}

// Build returns the document of version as JSON (stable: keys sorted,
// indented, trailing newline).
func Build(version string, f Fuentes) ([]byte, error) {
	if version != "v1" && version != "v2" {
		return nil, fmt.Errorf("openapi: unknown version %q", version)
	}
	doc := document(version, f)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("openapi: encode %s: %w", version, err)
	}
	return buf.Bytes(), nil
}

type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// Path maps a route's path into a version: v2 serves every resource under
// /api/v2/ (the tax-authority routes, already under /api/v1/, move to
// /api/v2/ as well); operational and documentation routes keep their path.
func Path(version, path string) string {
	if version == "v1" || !versioned(path) {
		return path
	}
	rest := strings.TrimPrefix(path, "/api/")
	rest = strings.TrimPrefix(rest, "v1/")
	return "/api/v2/" + rest
}

func versioned(path string) bool {
	switch {
	case path == routes.DefaultRoute, path == "/api/health", strings.HasPrefix(path, "/api/documentation"),
		path == "/api/login", path == "/api/logout", path == "/api/register", path == "/api/me", path == "/api/user",
		path == "/api/metrics":
		return false
	}
	return strings.HasPrefix(path, "/api/")
}

func document(version string, f Fuentes) obj {
	paths := obj{}
	tags := map[string]bool{}
	for _, rt := range routes.All() {
		if rt.Path == routes.DefaultRoute || rt.Method == "ANY" {
			continue
		}
		p := Path(version, rt.Path)
		item, _ := paths[p].(obj)
		if item == nil {
			item = obj{}
			paths[p] = item
		}
		item[strings.ToLower(rt.Method)] = operation(version, rt, f)
		tags[rt.Group] = true
	}
	var tagList []any
	for _, t := range sortedKeys(tags) {
		tagList = append(tagList, obj{"name": t})
	}
	title := "ERP API (Costa Rica)"
	desc := "API multiempresa de ERP para empresas costarricenses. Autenticación con token Bearer personal " +
		"(POST /api/login) y la empresa activa en X-Empresa-Id. Los errores usan el sobre " +
		"{success: false, message, errors?, trace_id}; las listas se paginan con page y per_page (máximo 100)."
	if version == "v2" {
		desc += " Versión 2: los recursos están bajo /api/v2/ (o se piden con Accept: " + MediaV2 +
			") y agregan enlaces _links (self, related y, en las listas, first, prev, next y last)."
	}
	return obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info":              obj{"title": title, "version": version, "description": desc},
		"servers":           []any{obj{"url": "/", "description": "Este servidor"}},
		"security":          []any{obj{"bearer": []any{}}},
		"tags":              tagList,
		"paths":             paths,
		"components":        components(version),
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}

func description(rt routes.Route) string {
	var b strings.Builder
	switch {
	case rt.Public:
		b.WriteString("Pública: no requiere token.")
	case len(rt.Permissions) == 0:
		b.WriteString("Requiere un usuario autenticado de la empresa (sin permiso específico).")
	default:
		b.WriteString("Permiso requerido (cualquiera de): `" + strings.Join(rt.Permissions, "`, `") + "`.")
	}
	if len(rt.Roles) > 0 {
		b.WriteString(" Rol requerido: " + strings.Join(rt.Roles, ", ") + ".")
	}
	if rt.Platform {
		b.WriteString(" Solo un administrador de la plataforma (catálogo global).")
	}
	if rt.TargetTenant {
		b.WriteString(" El permiso se comprueba en la empresa del {id}.")
	}
	if rt.Rate != "" && rt.Rate != routes.RateGeneral {
		b.WriteString(" Límite de solicitudes: clase " + string(rt.Rate) + ".")
	}
	return b.String()
}

func operation(version string, rt routes.Route, f Fuentes) obj {
	op := obj{
		"operationId": operationID(version, rt.Name),
		"summary":     rt.Summary,
		"description": description(rt),
		"tags":        []any{rt.Group},
	}
	var params []any
	for _, p := range pathParams(rt.Path) {
		schema := obj{"type": "integer", "minimum": 1, "maximum": 9007199254740991}
		for _, c := range f.Parametros[rt.Name] {
			if c.Nombre == p {
				schema = c.Schema()
				delete(schema, "examples")
			}
		}
		params = append(params, obj{"name": p, "in": "path", "required": true, "schema": schema})
	}
	if !rt.Public {
		params = append(params, obj{"$ref": "#/components/parameters/EmpresaId"})
		if strings.HasSuffix(rt.Name, ".store") || strings.HasSuffix(rt.Name, ".pagos") || rt.Name == "hacienda.generar" {
			params = append(params, obj{"$ref": "#/components/parameters/IdempotencyKey"})
		}
		if condicional(version, rt, f) {
			params = append(params, obj{"$ref": "#/components/parameters/IfMatch"})
		}
	} else {
		op["security"] = []any{}
	}
	lista := f.Listas[rt.Name]
	if lista {
		params = append(params, obj{"$ref": "#/components/parameters/Page"}, obj{"$ref": "#/components/parameters/PerPage"})
		if !hasParam(f.Consultas[rt.Name], "order") {
			params = append(params, obj{"$ref": "#/components/parameters/Order"})
		}
	}
	for _, c := range f.Consultas[rt.Name] {
		s := c.Schema()
		delete(s, "examples")
		p := obj{"name": c.Nombre, "in": "query", "required": false, "schema": s}
		if c.Descripcion != "" {
			p["description"] = c.Descripcion
		}
		params = append(params, p)
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	cuerpo, hasBody := f.Cuerpos[rt.Name]
	if form, ok := f.Formularios[rt.Name]; ok {
		hasBody = true
		op["requestBody"] = obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": form}}}
	} else if hasBody {
		schema := cuerpo.Schema()
		media := obj{"schema": schema, "example": cuerpo.Ejemplo()}
		content := obj{"application/json": media}
		if version == "v2" && versioned(rt.Path) {
			content[MediaV2] = media
		}
		op["requestBody"] = obj{"required": true, "content": content}
	}
	op["responses"] = responses(version, rt, f, lista, hasBody)
	return op
}

// condicional: the route compares If-Match, which only v1 does (a v2
// representation carries links the version check does not write).
func condicional(version string, rt routes.Route, f Fuentes) bool {
	return version == "v1" && f.Condicionales[rt.Name]
}

func hasParam(cs []esquema.Campo, name string) bool {
	for _, c := range cs {
		if c.Nombre == name {
			return true
		}
	}
	return false
}

func operationID(version, name string) string {
	r := strings.NewReplacer(".", "_", "-", "_")
	id := r.Replace(name)
	if version == "v2" {
		id += "_v2"
	}
	return id
}

// successStatus is the status of a route's success answer.
func successStatus(rt routes.Route) []string {
	switch {
	case rt.Name == "hacienda.enviar" || rt.Name == "webhooks.reenviar":
		return []string{"202"}
	case rt.Name == "hacienda.generar":
		// 200 when the sale already has the comprobante.
		return []string{"201", "200"}
	case rt.Method == "POST" && (strings.HasSuffix(rt.Name, ".store") || strings.HasSuffix(rt.Name, ".pagos")):
		return []string{"201"}
	}
	return []string{"200"}
}

func content(version string, rt routes.Route, schema obj, example any) obj {
	media := obj{"schema": schema}
	if example != nil {
		media["example"] = example
	}
	c := obj{"application/json": media}
	if version == "v2" && versioned(rt.Path) {
		c[MediaV2] = media
	}
	return c
}

func withLinks(version string, rt routes.Route, s obj) obj {
	if version != "v2" || !versioned(rt.Path) {
		return s
	}
	return obj{"allOf": []any{s, obj{"type": "object", "properties": obj{"_links": ref("Links")}}}}
}

func responses(version string, rt routes.Route, f Fuentes, lista, hasBody bool) obj {
	out := obj{}
	data, ok := f.Datos[rt.Name]
	if !ok {
		data = obj{"type": "object", "additionalProperties": true}
	}
	data = withLinks(version, rt, data)
	var body obj
	var example any
	switch {
	case f.Respuestas[rt.Name] != nil:
		body = f.Respuestas[rt.Name]
	case lista:
		page := ref("Paginacion")
		if version == "v2" && versioned(rt.Path) {
			page = ref("PaginacionV2")
		}
		body = obj{"allOf": []any{page, obj{"type": "object", "properties": obj{"data": obj{"type": "array", "items": data}}}}}
		if ex, ok := f.Ejemplos[rt.Name]; ok {
			example = obj{"data": []any{ex}, "current_page": 1, "per_page": 15, "total": 1, "last_page": 1, "from": 1, "to": 1}
		}
	default:
		body = obj{"allOf": []any{ref("Respuesta"), obj{"type": "object", "properties": obj{"data": data}}}}
		if ex, ok := f.Ejemplos[rt.Name]; ok {
			example = obj{"success": true, "data": ex}
		}
	}
	estados := successStatus(rt)
	if e, ok := f.Estados[rt.Name]; ok {
		estados = e
	}
	for _, st := range estados {
		c := content(version, rt, body, example)
		if m := f.Medios[rt.Name]; m != "" {
			c = obj{}
			for _, media := range strings.Split(m, ",") {
				c[media] = obj{"schema": obj{"type": "string"}}
			}
		}
		if m := f.Descargas[rt.Name]; m != "" {
			for _, media := range strings.Split(m, ",") {
				c[media] = obj{"schema": obj{"type": "string", "format": "binary"}}
			}
		}
		out[st] = obj{"description": "Correcto.", "content": c}
	}
	if rt.Method == "GET" && !rt.NoETag {
		out["304"] = obj{"description": "No modificado (If-None-Match coincide con el ETag)."}
	}
	errs := []string{"400", "429", "503"}
	if !rt.Public {
		errs = append(errs, "401", "403", "404", "422")
	}
	if rt.Name == "ops.health" {
		// 503 is the health body itself (status "error"), not the error
		// envelope: the database did not answer.
		errs = []string{"400"}
		if sano, ok := out["200"].(obj); ok {
			out["503"] = obj{"description": "La base de datos no responde (status \"error\"); el cuerpo es el mismo.", "content": sano["content"]}
		}
	}
	if strings.HasPrefix(rt.Path, "/api/documentation") {
		errs = []string{"401", "403", "404", "422"}
	}
	if rt.Public && rt.Name != "ops.health" && !strings.HasPrefix(rt.Path, "/api/documentation") {
		errs = append(errs, "404", "422")
	}
	if lista || len(f.Consultas[rt.Name]) > 0 {
		errs = append(errs, "422")
	}
	if len(pathParams(rt.Path)) > 0 {
		errs = append(errs, "404")
	}
	if rt.Method != "GET" {
		errs = append(errs, "409")
	}
	if hasBody || rt.Method == "POST" || rt.Method == "PUT" || rt.Method == "PATCH" {
		errs = append(errs, "413", "415", "422")
	}
	if rt.Rate == routes.RateLogin {
		errs = append(errs, "401", "403")
	}
	if condicional(version, rt, f) {
		errs = append(errs, "412")
	}
	for _, st := range errs {
		out[st] = obj{"$ref": "#/components/responses/E" + st}
	}
	return out
}

func components(version string) obj {
	errorResp := func(desc string) obj {
		return obj{"description": desc, "content": obj{"application/json": obj{"schema": ref("Error")}}}
	}
	responses := obj{
		"E400": errorResp("Solicitud mal formada (JSON inválido, encabezado X-Empresa-Id inválido)."),
		"E401": errorResp("No autenticado: falta el token o no es válido."),
		"E403": errorResp("Sin permiso, usuario inactivo o empresa ajena o inactiva."),
		"E404": errorResp("No encontrado (el registro, la empresa indicada o la ruta)."),
		"E409": errorResp("Conflicto (estado del registro, Idempotency-Key en uso con otro cuerpo)."),
		"E412": errorResp("El registro cambió desde la versión que nombra If-Match; léalo de nuevo."),
		"E413": errorResp("Cuerpo demasiado grande."),
		"E415": errorResp("Content-Type no admitido (se espera application/json)."),
		"E422": errorResp("Error de validación: errors lista los mensajes por campo (detalles.0.cantidad)."),
		"E429": obj{"description": "Demasiadas solicitudes; Retry-After indica los segundos de espera.",
			"headers": obj{"Retry-After": obj{"schema": obj{"type": "integer"}}},
			"content": obj{"application/json": obj{"schema": ref("Error")}}},
		"E503": errorResp("Servicio no disponible temporalmente."),
	}
	schemas := obj{
		"Error": obj{
			"type": "object", "required": []any{"success", "message"},
			"properties": obj{
				"success":  obj{"const": false},
				"message":  obj{"type": "string"},
				"errors":   obj{"type": "object", "additionalProperties": obj{"type": "array", "items": obj{"type": "string"}}},
				"error":    obj{"type": "string", "description": "Detalle interno, solo con depuración activa."},
				"trace_id": obj{"type": "string"},
			},
			"example": obj{"success": false, "message": "Los datos proporcionados no son válidos.",
				"errors": obj{"detalles.0.cantidad": []any{"El campo cantidad debe ser mayor que 0."}}, "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"},
		},
		"Respuesta": obj{
			"type": "object", "required": []any{"success"},
			"properties": obj{
				"success": obj{"const": true},
				"message": obj{"type": "string"},
				"data":    obj{},
			},
		},
		"Paginacion": obj{
			"type": "object", "required": []any{"data", "current_page", "per_page", "total", "last_page", "from", "to"},
			"properties": obj{
				"data":         obj{"type": "array"},
				"current_page": obj{"type": "integer", "minimum": 1},
				"per_page":     obj{"type": "integer", "minimum": 1, "maximum": 100},
				"total":        obj{"type": "integer", "minimum": 0},
				"last_page":    obj{"type": "integer", "minimum": 1},
				"from":         obj{"type": []any{"integer", "null"}},
				"to":           obj{"type": []any{"integer", "null"}},
			},
		},
	}
	if version == "v2" {
		schemas["Enlace"] = obj{"type": "object", "required": []any{"href"}, "properties": obj{"href": obj{"type": "string"}}}
		schemas["Links"] = obj{
			"type": "object", "description": "Enlaces hipermedia (HATEOAS) de la versión 2.",
			"additionalProperties": obj{"anyOf": []any{ref("Enlace"), obj{"type": "null"},
				obj{"type": "object", "additionalProperties": ref("Enlace")}}},
			"properties": obj{"self": ref("Enlace")},
		}
		schemas["PaginacionV2"] = obj{"allOf": []any{ref("Paginacion"), obj{"type": "object", "properties": obj{"_links": obj{
			"type": "object", "additionalProperties": true,
			"properties": obj{
				"self": ref("Enlace"), "first": ref("Enlace"), "last": ref("Enlace"),
				"prev": obj{"anyOf": []any{ref("Enlace"), obj{"type": "null"}}},
				"next": obj{"anyOf": []any{ref("Enlace"), obj{"type": "null"}}},
			},
		}}}}}
	}
	return obj{
		"securitySchemes": obj{"bearer": obj{"type": "http", "scheme": "bearer",
			"description": "Token personal de POST /api/login: Authorization: Bearer <token>."}},
		"parameters": obj{
			"EmpresaId": obj{"name": "X-Empresa-Id", "in": "header", "required": false,
				"description": "Empresa activa (id). Necesario en localhost y hosts genéricos; un subdominio propio la infiere.",
				"schema":      obj{"type": "integer", "minimum": 1, "maximum": 9007199254740991}, "example": 1},
			"IdempotencyKey": obj{"name": "Idempotency-Key", "in": "header", "required": false,
				"description": "Repetir la misma clave con el mismo cuerpo devuelve la respuesta original sin crear otro registro.",
				"schema":      obj{"type": "string", "minLength": 1, "maxLength": 255}},
			"IfMatch": obj{"name": "If-Match", "in": "header", "required": false,
				"description": "ETag del GET del registro (o *): si el registro cambió desde entonces la escritura se rechaza con 412 y nada cambia.",
				"schema":      obj{"type": "string", "minLength": 1}},
			"Page": obj{"name": "page", "in": "query", "required": false,
				"schema": obj{"type": "integer", "minimum": 1, "maximum": 1000000, "default": 1}},
			"PerPage": obj{"name": "per_page", "in": "query", "required": false,
				"schema": obj{"type": "integer", "minimum": 1, "maximum": 100, "default": 15}},
			"Order": obj{"name": "order", "in": "query", "required": false,
				"schema": obj{"type": "string", "enum": []any{"asc", "desc"}}},
		},
		"responses": responses,
		"schemas":   schemas,
	}
}
