// Command empresas is the Lambda function of the "empresas" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/organizacion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("empresas", organizacion.Empresas), lambda.WithEnableSIGTERM(deps.Close))
}
