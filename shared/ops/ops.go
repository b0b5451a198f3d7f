// Package ops serves the operational routes: health, metrics (Prometheus
// text), the real-time dashboard (JSON or Server-Sent Events) and the
// catch-all that answers unknown paths in the API's own Spanish envelope.
package ops

import (
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/metricas"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/queue"
)

// Version is stamped at build time with -ldflags "-X ...ops.Version=...".
var Version = "dev"

// Commit is stamped the same way (-X ...ops.Commit=...); unstamped, it is
// the VCS revision Go records in the binary (see commit).
var Commit = ""

// Service serves the ops group.
type Service struct {
	DB       *db.DB
	Cfg      config.Config
	Metricas *metricas.Registro
	// Cola is the process's in-process queue; its depth is known only when
	// no SQS queue is configured.
	Cola *queue.Local
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"ops.health":      s.health,
		"ops.metrics":     s.metrics,
		"ops.tiempo_real": s.tiempoReal,
		"ops.not_found":   lambdahttp.NotFound,
	}
}

// Grupo is the "ops" function group (functions/ops/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB, Cfg: d.Cfg, Metricas: d.Metricas(), Cola: d.LocalQueue()}).Handlers()
}
