// Command migrate applies the embedded migrations and the catalog seed at
// deploy time (invoke it once per deployment, e.g. sam remote invoke).
package main

import (
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/migracion"
	"github.com/erpcr/erp/shared/plataforma"
)

func main() {
	cfg, err := config.Load()
	if err != nil {
		slog.Error("config", "error", err.Error())
		os.Exit(1)
	}
	slog.SetDefault(plataforma.NewLogger(cfg.LogLevel))
	lambda.Start(migracion.MigrateHandler(cfg))
}
