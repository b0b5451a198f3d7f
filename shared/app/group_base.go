package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/ops"
	"github.com/erpcr/erp/shared/sesiones"
	"github.com/erpcr/erp/shared/usuarios"
)

func init() {
	register("auth", func(d *Deps) lambdahttp.Handlers {
		login := &sesiones.Limiter{DB: d.DB, PorEmail: d.Cfg.LoginMaxAttempts, PorDireccion: d.Cfg.LoginMaxFailuresPerAddress, Ventana: d.Cfg.LoginWindow}
		return (&sesiones.Service{DB: d.DB, TokenTTL: d.Cfg.TokenTTL, Login: login}).Handlers()
	})
	register("usuarios", func(d *Deps) lambdahttp.Handlers {
		return (&usuarios.Service{DB: d.DB, BcryptCost: d.Cfg.BcryptCost}).Handlers()
	})
	register("ops", func(d *Deps) lambdahttp.Handlers {
		return (&ops.Service{DB: d.DB}).Handlers()
	})
}
