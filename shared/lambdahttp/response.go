package lambdahttp

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/httpx"
)

// DecodeResponse reads an API Gateway v2 response payload (what a
// function returns: Handler's, or aws-lambda-go's encoding of
// events.APIGatewayV2HTTPResponse) as encoding/json would into that
// struct, except the body: it is appended to body (still base64 when
// IsBase64Encoded) and returned, and resp.Body is left empty, so that the
// caller can write it from a buffer it reuses instead of from a string.
// Keys are matched exactly; a payload with any other key (encoding/json
// matches keys without regard to case) or a status that is not a plain
// integer is read by encoding/json.
func DecodeResponse(payload, body []byte) (events.APIGatewayV2HTTPResponse, []byte, error) {
	var resp events.APIGatewayV2HTTPResponse
	body = body[:0]
	fallback := known(payload, func(d *decoder, key string) (bool, error) {
		switch key {
		case "statusCode":
			start := d.I
			if err := d.skip(); err != nil {
				return true, err
			}
			n, err := strconv.Atoi(string(d.B[start:d.I]))
			resp.StatusCode = n
			return err == nil, nil
		case "headers":
			return true, d.stringMap(&resp.Headers)
		case "multiValueHeaders":
			if d.null() {
				resp.MultiValueHeaders = nil
				return true, nil
			}
			m := map[string][]string{}
			err := d.object(func(key string) error {
				var vs []string
				err := d.strings(&vs)
				m[strings.Clone(key)] = vs
				return err
			})
			resp.MultiValueHeaders = m
			return true, err
		case "cookies":
			return true, d.strings(&resp.Cookies)
		case "isBase64Encoded":
			return true, d.boolean(&resp.IsBase64Encoded)
		case "body":
			if d.null() {
				return true, nil
			}
			if d.I >= len(d.B) || d.B[d.I] != '"' {
				return true, d.Fail("string expected")
			}
			var n int
			var err error
			if body, n, err = httpx.AppendUnquotedPrefix(body[:0], d.B[d.I:]); err != nil {
				return true, d.Fail("invalid string")
			}
			d.I += n
			return true, nil
		}
		return false, d.skip()
	})
	if fallback {
		resp = events.APIGatewayV2HTTPResponse{}
		if err := json.Unmarshal(payload, &resp); err != nil {
			return resp, body[:0], err
		}
		body = append(body[:0], resp.Body...)
		resp.Body = ""
	}
	return resp, body, nil
}

// DecodeAuthorizerResponse reads an authorizer's simple response as
// encoding/json would (the context's string values directly, anything else
// through encoding/json, as the event decoder reads it); a payload with
// another key is read by encoding/json.
func DecodeAuthorizerResponse(payload []byte) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
	var resp events.APIGatewayV2CustomAuthorizerSimpleResponse
	if known(payload, func(d *decoder, key string) (bool, error) {
		switch key {
		case "isAuthorized":
			return true, d.boolean(&resp.IsAuthorized)
		case "context":
			return true, d.anyMap(&resp.Context)
		}
		return false, d.skip()
	}) {
		resp = events.APIGatewayV2CustomAuthorizerSimpleResponse{}
		return resp, json.Unmarshal(payload, &resp)
	}
	return resp, nil
}

// known reads the object payload with field, which consumes each member's
// value and says whether it read it as encoding/json would; it reports
// whether encoding/json must read the payload instead (a member field did
// not read so, or anything invalid: encoding/json then says what).
func known(payload []byte, field func(d *decoder, key string) (bool, error)) (fallback bool) {
	d := decoder{httpx.Scanner{B: payload}}
	d.Space()
	err := d.object(func(key string) error {
		d.Space()
		ok, err := field(&d, key)
		fallback = fallback || !ok
		return err
	})
	if err == nil {
		d.Space()
		if d.I != len(d.B) {
			err = d.Fail("data after the object")
		}
	}
	return err != nil || fallback
}
