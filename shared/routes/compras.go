package routes

// Purchases: purchase orders with their approval, receipt and cancellation,
// and the payables that a received order leaves, with their payments.
func init() {
	Register(func() []Route {
		rs := CRUD("compras", "ordenes-compra", "compras")
		action := func(name, method, path, perm, summary string) Route {
			return Route{Name: name, Method: method, Path: path, Group: "compras", Permissions: []string{perm}, Summary: summary}
		}
		return append(rs,
			action("ordenes-compra.aprobar", "POST", "/api/ordenes-compra/{id}/aprobar", "compras.actualizar",
				"Aprobar una orden de compra pendiente"),
			action("ordenes-compra.recibir", "POST", "/api/ordenes-compra/{id}/recibir", "compras.actualizar",
				"Recibir (total o parcialmente) una orden de compra aprobada: entrada de inventario y cuenta por pagar"),
			action("ordenes-compra.cancelar", "POST", "/api/ordenes-compra/{id}/cancelar", "compras.actualizar",
				"Cancelar una orden de compra no recibida"),
			action("cuentas-por-pagar.index", "GET", "/api/cuentas-por-pagar", "compras.leer",
				"Listar cuentas por pagar"),
			action("cuentas-por-pagar.show", "GET", "/api/cuentas-por-pagar/{id}", "compras.leer",
				"Ver una cuenta por pagar con sus pagos"),
			action("cuentas-por-pagar.pagos", "POST", "/api/cuentas-por-pagar/{id}/pagos", "compras.actualizar",
				"Registrar un pago de una cuenta por pagar"),
		)
	})
}
