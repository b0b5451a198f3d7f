// Command docs is the Lambda function of the "docs" route group: the
// OpenAPI documents and the interactive documentation page.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/docs"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("docs", docs.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
