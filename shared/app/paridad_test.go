package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/testenv"
)

// paridadOrigen is a browser origin both paths allow (the CORS cases).
const paridadOrigen = "https://app.paridad.example.cr"

// caso is one request of the parity set: a sample event under events/, as
// API Gateway would hand it to group's function, with the changes that
// make it another request (method, path, token).
type caso struct {
	nombre, evento, grupo string
	status                int
	ajustar               func(ev *events.APIGatewayV2HTTPRequest, tokens map[string]string)
}

// TestTheLocalGatewayAnswersAsTheFunctionsDoWithTheSampleEvents is the
// parity of `make run` with AWS: the same requests, sent as HTTP through
// the local gateway and as the sample events under events/ straight to the
// functions' Lambda handlers (authorized, as API Gateway does, by invoking
// the authorizer's handler on them), give the same status, the same
// headers that matter and the same body (trace-free, timestamps and tokens
// aside). Each path has its own database cloned from the same seed, so
// creations get the same ids and the limiters the same counts.
func TestTheLocalGatewayAnswersAsTheFunctionsDoWithTheSampleEvents(t *testing.T) {
	conCORS := func(c *config.Config) { c.CORSOrigins = []string{paridadOrigen} }
	gw, ev := testenv.New(t, conCORS), testenv.New(t, conCORS)
	tokens := map[*testenv.Env]map[string]string{}
	for _, e := range []*testenv.Env{gw, ev} {
		_, secret, _ := auth.ParseToken(sampleToken)
		e.Exec(`insert into tokens_acceso (id, usuario_id, token_hash, expira_en) values (900001, 1, $1, now() + interval '1 hour')`, auth.HashSecret(secret))
		// A user of company 1 who may read users only: the 403 cases.
		tokens[e] = map[string]string{"sinVentas": e.UserWith(t, e.Admin(1), "paridad", "usuarios.leer")}
	}

	conToken := func(nombre string) func(*events.APIGatewayV2HTTPRequest, map[string]string) {
		return func(r *events.APIGatewayV2HTTPRequest, tk map[string]string) {
			r.Headers["authorization"] = "Bearer " + tk[nombre]
		}
	}
	casos := []caso{
		{"login", "auth/login.200.json", "auth", 200, nil},
		{"me", "auth/me.200.json", "auth", 200, nil},
		{"list", "ventas/index.200.json", "ventas", 200, nil},
		{"show", "empresas/show.200.json", "empresas", 200, nil},
		{"create", "clientes/store.201.json", "clientes", 201, nil},
		{"404 of a missing id", "ventas/show-missing.404.json", "ventas", 404, nil},
		{"422", "ventas/store-invalid.422.json", "ventas", 422, nil},
		{"403 without the permission", "ventas/index.200.json", "ventas", 403, conToken("sinVentas")},
		{"401 without a token", "auth/me.200.json", "auth", 401, func(r *events.APIGatewayV2HTTPRequest, _ map[string]string) {
			delete(r.Headers, "authorization")
		}},
		{"405 of a known path", "auth/me.200.json", "auth", 405, func(r *events.APIGatewayV2HTTPRequest, _ map[string]string) {
			r.RequestContext.HTTP.Method = http.MethodDelete
		}},
		{"unknown path ($default)", "ops/not-found.404.json", "ops", 404, nil},
		{"v2 with links", "ventas/index.200.json", "ventas", 200, func(r *events.APIGatewayV2HTTPRequest, _ map[string]string) {
			r.RawPath, r.RequestContext.HTTP.Path = "/api/v2/ventas", "/api/v2/ventas"
		}},
		{"cross-origin list", "usuarios/index.200.json", "usuarios", 200, func(r *events.APIGatewayV2HTTPRequest, _ map[string]string) {
			r.Headers["origin"] = paridadOrigen
		}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			// Each path gets its own copy with its own environment's tokens.
			porHTTP := cargarEvento(t, c.evento)
			porEvento := cargarEvento(t, c.evento)
			if c.ajustar != nil {
				c.ajustar(&porHTTP, tokens[gw])
				c.ajustar(&porEvento, tokens[ev])
			}
			a := pedirAlGateway(t, gw, porHTTP)
			b := invocarFuncion(t, ev, c.grupo, porEvento)
			if a.status != c.status || b.status != c.status {
				t.Fatalf("status: gateway %d, function %d, want %d\ngateway: %s\nfunction: %s", a.status, b.status, c.status, a.body, b.body)
			}
			compararRespuestas(t, a, b)
			if origin := porHTTP.Headers["origin"]; origin != "" {
				// API Gateway adds the CORS headers of the template's
				// configuration (routes.CORS) to the function's answer.
				if got := a.header.Get("Access-Control-Allow-Origin"); got != origin {
					t.Errorf("gateway Access-Control-Allow-Origin %q, want %q", got, origin)
				}
				if got, want := a.header.Get("Access-Control-Expose-Headers"), strings.Join(routes.CORS().ExposeHeaders, ","); got != want {
					t.Errorf("gateway Access-Control-Expose-Headers %q, want %q", got, want)
				}
				if !strings.Contains(a.header.Get("Vary"), "Origin") {
					t.Errorf("gateway Vary %q lacks Origin", a.header.Get("Vary"))
				}
			}
		})
	}

	// A preflight never reaches a function: API Gateway answers it from the
	// template's CORS configuration (routes.CORS and the allowed origins),
	// and so must the local gateway.
	t.Run("CORS preflight", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, gw.Server.URL+"/api/ventas", nil)
		req.Header.Set("Origin", paridadOrigen)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,x-empresa-id")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		p := routes.CORS()
		want := map[string]string{
			"Access-Control-Allow-Origin":  paridadOrigen,
			"Access-Control-Allow-Methods": strings.Join(p.AllowMethods, ","),
			"Access-Control-Allow-Headers": strings.Join(p.AllowHeaders, ","),
			"Access-Control-Max-Age":       strconv.Itoa(p.MaxAge),
		}
		if res.StatusCode != http.StatusNoContent {
			t.Errorf("preflight status %d, want 204", res.StatusCode)
		}
		for k, v := range want {
			if got := res.Header.Get(k); got != v {
				t.Errorf("preflight %s = %q, want %q", k, got, v)
			}
		}
	})
}

// respuesta is an answer as a client sees it.
type respuesta struct {
	status int
	header http.Header
	body   []byte
}

func cargarEvento(t *testing.T, file string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(muestra(t, file), &ev); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return ev
}

// pedirAlGateway sends the event's request over HTTP to the local gateway,
// with the event's headers, host and body.
func pedirAlGateway(t *testing.T, e *testenv.Env, ev events.APIGatewayV2HTTPRequest) respuesta {
	t.Helper()
	url := e.Server.URL + ev.RawPath
	if ev.RawQueryString != "" {
		url += "?" + ev.RawQueryString
	}
	req, err := http.NewRequest(ev.RequestContext.HTTP.Method, url, strings.NewReader(ev.Body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range ev.Headers {
		req.Header.Set(k, v)
	}
	req.Host = ev.Headers["host"]
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return respuesta{status: res.StatusCode, header: res.Header, body: body}
}

// invocarFuncion does what API Gateway does with the event: for a protected
// route, the authorizer's handler decides on it and its context replaces
// the one the sample carries; then the group's handler answers.
func invocarFuncion(t *testing.T, e *testenv.Env, grupo string, ev events.APIGatewayV2HTTPRequest) respuesta {
	t.Helper()
	ev.RequestContext.Authorizer = nil
	if !publica(ev.RequestContext.HTTP.Method, ev.RequestContext.HTTP.Path) {
		req := events.APIGatewayV2CustomAuthorizerV2Request{
			Version: "2.0", Type: "REQUEST", RouteKey: ev.RouteKey, RawPath: ev.RawPath, RawQueryString: ev.RawQueryString,
			Headers: ev.Headers, QueryStringParameters: ev.QueryStringParameters, RequestContext: ev.RequestContext,
			PathParameters: ev.PathParameters,
			RouteArn:       "arn:aws:execute-api:us-east-1:123456789012:" + ev.RequestContext.APIID + "/$default/" + ev.RequestContext.HTTP.Method + ev.RawPath,
		}
		var dec events.APIGatewayV2CustomAuthorizerSimpleResponse
		if err := json.Unmarshal(invocar(t, e.Deps.Authorizer(), req), &dec); err != nil {
			t.Fatal(err)
		}
		if !dec.IsAuthorized {
			return respuesta{status: http.StatusForbidden, header: http.Header{}, body: []byte(`{"message":"Forbidden"}`)}
		}
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: dec.Context}
	}
	resp := invocarGrupo(t, e, grupo, ev)
	header := http.Header{}
	for k, v := range resp.Headers {
		header.Set(k, v)
	}
	for k, vs := range resp.MultiValueHeaders {
		header.Del(k)
		for _, v := range vs {
			header.Add(k, v)
		}
	}
	return respuesta{status: resp.StatusCode, header: header, body: []byte(resp.Body)}
}

// publica tells whether API Gateway calls the function without the
// authorizer: its routes are ANY per path (template.yaml), so a path is
// protected when a route of any method on it is, and only a path no route
// matches falls to the public $default.
func publica(method, path string) bool {
	for _, m := range []string{method, "GET", "POST", "PUT", "PATCH", "DELETE"} {
		if r, _, ok := routes.Match(m, path); ok && r.Path != routes.DefaultRoute {
			return r.Public
		}
	}
	return true
}

// invocar runs a handler through aws-lambda-go, JSON in and JSON out, as
// the Lambda runtime does.
func invocar(t *testing.T, handler, payload any) []byte {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return invocarJSON(t, handler, raw)
}

// invocarGrupo runs the Lambda handler of an HTTP group on payload and
// decodes its answer.
func invocarGrupo(t *testing.T, e *testenv.Env, grupo string, payload any) events.APIGatewayV2HTTPResponse {
	t.Helper()
	h, err := e.Deps.LambdaHandler(grupo)
	if err != nil {
		t.Fatal(err)
	}
	var resp events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(invocar(t, h, payload), &resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

// invocarJSON runs handler on the JSON payload through aws-lambda-go and
// copies the answer (the handler reuses its buffer).
func invocarJSON(t *testing.T, handler any, payload []byte) []byte {
	t.Helper()
	out, err := lambda.NewHandler(handler).Invoke(context.Background(), payload)
	if err != nil {
		t.Fatalf("handler error: %v", err)
	}
	return append([]byte(nil), out...)
}

// cabecerasComparadas are the headers a client acts on. X-Response-Time
// (a duration) and X-RateLimit-Reset (a clock) are left out; the CORS
// headers are API Gateway's (checked apart).
var cabecerasComparadas = []string{
	"Content-Type", "ETag", "X-Trace-Id", "Location", "Allow", "Retry-After", "Cache-Control", "Vary",
	"X-RateLimit-Limit", "X-RateLimit-Remaining", "Deprecation", "Sunset", "Link", "Idempotent-Replayed", "Content-Disposition",
}

func compararRespuestas(t *testing.T, a, b respuesta) {
	t.Helper()
	for _, h := range cabecerasComparadas {
		ga, gb := a.header.Get(h), b.header.Get(h)
		switch h {
		case "ETag":
			// The tag hashes the body: equal bodies, equal tags; bodies
			// that differ in an instant (a last login) differ in tag.
			if !bytes.Equal(a.body, b.body) {
				continue
			}
		case "Vary":
			// API Gateway adds Origin for a cross-origin request.
			ga = strings.TrimSuffix(ga, ", Origin")
		}
		if ga != gb {
			t.Errorf("%s: gateway %q, function %q", h, ga, gb)
		}
	}
	na, nb := normalizar(t, a.body), normalizar(t, b.body)
	if !reflect.DeepEqual(na, nb) {
		ja, _ := json.Marshal(na)
		jb, _ := json.Marshal(nb)
		t.Errorf("bodies differ:\ngateway:  %s\nfunction: %s", ja, jb)
	}
}

// instante matches the timestamps and dates with a time of the API.
var instante = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}`)

// normalizar decodes a JSON body and blanks what legitimately differs
// between two runs: trace ids, tokens and instants.
func normalizar(t *testing.T, raw []byte) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("body is not JSON: %s", raw)
	}
	var walk func(key string, v any) any
	walk = func(key string, v any) any {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				x[k] = walk(k, x[k])
			}
			return x
		case []any:
			for i := range x {
				x[i] = walk(key, x[i])
			}
			return x
		case string:
			switch {
			case key == "trace_id" || key == "token":
				return "<" + key + ">"
			case instante.MatchString(x):
				return "<instante>"
			}
		}
		return v
	}
	return walk("", v)
}
