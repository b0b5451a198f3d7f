// Command tesoreria is the Lambda function of the "tesoreria" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/tesoreria"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("tesoreria", tesoreria.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
