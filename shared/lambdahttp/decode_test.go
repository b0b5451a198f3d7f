package lambdahttp

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeEventReadsWhatEncodingJSONReads holds the hand decoder to
// encoding/json on every sample event, on hand-made edge cases and on
// events with random strings.
func TestDecodeEventReadsWhatEncodingJSONReads(t *testing.T) {
	var payloads [][]byte
	files, _ := filepath.Glob("../../events/*/*.json")
	if len(files) == 0 {
		t.Fatal("no sample events")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, b)
	}
	for _, s := range []string{
		`{}`,
		`{"rawPath":null,"headers":null,"cookies":null,"requestContext":null,"body":null,"isBase64Encoded":null}`,
		`{"headers":{},"cookies":[],"queryStringParameters":{"a":"","b":"x,y"}}`,
		`{"rawPath":"/api/x\u00e9\"\\\/\n","body":"{\"a\":\"\ud83d\ude00\"}","isBase64Encoded":true}`,
		` { "version" : "2.0" , "extra" : [1, -2.5e3, true, false, null, {"a":[{}]}, "s\"]"] , "requestContext" : { "authorizer" : { "lambda" : { "empresa_id" : "1" , "n" : 3 , "b" : true } , "iam" : null } , "http" : { "method" : "GET" , "sourceIp" : "1.2.3.4" , "x" : 1 } , "domainName" : "a.b" } } `,
		`{"requestContext":{"authorizer":{"lambda":{"usuario_id":"7","permisos":"a,b"}}},"cookies":["a=1","b=\u0001"]}`,
		`{"requestContext":{"authorizer":{"lambda":null}}}`,
		"{\"body\":\"caf\xc3\xa9 \xff bad\"}",
		`{"headers":{"a":"1","a":"2","n":null},"cookies":["a",null]}`,
	} {
		payloads = append(payloads, []byte(s))
	}
	r := rand.New(rand.NewSource(17))
	for i := 0; i < 300; i++ {
		var sb strings.Builder
		for j := r.Intn(40); j > 0; j-- {
			switch r.Intn(6) {
			case 0:
				sb.WriteByte(byte(r.Intn(0x80)))
			case 1:
				sb.WriteString("é\"\\/")
			case 2:
				sb.WriteByte(byte(0x80 + r.Intn(0x80)))
			case 3:
				sb.WriteString("\u2028😀")
			default:
				sb.WriteByte(byte('a' + r.Intn(26)))
			}
		}
		str := sb.String()
		ev := map[string]any{"rawPath": "/" + str, "body": str, "headers": map[string]string{str: str, "x": str},
			"cookies": []string{str}, "requestContext": map[string]any{"authorizer": map[string]any{"lambda": map[string]any{"k": str}}, "http": map[string]string{"path": str}}}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, b)
	}
	for _, p := range payloads {
		var want, got v2Event
		werr := json.Unmarshal(p, &want)
		gerr := decodeEvent(p, &got)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: encoding/json %v, decodeEvent %v", p, werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("%s:\nencoding/json %+v\ndecodeEvent   %+v", p, want, got)
		}
	}
}

// TestDecodeEventRefusesWhatIsNotAnEvent: the invocation fails on what is
// not JSON, as aws-lambda-go's decoder made it fail.
func TestDecodeEventRefusesWhatIsNotAnEvent(t *testing.T) {
	for _, s := range []string{``, `[]`, `"x"`, `{`, `{"rawPath":1}`, `{"headers":{"a":1}}`, `{"rawPath":"a}`, `{"a" 1}`, `{"a":1,}x`, `{} {}`, `{"cookies":[1]}`, `{"isBase64Encoded":"true"}`} {
		var e v2Event
		if err := decodeEvent([]byte(s), &e); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}
