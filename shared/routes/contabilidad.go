package routes

// The contabilidad group (issue 13): the chart of accounts, journal
// entries, accounting periods, the posting configuration and exchange
// rates (one Lambda). Permissions: the chart, the configuration and the
// exchange rates are cuentas_contables.*; entries and periods
// asientos_contables.* (posting, annulling, closing and reopening a period
// are changes: .actualizar).
func init() {
	Register(func() []Route {
		g := grupo{group: "contabilidad", path: "/api"}
		out := conResumenes(map[string]string{
			"cuentas-contables.index": "Listar el catálogo de cuentas (filtros search, tipo, padre_id, nivel, acepta_movimientos, activos; " +
				"arbol=true: cuentas de nivel superior con sus subcuentas en hijos; fecha_corte: saldo de cada cuenta a esa fecha)",
			"cuentas-contables.store":    "Crear una cuenta contable (naturaleza según el tipo si no se indica; nivel según la cuenta padre)",
			"cuentas-contables.show":     "Ver una cuenta contable con su cuenta padre",
			"cuentas-contables.update":   "Actualizar una cuenta contable (codigo, tipo y padre_id no cambian; activo=false la desactiva)",
			"cuentas-contables.patch":    "Actualizar parcialmente una cuenta contable",
			"cuentas-contables.destroy":  "Eliminar (lógicamente) una cuenta sin movimientos ni subcuentas",
			"asientos-contables.index":   "Listar asientos contables (filtros fecha_inicio, fecha_fin, estado, origen, origen_id, cuenta_id, search en numero y descripcion)",
			"asientos-contables.store":   "Registrar un asiento manual en borrador o contabilizado (admite Idempotency-Key)",
			"asientos-contables.show":    "Ver un asiento con sus líneas y cuentas",
			"asientos-contables.update":  "Modificar un asiento en borrador (lineas reemplaza las líneas; estado=contabilizado lo contabiliza)",
			"asientos-contables.patch":   "Modificar parcialmente un asiento en borrador",
			"asientos-contables.destroy": "Eliminar un asiento en borrador (uno contabilizado se anula)",
			"tipos-cambio.index":         "Listar tipos de cambio de referencia (permiso cuentas_contables.leer)",
			"tipos-cambio.store":         "Registrar el tipo de cambio de una fecha (permiso cuentas_contables.crear)",
			"tipos-cambio.show":          "Ver un tipo de cambio (permiso cuentas_contables.leer)",
			"tipos-cambio.update":        "Actualizar un tipo de cambio (permiso cuentas_contables.actualizar)",
			"tipos-cambio.patch":         "Actualizar parcialmente un tipo de cambio (permiso cuentas_contables.actualizar)",
			"tipos-cambio.destroy":       "Eliminar (lógicamente) un tipo de cambio (permiso cuentas_contables.eliminar)",
		}, g.crud("cuentas-contables", "cuentas_contables"), g.crud("asientos-contables", "asientos_contables"), g.crud("tipos-cambio", "cuentas_contables"))
		asientos, cuentas := permisosDe("asientos_contables"), permisosDe("cuentas_contables")
		return append(out,
			g.route("asientos-contables.contabilizar", "POST", "/asientos-contables/{id}/contabilizar", asientos.actualizar, "Contabilizar un asiento en borrador (le da su número AS-<año>-<n>)"),
			g.route("asientos-contables.anular", "POST", "/asientos-contables/{id}/anular", asientos.actualizar, "Anular un asiento manual contabilizado: responde el asiento de reversión (reversa_de_id)"),
			g.route("periodos-contables.index", "GET", "/periodos-contables", asientos.leer, "Listar los períodos contables con asientos o estado (filtros anio, estado; permiso asientos_contables.leer)"),
			g.route("periodos-contables.cerrar", "POST", "/periodos-contables/{anio}/{mes}/cerrar", asientos.actualizar, "Cerrar un mes: no admite más asientos (permiso asientos_contables.actualizar)"),
			g.route("periodos-contables.reabrir", "POST", "/periodos-contables/{anio}/{mes}/reabrir", asientos.actualizar, "Reabrir un mes cerrado (permiso asientos_contables.actualizar)"),
			g.route("contabilidad.configuracion.show", "GET", "/contabilidad/configuracion", cuentas.leer, "Ver las cuentas que usa la contabilización automática (permiso cuentas_contables.leer)"),
			g.route("contabilidad.configuracion.update", "PUT", "/contabilidad/configuracion", cuentas.actualizar, "Cambiar cuentas de la contabilización automática (cualquier subconjunto; permiso cuentas_contables.actualizar)"),
		)
	})
}
