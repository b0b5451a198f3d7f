package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/httpx"
)

// Handler runs an http.Handler built by Mux as a Lambda function of an
// HTTP API (payload 2.0). It is a lambda.Handler: the runtime (and the
// local gateway) hands it the raw event and gets the raw response back, so
// neither aws-lambda-go's reflective JSON nor an adapter's intermediate
// structs stand between the event and the mux. The event is decoded into
// only the fields a request needs; the response is written by hand (keys
// and escapes as encoding/json writes them), its body base64-encoded only
// when it is not UTF-8 (files).
//
// A malformed event is answered 400 as before (see checkEvent); a payload
// that is not JSON fails the invocation, as aws-lambda-go's decoder did.
type Handler struct {
	h http.Handler
}

// NewHandler wraps a group's mux.
func NewHandler(h http.Handler) *Handler { return &Handler{h: h} }

// Lambda adapts an http.Handler built by Mux to the typed API Gateway v2
// handler signature, through the same code as Handler (JSON in and out);
// tests and tools that hold events as structs use it.
func Lambda(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	hd := NewHandler(h)
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		var resp events.APIGatewayV2HTTPResponse
		payload, err := json.Marshal(ev)
		if err != nil {
			return resp, fmt.Errorf("lambdahttp: encoding the event: %w", err)
		}
		out, err := hd.Invoke(ctx, payload)
		if err != nil {
			return events.APIGatewayV2HTTPResponse{StatusCode: http.StatusGatewayTimeout}, err
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			return resp, fmt.Errorf("lambdahttp: decoding the response: %w", err)
		}
		return resp, nil
	}
}

// v2Event is the part of an API Gateway v2 event the function reads.
type v2Event struct {
	Version               string            `json:"version"`
	RouteKey              string            `json:"routeKey"`
	RawPath               string            `json:"rawPath"`
	RawQueryString        string            `json:"rawQueryString"`
	Cookies               []string          `json:"cookies"`
	Headers               map[string]string `json:"headers"`
	QueryStringParameters map[string]string `json:"queryStringParameters"`
	RequestContext        struct {
		DomainName string `json:"domainName"`
		Authorizer *struct {
			Lambda map[string]any `json:"lambda"`
		} `json:"authorizer"`
		HTTP struct {
			Method   string `json:"method"`
			Path     string `json:"path"`
			SourceIP string `json:"sourceIp"`
		} `json:"http"`
	} `json:"requestContext"`
	Body            string `json:"body"`
	IsBase64Encoded bool   `json:"isBase64Encoded"`
}

// request turns the decoded fields into the events struct checkEvent
// and skeleton work on (maps and slices are shared, not copied).
func (e *v2Event) request() events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version: e.Version, RouteKey: e.RouteKey, RawPath: e.RawPath, RawQueryString: e.RawQueryString,
		Cookies: e.Cookies, Headers: e.Headers, QueryStringParameters: e.QueryStringParameters,
		Body: e.Body, IsBase64Encoded: e.IsBase64Encoded,
	}
	ev.RequestContext.DomainName = e.RequestContext.DomainName
	ev.RequestContext.HTTP.Method = e.RequestContext.HTTP.Method
	ev.RequestContext.HTTP.Path = e.RequestContext.HTTP.Path
	ev.RequestContext.HTTP.SourceIP = e.RequestContext.HTTP.SourceIP
	if a := e.RequestContext.Authorizer; a != nil {
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: a.Lambda}
	}
	return ev
}

// gatewayKey holds, in a request's context, what API Gateway said about
// the request beyond HTTP: the authorizer's context and the caller's
// address. Only Handler sets it.
type gatewayKey struct{}

type gatewayInfo struct {
	authorizer map[string]any
	sourceIP   string
}

func gatewayFrom(ctx context.Context) (gatewayInfo, bool) {
	g, ok := ctx.Value(gatewayKey{}).(gatewayInfo)
	return g, ok
}

// Invoke handles one raw API Gateway v2 event.
func (hd *Handler) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	var out []byte
	err := hd.InvokeWith(ctx, payload, func(b []byte) error {
		out = append(make([]byte, 0, len(b)), b...)
		return nil
	})
	return out, err
}

// InvokeWith is Invoke handing the response to use instead of returning a
// copy of it: the bytes are the handler's buffer, valid only during the
// call (the local gateway reads them there).
func (hd *Handler) InvokeWith(ctx context.Context, payload []byte, use func(out []byte) error) error {
	var e v2Event
	if err := decodeEvent(payload, &e); err != nil {
		return fmt.Errorf("lambdahttp: decoding the event: %w", err)
	}
	ev := e.request()
	clean, problem := checkEvent(ev)
	if problem != "" {
		ctx = context.WithValue(ctx, malformedKey{}, problem)
	}
	w, err := hd.serve(ctx, clean)
	if err != nil && problem == "" {
		// Something checkEvent does not foresee: still a 400, not a 500.
		w, err = hd.serve(context.WithValue(ctx, malformedKey{}, msgMalformed), skeleton(ev))
	}
	if err != nil {
		return err
	}
	defer w.release()
	return use(w.encode())
}

// serve runs the mux on the request the event describes and returns the
// writer holding the answer (the caller releases it).
func (hd *Handler) serve(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*writer, error) {
	var info gatewayInfo
	if a := ev.RequestContext.Authorizer; a != nil {
		info.authorizer = a.Lambda
	}
	info.sourceIP = ev.RequestContext.HTTP.SourceIP
	r, err := toRequest(context.WithValue(ctx, gatewayKey{}, info), ev)
	if err != nil {
		return nil, fmt.Errorf("lambdahttp: could not convert the event to a request: %w", err)
	}
	w := writers.Get().(*writer)
	hd.h.ServeHTTP(w, r)
	if w.status == statusUnset {
		w.release()
		return nil, errors.New("lambdahttp: status code not set on response")
	}
	return w, nil
}

// toRequest builds the http.Request as aws-lambda-go-api-proxy's
// RequestAccessorV2 did, which the behaviour (and the tests) rest on: URL
// from the domain name, raw path and raw query (or the decoded
// parameters), the cookies as Cookie headers, a header's comma-separated
// values split unless HTTP allows it only once.
func toRequest(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(ev.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	server := "https://" + ev.RequestContext.DomainName
	if custom, ok := os.LookupEnv("GO_API_HOST"); ok {
		server = custom
	}
	u := server + path
	if ev.RawQueryString != "" {
		u += "?" + ev.RawQueryString
	} else if len(ev.QueryStringParameters) > 0 {
		values := url.Values{}
		for k, v := range ev.QueryStringParameters {
			values.Add(k, v)
		}
		u += "?" + values.Encode()
	}
	r, err := http.NewRequestWithContext(ctx, strings.ToUpper(ev.RequestContext.HTTP.Method), u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.RemoteAddr = ev.RequestContext.HTTP.SourceIP
	for _, c := range ev.Cookies {
		r.Header.Add("Cookie", c)
	}
	for k, v := range ev.Headers {
		ck := textproto.CanonicalMIMEHeaderKey(k)
		if singletonHeaders[ck] {
			r.Header[ck] = append(r.Header[ck], v)
			continue
		}
		for _, part := range strings.Split(v, ",") {
			r.Header[ck] = append(r.Header[ck], strings.Trim(part, " "))
		}
	}
	r.RequestURI = r.URL.RequestURI()
	return r, nil
}

// singletonHeaders are the headers whose value is not split on commas.
var singletonHeaders = map[string]bool{
	"Content-Type":        true,
	"Content-Disposition": true,
	"Content-Length":      true,
	"User-Agent":          true,
	"Referer":             true,
	"Host":                true,
	"Authorization":       true,
	"Proxy-Authorization": true,
	"If-Modified-Since":   true,
	"If-Unmodified-Since": true,
	"From":                true,
	"Location":            true,
	"Max-Forwards":        true,
}

// statusUnset marks a response whose handler neither wrote nor set a
// status; the invocation then fails, as the adapter's did.
const statusUnset = -1

// writer is the function's http.ResponseWriter: headers, status and a
// body buffer, reused across invocations.
type writer struct {
	header http.Header
	body   bytes.Buffer
	out    []byte
	keys   []string
	status int
}

var writers = sync.Pool{New: func() any { return &writer{header: http.Header{}, status: statusUnset} }}

// maxPooled keeps a writer that served a large body (a file) out of the
// pool rather than pinning its buffers.
const maxPooled = 1 << 20

func (w *writer) release() {
	if w.body.Cap() > maxPooled || cap(w.out) > 2*maxPooled {
		return
	}
	clear(w.header)
	w.body.Reset()
	w.out = w.out[:0]
	w.keys = w.keys[:0]
	w.status = statusUnset
	writers.Put(w)
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(status int) { w.status = status }

func (w *writer) Write(b []byte) (int, error) {
	if w.status == statusUnset {
		w.status = http.StatusOK
	}
	if w.header.Get("Content-Type") == "" {
		w.header.Add("Content-Type", http.DetectContentType(b))
	}
	return w.body.Write(b)
}

// encode writes the API Gateway v2 response: statusCode, headers (keys
// sorted, several values joined by commas), Set-Cookie values as cookies,
// the body as text, or as base64 when it is not UTF-8. The result is the
// writer's buffer, valid until it goes back to the pool.
func (w *writer) encode() []byte {
	b := w.out[:0]
	b = append(b, `{"statusCode":`...)
	b = strconv.AppendInt(b, int64(w.status), 10)
	b = append(b, `,"headers":{`...)
	keys := w.keys[:0]
	for k := range w.header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	first := true
	for _, k := range keys {
		if strings.EqualFold(k, "set-cookie") {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = httpx.AppendJSONString(b, k)
		b = append(b, ':')
		b = httpx.AppendJSONString(b, strings.Join(w.header[k], ","))
	}
	b = append(b, `},"body":`...)
	body := w.body.Bytes()
	binary := !utf8.Valid(body)
	if binary {
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, body)
		b = append(b, '"')
	} else {
		// A view of the buffer, read before anything writes to it again.
		b = httpx.AppendJSONString(b, unsafe.String(unsafe.SliceData(body), len(body)))
	}
	if binary {
		b = append(b, `,"isBase64Encoded":true`...)
	}
	b = append(b, `,"cookies":[`...)
	first = true
	for _, k := range keys {
		if !strings.EqualFold(k, "set-cookie") {
			continue
		}
		for _, c := range w.header[k] {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = httpx.AppendJSONString(b, c)
		}
	}
	b = append(b, "]}"...)
	w.out, w.keys = b, keys
	return b
}
