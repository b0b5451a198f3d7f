// Command contabilidad is the Lambda function of the "contabilidad" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/contabilidad"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("contabilidad", contabilidad.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
