// Command webhook-worker is the SQS consumer of the webhook queue: each
// message says "deliver webhook delivery N"; the worker makes that attempt
// (signed POST, logged, retried or failed) and reports only the failed
// records of a batch.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.WebhookWorker(), lambda.WithEnableSIGTERM(deps.Close))
}
