package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/organizacion"
)

func init() {
	register("empresas", func(d *Deps) lambdahttp.Handlers { return organizacion.Empresas(d.DB) })
	register("sucursales", func(d *Deps) lambdahttp.Handlers { return organizacion.Sucursales(d.DB) })
	register("almacenes", func(d *Deps) lambdahttp.Handlers { return organizacion.Almacenes(d.DB) })
}
