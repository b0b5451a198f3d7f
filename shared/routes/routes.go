// Package routes is the single source of truth for every HTTP route of the API:
// method, path, the function group (Lambda) that serves it, the permissions it
// requires (any one of them suffices), its rate-limit class and whether it is
// public. The SAM template, the local gateway, the permission checks and the
// function muxes are all derived from this table.
package routes

import (
	"sort"
	"strings"
	"sync"
)

// RateClass names the limiter that applies to a route.
type RateClass string

// Rate-limit classes (SPEC.md "Limits": named limiters). Each is set per
// route here and tuned per environment with ERP_RATE_LIMIT_<CLASS>.
const (
	RateGeneral        RateClass = "general"         // 60/min per user and company
	RateLogin          RateClass = "login"           // 5 failures per 15 min (shared/sesiones)
	RateReports        RateClass = "reports"         // 5/h: PDF reports, ledger, trial balance, metrics
	RateExports        RateClass = "exports"         // 5/day
	RateImports        RateClass = "imports"         // 2/day
	RateHacienda       RateClass = "hacienda"        // 10/h per company: submissions to Hacienda
	RatePaymentProcess RateClass = "payment_process" // 3/h: marking payroll paid
	// RateNone is not limited: health, which monitors poll and which must
	// answer 503 (not a limiter error) when the database is down.
	RateNone RateClass = "none"
)

// DefaultRoute is the API Gateway catch-all route key; it is served by the
// ops group so that unknown paths get the same Spanish error envelope.
const DefaultRoute = "$default"

// Route is one entry of the route table.
type Route struct {
	// Name identifies the handler inside its group, e.g. "usuarios.index".
	Name string
	// Method is an HTTP method, or "ANY" for the catch-all.
	Method string
	// Path uses API Gateway syntax ("/api/usuarios/{id}"), which is also the
	// Go 1.22 ServeMux syntax for single-segment wildcards.
	Path string
	// Group is the function (Lambda) that serves the route.
	Group string
	// Permissions lists permission slugs; holding any one of them suffices.
	// Empty means any authenticated user of the tenant.
	Permissions []string
	// Roles, when set, additionally require one of these role slugs (the
	// event outbox is readable only by Administrador).
	Roles []string
	// Platform routes additionally require a platform administrator: changes
	// to the global catalogs every company shares.
	Platform bool
	// TargetTenant routes check Permissions in the company the path's {id}
	// names rather than in the active one, when the two differ (a company's
	// own update and delete: the caller may administer several companies).
	TargetTenant bool
	// Rate is the limiter class.
	Rate RateClass
	// Descargas is the class also counted when the request asks for a file
	// (?formato=csv|excel|pdf): a list exported, a report printed.
	Descargas RateClass
	// Public routes have no authorizer and need no token.
	Public bool
	// NoETag excludes the route from ETag/304 handling (health, metrics).
	NoETag bool
	// Summary is a short Spanish description, used in generated documents.
	Summary string
}

// Key returns the API Gateway route key, e.g. "GET /api/usuarios/{id}".
func (r Route) Key() string {
	if r.Path == DefaultRoute {
		return DefaultRoute
	}
	return r.Method + " " + r.Path
}

// Pattern returns the Go ServeMux pattern for the route ("" for $default).
func (r Route) Pattern() string {
	if r.Path == DefaultRoute {
		return ""
	}
	return r.Method + " " + r.Path
}

// crud declares the five operations of a resource (both PUT and PATCH),
// permissions <module>.leer, .crear, .actualizar and .eliminar.
func crud(group, resource, module string) []Route {
	g := grupo{group: group, name: resource, path: "/api/" + resource}
	p := permisosDe(module)
	return []Route{
		g.route(".index", "GET", "", p.leer, "Listar "+resource+" (formato=csv|excel exporta todas las filas filtradas; límite exports)").
			descargas(RateExports),
		g.route(".store", "POST", "", p.crear, "Crear en "+resource),
		g.route(".show", "GET", "/{id}", p.leer, "Ver un registro de "+resource),
		g.route(".update", "PUT", "/{id}", p.actualizar, "Actualizar un registro de "+resource),
		g.route(".patch", "PATCH", "/{id}", p.actualizar, "Actualizar parcialmente un registro de "+resource),
		g.route(".destroy", "DELETE", "/{id}", p.eliminar, "Eliminar (lógicamente) un registro de "+resource),
	}
}

// catalog declares a global catalog (shared by every company; SPEC.md
// documents no module for them): readable by every authenticated user,
// extended by users with product rights, and changed or deleted only by a
// platform administrator, since a change reaches every company.
func catalog(group, resource string) []Route {
	rs := crud(group, resource, "")
	for i := range rs {
		rs[i].Permissions = nil
		switch rs[i].Method {
		case "GET":
		case "POST":
			rs[i].Permissions = []string{"productos.crear", "productos.actualizar"}
		default:
			rs[i].Platform = true
		}
	}
	return rs
}

// readOnly declares a seeded catalog: list and show for every authenticated user.
func readOnly(group, resource, summary string) []Route {
	g := grupo{group: group, name: resource, path: "/api/" + resource}
	return []Route{g.route(".index", "GET", "", nil, "Listar "+summary), g.route(".show", "GET", "/{id}", nil, "Ver "+summary)}
}

// domains are route declarations of the later domains, each in its own file
// (routes/<domain>.go) through Register, so that adding a domain touches no
// shared list.
var (
	domains   []func() []Route
	tableOnce sync.Once
	table     []Route
)

// Register adds a domain's routes; call it from an init function.
func Register(fn func() []Route) { domains = append(domains, fn) }

func routesTable() []Route {
	tableOnce.Do(func() {
		table = build()
		for _, fn := range domains {
			for _, r := range fn() {
				if r.Rate == "" {
					r.Rate = RateGeneral
				}
				table = append(table, conDescargas(r))
			}
		}
	})
	return table
}

func build() []Route {
	var t []Route
	t = append(t,
		Route{Name: "auth.login", Method: "POST", Path: "/api/login", Group: "auth", Public: true, Rate: RateLogin, Summary: "Iniciar sesión"},
		Route{Name: "auth.register", Method: "POST", Path: "/api/register", Group: "auth", Public: true, Rate: RateLogin, Summary: "Registro público (deshabilitado)"},
		Route{Name: "auth.logout", Method: "POST", Path: "/api/logout", Group: "auth", Summary: "Cerrar sesión (revoca el token usado)"},
		Route{Name: "auth.me", Method: "GET", Path: "/api/me", Group: "auth", Summary: "Usuario autenticado con permisos"},
		Route{Name: "auth.user", Method: "GET", Path: "/api/user", Group: "auth", Summary: "Usuario autenticado"},
	)
	t = append(t, crud("usuarios", "usuarios", "usuarios")...)
	t = append(t, crud("usuarios", "roles", "roles")...)
	empresas := crud("empresas", "empresas", "empresas")
	for i := range empresas {
		if empresas[i].Method != "GET" && empresas[i].Method != "POST" {
			empresas[i].TargetTenant = true
		}
	}
	t = append(t, empresas...)
	t = append(t, crud("sucursales", "sucursales", "sucursales")...)
	t = append(t, crud("almacenes", "almacenes", "almacenes")...)
	t = append(t, crud("productos", "productos", "productos")...)
	t = append(t, crud("clientes", "clientes", "clientes")...)
	t = append(t, crud("proveedores", "proveedores", "proveedores")...)
	t = append(t, crud("catalogos", "categorias-productos", "categorias_producto")...)
	t = append(t, catalog("catalogos", "marcas")...)
	t = append(t, catalog("catalogos", "unidades-medida")...)
	t = append(t, readOnly("catalogos", "regimenes-tributarios", "regímenes tributarios")...)
	t = append(t, readOnly("catalogos", "tipos-impuesto", "tipos de impuesto (tarifas de IVA)")...)
	t = append(t, readOnly("catalogos", "formas-pago", "formas de pago")...)
	t = append(t, readOnly("catalogos", "tipos-identificacion", "tipos de identificación")...)
	t = append(t,
		Route{Name: "permisos.index", Method: "GET", Path: "/api/permisos", Group: "usuarios", Permissions: []string{"roles.leer", "usuarios.leer"}, Summary: "Catálogo de permisos"},
		Route{Name: "ops.health", Method: "GET", Path: "/api/health", Group: "ops", Public: true, NoETag: true, Rate: RateNone, Summary: "Estado del servicio"},
		Route{Name: "ops.not_found", Method: "ANY", Path: DefaultRoute, Group: "ops", Public: true, NoETag: true, Summary: "Ruta inexistente"},
	)
	for i := range t {
		if t[i].Rate == "" {
			t[i].Rate = RateGeneral
		}
		t[i] = conDescargas(t[i])
	}
	return t
}

// conDescargas: every list (GET *.index) can answer its rows as a file
// (?formato=csv|excel, handler.List), and a file counts in class exports.
func conDescargas(r Route) Route {
	if r.Descargas == "" && r.Method == "GET" && strings.HasSuffix(r.Name, ".index") {
		r.Descargas = RateExports
	}
	return r
}

// All returns a copy of the whole route table.
func All() []Route {
	t := routesTable()
	out := make([]Route, len(t))
	copy(out, t)
	return out
}

// ByGroup returns the routes served by one function group.
func ByGroup(group string) []Route {
	var out []Route
	for _, r := range routesTable() {
		if r.Group == group {
			out = append(out, r)
		}
	}
	return out
}

// Groups returns the sorted names of the HTTP function groups.
func Groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range routesTable() {
		if !seen[r.Group] {
			seen[r.Group] = true
			out = append(out, r.Group)
		}
	}
	sort.Strings(out)
	return out
}

// FunctionKind tells how a function is triggered.
type FunctionKind string

// Function kinds.
const (
	KindHTTP       FunctionKind = "http"
	KindAuthorizer FunctionKind = "authorizer"
	KindTask       FunctionKind = "task"     // invoked directly (deploy-time tasks)
	KindQueue      FunctionKind = "queue"    // SQS consumer (batch, partial-failure reporting)
	KindSchedule   FunctionKind = "schedule" // EventBridge scheduled rule target
)

// Function is one deployable Lambda.
type Function struct {
	Name string
	Kind FunctionKind
	// Queue is the queue a KindQueue function consumes (see Queues).
	Queue string
	// Schedule is the EventBridge expression of a KindSchedule function.
	Schedule string
}

// Queue is an SQS queue of the application: one consumer function, the
// functions that send to it (they get its URL in ERP_<NAME>_QUEUE_URL and
// permission to send), and a dead-letter queue for messages that keep
// failing.
type Queue struct {
	Name      string
	Consumer  string
	Producers []string
	// BatchSize is the consumer's batch size.
	BatchSize int
	// MaxReceiveCount is how many deliveries a message gets before it goes
	// to the dead-letter queue.
	MaxReceiveCount int
}

// Queues lists the application's queues. hacienda carries "look at
// comprobante N" wake-ups: submissions and the 30 s status polls; webhook
// carries "deliver N" wake-ups.
func Queues() []Queue {
	return []Queue{{
		Name: "hacienda", Consumer: "hacienda-worker", Producers: []string{"hacienda", "hacienda-worker", "scheduler"},
		BatchSize: 10, MaxReceiveCount: 5,
	}, {
		// "deliver webhook delivery N": the wake-up after the commit that
		// wrote an event (every group that records events), retries up to
		// 15 minutes away (the worker), the sweep (scheduler) and manual
		// redeliveries (webhooks).
		Name: "webhook", Consumer: "webhook-worker",
		Producers: []string{"clientes", "compras", "hacienda-worker", "inventario", "scheduler", "ventas", "webhook-worker", "webhooks"},
		BatchSize: 10, MaxReceiveCount: 5,
	}}
}

// Functions lists every deployable function: the HTTP groups of the route
// table plus the ones without routes (authorizer, migrate, the queue
// consumers and the scheduler).
func Functions() []Function {
	out := []Function{
		{Name: "authorizer", Kind: KindAuthorizer},
		{Name: "migrate", Kind: KindTask},
		// The sweep: due submissions and status polls whose message was lost.
		{Name: "scheduler", Kind: KindSchedule, Schedule: "rate(1 minute)"},
	}
	for _, q := range Queues() {
		out = append(out, Function{Name: q.Consumer, Kind: KindQueue, Queue: q.Name})
	}
	for _, g := range Groups() {
		out = append(out, Function{Name: g, Kind: KindHTTP})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Match finds the route for a method and a concrete path, using API Gateway's
// precedence: exact paths beat paths with variables; $default catches the rest.
// It returns the route and the path parameters.
func Match(method, path string) (Route, map[string]string, bool) {
	table := routesTable()
	var best *Route
	var bestParams map[string]string
	bestVars := -1
	for i := range table {
		r := &table[i]
		if r.Path == DefaultRoute || (r.Method != method && r.Method != "ANY") {
			continue
		}
		params, vars, ok := matchVersioned(r.Path, path)
		if !ok {
			continue
		}
		if best == nil || vars < bestVars {
			best, bestParams, bestVars = r, params, vars
		}
	}
	if best != nil {
		return *best, bestParams, true
	}
	for _, r := range table {
		if r.Path == DefaultRoute {
			return r, nil, true
		}
	}
	return Route{}, nil, false
}

func matchPath(pattern, path string) (map[string]string, int, bool) {
	// Segment by segment without splitting: Match tries every route of the
	// table on each request, and only the ones that match allocate.
	pattern, path = strings.Trim(pattern, "/"), strings.Trim(path, "/")
	if strings.Count(pattern, "/") != strings.Count(path, "/") {
		return nil, 0, false
	}
	vars := 0
	for p, x := pattern, path; ; {
		ps, prest, more := strings.Cut(p, "/")
		xs, xrest, _ := strings.Cut(x, "/")
		if strings.HasPrefix(ps, "{") && strings.HasSuffix(ps, "}") {
			if xs == "" {
				return nil, 0, false
			}
			vars++
		} else if ps != xs {
			return nil, 0, false
		}
		if !more {
			break
		}
		p, x = prest, xrest
	}
	params := make(map[string]string, vars)
	for p, x := pattern, path; vars > 0; {
		ps, prest, more := strings.Cut(p, "/")
		xs, xrest, _ := strings.Cut(x, "/")
		if strings.HasPrefix(ps, "{") && strings.HasSuffix(ps, "}") {
			params[ps[1:len(ps)-1]] = xs
		}
		if !more {
			break
		}
		p, x = prest, xrest
	}
	return params, vars, true
}
