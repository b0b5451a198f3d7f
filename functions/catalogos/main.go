// Command catalogos is the Lambda function of the "catalogos" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("catalogos", catalogo.Catalogos), lambda.WithEnableSIGTERM(deps.Close))
}
