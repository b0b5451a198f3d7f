package app

import (
	"github.com/erpcr/erp/shared/compras"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// GrupoCompras returns the handlers of the "compras" function group.
func (d *Deps) GrupoCompras() lambdahttp.Handlers {
	return (&compras.Service{DB: d.DB}).Handlers()
}
