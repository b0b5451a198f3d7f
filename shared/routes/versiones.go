package routes

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// API versions. Unversioned /api/... is v1; /api/v1/... aliases every
// route and /api/v2/... serves the same resources with hypermedia links
// (_links). The tax-authority routes are declared under /api/v1/ (SPEC.md
// "Versioning") and answer only with a version prefix.
const (
	V1 = 1
	V2 = 2
)

// MediaTypeV2 selects v2 on an unversioned path (Accept) and marks a v2
// answer (Content-Type).
const MediaTypeV2 = "application/vnd.erp.v2+json"

// Versionada splits a request path into its version prefix and the
// canonical path the route table matches: "/api/v2/ventas/5" is (2,
// "/api/ventas/5", true); "/api/ventas/5" is (1, "/api/ventas/5", false).
func Versionada(path string) (version int, canonical string, explicit bool) {
	for _, v := range []struct {
		prefix  string
		version int
	}{{"/api/v1/", V1}, {"/api/v2/", V2}} {
		if strings.HasPrefix(path, v.prefix) {
			return v.version, "/api/" + path[len(v.prefix):], true
		}
		if path == strings.TrimSuffix(v.prefix, "/") {
			return v.version, "/api", true
		}
	}
	return V1, path, false
}

// canonica is a declared path without its version prefix, and whether the
// route answers only with one (declared under /api/v1/).
func canonica(declared string) (string, bool) {
	if strings.HasPrefix(declared, "/api/v1/") {
		return "/api/" + declared[len("/api/v1/"):], true
	}
	return declared, false
}

// Canonica is a route's path as it is matched under any version prefix
// ("/api/v1/hacienda/{id}" -> "/api/hacienda/{id}").
func (r Route) Canonica() string {
	p, _ := canonica(r.Path)
	return p
}

// matchVersioned matches a declared path against a request path with or
// without a version prefix.
func matchVersioned(declared, path string) (map[string]string, int, bool) {
	_, p, explicit := Versionada(path)
	d, needsPrefix := canonica(declared)
	if needsPrefix && !explicit {
		return nil, 0, false
	}
	return matchPath(d, p)
}

// Declarada returns the concrete path a request path stands for in the
// route table's own spelling, which the function's mux routes on:
// "/api/v2/ventas/5" -> "/api/ventas/5", "/api/v2/hacienda/7" ->
// "/api/v1/hacienda/7". A path no route matches is returned as it came.
func Declarada(method, path string) string {
	r, _, ok := Match(method, path)
	if !ok || r.Path == DefaultRoute {
		return path
	}
	_, p, _ := Versionada(path)
	if _, needsPrefix := canonica(r.Path); needsPrefix {
		return "/api/v1/" + strings.TrimPrefix(p, "/api/")
	}
	return p
}

// Deprecacion is the retirement of a group's v1 answers: from Desde they
// carry Deprecation, and Sunset says when v1 stops answering (RFC 8594,
// RFC 9745), with a Link to the v2 successor.
type Deprecacion struct {
	Desde  time.Time
	Sunset time.Time
}

// deprecacionesV1 holds the deprecation of v1 per function group, declared
// with DeprecarV1 next to the group's routes. None is deprecated yet.
var (
	deprecacionesMu sync.RWMutex
	deprecacionesV1 = map[string]Deprecacion{}
)

// DeprecarV1 declares that group's v1 answers are deprecated from desde and
// retired at sunset.
func DeprecarV1(group string, desde, sunset time.Time) {
	deprecacionesMu.Lock()
	defer deprecacionesMu.Unlock()
	deprecacionesV1[group] = Deprecacion{Desde: desde.UTC(), Sunset: sunset.UTC()}
}

// DeprecacionV1 reports the v1 deprecation of a group, if declared.
func DeprecacionV1(group string) (Deprecacion, bool) {
	deprecacionesMu.RLock()
	defer deprecacionesMu.RUnlock()
	d, ok := deprecacionesV1[group]
	return d, ok
}

// AliasPrefixes are the first path segments under /api/ of every route
// ("ventas", "hacienda", ...), each with whether all of its routes are
// public: the template declares /api/v1/<prefix>/{proxy+} and
// /api/v2/<prefix>/{proxy+} for each, since one explicit route per version
// would pass API Gateway's 300-routes quota. A prefix several groups serve
// (/api/reportes: the reports group and tesoreria's budget report) belongs
// to the group with the most routes under it (ties: the first by name); the
// other groups' routes under it get exact aliases (AliasExactos).
func AliasPrefixes() map[string]map[string]bool {
	owners := prefixOwners()
	out := map[string]map[string]bool{} // group -> prefix -> public
	for _, r := range routesTable() {
		if r.Path == DefaultRoute {
			continue
		}
		seg := prefixOf(r)
		if owners[seg] != r.Group {
			continue
		}
		if out[r.Group] == nil {
			out[r.Group] = map[string]bool{}
		}
		pub, seen := out[r.Group][seg]
		out[r.Group][seg] = r.Public && (!seen || pub)
	}
	return out
}

// AliasExactos are the routes under a prefix another group owns
// (AliasPrefixes): each is reachable under /api/v1 and /api/v2 through an
// exact alias to its own group, which API Gateway prefers to the owner's
// greedy one.
func AliasExactos() []Route {
	owners := prefixOwners()
	var out []Route
	for _, r := range routesTable() {
		if r.Path != DefaultRoute && owners[prefixOf(r)] != r.Group {
			out = append(out, r)
		}
	}
	return out
}

// prefixOf is a route's first path segment under /api/.
func prefixOf(r Route) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(r.Canonica(), "/api/"), "/")
	return seg
}

// prefixOwners maps each first path segment to the group that owns its
// greedy aliases: the one with the most routes under it.
func prefixOwners() map[string]string {
	counts := map[string]map[string]int{}
	for _, r := range routesTable() {
		if r.Path == DefaultRoute {
			continue
		}
		seg := prefixOf(r)
		if counts[seg] == nil {
			counts[seg] = map[string]int{}
		}
		counts[seg][r.Group]++
	}
	owners := map[string]string{}
	for seg, byGroup := range counts {
		best, n := "", -1
		for g, c := range byGroup {
			if c > n || (c == n && g < best) {
				best, n = g, c
			}
		}
		owners[seg] = best
	}
	return owners
}

// Collections are the canonical paths of the resources with a show route
// (GET <collection>/{id}), sorted: the targets of v2 links.
func Collections() []string {
	var out []string
	for _, r := range routesTable() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/{id}") {
			out = append(out, strings.TrimSuffix(r.Canonica(), "/{id}"))
		}
	}
	sort.Strings(out)
	return out
}
