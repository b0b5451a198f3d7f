package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/terceros"
)

// GrupoClientes returns the handlers of the "clientes" function group.
func (d *Deps) GrupoClientes() lambdahttp.Handlers {
	return terceros.Clientes(d.DB)
}

// GrupoProveedores returns the handlers of the "proveedores" function group.
func (d *Deps) GrupoProveedores() lambdahttp.Handlers {
	return terceros.Proveedores(d.DB)
}
