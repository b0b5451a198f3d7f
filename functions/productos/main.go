// Command productos is the Lambda function of the "productos" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("productos", catalogo.Productos), lambda.WithEnableSIGTERM(deps.Close))
}
