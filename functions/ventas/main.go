// Command ventas is the Lambda function of the "ventas" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/ventas"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("ventas", ventas.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
