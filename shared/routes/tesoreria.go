package routes

// The tesoreria group (issue 13, "Treasury"): bank accounts and their
// reconciliations, cash boxes per branch and their sessions, budgets and
// the budget-versus-actual report.
func init() {
	Register(func() []Route {
		rs := CRUD("tesoreria", "cuentas-bancarias", "cuentas_bancarias")
		rs = append(rs, CRUD("tesoreria", "cajas", "cajas")...)
		rs = append(rs, CRUD("tesoreria", "presupuestos", "presupuestos")...)
		summaries := map[string]string{
			"cuentas-bancarias.index":   "Listar cuentas bancarias con su saldo en libros (search, moneda, activos)",
			"cuentas-bancarias.store":   "Crear una cuenta bancaria (IBAN de Costa Rica; sin cuenta_contable_id se crea una bajo 1.1.02 Bancos)",
			"cuentas-bancarias.show":    "Ver una cuenta bancaria con su saldo y sus movimientos sin conciliar",
			"cuentas-bancarias.update":  "Actualizar una cuenta bancaria",
			"cuentas-bancarias.patch":   "Actualizar parcialmente una cuenta bancaria",
			"cuentas-bancarias.destroy": "Eliminar (lógicamente) una cuenta bancaria sin saldo",
			"cajas.index":               "Listar cajas (sucursal_id, abierta, search, activos)",
			"cajas.store":               "Crear una caja de una sucursal",
			"cajas.show":                "Ver una caja con su sesión abierta y sus últimas sesiones",
			"cajas.update":              "Actualizar una caja",
			"cajas.patch":               "Actualizar parcialmente una caja",
			"cajas.destroy":             "Eliminar (lógicamente) una caja sin sesión abierta",
			"presupuestos.index":        "Listar presupuestos (anio, cuenta_contable_id, activos)",
			"presupuestos.store":        "Crear el presupuesto de una cuenta para un año (12 montos mensuales)",
			"presupuestos.show":         "Ver un presupuesto",
			"presupuestos.update":       "Actualizar un presupuesto",
			"presupuestos.patch":        "Actualizar parcialmente un presupuesto",
			"presupuestos.destroy":      "Eliminar (lógicamente) un presupuesto",
		}
		for i := range rs {
			rs[i].Summary = summaries[rs[i].Name]
		}
		return append(rs,
			Route{Name: "cuentas-bancarias.conciliaciones.index", Method: "GET", Path: "/api/cuentas-bancarias/{id}/conciliaciones", Group: "tesoreria",
				Permissions: []string{"cuentas_bancarias.leer"}, Summary: "Listar las conciliaciones bancarias de una cuenta"},
			Route{Name: "cuentas-bancarias.conciliaciones.store", Method: "POST", Path: "/api/cuentas-bancarias/{id}/conciliaciones", Group: "tesoreria",
				Permissions: []string{"cuentas_bancarias.actualizar"},
				Summary:     "Registrar una conciliación bancaria (fecha_corte, saldo_estado_cuenta, movimientos conciliados)"},
			Route{Name: "cajas.abrir", Method: "POST", Path: "/api/cajas/{id}/abrir", Group: "tesoreria",
				Permissions: []string{"cajas.actualizar"}, Summary: "Abrir una sesión de caja con su monto inicial"},
			Route{Name: "cajas.cerrar", Method: "POST", Path: "/api/cajas/{id}/cerrar", Group: "tesoreria",
				Permissions: []string{"cajas.actualizar"}, Summary: "Cerrar la sesión de caja: efectivo esperado, contado y sobrante o faltante contabilizado"},
			Route{Name: "reportes.presupuesto_vs_real", Method: "GET", Path: "/api/reportes/presupuesto-vs-real", Group: "tesoreria",
				Permissions: []string{"presupuestos.leer"}, Summary: "Presupuesto contra real por cuenta (anio, mes): variación en monto y porcentaje"},
		)
	})
}
