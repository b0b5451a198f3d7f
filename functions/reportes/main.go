// Command reportes is the Lambda function of the "reportes" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/reportes"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("reportes", reportes.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
