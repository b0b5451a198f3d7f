package routes

// The transporte group (issue 15, "Transport"): bus routes with their stops
// and departures, and buses with their route, driver and document expiry.
func init() {
	Register(func() []Route {
		g := grupo{group: "transporte", path: "/api"}
		return conResumenes(map[string]string{
			"rutas.index":   "Listar rutas con sus paradas y horarios (origen, destino, search, activos; formato=csv|excel exporta)",
			"rutas.store":   "Crear una ruta con sus paradas (órdenes consecutivos desde 1) y horarios",
			"rutas.show":    "Ver una ruta con sus paradas, horarios y buses",
			"rutas.update":  "Actualizar una ruta (paradas y horarios enviados reemplazan los anteriores)",
			"rutas.patch":   "Actualizar parcialmente una ruta (paradas y horarios enviados reemplazan los anteriores)",
			"rutas.destroy": "Eliminar (lógicamente) una ruta sin buses asignados",
			"buses.index":   "Listar buses (estado, ruta_id, chofer_id, por_vencer=N días: revisión técnica o seguro por vencer, search, activos)",
			"buses.store":   "Crear un bus (placa de Costa Rica única en la empresa; ruta activa, chofer empleado activo)",
			"buses.show":    "Ver un bus con su ruta y su chofer",
			"buses.update":  "Actualizar un bus (fuera de servicio o con la revisión técnica vencida no se asigna a una ruta)",
			"buses.patch":   "Actualizar parcialmente un bus",
			"buses.destroy": "Eliminar (lógicamente) un bus",
		}, g.crud("rutas", "rutas"), g.crud("buses", "buses"))
	})
}
