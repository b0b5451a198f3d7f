package gateway

import (
	"encoding/json"
	"strconv"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/httpx"
)

// encodeEvent writes the event as encoding/json writes it (fields in the
// struct's order, omitempty honoured, map keys sorted), without HTML
// escaping, without reflection. What the gateway never puts in an event (a
// JWT or IAM authorizer, stage variables, a client certificate) sends the
// event to encoding/json instead, as does an authorizer value that is not
// a string.
func encodeEvent(ev *events.APIGatewayV2HTTPRequest) ([]byte, error) {
	return appendEvent(make([]byte, 0, 2048+len(ev.Body)), ev)
}

// appendEvent is encodeEvent appending to b.
func appendEvent(b []byte, ev *events.APIGatewayV2HTTPRequest) ([]byte, error) {
	rc := &ev.RequestContext
	if ev.StageVariables != nil || rc.Authentication != (events.APIGatewayV2HTTPRequestContextAuthentication{}) ||
		(rc.Authorizer != nil && (rc.Authorizer.JWT != nil || rc.Authorizer.IAM != nil)) {
		return json.Marshal(ev)
	}
	b = append(b, `{"version":`...)
	b = httpx.AppendJSONString(b, ev.Version)
	b = append(b, `,"routeKey":`...)
	b = httpx.AppendJSONString(b, ev.RouteKey)
	b = append(b, `,"rawPath":`...)
	b = httpx.AppendJSONString(b, ev.RawPath)
	b = append(b, `,"rawQueryString":`...)
	b = httpx.AppendJSONString(b, ev.RawQueryString)
	if len(ev.Cookies) > 0 {
		b = append(b, `,"cookies":`...)
		b, _ = httpx.AppendArray(b, ev.Cookies, httpx.AppendStringValue)
	}
	b = append(b, `,"headers":`...)
	b = appendStringMap(b, ev.Headers)
	if len(ev.QueryStringParameters) > 0 {
		b = append(b, `,"queryStringParameters":`...)
		b = appendStringMap(b, ev.QueryStringParameters)
	}
	if len(ev.PathParameters) > 0 {
		b = append(b, `,"pathParameters":`...)
		b = appendStringMap(b, ev.PathParameters)
	}
	b = append(b, `,"requestContext":`...)
	var ok bool
	if b, ok = appendRequestContext(b, rc); !ok {
		return json.Marshal(ev)
	}
	if ev.Body != "" {
		b = append(b, `,"body":`...)
		b = httpx.AppendJSONString(b, ev.Body)
	}
	b = append(b, `,"isBase64Encoded":`...)
	b = strconv.AppendBool(b, ev.IsBase64Encoded)
	return append(b, '}'), nil
}

// appendRequestContext writes the request context the gateway builds; ok
// is false for an authorizer value that is not a string.
func appendRequestContext(b []byte, rc *events.APIGatewayV2HTTPRequestContext) ([]byte, bool) {
	b = append(b, `{"routeKey":`...)
	b = httpx.AppendJSONString(b, rc.RouteKey)
	b = append(b, `,"accountId":`...)
	b = httpx.AppendJSONString(b, rc.AccountID)
	b = append(b, `,"stage":`...)
	b = httpx.AppendJSONString(b, rc.Stage)
	b = append(b, `,"requestId":`...)
	b = httpx.AppendJSONString(b, rc.RequestID)
	if rc.Authorizer != nil {
		b = append(b, `,"authorizer":{`...)
		if len(rc.Authorizer.Lambda) > 0 {
			b = append(b, `"lambda":`...)
			var ok bool
			if b, ok = httpx.AppendObject(b, rc.Authorizer.Lambda, appendOnlyString); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	}
	b = append(b, `,"apiId":`...)
	b = httpx.AppendJSONString(b, rc.APIID)
	b = append(b, `,"domainName":`...)
	b = httpx.AppendJSONString(b, rc.DomainName)
	b = append(b, `,"domainPrefix":`...)
	b = httpx.AppendJSONString(b, rc.DomainPrefix)
	b = append(b, `,"time":`...)
	b = httpx.AppendJSONString(b, rc.Time)
	b = append(b, `,"timeEpoch":`...)
	b = strconv.AppendInt(b, rc.TimeEpoch, 10)
	b = append(b, `,"http":{"method":`...)
	b = httpx.AppendJSONString(b, rc.HTTP.Method)
	b = append(b, `,"path":`...)
	b = httpx.AppendJSONString(b, rc.HTTP.Path)
	b = append(b, `,"protocol":`...)
	b = httpx.AppendJSONString(b, rc.HTTP.Protocol)
	b = append(b, `,"sourceIp":`...)
	b = httpx.AppendJSONString(b, rc.HTTP.SourceIP)
	b = append(b, `,"userAgent":`...)
	b = httpx.AppendJSONString(b, rc.HTTP.UserAgent)
	b = append(b, `},"authentication":{"clientCert":{"clientCertPem":"","issuerDN":"","serialNumber":"","subjectDN":"","validity":{"notAfter":"","notBefore":""}}}}`...)
	return b, true
}

// encodeAuthorizerRequest writes the authorizer's request as
// encoding/json would (without HTML escaping, which changes no value),
// falling back to it for what encodeEvent leaves to it.
func encodeAuthorizerRequest(req *events.APIGatewayV2CustomAuthorizerV2Request) ([]byte, error) {
	return appendAuthorizerRequest(make([]byte, 0, 2048), req)
}

// appendAuthorizerRequest is encodeAuthorizerRequest appending to b.
func appendAuthorizerRequest(b []byte, req *events.APIGatewayV2CustomAuthorizerV2Request) ([]byte, error) {
	rc := &req.RequestContext
	if req.IdentitySource != nil || req.StageVariables != nil || rc.Authorizer != nil ||
		rc.Authentication != (events.APIGatewayV2HTTPRequestContextAuthentication{}) {
		return json.Marshal(req)
	}
	b = append(b, `{"version":`...)
	b = httpx.AppendJSONString(b, req.Version)
	b = append(b, `,"type":`...)
	b = httpx.AppendJSONString(b, req.Type)
	b = append(b, `,"routeArn":`...)
	b = httpx.AppendJSONString(b, req.RouteArn)
	b = append(b, `,"identitySource":null,"routeKey":`...)
	b = httpx.AppendJSONString(b, req.RouteKey)
	b = append(b, `,"rawPath":`...)
	b = httpx.AppendJSONString(b, req.RawPath)
	b = append(b, `,"rawQueryString":`...)
	b = httpx.AppendJSONString(b, req.RawQueryString)
	b = append(b, `,"cookies":`...)
	b, _ = httpx.AppendArray(b, req.Cookies, httpx.AppendStringValue)
	b = append(b, `,"headers":`...)
	b = appendStringMap(b, req.Headers)
	b = append(b, `,"queryStringParameters":`...)
	b = appendStringMap(b, req.QueryStringParameters)
	b = append(b, `,"requestContext":`...)
	b, _ = appendRequestContext(b, rc)
	b = append(b, `,"pathParameters":`...)
	b = appendStringMap(b, req.PathParameters)
	return append(b, `,"stageVariables":null}`...), nil
}

// appendStringMap writes a map of strings with its keys sorted (null for
// a nil map, as encoding/json writes it).
func appendStringMap(b []byte, m map[string]string) []byte {
	b, _ = httpx.AppendObject(b, m, httpx.AppendStringValue)
	return b
}

// appendOnlyString writes an authorizer value that is a string and
// refuses any other (encoding/json writes those).
func appendOnlyString(b []byte, v any) ([]byte, bool) {
	s, ok := v.(string)
	if !ok {
		return b, false
	}
	return httpx.AppendStringValue(b, s)
}
