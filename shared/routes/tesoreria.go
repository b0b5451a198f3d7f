package routes

// The tesoreria group (issue 13, "Treasury"): bank accounts and their
// reconciliations, cash boxes per branch and their sessions, budgets and
// the budget-versus-actual report.
func init() {
	Register(func() []Route {
		g := grupo{group: "tesoreria", path: "/api"}
		rs := conResumenes(map[string]string{
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
		}, g.crud("cuentas-bancarias", "cuentas_bancarias"), g.crud("cajas", "cajas"), g.crud("presupuestos", "presupuestos"))
		return append(rs,
			g.route("cuentas-bancarias.conciliaciones.index", "GET", "/cuentas-bancarias/{id}/conciliaciones", []string{"cuentas_bancarias.leer"},
				"Listar las conciliaciones bancarias de una cuenta"),
			g.route("cuentas-bancarias.conciliaciones.store", "POST", "/cuentas-bancarias/{id}/conciliaciones", []string{"cuentas_bancarias.actualizar"},
				"Registrar una conciliación bancaria (fecha_corte, saldo_estado_cuenta, movimientos conciliados)"),
			g.route("cajas.abrir", "POST", "/cajas/{id}/abrir", []string{"cajas.actualizar"}, "Abrir una sesión de caja con su monto inicial"),
			g.route("cajas.cerrar", "POST", "/cajas/{id}/cerrar", []string{"cajas.actualizar"},
				"Cerrar la sesión de caja: efectivo esperado, contado y sobrante o faltante contabilizado"),
			g.route("reportes.presupuesto_vs_real", "GET", "/reportes/presupuesto-vs-real", []string{"presupuestos.leer"},
				"Presupuesto contra real por cuenta (anio, mes): variación en monto y porcentaje"),
		)
	})
}
