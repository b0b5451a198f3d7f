package lambdahttp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/routes"
)

// opsLambda is the ops group as its Lambda runs it, with a stub health
// (and stubs for its other routes, which these tests do not call).
func opsLambda(t *testing.T) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	t.Helper()
	hs := lambdahttp.Handlers{
		"ops.health": func(w http.ResponseWriter, r *http.Request) error {
			httpx.WriteJSON(w, http.StatusOK, map[string]string{"estado": "ok", "host": r.Host})
			return nil
		},
		"ops.not_found": lambdahttp.NotFound,
	}
	for _, rt := range routes.ByGroup("ops") {
		if hs[rt.Name] == nil {
			hs[rt.Name] = func(w http.ResponseWriter, r *http.Request) error { w.WriteHeader(http.StatusNoContent); return nil }
		}
	}
	h, err := lambdahttp.Mux("ops", hs, httpx.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return lambdahttp.Lambda(h)
}

// event is a well-formed API Gateway v2 event for method and path.
func event(method, path string) events.APIGatewayV2HTTPRequest {
	return events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: path,
		Headers: map[string]string{"host": "api.example.cr", "accept": "application/json", "x-trace-id": "traza-1"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			DomainName: "api.example.cr", Stage: "$default",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: path, Protocol: "HTTP/1.1", SourceIP: "203.0.113.9"},
		},
	}
}

type answer struct {
	status  int
	headers map[string]string
	body    map[string]any
}

func invoke(t *testing.T, fn func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error), ev events.APIGatewayV2HTTPRequest) answer {
	t.Helper()
	// Through JSON, as Lambda delivers it.
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var in events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	resp, err := fn(context.Background(), in)
	if err != nil {
		t.Fatalf("the invocation failed (API Gateway answers 500): %v", err)
	}
	a := answer{status: resp.StatusCode, headers: resp.Headers}
	if resp.Body != "" {
		_ = json.Unmarshal([]byte(resp.Body), &a.body)
	}
	return a
}

// Events no well-formed request could produce are a 400 in the envelope
// instead of a failed invocation (a bare 500 from API Gateway).
func TestMalformedEventsAre400NotFailedInvocations(t *testing.T) {
	t.Parallel()
	fn := opsLambda(t)
	cases := map[string]func(*events.APIGatewayV2HTTPRequest){
		"domainName %":         func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.DomainName = "%" },
		"domainName a%2":       func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.DomainName = "a%2" },
		"domainName a:b:c":     func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.DomainName = "a:b:c" },
		"domainName NUL":       func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.DomainName = "demo\x00.x" },
		"domainName space":     func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.DomainName = "a b" },
		"host header %00":      func(e *events.APIGatewayV2HTTPRequest) { e.Headers["host"] = "demo%00.x" },
		"header value NUL":     func(e *events.APIGatewayV2HTTPRequest) { e.Headers["x-empresa-id"] = "1\x00" },
		"header value CR":      func(e *events.APIGatewayV2HTTPRequest) { e.Headers["user-agent"] = "a\rb" },
		"header name space":    func(e *events.APIGatewayV2HTTPRequest) { e.Headers["mal nombre"] = "x" },
		"cookie NUL":           func(e *events.APIGatewayV2HTTPRequest) { e.Cookies = []string{"a=\x00"} },
		"path bad escape":      func(e *events.APIGatewayV2HTTPRequest) { e.RawPath = "/api/%zz" },
		"path control":         func(e *events.APIGatewayV2HTTPRequest) { e.RawPath = "/api/\x01" },
		"query control":        func(e *events.APIGatewayV2HTTPRequest) { e.RawQueryString = "search=a\x01b" },
		"query params control": func(e *events.APIGatewayV2HTTPRequest) { e.QueryStringParameters = map[string]string{"search": "\x01"} },
		"method":               func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.HTTP.Method = "GE T" },
		"empty method":         func(e *events.APIGatewayV2HTTPRequest) { e.RequestContext.HTTP.Method = "" },
		"base64 body":          func(e *events.APIGatewayV2HTTPRequest) { e.Body, e.IsBase64Encoded = "¡no es base64!", true },
	}
	for name, mutate := range cases {
		ev := event("GET", "/api/health")
		mutate(&ev)
		a := invoke(t, fn, ev)
		if a.status != http.StatusBadRequest || a.body["success"] != false || a.body["message"] == "" ||
			a.body["trace_id"] != a.headers["X-Trace-Id"] || a.headers["X-Trace-Id"] == "" {
			t.Errorf("%s: %d %v %v", name, a.status, a.headers, a.body)
		}
	}
	if a := invoke(t, fn, event("GET", "/api/health")); a.status != 200 || a.body["host"] != "api.example.cr" {
		t.Errorf("well-formed event: %d %v", a.status, a.body)
	}
	// Odd but harmless values pass: non-ASCII text, escapes (even of NUL
	// and of bytes that are not UTF-8: httpx cleans decoded text), IPv6.
	ev := event("GET", "/api/health%00")
	ev.RawQueryString = "search=%C3%B1and%C3%BA&x=%zz&y=a+b&z=%00%ff"
	ev.Headers["user-agent"] = "ñandú 🙂"
	ev.RequestContext.DomainName = "[2001:db8::1]"
	if a := invoke(t, fn, ev); a.status != 404 {
		t.Errorf("harmless oddities: %d %v", a.status, a.body)
	}
	ev.RawPath, ev.RequestContext.HTTP.Path = "/api/health", "/api/health"
	if a := invoke(t, fn, ev); a.status != 200 {
		t.Errorf("harmless oddities: %d %v", a.status, a.body)
	}
}

// The $default route's function answers 405 with Allow for a known path,
// 404 otherwise, and 204 to a CORS preflight should API Gateway route one
// to it.
func TestNotFoundKnowsTheRouteTable(t *testing.T) {
	t.Parallel()
	fn := opsLambda(t)
	a := invoke(t, fn, event("DELETE", "/api/login"))
	if a.status != 405 || a.headers["Allow"] != "POST" || !strings.Contains(a.body["message"].(string), "POST") {
		t.Errorf("DELETE /api/login: %d %v %v", a.status, a.headers, a.body)
	}
	a = invoke(t, fn, event("PUT", "/api/usuarios"))
	if a.status != 405 || a.headers["Allow"] != "GET, POST" {
		t.Errorf("PUT /api/usuarios: %d %v", a.status, a.headers)
	}
	if a = invoke(t, fn, event("GET", "/api/nada")); a.status != 404 || a.headers["Allow"] != "" {
		t.Errorf("GET /api/nada: %d %v", a.status, a.headers)
	}
	ev := event("OPTIONS", "/api/usuarios")
	ev.Headers["origin"] = "https://app.example.cr"
	ev.Headers["access-control-request-method"] = "POST"
	if a = invoke(t, fn, ev); a.status != 204 {
		t.Errorf("preflight: %d %v", a.status, a.body)
	}
}
