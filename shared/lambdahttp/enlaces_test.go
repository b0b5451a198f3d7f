package lambdahttp

import (
	"slices"
	"testing"

	"github.com/erpcr/erp/shared/routes"
)

func TestEveryRelationLinksToACollectionWithAShowRoute(t *testing.T) {
	cols := routes.Collections()
	for stem, target := range Relaciones {
		if !slices.Contains(cols, target) {
			t.Errorf("%s -> %s: no GET %s/{id} in the route table", stem, target, target)
		}
	}
}

func TestTheCollectionOfARouteIsWhatItAnswersWith(t *testing.T) {
	cases := []struct{ method, path, want string }{
		{"GET", "/api/ventas", "/api/ventas"},
		{"GET", "/api/ventas/5", "/api/ventas"},
		{"DELETE", "/api/ventas/5", "/api/ventas"},
		{"POST", "/api/v1/hacienda/5/firmar", "/api/hacienda"},
		{"GET", "/api/webhooks/5/entregas", "/api/webhooks/{id}/entregas"},
	}
	for _, c := range cases {
		rt, _, ok := routes.Match(c.method, c.path)
		if !ok {
			t.Fatalf("%s %s: no route", c.method, c.path)
		}
		if got := coleccionDe(rt); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.method, c.path, got, c.want)
		}
	}
}
