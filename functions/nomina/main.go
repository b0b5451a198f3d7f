// Command nomina is the Lambda function of the "nomina" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/nomina"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("nomina", nomina.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
