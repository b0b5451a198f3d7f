package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/ventas"
)

func init() {
	register("ventas", func(d *Deps) lambdahttp.Handlers { return (&ventas.Service{DB: d.DB}).Handlers() })
}
