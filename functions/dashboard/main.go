// Command dashboard is the Lambda function of the "dashboard" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/dashboard"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("dashboard", dashboard.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
