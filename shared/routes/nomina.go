package routes

// The nomina group (issue 15, "Payroll"): planillas (nomina.*) and the
// payroll rates. The rates are global (every company reads them) and only
// a platform administrator changes them; the vacation provision is the
// company's (nomina.leer / nomina.actualizar). Marking a planilla paid is
// limited by payment_process (3 per hour and company).
func init() {
	Register(func() []Route {
		const group = "nomina"
		leer, crear, actualizar := []string{"nomina.leer"}, []string{"nomina.crear"}, []string{"nomina.actualizar"}
		return []Route{
			{Name: "nomina.tarifas.index", Method: "GET", Path: "/api/nomina/tarifas", Group: group,
				Summary: "Listar las tarifas de nómina vigentes y históricas (cargas sociales, tramos y créditos de renta, provisiones) " +
					"con su fuente legal (filtros tipo, concepto, vigente_en)"},
			{Name: "nomina.tarifas.store", Method: "POST", Path: "/api/nomina/tarifas", Group: group, Platform: true,
				Summary: "Registrar una tarifa de nómina con su vigencia y fuente (administrador de la plataforma)"},
			{Name: "nomina.tarifas.update", Method: "PUT", Path: "/api/nomina/tarifas/{id}", Group: group, Platform: true,
				Summary: "Modificar una tarifa de nómina (administrador de la plataforma)"},
			{Name: "nomina.configuracion.show", Method: "GET", Path: "/api/nomina/configuracion", Group: group, Permissions: leer,
				Summary: "Ver la configuración de nómina de la empresa (porcentaje de provisión de vacaciones)"},
			{Name: "nomina.configuracion.update", Method: "PUT", Path: "/api/nomina/configuracion", Group: group, Permissions: actualizar,
				Summary: "Cambiar el porcentaje de provisión de vacaciones de la empresa"},
			{Name: "planillas.index", Method: "GET", Path: "/api/planillas", Group: group, Permissions: leer,
				Summary: "Listar planillas con sus totales (filtros estado, tipo, anio)"},
			{Name: "planillas.store", Method: "POST", Path: "/api/planillas", Group: group, Permissions: crear,
				Summary: "Crear una planilla en borrador (tipo, fecha_inicio, fecha_fin) con una línea por empleado activo en el período"},
			{Name: "planillas.show", Method: "GET", Path: "/api/planillas/{id}", Group: group, Permissions: leer,
				Summary: "Ver una planilla con sus totales y sus líneas"},
			{Name: "planillas.lineas.update", Method: "PATCH", Path: "/api/planillas/{id}/lineas", Group: group, Permissions: actualizar,
				Summary: "Cambiar las entradas de varias líneas (horas_extra, bonificaciones, comisiones, dias_incapacidad, otras_deducciones) " +
					"de una planilla en borrador o calculada (vuelve a borrador)"},
			{Name: "planillas.calcular", Method: "POST", Path: "/api/planillas/{id}/calcular", Group: group, Permissions: actualizar,
				Summary: "Calcular cada línea: salario, horas extra, incapacidad, CCSS, renta, cargas patronales y provisiones"},
			{Name: "planillas.aprobar", Method: "POST", Path: "/api/planillas/{id}/aprobar", Group: group, Permissions: actualizar,
				Summary: "Aprobar una planilla calculada"},
			{Name: "planillas.anular", Method: "POST", Path: "/api/planillas/{id}/anular", Group: group, Permissions: actualizar,
				Summary: "Anular una planilla que no está pagada"},
			{Name: "planillas.marcar-pagada", Method: "POST", Path: "/api/planillas/{id}/marcar-pagada", Group: group,
				Permissions: actualizar, Rate: RatePaymentProcess,
				Summary: "Marcar pagada una planilla aprobada: contabiliza el asiento y emite PlanillaPagadaEvent (límite payment_process)"},
			{Name: "planillas.comprobantes.show", Method: "GET", Path: "/api/planillas/{id}/comprobantes/{empleado_id}", Group: group,
				Permissions: leer, Descargas: RateReports, Summary: "Comprobante de pago de un empleado en PDF"},
			{Name: "planillas.reporte-ccss", Method: "GET", Path: "/api/planillas/{id}/reporte-ccss", Group: group,
				Permissions: leer, Descargas: RateExports,
				Summary: "Reporte para el SICERE de la CCSS (formato=csv|excel): identificación, días y salario reportado por empleado"},
			{Name: "planillas.aguinaldo", Method: "POST", Path: "/api/planillas/aguinaldo", Group: group, Permissions: leer,
				Summary: "Calcular el aguinaldo de diciembre de anio por empleado (salarios de las planillas pagadas de diciembre a noviembre / 12)"},
		}
	})
}
