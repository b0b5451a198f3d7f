package app

import (
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// GrupoEventos returns the handlers of the "eventos" function group.
func (d *Deps) GrupoEventos() lambdahttp.Handlers {
	return eventos.Handlers(d.DB)
}
