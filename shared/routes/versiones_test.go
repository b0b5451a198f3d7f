package routes

import (
	"slices"
	"testing"
)

func TestVersionPrefixesMatchTheSameRoutes(t *testing.T) {
	cases := []struct {
		name, method, path string
		route, declared    string
	}{
		{"unversioned is v1", "GET", "/api/ventas/5", "ventas.show", "/api/ventas/5"},
		{"v1 prefix aliases", "GET", "/api/v1/ventas/5", "ventas.show", "/api/ventas/5"},
		{"v2 prefix aliases", "POST", "/api/v2/ventas", "ventas.store", "/api/ventas"},
		{"tax routes live under v1", "GET", "/api/v1/hacienda/7/estado", "hacienda.estado", "/api/v1/hacienda/7/estado"},
		{"tax routes in v2", "GET", "/api/v2/hacienda/7", "hacienda.show", "/api/v1/hacienda/7"},
		{"tax routes need a version", "GET", "/api/hacienda/7", "ops.not_found", "/api/hacienda/7"},
		{"unknown version is not a prefix", "GET", "/api/v3/ventas", "ops.not_found", "/api/v3/ventas"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _, ok := Match(c.method, c.path)
			if !ok || r.Name != c.route {
				t.Fatalf("Match = %s, %v; want %s", r.Name, ok, c.route)
			}
			if got := Declarada(c.method, c.path); got != c.declared {
				t.Fatalf("Declarada = %s; want %s", got, c.declared)
			}
		})
	}
	if got := Methods("/api/v2/ventas"); !slices.Equal(got, []string{"GET", "POST"}) {
		t.Fatalf("Methods(/api/v2/ventas) = %v", got)
	}
}

func TestEveryPrefixIsEitherAllPublicOrAllProtected(t *testing.T) {
	// A versioned alias route is declared per prefix, with or without the
	// authorizer: a prefix mixing both would expose or lock a route.
	for _, r := range All() {
		if r.Path == DefaultRoute {
			continue
		}
		for _, other := range All() {
			if other.Path != DefaultRoute && prefijo(r) == prefijo(other) && r.Public != other.Public {
				t.Fatalf("prefix %q mixes public %s and protected %s", prefijo(r), r.Name, other.Name)
			}
		}
	}
}

func prefijo(r Route) string {
	p := r.Canonica()[len("/api/"):]
	for i := range p {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return p
}
