package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/terceros"
)

func init() {
	register("clientes", func(d *Deps) lambdahttp.Handlers { return terceros.Clientes(d.DB) })
	register("proveedores", func(d *Deps) lambdahttp.Handlers { return terceros.Proveedores(d.DB) })
}
