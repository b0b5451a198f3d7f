package gateway

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/routes"
)

// TestEncodeEventWritesWhatEncodingJSONWrites holds the hand encoder to
// encoding/json (HTML escaping off) on the events the gateway builds.
func TestEncodeEventWritesWhatEncodingJSONWrites(t *testing.T) {
	cases := []struct {
		method, target, body string
		headers              map[string]string
		authorizer           map[string]any
	}{
		{"GET", "/api/productos/5", "", nil, nil},
		{"GET", "/api/productos/5?search=caf%C3%A9&x=%00&y=<a>&", "", map[string]string{"Authorization": "Bearer 1|x", "X-Empresa-Id": "1", "Cookie": "a=1; b=2", "User-Agent": "go\u2028\"q\""},
			map[string]any{"empresa_id": "1", "permisos": "a,b", "roles": "administrador"}},
		{"POST", "/api/productos/5", `{"nombre":"Café <b>&</b>","x":"\u0001"}`, map[string]string{"Content-Type": "application/json"}, map[string]any{}},
		{"PUT", "/api/productos/5", "\xff\xfe binary", nil, map[string]any{"n": "\xff"}},
	}
	for _, c := range cases {
		ev := productEvent(t, c.method, c.target, c.body, c.headers, c.authorizer)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
		got, err := encodeEvent(&ev)
		if err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("%s %s:\nencoding/json %s\nencodeEvent   %s", c.method, c.target, w, got)
		}
	}
	// What the gateway never sends goes to encoding/json.
	ev := events.APIGatewayV2HTTPRequest{StageVariables: map[string]string{"a": "b"}}
	got, _ := encodeEvent(&ev)
	want, _ := json.Marshal(ev)
	if !bytes.Equal(got, want) {
		t.Errorf("fallback: %s != %s", got, want)
	}
}

// productEvent is the event the gateway builds for a request to
// /api/productos/5 (the route matched with GET whatever the method), with
// the authorizer's context when it is not nil.
func productEvent(tb testing.TB, method, target, body string, headers map[string]string, authorizer map[string]any) events.APIGatewayV2HTTPRequest {
	tb.Helper()
	route, params, ok := routes.Match("GET", "/api/productos/5")
	if !ok {
		tb.Fatal("no route")
	}
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	g := &Gateway{Stage: "$default"}
	ev := g.event(r, route, params, []byte(body), time.Unix(1795262400, 0))
	if authorizer != nil {
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: authorizer}
	}
	return ev
}

// BenchmarkEncodeEvent is the event of one GET with a client's headers
// and the authorizer's context, as the gateway writes it per request.
func BenchmarkEncodeEvent(b *testing.B) {
	ev := productEvent(b, "GET", "/api/productos/5?search=caf%C3%A9&per_page=15", "",
		map[string]string{"Authorization": "Bearer 1|x", "X-Empresa-Id": "1", "Accept": "application/json",
			"User-Agent": "Go-http-client/1.1", "Accept-Encoding": "gzip", "Cookie": "a=1; b=2"},
		map[string]any{"empresa_id": "1", "permisos": "a,b", "roles": "administrador", "usuario_id": "7"})
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		var err error
		if buf, err = appendEvent(buf[:0], &ev); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEncodeAuthorizerRequestReadsAsEncodingJSON holds the authorizer's
// request to what encoding/json writes, as the authorizer reads it back.
func TestEncodeAuthorizerRequestReadsAsEncodingJSON(t *testing.T) {
	for _, target := range []string{"/api/productos/5", "/api/productos/5?search=caf%C3%A9&y=<a>&"} {
		ev := productEvent(t, "GET", target, "", map[string]string{"Authorization": "Bearer 1|x", "Cookie": "a=1; b=2"}, nil)
		for _, mod := range []func(*events.APIGatewayV2CustomAuthorizerV2Request){
			func(*events.APIGatewayV2CustomAuthorizerV2Request) {},
			func(q *events.APIGatewayV2CustomAuthorizerV2Request) { q.Cookies, q.QueryStringParameters = nil, nil },
			func(q *events.APIGatewayV2CustomAuthorizerV2Request) {
				q.IdentitySource = []string{"$request.header.Authorization"}
			},
		} {
			req := events.APIGatewayV2CustomAuthorizerV2Request{Version: "2.0", Type: "REQUEST", RouteArn: "arn:x", RouteKey: ev.RouteKey,
				RawPath: ev.RawPath, RawQueryString: ev.RawQueryString, Cookies: ev.Cookies, Headers: ev.Headers,
				QueryStringParameters: ev.QueryStringParameters, RequestContext: ev.RequestContext, PathParameters: ev.PathParameters}
			mod(&req)
			got, err := encodeAuthorizerRequest(&req)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(req)
			var a, b any
			if err := json.Unmarshal(got, &a); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			_ = json.Unmarshal(want, &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s:\n got %s\nwant %s", target, got, want)
			}
		}
	}
}
