// Package transporte declares a company's transport (issue 15,
// "Transport"): bus routes (rutas) with their stops and departures, and
// buses (buses) with the route they serve, their driver (an employee) and
// the expiry of their technical review and insurance.
package transporte

import (
	"maps"

	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
)

// Grupo returns the handlers of the transporte group: /api/rutas and /api/buses.
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	hs := recurso.Handlers(Ruta, d.DB)
	maps.Copy(hs, recurso.Handlers(Bus, d.DB))
	return hs
}
