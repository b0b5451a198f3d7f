package routes

// The webhooks group: administration of a company's subscriptions, their
// delivery log, tests and redeliveries (issue 11). Deliveries run in the
// webhook-worker (SQS) and the scheduler's sweep, declared in Queues.
func init() {
	Register(func() []Route {
		r := grupo{group: "webhooks", name: "webhooks.", path: "/api/webhooks"}.route
		p := permisosDe("webhooks")
		return []Route{
			r("index", "GET", "", p.leer, "Listar las suscripciones de webhooks de la empresa (search, activos)"),
			r("store", "POST", "", p.crear, "Crear una suscripción (el secreto se muestra solo en esta respuesta)"),
			r("eventos", "GET", "/eventos", p.leer, "Eventos disponibles con descripción y ejemplo"),
			r("show", "GET", "/{id}", p.leer, "Ver una suscripción (secreto enmascarado)"),
			r("update", "PUT", "/{id}", p.actualizar, "Actualizar una suscripción"),
			r("patch", "PATCH", "/{id}", p.actualizar, "Actualizar parcialmente una suscripción"),
			r("destroy", "DELETE", "/{id}", p.eliminar, "Eliminar (lógicamente) una suscripción"),
			r("probar", "POST", "/{id}/probar", p.actualizar, "Enviar ahora un evento firmado webhook.prueba y ver el resultado"),
			r("regenerar_secreto", "POST", "/{id}/regenerar-secreto", p.actualizar, "Generar un secreto nuevo (se muestra una vez)"),
			r("entregas", "GET", "/{id}/entregas", p.leer, "Registro de entregas: un renglón por intento (filtros estado, evento, fecha_inicio, fecha_fin)"),
			r("reenviar", "POST", "/{id}/entregas/{entrega_id}/reenviar", p.actualizar, "Programar una entrega nueva del evento de esa entrega"),
		}
	})
}
