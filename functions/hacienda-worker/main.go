// Command hacienda-worker is the SQS consumer of the hacienda queue: each
// message says "look at comprobante N"; the worker submits it to Hacienda or
// polls its status, and reports only the failed records of a batch.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.Worker(facturacion.NuevoServicio(deps).Procesar), lambda.WithEnableSIGTERM(deps.Close))
}
