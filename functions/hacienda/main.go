// Command hacienda is the Lambda function of the "hacienda" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/app"
)

func main() {
	deps := app.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("hacienda", deps.GrupoHacienda), lambda.WithEnableSIGTERM(deps.Close))
}
