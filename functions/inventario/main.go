// Command inventario is the Lambda function of the "inventario" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("inventario", inventario.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
