package app

import (
	"github.com/erpcr/erp/shared/gateway"
	"github.com/erpcr/erp/shared/routes"
)

// Gateway wires every HTTP function group and the authorizer into the local
// API Gateway stand-in, each through its real Lambda handler.
func (d *Deps) Gateway() (*gateway.Gateway, error) {
	groups := map[string]any{}
	for _, g := range routes.Groups() {
		h, err := d.LambdaHandler(g)
		if err != nil {
			return nil, err
		}
		groups[g] = h
	}
	gw := gateway.New(d.Authorizer(), groups, d.Log)
	if len(d.Cfg.CORSOrigins) > 0 {
		gw.CORS = gateway.NewCORS(d.Cfg.CORSOrigins)
	}
	return gw, nil
}
