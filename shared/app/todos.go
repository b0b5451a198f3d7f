package app

import "github.com/erpcr/erp/shared/lambdahttp"

// grupos maps every HTTP function group to its constructor: the local
// gateway, the tests and the sample-event tool host all of them. A
// deployed function names only its own constructor (MustLambda), so it
// links only its group's domains (ARCHITECTURE.md).
func (d *Deps) grupos() map[string]func() lambdahttp.Handlers {
	return map[string]func() lambdahttp.Handlers{
		"almacenes":   d.GrupoAlmacenes,
		"auth":        d.GrupoAuth,
		"catalogos":   d.GrupoCatalogos,
		"clientes":    d.GrupoClientes,
		"compras":     d.GrupoCompras,
		"empresas":    d.GrupoEmpresas,
		"eventos":     d.GrupoEventos,
		"hacienda":    d.GrupoHacienda,
		"inventario":  d.GrupoInventario,
		"ops":         d.GrupoOps,
		"productos":   d.GrupoProductos,
		"proveedores": d.GrupoProveedores,
		"sucursales":  d.GrupoSucursales,
		"usuarios":    d.GrupoUsuarios,
		"ventas":      d.GrupoVentas,
		"webhooks":    d.GrupoWebhooks,
	}
}
