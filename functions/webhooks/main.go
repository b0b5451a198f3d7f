// Command webhooks is the Lambda function of the "webhooks" route group:
// the administration of a company's webhook subscriptions.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/app"
)

func main() {
	deps := app.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("webhooks", deps.GrupoWebhooks), lambda.WithEnableSIGTERM(deps.Close))
}
