package routes

// The nomina group (issue 15, "Payroll"): planillas (nomina.*) and the
// payroll rates. The rates are global (every company reads them) and only
// a platform administrator changes them; the vacation provision is the
// company's (nomina.leer / nomina.actualizar). Marking a planilla paid is
// limited by payment_process (3 per hour and company).
func init() {
	Register(func() []Route {
		g := grupo{group: "nomina", path: "/api"}
		p := permisosDe("nomina")
		return []Route{
			g.route("nomina.tarifas.index", "GET", "/nomina/tarifas", nil,
				"Listar las tarifas de nómina vigentes y históricas (cargas sociales, tramos y créditos de renta, provisiones) "+
					"con su fuente legal (filtros tipo, concepto, vigente_en)"),
			g.route("nomina.tarifas.store", "POST", "/nomina/tarifas", nil,
				"Registrar una tarifa de nómina con su vigencia y fuente (administrador de la plataforma)").plataforma(),
			g.route("nomina.tarifas.update", "PUT", "/nomina/tarifas/{id}", nil,
				"Modificar una tarifa de nómina (administrador de la plataforma)").plataforma(),
			g.route("nomina.configuracion.show", "GET", "/nomina/configuracion", p.leer,
				"Ver la configuración de nómina de la empresa (porcentaje de provisión de vacaciones)"),
			g.route("nomina.configuracion.update", "PUT", "/nomina/configuracion", p.actualizar,
				"Cambiar el porcentaje de provisión de vacaciones de la empresa"),
			g.route("planillas.index", "GET", "/planillas", p.leer, "Listar planillas con sus totales (filtros estado, tipo, anio)"),
			g.route("planillas.store", "POST", "/planillas", p.crear,
				"Crear una planilla en borrador (tipo, fecha_inicio, fecha_fin) con una línea por empleado activo en el período"),
			g.route("planillas.show", "GET", "/planillas/{id}", p.leer, "Ver una planilla con sus totales y sus líneas"),
			g.route("planillas.lineas.update", "PATCH", "/planillas/{id}/lineas", p.actualizar,
				"Cambiar las entradas de varias líneas (horas_extra, bonificaciones, comisiones, dias_incapacidad, otras_deducciones) "+
					"de una planilla en borrador o calculada (vuelve a borrador)"),
			g.route("planillas.calcular", "POST", "/planillas/{id}/calcular", p.actualizar,
				"Calcular cada línea: salario, horas extra, incapacidad, CCSS, renta, cargas patronales y provisiones"),
			g.route("planillas.aprobar", "POST", "/planillas/{id}/aprobar", p.actualizar, "Aprobar una planilla calculada"),
			g.route("planillas.anular", "POST", "/planillas/{id}/anular", p.actualizar, "Anular una planilla que no está pagada"),
			g.route("planillas.marcar-pagada", "POST", "/planillas/{id}/marcar-pagada", p.actualizar,
				"Marcar pagada una planilla aprobada: contabiliza el asiento y emite PlanillaPagadaEvent (límite payment_process)").
				limite(RatePaymentProcess),
			g.route("planillas.comprobantes.show", "GET", "/planillas/{id}/comprobantes/{empleado_id}", p.leer,
				"Comprobante de pago de un empleado en PDF").descargas(RateReports),
			g.route("planillas.reporte-ccss", "GET", "/planillas/{id}/reporte-ccss", p.leer,
				"Reporte para el SICERE de la CCSS (formato=csv|excel): identificación, días y salario reportado por empleado").
				descargas(RateExports),
			g.route("planillas.aguinaldo", "POST", "/planillas/aguinaldo", p.leer,
				"Calcular el aguinaldo de diciembre de anio por empleado (salarios de las planillas pagadas de diciembre a noviembre / 12)"),
		}
	})
}
