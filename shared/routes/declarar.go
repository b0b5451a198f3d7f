package routes

// Helpers for the domains' declarations (routes/<domain>.go): a route is
// data, so each file states its group, path prefix and permissions once and
// then lists one line per route with only what differs.

// permisos are a module's four permission slugs (SPEC.md: <module>.leer,
// .crear, .actualizar, .eliminar), each as the one-element list a Route
// takes.
type permisos struct{ leer, crear, actualizar, eliminar []string }

func permisosDe(module string) permisos {
	return permisos{
		leer:       []string{module + ".leer"},
		crear:      []string{module + ".crear"},
		actualizar: []string{module + ".actualizar"},
		eliminar:   []string{module + ".eliminar"},
	}
}

// grupo declares routes of one function group whose names and paths share
// a prefix ("hacienda." and "/api/v1/hacienda"; none and "/api").
type grupo struct {
	group string // the function group (Lambda) that serves the routes
	name  string // prefix of every route name
	path  string // prefix of every path
}

// route is one route of the group; name and path follow the prefixes.
func (g grupo) route(name, method, path string, perms []string, summary string) Route {
	return Route{Name: g.name + name, Method: method, Path: g.path + path, Group: g.group, Permissions: perms, Summary: summary}
}

// crud declares the five operations of one of the group's resources (CRUD).
func (g grupo) crud(resource, module string) []Route { return crud(g.group, resource, module) }

// conResumenes joins the routes of several resources (crud's) and gives
// each route the summary the map holds under its name.
func conResumenes(resumenes map[string]string, recursos ...[]Route) []Route {
	var rs []Route
	for _, r := range recursos {
		rs = append(rs, r...)
	}
	for i := range rs {
		rs[i].Summary = resumenes[rs[i].Name]
	}
	return rs
}

// The options a declaration sets on one route besides the usual fields.

// plataforma: only a platform administrator (a global catalog).
func (r Route) plataforma() Route { r.Platform = true; return r }

// limite: the route's own rate-limit class.
func (r Route) limite(c RateClass) Route { r.Rate = c; return r }

// descargas: the class also counted when the route answers a file.
func (r Route) descargas(c RateClass) Route { r.Descargas = c; return r }
