// Command clientes is the Lambda function of the "clientes" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/terceros"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("clientes", terceros.Clientes), lambda.WithEnableSIGTERM(deps.Close))
}
