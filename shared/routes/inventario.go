package routes

// Inventory movements (entries, exits, transfers) and stock per warehouse.
// Reading needs inventario.leer, recording inventario.crear, and applying or
// cancelling a recorded movement inventario.actualizar.
func init() {
	Register(func() []Route {
		g := grupo{group: "inventario", name: "inventario.", path: "/api/inventario/"}
		p := permisosDe("inventario")
		var out []Route
		for _, c := range []struct{ resource, one string }{{"entradas", "una entrada"}, {"salidas", "una salida"}} {
			r := c.resource
			out = append(out,
				g.route(r+".index", "GET", r, p.leer, "Listar "+r+" de inventario"),
				g.route(r+".store", "POST", r, p.crear, "Registrar "+c.one+" de inventario"),
				g.route(r+".show", "GET", r+"/{id}", p.leer, "Ver "+c.one+" con sus detalles"),
				g.route(r+".procesar", "POST", r+"/{id}/procesar", p.actualizar, "Aplicar "+c.one+" pendiente a las existencias"),
				g.route(r+".cancelar", "POST", r+"/{id}/cancelar", p.actualizar, "Cancelar "+c.one+" pendiente"),
			)
		}
		return append(out,
			g.route("transferencias.store", "POST", "transferencias", p.crear,
				"Transferir existencias entre almacenes (salida y entrada procesadas juntas)"),
			g.route("existencias.index", "GET", "existencias", p.leer, "Existencias por almacén y producto"),
		)
	})
}
