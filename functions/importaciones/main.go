// Command importaciones is the Lambda function of the "importaciones" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/importaciones"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("importaciones", importaciones.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
