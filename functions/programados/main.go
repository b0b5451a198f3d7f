// Command programados is the Lambda function of the "programados" route
// group: /api/reportes-programados, their runs and the download of a run's
// file from the bucket (ERP_REPORTES_BUCKET).
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/programados"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	s := programados.Nuevo(deps)
	lambda.StartWithOptions(deps.MustLambda("programados", func(*plataforma.Deps) lambdahttp.Handlers { return s.Handlers() }),
		lambda.WithEnableSIGTERM(deps.Close))
}
