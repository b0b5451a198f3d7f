package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/organizacion"
)

// GrupoEmpresas returns the handlers of the "empresas" function group.
func (d *Deps) GrupoEmpresas() lambdahttp.Handlers {
	return organizacion.Empresas(d.DB)
}

// GrupoSucursales returns the handlers of the "sucursales" function group.
func (d *Deps) GrupoSucursales() lambdahttp.Handlers {
	return organizacion.Sucursales(d.DB)
}

// GrupoAlmacenes returns the handlers of the "almacenes" function group.
func (d *Deps) GrupoAlmacenes() lambdahttp.Handlers {
	return organizacion.Almacenes(d.DB)
}
