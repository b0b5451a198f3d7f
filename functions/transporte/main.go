// Command transporte is the Lambda function of the "transporte" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/transporte"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("transporte", transporte.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
