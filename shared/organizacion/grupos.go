package organizacion

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
)

// GrupoEmpresas is the "empresas" function group (functions/empresas/main.go).
func GrupoEmpresas(d *plataforma.Deps) lambdahttp.Handlers {
	return Empresas(d.DB)
}

// GrupoSucursales is the "sucursales" function group (functions/sucursales/main.go).
func GrupoSucursales(d *plataforma.Deps) lambdahttp.Handlers {
	return Sucursales(d.DB)
}

// GrupoAlmacenes is the "almacenes" function group (functions/almacenes/main.go).
func GrupoAlmacenes(d *plataforma.Deps) lambdahttp.Handlers {
	return Almacenes(d.DB)
}
