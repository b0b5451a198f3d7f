package gateway

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/routes"
)

// BenchmarkEncodeEvent is the event of one GET with a client's headers
// and the authorizer's context, as the gateway writes it per request.
func BenchmarkEncodeEvent(b *testing.B) {
	g := &Gateway{Stage: "$default"}
	route, params, ok := routes.Match("GET", "/api/productos/5")
	if !ok {
		b.Fatal("no route")
	}
	r := httptest.NewRequest("GET", "/api/productos/5?search=caf%C3%A9&per_page=15", nil)
	for k, v := range map[string]string{"Authorization": "Bearer 1|x", "X-Empresa-Id": "1", "Accept": "application/json",
		"User-Agent": "Go-http-client/1.1", "Accept-Encoding": "gzip", "Cookie": "a=1; b=2"} {
		r.Header.Set(k, v)
	}
	ev := g.event(r, route, params, nil, time.Unix(1795262400, 0))
	ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{
		Lambda: map[string]any{"empresa_id": "1", "permisos": "a,b", "roles": "administrador", "usuario_id": "7"}}
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		var err error
		if buf, err = appendEvent(buf[:0], &ev); err != nil {
			b.Fatal(err)
		}
	}
}
