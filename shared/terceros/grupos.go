package terceros

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
)

// GrupoClientes is the "clientes" function group (functions/clientes/main.go).
func GrupoClientes(d *plataforma.Deps) lambdahttp.Handlers {
	return Clientes(d.DB)
}

// GrupoProveedores is the "proveedores" function group (functions/proveedores/main.go).
func GrupoProveedores(d *plataforma.Deps) lambdahttp.Handlers {
	return Proveedores(d.DB)
}
