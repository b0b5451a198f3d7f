package lambdahttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/erpcr/erp/shared/routes"
)

// Relaciones maps the field stem of a reference ("cliente" for cliente_id
// or a nested "cliente" object) to the collection it points into; v2
// answers link each to its record. A test keeps every target a collection
// with a show route.
var Relaciones = map[string]string{
	"almacen":            "/api/almacenes",
	"almacen_destino":    "/api/almacenes",
	"almacen_origen":     "/api/almacenes",
	"asiento":            "/api/asientos-contables",
	"caja":               "/api/cajas",
	"categoria":          "/api/categorias-productos",
	"cliente":            "/api/clientes",
	"comprobante":        "/api/hacienda",
	"cuenta":             "/api/cuentas-contables",
	"cuenta_bancaria":    "/api/cuentas-bancarias",
	"cuenta_contable":    "/api/cuentas-contables",
	"cuenta_por_cobrar":  "/api/cuentas-por-cobrar",
	"cuenta_por_pagar":   "/api/cuentas-por-pagar",
	"empresa":            "/api/empresas",
	"forma_pago":         "/api/formas-pago",
	"marca":              "/api/marcas",
	"orden_compra":       "/api/ordenes-compra",
	"producto":           "/api/productos",
	"proveedor":          "/api/proveedores",
	"regimen_tributario": "/api/regimenes-tributarios",
	"rol":                "/api/roles",
	"sucursal":           "/api/sucursales",
	"tipo_impuesto":      "/api/tipos-impuesto",
	"unidad_medida":      "/api/unidades-medida",
	"usuario":            "/api/usuarios",
	"venta":              "/api/ventas",
	"venta_referencia":   "/api/ventas",
	"webhook":            "/api/webhooks",
}

// opacos are fields holding a recorded document (an outbox event's
// payload, an event's sample, the headers a webhook delivery sent): they
// are shown as they were recorded and delivered, so v2 adds no links
// inside them (a sample's links would point at records that do not exist).
var opacos = map[string]bool{"payload": true, "ejemplo": true, "solicitud_headers": true}

// indice is what links need from the route table: which collections have a
// show route, and the GET sub-resources of each record
// (/api/webhooks/{id}/entregas -> "entregas").
type indice struct {
	shows map[string]bool
	subs  map[string][]string
}

var (
	indiceOnce  sync.Once
	indiceRutas indice
)

func rutas() indice {
	indiceOnce.Do(func() {
		ix := indice{shows: map[string]bool{}, subs: map[string][]string{}}
		for _, r := range routes.All() {
			if r.Method != "GET" || r.Path == routes.DefaultRoute {
				continue
			}
			p := r.Canonica()
			if strings.HasSuffix(p, "/{id}") {
				ix.shows[strings.TrimSuffix(p, "/{id}")] = true
				continue
			}
			if i := strings.LastIndex(p, "/{id}/"); i > 0 && !strings.Contains(p[i+6:], "/") {
				ix.subs[p[:i]] = append(ix.subs[p[:i]], p[i+6:])
			}
		}
		for _, s := range ix.subs {
			sort.Strings(s)
		}
		indiceRutas = ix
	})
	return indiceRutas
}

// v2 is a canonical path under the v2 prefix.
func v2(p string) string { return "/api/v2" + strings.TrimPrefix(p, "/api") }

type enlace struct {
	Href string `json:"href"`
}

// conEnlaces adds _links to a JSON answer: every object of the collection
// col gets self and its sub-resources, every reference (x_id or a nested x
// object) a link to its record, and a page gets first/prev/next/last. It
// returns false when the body is not a JSON object.
func conEnlaces(body []byte, col string, r *http.Request) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // amounts and ids stay exact
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, false
	}
	ix := rutas()
	switch data := doc["data"].(type) {
	case map[string]any:
		enlazar(ix, data, col)
	case []any:
		for _, x := range data {
			if o, ok := x.(map[string]any); ok {
				enlazar(ix, o, col)
			}
		}
		if _, ok := doc["current_page"]; ok {
			doc["_links"] = paginas(doc, r)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, false
	}
	return out, true
}

// enlazar adds the links of one object of collection col ("" when it has
// no collection of its own: a sale's lines) and of the objects nested in it.
func enlazar(ix indice, o map[string]any, col string) {
	links := map[string]enlace{}
	if id, ok := idDe(o["id"]); ok && col != "" && ix.shows[col] {
		self := col + "/" + id
		links["self"] = enlace{v2(self)}
		for _, sub := range ix.subs[col] {
			links[sub] = enlace{v2(self + "/" + sub)}
		}
	}
	for k, v := range o {
		if opacos[k] {
			continue
		}
		if stem, ok := strings.CutSuffix(k, "_id"); ok {
			if target, ok := Relaciones[stem]; ok {
				if id, ok := idDe(v); ok {
					links[stem] = enlace{v2(target + "/" + id)}
				}
			}
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			enlazar(ix, x, Relaciones[k])
		case []any:
			for _, item := range x {
				if child, ok := item.(map[string]any); ok {
					enlazar(ix, child, Relaciones[strings.TrimSuffix(k, "s")])
				}
			}
		}
	}
	if len(links) > 0 {
		o["_links"] = links
	}
}

func idDe(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil && n > 0 {
			return strconv.FormatInt(n, 10), true
		}
	case string:
		if n, err := strconv.ParseInt(x, 10, 64); err == nil && n > 0 {
			return x, true
		}
	}
	return "", false
}

// paginas are the links of a page: self, first, last, and prev/next when
// they exist, on the v2 path with the request's other parameters.
func paginas(doc map[string]any, r *http.Request) map[string]enlace {
	current, _ := strconv.Atoi(fmt.Sprint(doc["current_page"]))
	last, _ := strconv.Atoi(fmt.Sprint(doc["last_page"]))
	if last < 1 {
		last = 1
	}
	_, canonical, _ := routes.Versionada(r.URL.Path)
	canonical = v2(canonical)
	page := func(n int) enlace {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		return enlace{(&url.URL{Path: canonical, RawQuery: q.Encode()}).String()}
	}
	out := map[string]enlace{"self": page(max(current, 1)), "first": page(1), "last": page(last)}
	if current > 1 {
		out["prev"] = page(min(current-1, last))
	}
	if current < last {
		out["next"] = page(current + 1)
	}
	return out
}
