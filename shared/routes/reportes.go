package routes

// The reportes group (issue 13, shared/reportes): the financial statements
// and the books, computed from the posted entries, cached per company and
// parameters, exported as PDF, Excel or CSV. Every route needs
// asientos_contables.leer or cuentas_contables.leer (either suffices).
// The trial balance and the general ledger are rate class reports
// (SPEC.md "Limits"); the financial statements and the journal are
// general, and their PDF and Excel exports are counted as reports by the
// handler (shared/reportes.Service.exportable).
func init() {
	Register(func() []Route {
		g := grupo{group: "reportes", name: "reportes.", path: "/api/reportes"}
		leer := []string{"asientos_contables.leer", "cuentas_contables.leer"}
		const permisos = " Permiso: asientos_contables.leer o cuentas_contables.leer."
		r := func(name, method, path string, rate RateClass, summary string) Route {
			return g.route(name, method, path, leer, summary+permisos).limite(rate)
		}
		// The operational reports (issue 14) need the permission of their
		// module; their class is reports.
		op := func(name, path string, permisos []string, summary string) Route {
			return g.route(name, "GET", path, permisos, summary).limite(RateReports)
		}
		return []Route{
			r("financiero", "GET", "/financiero", RateGeneral,
				"Estado de resultados, balance general o flujo de efectivo (tipo, fecha_inicio, fecha_fin, sucursal_id, moneda, comparar, nivel, formato json|pdf|excel|csv; pdf y excel cuentan en el límite de reportes)."),
			r("balanza_comprobacion", "GET", "/balanza-comprobacion", RateReports,
				"Balanza de comprobación: saldo inicial, debe, haber y saldo final por cuenta (fecha_inicio, fecha_fin, sucursal_id, moneda, formato)."),
			r("libro_mayor", "GET", "/libro-mayor", RateReports,
				"Libro mayor de una cuenta con saldo acumulado (cuenta_id, fecha_inicio, fecha_fin, sucursal_id, moneda, formato)."),
			r("libro_diario", "GET", "/libro-diario", RateGeneral,
				"Libro diario: asientos con sus líneas, paginado (fecha_inicio, fecha_fin, sucursal_id, moneda, page, per_page, formato; pdf y excel cuentan en el límite de reportes)."),
			op("antiguedad_cobrar", "/antiguedad-cuentas-por-cobrar", []string{"ventas.leer"},
				"Antigüedad de cuentas por cobrar por cliente: corriente, 1-30, 31-60, 61-90 y más de 90 días (fecha_corte, por omisión hoy; formato). Permiso: ventas.leer."),
			op("antiguedad_pagar", "/antiguedad-cuentas-por-pagar", []string{"compras.leer"},
				"Antigüedad de cuentas por pagar por proveedor: corriente, 1-30, 31-60, 61-90 y más de 90 días (fecha_corte, por omisión hoy; formato). Permiso: compras.leer."),
			op("ventas", "/ventas", []string{"ventas.leer"},
				"Ventas confirmadas del período agrupadas por dia, producto, cliente, sucursal o vendedor: cantidad, subtotal, descuentos, impuestos y total; las notas de crédito restan (fecha_inicio, fecha_fin, agrupar, formato). Permiso: ventas.leer."),
			op("impuestos", "/impuestos", []string{"asientos_contables.leer", "facturacion_electronica.leer", "ventas.leer"},
				"IVA cobrado en ventas y acreditable en compras por tarifa y mes, y el IVA neto (fecha_inicio, fecha_fin, formato). Permiso: asientos_contables.leer, facturacion_electronica.leer o ventas.leer."),
			op("inventario_valorizado", "/inventario-valorizado", []string{"inventario.leer"},
				"Existencias a una fecha por almacén y producto valoradas a costo PEPS (FIFO) desde los movimientos procesados; totales cantidad y valor (fecha, por omisión hoy; almacen_id, producto_id, categoria_id, formato). Permiso: inventario.leer."),
			op("kardex", "/kardex", []string{"inventario.leer"},
				"Kardex de un producto: movimientos en orden cronológico con entrada, salida, saldo, costo unitario y saldo valorado a costo PEPS, desde el saldo inicial (producto_id obligatorio; almacen_id, fecha_inicio, fecha_fin, formato). Permiso: inventario.leer."),
			op("compras", "/compras", []string{"compras.leer"},
				"Compras recibidas del período agrupadas por proveedor o producto: órdenes, cantidad, subtotal, descuentos, impuestos y total (fecha_inicio, fecha_fin, agrupar, formato). Permiso: compras.leer."),
			r("tipos", "GET", "/tipos", RateGeneral, "Tipos de reporte con sus parámetros, formatos y totales."),
			r("invalidar_cache", "POST", "/invalidar-cache", RateGeneral, "Vaciar la caché de reportes de la empresa."),
		}
	})
}
