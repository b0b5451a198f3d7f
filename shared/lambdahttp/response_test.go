package lambdahttp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// DecodeResponse reads what encoding/json reads, the body aside.
func TestDecodeResponseReadsAsEncodingJSON(t *testing.T) {
	typed, err := json.Marshal(events.APIGatewayV2HTTPResponse{StatusCode: 201, Headers: map[string]string{"Content-Type": "application/json", "X-Á": "ñ \"q\""},
		MultiValueHeaders: map[string][]string{"Vary": {"Origin", "Accept"}}, Body: `{"success":true,"message":"Creado <ok> & \"bien\"\n\u2028"}`,
		Cookies: []string{"a=1; Path=/"}})
	if err != nil {
		t.Fatal(err)
	}
	casos := []string{
		string(typed),
		`{"statusCode":200,"headers":{"Content-Type":"application/json; charset=utf-8","Etag":"\"abc\""},"body":"{\"data\":[{\"nombre\":\"Leche \\\"fresca\\\" ñ\"}]}\n","cookies":[]}`,
		`{"statusCode":200,"headers":{},"body":"iVBORw0KGgo=","isBase64Encoded":true,"cookies":["s=1"]}`,
		`{"statusCode":204,"headers":{"X":"1"},"body":"","cookies":[]}`,
		` { "statusCode" : 404 , "body" : null , "headers" : null } `,
		`{"StatusCode":500,"body":"case"}`,
		`{"statusCode":200.0,"body":"x"}`,
		`{"statusCode":200,"extra":{"a":[1,2]},"body":"x"}`,
		`null`,
	}
	for _, c := range casos {
		var want events.APIGatewayV2HTTPResponse
		werr := json.Unmarshal([]byte(c), &want)
		got, body, err := DecodeResponse([]byte(c), []byte("stale"))
		if (err != nil) != (werr != nil) {
			t.Fatalf("%s: error %v, encoding/json %v", c, err, werr)
		}
		if err != nil {
			continue
		}
		got.Body = string(body)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c, got, want)
		}
	}
	for _, c := range []string{`{`, `{"statusCode":}`, `{"body":"\x"}`, `{"statusCode":200} x`, `[]`} {
		if _, _, err := DecodeResponse([]byte(c), nil); err == nil {
			t.Errorf("%s: accepted", c)
		}
	}
}

func TestDecodeAuthorizerResponseReadsAsEncodingJSON(t *testing.T) {
	for _, c := range []string{
		`{"isAuthorized":true,"context":{"empresa_id":"1","permisos":"a,b","roles":"administrador \"x\" \u00e1"}}`,
		`{"isAuthorized":true}`, `{"isAuthorized":false,"context":{"n":1,"b":true,"s":"x"}}`,
		`{"IsAuthorized":true,"context":{"a":"b"}}`, `null`, `{"isAuthorized":true,"context":null}`,
	} {
		var want events.APIGatewayV2CustomAuthorizerSimpleResponse
		werr := json.Unmarshal([]byte(c), &want)
		got, err := DecodeAuthorizerResponse([]byte(c))
		if (err != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v, %v\nwant %#v, %v", c, got, err, want, werr)
		}
	}
	for _, c := range []string{`{`, `{"isAuthorized":1}`, `[]`, `{"isAuthorized":true} x`} {
		if _, err := DecodeAuthorizerResponse([]byte(c)); err == nil {
			t.Errorf("%s: accepted", c)
		}
	}
}
