package app

import (
	"github.com/erpcr/erp/shared/compras"
	"github.com/erpcr/erp/shared/lambdahttp"
)

func init() {
	register("compras", func(d *Deps) lambdahttp.Handlers { return (&compras.Service{DB: d.DB}).Handlers() })
}
