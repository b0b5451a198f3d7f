package lambdahttp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/routes"
)

// adapterLambda is the event path before Handler (issue 17): aws-lambda-go
// decoding the event into events.APIGatewayV2HTTPRequest by reflection,
// aws-lambda-go-api-proxy's httpadapter building the request and the
// response struct, aws-lambda-go encoding it. Kept here as the benchmark's
// baseline.
func adapterLambda(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	adapter := httpadapter.NewV2(h)
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		clean, problem := checkEvent(ev)
		if problem != "" {
			ctx = context.WithValue(ctx, malformedKey{}, problem)
		}
		return adapter.ProxyWithContext(ctx, clean)
	}
}

// benchSetup is the ops group's mux whose health route answers a body the
// size and shape of a 15-product list page, and the sample event of the
// product list (authorizer context, real headers) aimed at that route.
func benchSetup(b *testing.B) (http.Handler, []byte, int) {
	var items []string
	for i := 1; i <= 15; i++ {
		items = append(items, fmt.Sprintf(`{"activo":true,"categoria":{"id":3,"nombre":"Bebidas \"frías\""},"codigo":"P-%04d","codigo_barras":"74400000%04d","costo":"1250.00","created_at":"2026-11-25T19:21:00.000000-06:00","descripcion":"Producto de prueba número %d, con tildes: cañón, pingüino","id":%d,"impuesto":"13.00","nombre":"Producto %d","precio":"1850.00","stock":"120.000","tipo":"producto","unidad":"Unid","updated_at":"2026-11-25T19:21:00.000000-06:00"}`, i, i, i, i, i))
	}
	page := []byte(`{"success":true,"data":[` + strings.Join(items, ",") + `],"meta":{"current_page":1,"per_page":15,"total":1000,"last_page":67}}`)
	hs := Handlers{
		"ops.health": func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "private, no-cache")
			_, err := w.Write(page)
			return err
		},
		"ops.not_found": NotFound,
	}
	for _, rt := range routes.ByGroup("ops") {
		if hs[rt.Name] == nil {
			hs[rt.Name] = func(w http.ResponseWriter, r *http.Request) error { w.WriteHeader(http.StatusNoContent); return nil }
		}
	}
	h, err := Mux("ops", hs, httpx.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile("../../events/productos/index.200.json")
	if err != nil {
		b.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		b.Fatal(err)
	}
	ev.RawPath, ev.RequestContext.HTTP.Path, ev.RouteKey = "/api/health", "/api/health", "GET /api/health"
	payload, err := json.Marshal(ev)
	if err != nil {
		b.Fatal(err)
	}
	return h, payload, len(page)
}

// BenchmarkInvoke is one invocation of a list-sized answer, raw event in,
// raw response out, as the Lambda runtime drives it: before (adapter) and
// after (Handler).
func BenchmarkInvoke(b *testing.B) {
	h, payload, size := benchSetup(b)
	for _, c := range []struct {
		name string
		h    lambda.Handler
	}{
		{"adapter", lambda.NewHandler(adapterLambda(h))},
		{"handler", lambda.NewHandler(NewHandler(h))},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				out, err := c.h.Invoke(ctx, payload)
				if err != nil || len(out) < size {
					b.Fatalf("%v %d", err, len(out))
				}
			}
		})
	}
}
