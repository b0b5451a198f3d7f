package routes

// Purchases: purchase orders with their approval, receipt and cancellation,
// and the payables that a received order leaves, with their payments.
func init() {
	Register(func() []Route {
		g := grupo{group: "compras", path: "/api"}
		p := permisosDe("compras")
		return append(g.crud("ordenes-compra", "compras"),
			g.route("ordenes-compra.aprobar", "POST", "/ordenes-compra/{id}/aprobar", p.actualizar, "Aprobar una orden de compra pendiente"),
			g.route("ordenes-compra.recibir", "POST", "/ordenes-compra/{id}/recibir", p.actualizar,
				"Recibir (total o parcialmente) una orden de compra aprobada: entrada de inventario y cuenta por pagar"),
			g.route("ordenes-compra.cancelar", "POST", "/ordenes-compra/{id}/cancelar", p.actualizar, "Cancelar una orden de compra no recibida"),
			g.route("cuentas-por-pagar.index", "GET", "/cuentas-por-pagar", p.leer, "Listar cuentas por pagar"),
			g.route("cuentas-por-pagar.show", "GET", "/cuentas-por-pagar/{id}", p.leer, "Ver una cuenta por pagar con sus pagos"),
			g.route("cuentas-por-pagar.pagos", "POST", "/cuentas-por-pagar/{id}/pagos", p.actualizar, "Registrar un pago de una cuenta por pagar"),
		)
	})
}
