package lambdahttp

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/httpx"
)

// Spanish answers to malformed requests (400).
const (
	msgMalformed = "La solicitud no es válida."
	msgHost      = "El encabezado Host no es válido."
	msgMethod    = "El método de la solicitud no es válido."
	msgPath      = "La ruta de la solicitud no es válida."
	msgQuery     = "Los parámetros de la consulta contienen caracteres no válidos."
	msgHeaders   = "Los encabezados de la solicitud contienen caracteres no válidos."
	msgBody      = "El cuerpo de la solicitud no es válido."
)

// malformedKey marks, in the request context, a request whose event was
// malformed; its value is the Spanish explanation. Only Lambda sets it: a
// client cannot.
type malformedKey struct{}

// rejectMalformed answers a flagged request with a 400 in the envelope. It
// runs inside httpx.Observe, so the answer carries the trace headers.
func rejectMalformed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg, ok := r.Context().Value(malformedKey{}).(string); ok {
			httpx.WriteError(w, r, apperr.NewBadRequest(msg))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostRe is a host as a Host header or a domain name may carry it: a DNS
// name (underscores tolerated), an IPv4 address or a bracketed IPv6
// address, with an optional port.
var hostRe = regexp.MustCompile(`^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$`)

// validHost reports whether h is usable as a request's host ("" is not).
func validHost(h string) bool { return hostRe.MatchString(h) }

// checkEvent returns the event as the adapter may safely take it, and, when
// something in it could not come from a well-formed HTTP request, the
// Spanish reason. API Gateway itself sends only well-formed events; this
// protects the function from everything else (a local gateway, a test, a
// hand-made invocation) and from the cases where well-formed HTTP is still
// unusable here: query values that decode to NUL or to invalid UTF-8, which
// PostgreSQL text refuses.
func checkEvent(ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPRequest, string) {
	problem := ""
	fail := func(msg string) {
		if problem == "" {
			problem = msg
		}
	}
	if !validToken(ev.RequestContext.HTTP.Method) {
		fail(msgMethod)
		ev.RequestContext.HTTP.Method = http.MethodGet
	}
	if ev.RequestContext.DomainName != "" && !validHost(ev.RequestContext.DomainName) {
		fail(msgHost)
		ev.RequestContext.DomainName = "localhost"
	}
	if len(ev.Headers) > 0 {
		headers := make(map[string]string, len(ev.Headers))
		for k, v := range ev.Headers {
			switch {
			case !validToken(k) || !validHeaderValue(v):
				fail(msgHeaders)
			case strings.EqualFold(k, "host") && !validHost(v):
				fail(msgHost)
			default:
				headers[k] = v
			}
		}
		ev.Headers = headers
	}
	if len(ev.Cookies) > 0 {
		var cookies []string
		for _, c := range ev.Cookies {
			if validHeaderValue(c) {
				cookies = append(cookies, c)
			} else {
				fail(msgHeaders)
			}
		}
		ev.Cookies = cookies
	}
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	if !validPath(path) {
		fail(msgPath)
		ev.RawPath, ev.RequestContext.HTTP.Path = "/", "/"
	}
	if !validQuery(ev.RawQueryString, ev.QueryStringParameters) {
		fail(msgQuery)
		ev.RawQueryString, ev.QueryStringParameters = "", nil
	}
	if ev.IsBase64Encoded {
		if _, err := base64.StdEncoding.DecodeString(ev.Body); err != nil {
			fail(msgBody)
			ev.Body, ev.IsBase64Encoded = "", false
		}
	}
	if problem == "" {
		// What the adapter will parse: any failure left is still ours to word.
		raw := "https://" + ev.RequestContext.DomainName + "/" + strings.TrimPrefix(path, "/")
		if ev.RawQueryString != "" {
			raw += "?" + ev.RawQueryString
		}
		if _, err := url.Parse(raw); err != nil {
			return skeleton(ev), msgMalformed
		}
	}
	return ev, problem
}

// skeleton keeps of an event only what a 400 needs (the trace headers), on
// a request the adapter always builds.
func skeleton(ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPRequest {
	out := events.APIGatewayV2HTTPRequest{Version: ev.Version, RouteKey: ev.RouteKey, RawPath: "/", Headers: map[string]string{}}
	for k, v := range ev.Headers {
		if (strings.EqualFold(k, "x-trace-id") || strings.EqualFold(k, "x-span-id")) && validHeaderValue(v) {
			out.Headers[strings.ToLower(k)] = v
		}
	}
	out.RequestContext = ev.RequestContext
	out.RequestContext.DomainName = "localhost"
	out.RequestContext.HTTP.Method = http.MethodGet
	out.RequestContext.HTTP.Path = "/"
	return out
}

// validToken reports whether s is an HTTP token (method, header name).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// validHeaderValue refuses control characters other than tab, as HTTP
// servers do.
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// validPath requires a path that parses (valid escapes, no control
// characters). What it decodes to is the handlers' business: httpx reads
// ids as numbers and cleans text filters of NUL and invalid UTF-8.
func validPath(p string) bool {
	if p == "" {
		return true
	}
	u, err := url.Parse("/" + strings.TrimPrefix(p, "/"))
	return err == nil && u.Host == "" && u.RawQuery == "" && u.Fragment == ""
}

// validQuery refuses control characters in the raw query, which make the
// adapter's URL unparsable. Escapes are left alone: url.Values drops
// malformed ones, and httpx cleans decoded text of NUL and invalid UTF-8.
func validQuery(raw string, params map[string]string) bool {
	if raw != "" {
		// The adapter builds the URL from the raw (escaped) string; decoded
		// values may hold any byte (search=%00 is data, cleaned by httpx).
		return validHeaderValue(raw) && !strings.ContainsRune(raw, '#')
	}
	for k, v := range params {
		if !validHeaderValue(k) || !validHeaderValue(v) {
			return false
		}
	}
	return true
}
