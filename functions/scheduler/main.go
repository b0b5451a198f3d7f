// Command scheduler is the target of the EventBridge rule (every minute): it
// sweeps the work whose queue message was lost (Hacienda submissions and
// status polls) and wakes it again.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.Scheduler(facturacion.NuevoServicio(deps)), lambda.WithEnableSIGTERM(deps.Close))
}
