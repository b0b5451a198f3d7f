package routes

// The ventas group: sales and the receivables of credit sales (one Lambda).
func init() {
	Register(func() []Route {
		g := grupo{group: "ventas", path: "/api"}
		rs := conResumenes(map[string]string{
			"ventas.index":   "Listar ventas (filtros sucursal_id, cliente_id, fecha_inicio, fecha_fin, estado, search; formato=csv|excel exporta todas las filas filtradas, límite exports)",
			"ventas.store":   "Registrar una venta con sus detalles (admite Idempotency-Key)",
			"ventas.show":    "Ver una venta con cliente, detalles y usuario",
			"ventas.update":  "Cambiar observaciones o estado de una venta",
			"ventas.patch":   "Cambiar observaciones o estado de una venta",
			"ventas.destroy": "Anular y eliminar (lógicamente) una venta",
		}, g.crud("ventas", "ventas"))
		return append(rs,
			g.route("cuentas-por-cobrar.index", "GET", "/cuentas-por-cobrar", []string{"ventas.leer"},
				"Listar cuentas por cobrar (filtros cliente_id, estado, vencidas)"),
			g.route("cuentas-por-cobrar.show", "GET", "/cuentas-por-cobrar/{id}", []string{"ventas.leer"}, "Ver una cuenta por cobrar con sus pagos"),
			g.route("cuentas-por-cobrar.pagos", "POST", "/cuentas-por-cobrar/{id}/pagos", []string{"ventas.actualizar"},
				"Registrar un pago de una cuenta por cobrar (admite Idempotency-Key)"),
		)
	})
}
