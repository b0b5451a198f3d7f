// Command auth is the Lambda function of the "auth" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/sesiones"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("auth", sesiones.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
