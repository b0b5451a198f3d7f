// Command authorizer is the API Gateway REQUEST authorizer: it resolves the
// bearer token and the tenant and hands the functions a principal (or an
// error class they answer in Spanish).
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.Authorizer(), lambda.WithEnableSIGTERM(deps.Close))
}
