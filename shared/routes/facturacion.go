package routes

// The hacienda group: electronic invoicing to the tax authority (one
// Lambda). Submission and status polling run in the hacienda-worker (SQS)
// and the scheduler (EventBridge), declared in Functions and Queues.
func init() {
	Register(func() []Route {
		r := grupo{group: "hacienda", name: "hacienda.", path: "/api/v1/hacienda"}.route
		p := permisosDe("facturacion_electronica")
		return []Route{
			r("configuracion.show", "GET", "/configuracion", p.leer, "Configuración de facturación electrónica de la empresa (sin secretos)"),
			r("configuracion.update", "PUT", "/configuracion", p.actualizar, "Guardar certificado, credenciales, ambiente, actividad y terminales"),
			r("generar", "POST", "/generar", p.crear, "Crear el comprobante de una venta con su clave y consecutivo"),
			r("index", "GET", "", p.leer, "Listar comprobantes (filtros estado, tipo_documento, fecha_inicio, fecha_fin, venta_id)"),
			r("estadisticas", "GET", "/estadisticas", p.leer, "Cantidad de comprobantes por estado y por tipo"),
			r("show", "GET", "/{id}", p.leer, "Ver un comprobante con sus XML y la respuesta de Hacienda"),
			r("estado", "GET", "/{id}/estado", p.leer, "Estado actual de un comprobante"),
			r("generar-xml", "POST", "/{id}/generar-xml", p.crear, "Generar el XML v4.4 del comprobante"),
			r("firmar", "POST", "/{id}/firmar", p.crear, "Firmar el XML (XAdES-EPES) con el certificado de la empresa"),
			// Counted by the handler: only real submissions.
			r("enviar", "POST", "/{id}/enviar", p.crear, "Encolar el envío a Hacienda (202); el estado se consulta cada 30 s").limite(RateHacienda),
		}
	})
}
