package catalogo

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
)

// GrupoCatalogos is the "catalogos" function group (functions/catalogos/main.go).
func GrupoCatalogos(d *plataforma.Deps) lambdahttp.Handlers {
	return Catalogos(d.DB)
}

// GrupoProductos is the "productos" function group (functions/productos/main.go).
func GrupoProductos(d *plataforma.Deps) lambdahttp.Handlers {
	return Productos(d.DB)
}
