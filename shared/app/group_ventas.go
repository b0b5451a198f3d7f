package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/ventas"
)

// GrupoVentas returns the handlers of the "ventas" function group.
func (d *Deps) GrupoVentas() lambdahttp.Handlers {
	return (&ventas.Service{DB: d.DB}).Handlers()
}
