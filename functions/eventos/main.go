// Command eventos is the Lambda function of the "eventos" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("eventos", plataforma.GrupoEventos), lambda.WithEnableSIGTERM(deps.Close))
}
