// Command almacenes is the Lambda function of the "almacenes" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/organizacion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("almacenes", organizacion.Almacenes), lambda.WithEnableSIGTERM(deps.Close))
}
