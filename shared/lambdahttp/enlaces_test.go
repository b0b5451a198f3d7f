package lambdahttp

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
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

// v2 links the API's records, never the inside of a recorded document: an
// outbox event's payload and an event's sample stay as delivered.
func TestRecordedDocumentsGetNoLinks(t *testing.T) {
	body := []byte(`{"data":[{"id":"e1","empresa_id":1,"payload":{"id":7,"cliente_id":3,"detalles":[{"producto_id":2}]}},
		{"nombre":"VentaCreadaEvent","ejemplo":{"id":1,"cliente_id":1}},
		{"id":4,"entrega_id":9,"solicitud_headers":{"webhook_id":"5"}}],"current_page":1,"last_page":1}`)
	r, _ := http.NewRequest("GET", "/api/v2/eventos", nil)
	out, ok := conEnlaces(body, "/api/eventos", r)
	if !ok {
		t.Fatal("not linked")
	}
	var doc struct {
		Data []map[string]json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	for i, k := range []string{"payload", "ejemplo", "solicitud_headers"} {
		if strings.Contains(string(doc.Data[i][k]), "_links") {
			t.Errorf("%s got links: %s", k, out)
		}
	}
	if !strings.Contains(string(out), `"empresa":{"href":"/api/v2/empresas/1"}`) {
		t.Errorf("the event itself lost its links: %s", out)
	}
	if strings.Contains(string(out), "/api/v2/productos/2") || strings.Contains(string(out), "/api/v2/clientes/") {
		t.Errorf("a link inside a recorded document: %s", out)
	}
}
