// Command scheduler is the target of the EventBridge rule (every minute): it
// sweeps the work whose queue message was lost (Hacienda submissions and
// status polls) and wakes it again.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/app"
)

func main() {
	deps := app.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.Scheduler(), lambda.WithEnableSIGTERM(deps.Close))
}
