// Command usuarios is the Lambda function of the "usuarios" route group.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/usuarios"
)

func main() {
	deps := plataforma.MustOpen() // once per container, outside the handler
	lambda.StartWithOptions(deps.MustLambda("usuarios", usuarios.Grupo), lambda.WithEnableSIGTERM(deps.Close))
}
