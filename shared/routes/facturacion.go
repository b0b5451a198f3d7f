package routes

// The hacienda group: electronic invoicing to the tax authority (one
// Lambda). Submission and status polling run in the hacienda-worker (SQS)
// and the scheduler (EventBridge), declared in Functions and Queues.
func init() {
	Register(func() []Route {
		const base = "/api/v1/hacienda"
		leer := []string{"facturacion_electronica.leer"}
		crear := []string{"facturacion_electronica.crear"}
		actualizar := []string{"facturacion_electronica.actualizar"}
		r := func(name, method, path string, perms []string, summary string) Route {
			return Route{Name: "hacienda." + name, Method: method, Path: base + path, Group: "hacienda", Permissions: perms, Summary: summary}
		}
		enviar := r("enviar", "POST", "/{id}/enviar", crear, "Encolar el envío a Hacienda (202); el estado se consulta cada 30 s")
		enviar.Rate = RateHacienda // counted by the handler: only real submissions
		return []Route{
			r("configuracion.show", "GET", "/configuracion", leer, "Configuración de facturación electrónica de la empresa (sin secretos)"),
			r("configuracion.update", "PUT", "/configuracion", actualizar, "Guardar certificado, credenciales, ambiente, actividad y terminales"),
			r("generar", "POST", "/generar", crear, "Crear el comprobante de una venta con su clave y consecutivo"),
			r("index", "GET", "", leer, "Listar comprobantes (filtros estado, tipo_documento, fecha_inicio, fecha_fin, venta_id)"),
			r("estadisticas", "GET", "/estadisticas", leer, "Cantidad de comprobantes por estado y por tipo"),
			r("show", "GET", "/{id}", leer, "Ver un comprobante con sus XML y la respuesta de Hacienda"),
			r("estado", "GET", "/{id}/estado", leer, "Estado actual de un comprobante"),
			r("generar-xml", "POST", "/{id}/generar-xml", crear, "Generar el XML v4.4 del comprobante"),
			r("firmar", "POST", "/{id}/firmar", crear, "Firmar el XML (XAdES-EPES) con el certificado de la empresa"),
			enviar,
		}
	})
}
