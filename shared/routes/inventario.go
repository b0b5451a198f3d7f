package routes

// Inventory movements (entries, exits, transfers) and stock per warehouse.
// Reading needs inventario.leer, recording inventario.crear, and applying or
// cancelling a recorded movement inventario.actualizar.
func init() {
	Register(func() []Route {
		const group = "inventario"
		leer, crear, actualizar := []string{"inventario.leer"}, []string{"inventario.crear"}, []string{"inventario.actualizar"}
		var out []Route
		for _, c := range []struct{ resource, one string }{{"entradas", "una entrada"}, {"salidas", "una salida"}} {
			base := "/api/inventario/" + c.resource
			name := "inventario." + c.resource
			out = append(out,
				Route{Name: name + ".index", Method: "GET", Path: base, Group: group, Permissions: leer, Summary: "Listar " + c.resource + " de inventario"},
				Route{Name: name + ".store", Method: "POST", Path: base, Group: group, Permissions: crear, Summary: "Registrar " + c.one + " de inventario"},
				Route{Name: name + ".show", Method: "GET", Path: base + "/{id}", Group: group, Permissions: leer, Summary: "Ver " + c.one + " con sus detalles"},
				Route{Name: name + ".procesar", Method: "POST", Path: base + "/{id}/procesar", Group: group, Permissions: actualizar, Summary: "Aplicar " + c.one + " pendiente a las existencias"},
				Route{Name: name + ".cancelar", Method: "POST", Path: base + "/{id}/cancelar", Group: group, Permissions: actualizar, Summary: "Cancelar " + c.one + " pendiente"},
			)
		}
		return append(out,
			Route{Name: "inventario.transferencias.store", Method: "POST", Path: "/api/inventario/transferencias", Group: group, Permissions: crear,
				Summary: "Transferir existencias entre almacenes (salida y entrada procesadas juntas)"},
			Route{Name: "inventario.existencias.index", Method: "GET", Path: "/api/inventario/existencias", Group: group, Permissions: leer,
				Summary: "Existencias por almacén y producto"},
		)
	})
}
