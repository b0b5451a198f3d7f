package routes

// The programados group (issue 14, "Scheduled reports"; shared/programados):
// the five operations on /api/reportes-programados, the runs of a schedule
// and the download of a run's file. A group of its own so that only its
// function reads the files' bucket. The routes need no permission of
// their own: a schedule is as visible as its report, so the handlers check
// the permission of the report type's route (any one of them) on every
// schedule they create, show, change, list or serve (403 otherwise).
func init() {
	Register(func() []Route {
		g := grupo{group: "programados", path: "/api"}
		rs := conResumenes(map[string]string{
			"reportes-programados.index": "Listar reportes programados de los tipos que el usuario puede ver (search, tipo, frecuencia, activo)",
			"reportes-programados.store": "Programar un reporte (nombre, tipo, parametros, frecuencia diaria|semanal+dia_semana|mensual+dia_mes, " +
				"hora HH:MM de Costa Rica, formato, destinatarios, activo); requiere el permiso del reporte",
			"reportes-programados.show":    "Ver un reporte programado con su próxima y última ejecución",
			"reportes-programados.update":  "Actualizar un reporte programado (la próxima ejecución se recalcula si cambia el calendario)",
			"reportes-programados.patch":   "Actualizar parcialmente un reporte programado",
			"reportes-programados.destroy": "Eliminar (lógicamente) un reporte programado",
		}, g.crud("reportes-programados", ""))
		const permiso = ". Permiso: el del tipo de reporte."
		for i := range rs {
			rs[i].Permissions = nil
			rs[i].Summary += permiso
		}
		return append(rs,
			g.route("reportes-programados.ejecuciones.index", "GET", "/reportes-programados/{id}/ejecuciones", nil,
				"Listar las ejecuciones de un reporte programado (estado, error, fechas y enlace de descarga)"+permiso),
			g.route("reportes-programados.ejecuciones.archivo", "GET", "/reportes-programados/{id}/ejecuciones/{eid}/archivo", nil,
				"Descargar el archivo de una ejecución"+permiso),
		)
	})
}
