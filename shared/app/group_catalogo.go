package app

import (
	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/lambdahttp"
)

func init() {
	register("catalogos", func(d *Deps) lambdahttp.Handlers { return catalogo.Catalogos(d.DB) })
	register("productos", func(d *Deps) lambdahttp.Handlers { return catalogo.Productos(d.DB) })
}
