// Package ops serves the operational routes: health and the catch-all that
// answers unknown paths in the API's own Spanish envelope.
package ops

import (
	"context"
	"net/http"
	"time"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
)

// Version is stamped at build time with -ldflags "-X ...ops.Version=...".
var Version = "dev"

// Service serves the ops group.
type Service struct {
	DB *db.DB
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"ops.health":    s.health,
		"ops.not_found": lambdahttp.NotFound,
	}
}

type health struct {
	Estado      string    `json:"estado"`
	BaseDeDatos string    `json:"base_de_datos"`
	Version     string    `json:"version"`
	Hora        time.Time `json:"hora"`
}

func (s *Service) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	h := health{Estado: "ok", BaseDeDatos: "ok", Version: Version, Hora: time.Now().UTC()}
	status := http.StatusOK
	if err := s.DB.Pool.Ping(ctx); err != nil {
		httpx.Logger(r.Context()).Warn("health: database", "error", err.Error())
		h.Estado, h.BaseDeDatos, status = "degradado", "no disponible", http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, status, h)
	return nil
}

// Grupo is the "ops" function group (functions/ops/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB}).Handlers()
}
