// Command empleados is the Lambda function of the "empleados" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/empleados"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("empleados", empleados.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
