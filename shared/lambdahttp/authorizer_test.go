package lambdahttp

import (
	"bytes"
	"context"
	"testing"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/auth"
)

// The raw authorizer handler answers what lambda.NewHandler over
// auth.Authorizer.Handle answers, byte for byte, errors included: the
// requests here are refused before the database (the accepted ones run
// through it in shared/app's event and parity tests).
func TestAuthorizerAnswersAsTheReflectiveHandler(t *testing.T) {
	a := &auth.Authorizer{BaseDomain: "erp.cr"}
	raw, reflective := Authorizer(a), lambda.NewHandler(a.Handle)
	for _, payload := range []string{
		`{"version":"2.0","type":"REQUEST","routeArn":"arn:x","headers":{"host":"127.0.0.1"},"requestContext":{"domainName":"127.0.0.1","http":{"method":"GET"}}}`,
		`{"headers":{"authorization":"Bearer nada"}}`,
		`{"headers":{"Authorization":"Bearer 12.abc","x-empresa-id":"x"},"requestContext":{"domainName":"a.erp.cr"}}`,
		`{"headers":{"authorization":"Basic abc"},"identitySource":["x"],"pathParameters":{"id":"1"}}`,
		`{"headers":{"authorization":"Bearer \u0031.x"}}`,
		`{"headers":null}`,
		`{}`,
		`{"headers":{"authorization":1}}`,
		`[]`,
		`{"headers":`,
		`{} {}`,
		`null`,
	} {
		want, wantErr := reflective.Invoke(context.Background(), []byte(payload))
		got, err := raw.Invoke(context.Background(), []byte(payload))
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("%s:\n got %s, %v\nwant %s, %v", payload, got, err, want, wantErr)
		}
	}
}
