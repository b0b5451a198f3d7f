package app

import (
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/lambdahttp"
)

func init() {
	register("inventario", func(d *Deps) lambdahttp.Handlers { return (&inventario.Service{DB: d.DB}).Handlers() })
}
