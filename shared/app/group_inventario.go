package app

import (
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// GrupoInventario returns the handlers of the "inventario" function group.
func (d *Deps) GrupoInventario() lambdahttp.Handlers {
	return (&inventario.Service{DB: d.DB}).Handlers()
}
