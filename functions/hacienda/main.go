// Command hacienda is the Lambda function of the "hacienda" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("hacienda", facturacion.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
