package app

import (
	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// GrupoCatalogos returns the handlers of the "catalogos" function group.
func (d *Deps) GrupoCatalogos() lambdahttp.Handlers {
	return catalogo.Catalogos(d.DB)
}

// GrupoProductos returns the handlers of the "productos" function group.
func (d *Deps) GrupoProductos() lambdahttp.Handlers {
	return catalogo.Productos(d.DB)
}
