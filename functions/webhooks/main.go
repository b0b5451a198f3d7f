// Command webhooks is the Lambda function of the "webhooks" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("webhooks", plataforma.GrupoWebhooks), lambda.WithEnableSIGTERM(deps.Close))
}
