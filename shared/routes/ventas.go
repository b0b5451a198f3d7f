package routes

// The ventas group: sales and the receivables of credit sales (one Lambda).
func init() {
	Register(func() []Route {
		rs := CRUD("ventas", "ventas", "ventas")
		summaries := map[string]string{
			"ventas.index":   "Listar ventas (filtros sucursal_id, cliente_id, fecha_inicio, fecha_fin, estado, search; formato=csv|excel exporta todas las filas filtradas, límite exports)",
			"ventas.store":   "Registrar una venta con sus detalles (admite Idempotency-Key)",
			"ventas.show":    "Ver una venta con cliente, detalles y usuario",
			"ventas.update":  "Cambiar observaciones o estado de una venta",
			"ventas.patch":   "Cambiar observaciones o estado de una venta",
			"ventas.destroy": "Anular y eliminar (lógicamente) una venta",
		}
		for i := range rs {
			rs[i].Summary = summaries[rs[i].Name]
		}
		return append(rs,
			Route{Name: "cuentas-por-cobrar.index", Method: "GET", Path: "/api/cuentas-por-cobrar", Group: "ventas",
				Permissions: []string{"ventas.leer"}, Summary: "Listar cuentas por cobrar (filtros cliente_id, estado, vencidas)"},
			Route{Name: "cuentas-por-cobrar.show", Method: "GET", Path: "/api/cuentas-por-cobrar/{id}", Group: "ventas",
				Permissions: []string{"ventas.leer"}, Summary: "Ver una cuenta por cobrar con sus pagos"},
			Route{Name: "cuentas-por-cobrar.pagos", Method: "POST", Path: "/api/cuentas-por-cobrar/{id}/pagos", Group: "ventas",
				Permissions: []string{"ventas.actualizar"}, Summary: "Registrar un pago de una cuenta por cobrar (admite Idempotency-Key)"},
		)
	})
}
