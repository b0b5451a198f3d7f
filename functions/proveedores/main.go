// Command proveedores is the Lambda function of the "proveedores" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/terceros"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("proveedores", terceros.Proveedores), lambda.WithEnableSIGTERM(deps.Close))
}
