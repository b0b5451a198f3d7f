package app

import (
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/lambdahttp"
)

func init() {
	register("eventos", func(d *Deps) lambdahttp.Handlers { return eventos.Handlers(d.DB) })
}
