// Package gateway is the local stand-in for API Gateway (HTTP API, payload
// 2.0). It turns each HTTP request into a real API Gateway v2 event, runs the
// authorizer's Lambda handler on it as API Gateway would (REQUEST authorizer,
// simple responses), puts the authorizer's context into the event, and
// invokes the route group's Lambda handler through the aws-lambda-go handler
// machinery (JSON in, JSON out) — the same code path as production, with no
// Docker. make run and the end-to-end tests use it.
package gateway

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/routes"
)

// API Gateway's HTTP API quotas the gateway enforces: the request payload
// (10 MB) and the combined size of the request line and header values
// (10240 bytes).
const (
	maxPayload     = 10 << 20
	maxHeaderBytes = 10240
)

// Gateway routes requests to Lambda handlers by the route table.
type Gateway struct {
	Authorizer *Function
	Groups     map[string]*Function
	Log        *slog.Logger
	// Stage is the stage name put in events ("$default").
	Stage string
	// CORS is the HTTP API's CorsConfiguration; nil means none (no
	// preflight answers, no CORS headers). New sets it for the local
	// front-end origins (config.DefaultCORSOrigins).
	CORS *CORS
}

// Function is one Lambda function as the gateway invokes it. Like Lambda,
// which gives each execution environment one request at a time, every
// concurrent request gets its own handler instance: aws-lambda-go's handler
// hands back bytes that alias a buffer it reuses on the next invoke.
//
// A raw handler (a lambda.Handler such as lambdahttp.Handler, which returns
// a private payload and may run concurrently) is invoked directly.
type Function struct {
	pool sync.Pool
	raw  lambda.Handler
}

// NewFunction wraps a handler: a lambda.Handler, or any typed signature
// lambda.NewHandler accepts.
func NewFunction(handler any) *Function {
	if h, ok := handler.(lambda.Handler); ok {
		return &Function{raw: h}
	}
	return &Function{pool: sync.Pool{New: func() any { return lambda.NewHandler(handler) }}}
}

// Invoke runs one request through its own handler instance and returns a
// private copy of the response payload.
func (f *Function) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	if f.raw != nil {
		return f.raw.Invoke(ctx, payload)
	}
	h := f.pool.Get().(lambda.Handler)
	defer f.pool.Put(h)
	out, err := h.Invoke(ctx, payload)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), out...), nil
}

// invokerWith is a raw handler that lends its response instead of copying
// it (lambdahttp.Handler).
type invokerWith interface {
	InvokeWith(ctx context.Context, payload []byte, use func(out []byte) error) error
}

// invokeWith runs one request and hands the response payload to use, which
// must not keep it: without a copy when the handler can lend it.
func (f *Function) invokeWith(ctx context.Context, payload []byte, use func(out []byte) error) error {
	if h, ok := f.raw.(invokerWith); ok {
		return h.InvokeWith(ctx, payload, use)
	}
	out, err := f.Invoke(ctx, payload)
	if err != nil {
		return err
	}
	return use(out)
}

// bodies hold the decoded body of a response while it is written, and
// payloads an event while a function reads it (a handler keeps nothing of
// its payload once it returns: it decodes copies).
var (
	bodies   = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}
	payloads = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}
)

// putBuffer puts a buffer back in its pool unless it grew large.
func putBuffer(p *sync.Pool, bp *[]byte, b []byte) {
	if cap(b) <= maxPooledBody {
		*bp = b[:0]
		p.Put(bp)
	}
}

// maxPooledBody keeps a buffer that held a large body (a file) out of the
// pool.
const maxPooledBody = 1 << 20

// errDecode marks a response payload that is not one.
var errDecode = errors.New("gateway: the function's response is not an API Gateway response")

// call invokes fn and decodes its response; the body is appended to body
// (returned) and resp.Body views it.
func call(ctx context.Context, fn *Function, payload, body []byte) (events.APIGatewayV2HTTPResponse, []byte, error) {
	var resp events.APIGatewayV2HTTPResponse
	err := fn.invokeWith(ctx, payload, func(out []byte) error {
		var err error
		if resp, body, err = lambdahttp.DecodeResponse(out, body); err != nil {
			return fmt.Errorf("%w: %w", errDecode, err)
		}
		return nil
	})
	if err != nil {
		return resp, body, err
	}
	resp.Body = unsafe.String(unsafe.SliceData(body), len(body))
	return resp, body, nil
}

// New builds a gateway from typed handlers.
func New(authorizer any, groups map[string]any, log *slog.Logger) *Gateway {
	origins, _ := config.ParseOrigins(config.DefaultCORSOrigins)
	g := &Gateway{Authorizer: NewFunction(authorizer), Groups: map[string]*Function{}, Log: log, Stage: "$default", CORS: NewCORS(origins)}
	for name, h := range groups {
		g.Groups[name] = NewFunction(h)
	}
	return g
}

func (g *Gateway) log() *slog.Logger {
	if g.Log != nil {
		return g.Log
	}
	return slog.Default()
}

// plain writes a gateway-level answer; API Gateway's own bodies are English
// {"message": ...}, and so are these, because they are its and not ours.
func plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"message":%q}`, msg)
}

// ServeHTTP handles one request as API Gateway would: its quotas first,
// then CORS (a preflight is answered here for any path; every other answer
// gets the configured CORS headers instead of the integration's), then the
// route (a method or path no route serves goes to the $default route, whose
// function answers 404 or 405), the authorizer and the function.
//
// The Host header and the other request fields are copied into the event
// as the client sent them: the function's adapter (lambdahttp) answers 400
// to what it cannot use, as it must in AWS too.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if headerBytes(r) > maxHeaderBytes {
		plain(w, http.StatusRequestHeaderFieldsTooLarge, "Request Header Fields Too Large")
		return
	}
	if g.CORS != nil {
		if g.CORS.preflight(w, r) {
			return
		}
		w = &corsWriter{ResponseWriter: w, cors: g.CORS, origin: r.Header.Get("Origin")}
	}
	if r.ContentLength > maxPayload {
		plain(w, http.StatusRequestEntityTooLarge, "Request Entity Too Large")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPayload+1))
	if err != nil {
		// A client too slow to send its body within the server's
		// ReadTimeout (see NewServer) is told so; the connection closes.
		if errors.Is(err, os.ErrDeadlineExceeded) {
			plain(w, http.StatusRequestTimeout, "Request Timeout")
			return
		}
		plain(w, http.StatusBadRequest, "Bad Request")
		return
	}
	if len(body) > maxPayload {
		plain(w, http.StatusRequestEntityTooLarge, "Request Entity Too Large")
		return
	}
	route, params, ok := routes.Match(r.Method, r.URL.Path)
	if !ok {
		plain(w, http.StatusNotFound, "Not Found")
		return
	}
	handler, ok := g.Groups[route.Group]
	if !ok {
		plain(w, http.StatusNotFound, "Not Found")
		return
	}
	ev := g.event(r, route, params, body, start)
	if !route.Public {
		authCtx, status := g.authorize(r.Context(), ev)
		if status != 0 {
			if status == http.StatusForbidden {
				plain(w, status, "Forbidden")
			} else {
				plain(w, status, "Internal Server Error")
			}
			return
		}
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: authCtx}
	}
	pp := payloads.Get().(*[]byte)
	payload, err := appendEvent((*pp)[:0], &ev)
	if err != nil {
		plain(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	bp := bodies.Get().(*[]byte)
	resp, buf, err := call(r.Context(), handler, payload, (*bp)[:0])
	putBuffer(&payloads, pp, payload)
	// resp.Body views buf: back to the pool once written.
	defer putBuffer(&bodies, bp, buf)
	if errors.Is(err, errDecode) {
		plain(w, http.StatusBadGateway, "Bad Gateway")
		return
	}
	if err != nil {
		g.log().Error("gateway: function error", "group", route.Group, "error", err.Error())
		plain(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	g.respond(w, r, route, handler, ev, resp)
}

// authorize runs the authorizer as API Gateway does: an error or a denial
// ends the request; otherwise its context goes into the event.
func (g *Gateway) authorize(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (map[string]any, int) {
	req := events.APIGatewayV2CustomAuthorizerV2Request{
		Version:               "2.0",
		Type:                  "REQUEST",
		RouteArn:              "arn:aws:execute-api:local:000000000000:local/" + g.Stage + "/" + ev.RequestContext.HTTP.Method + ev.RawPath,
		RouteKey:              ev.RouteKey,
		RawPath:               ev.RawPath,
		RawQueryString:        ev.RawQueryString,
		Cookies:               ev.Cookies,
		Headers:               ev.Headers,
		QueryStringParameters: ev.QueryStringParameters,
		RequestContext:        ev.RequestContext,
		PathParameters:        ev.PathParameters,
		StageVariables:        ev.StageVariables,
	}
	pp := payloads.Get().(*[]byte)
	payload, err := appendAuthorizerRequest((*pp)[:0], &req)
	if err != nil {
		return nil, http.StatusInternalServerError
	}
	out, err := g.Authorizer.Invoke(ctx, payload)
	putBuffer(&payloads, pp, payload)
	if err != nil {
		g.log().Error("gateway: authorizer error", "error", err.Error())
		return nil, http.StatusInternalServerError
	}
	resp, err := lambdahttp.DecodeAuthorizerResponse(out)
	if err != nil {
		return nil, http.StatusInternalServerError
	}
	if !resp.IsAuthorized {
		return nil, http.StatusForbidden
	}
	return resp.Context, 0
}

// event builds the API Gateway v2 request event for r.
func (g *Gateway) event(r *http.Request, route routes.Route, params map[string]string, body []byte, now time.Time) events.APIGatewayV2HTTPRequest {
	headers := map[string]string{}
	var cookies []string
	for _, k := range slices.Sorted(maps.Keys(r.Header)) {
		lk := strings.ToLower(k)
		if lk == "cookie" {
			for _, c := range r.Header.Values(k) {
				for _, part := range strings.Split(c, ";") {
					if p := strings.TrimSpace(part); p != "" {
						cookies = append(cookies, p)
					}
				}
			}
			continue
		}
		headers[lk] = strings.Join(r.Header.Values(k), ",")
	}
	if r.Host != "" {
		headers["host"] = r.Host
	}
	var query map[string]string
	if r.URL.RawQuery != "" {
		query = map[string]string{}
		for k, vs := range r.URL.Query() {
			query[k] = strings.Join(vs, ",")
		}
	}
	ip := r.RemoteAddr
	if h, _, err := net.SplitHostPort(ip); err == nil {
		ip = h
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
		if strings.Contains(h, ":") {
			host = "[" + h + "]" // an IPv6 literal stays one
		}
	}
	ev := events.APIGatewayV2HTTPRequest{
		Version:               "2.0",
		RouteKey:              route.Key(),
		RawPath:               r.URL.EscapedPath(),
		RawQueryString:        r.URL.RawQuery,
		Cookies:               cookies,
		Headers:               headers,
		QueryStringParameters: query,
		PathParameters:        params,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			AccountID:    "000000000000",
			APIID:        "local",
			DomainName:   host,
			DomainPrefix: strings.Split(host, ".")[0],
			RequestID:    fmt.Sprintf("local-%d", now.UnixNano()),
			RouteKey:     route.Key(),
			Stage:        g.Stage,
			Time:         now.UTC().Format("02/Jan/2006:15:04:05 -0700"),
			TimeEpoch:    now.UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method:    r.Method,
				Path:      r.URL.Path,
				Protocol:  r.Proto,
				SourceIP:  ip,
				UserAgent: r.UserAgent(),
			},
		},
	}
	if len(body) > 0 {
		if utf8.Valid(body) {
			ev.Body = string(body)
		} else {
			ev.Body = base64.StdEncoding.EncodeToString(body)
			ev.IsBase64Encoded = true
		}
	}
	return ev
}

// headerBytes is the size API Gateway's header quota counts: the request
// line and the header values (Host included).
func headerBytes(r *http.Request) int {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + len(r.Host)
	for _, vs := range r.Header {
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}

func writeResponse(w http.ResponseWriter, resp events.APIGatewayV2HTTPResponse) {
	h := w.Header()
	for k, v := range resp.Headers {
		h.Set(k, v)
	}
	for k, vs := range resp.MultiValueHeaders {
		h.Del(k)
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	for _, c := range resp.Cookies {
		h.Add("Set-Cookie", c)
	}
	status := resp.StatusCode
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if status == http.StatusNotModified || status == http.StatusNoContent {
		return
	}
	if resp.IsBase64Encoded {
		if b, err := base64.StdEncoding.DecodeString(resp.Body); err == nil {
			_, _ = w.Write(b)
			return
		}
	}
	// The body's bytes as they are (a Writer does not change what it is
	// given): no copy.
	_, _ = w.Write(unsafe.Slice(unsafe.StringData(resp.Body), len(resp.Body)))
}
