// Command scheduler is the target of the EventBridge rule (every minute): it
// sweeps the work whose queue message was lost (Hacienda submissions and
// status polls), wakes due webhook deliveries, and runs the due scheduled
// reports (shared/programados: S3 and SES from ERP_REPORTES_BUCKET and
// ERP_CORREO_REMITENTE).
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/programados"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.Scheduler(facturacion.NuevoServicio(deps), programados.Nuevo(deps)), lambda.WithEnableSIGTERM(deps.Close))
}
