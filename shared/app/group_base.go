package app

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/ops"
	"github.com/erpcr/erp/shared/sesiones"
	"github.com/erpcr/erp/shared/usuarios"
)

// GrupoAuth returns the handlers of the "auth" function group.
func (d *Deps) GrupoAuth() lambdahttp.Handlers {
	login := &sesiones.Limiter{DB: d.DB, PorEmail: d.Cfg.LoginMaxAttempts, PorDireccion: d.Cfg.LoginMaxFailuresPerAddress, Ventana: d.Cfg.LoginWindow}
	return (&sesiones.Service{DB: d.DB, TokenTTL: d.Cfg.TokenTTL, Login: login}).Handlers()
}

// GrupoUsuarios returns the handlers of the "usuarios" function group.
func (d *Deps) GrupoUsuarios() lambdahttp.Handlers {
	return (&usuarios.Service{DB: d.DB, BcryptCost: d.Cfg.BcryptCost}).Handlers()
}

// GrupoOps returns the handlers of the "ops" function group.
func (d *Deps) GrupoOps() lambdahttp.Handlers {
	return (&ops.Service{DB: d.DB}).Handlers()
}
