package routes

// The webhooks group: administration of a company's subscriptions, their
// delivery log, tests and redeliveries (issue 11). Deliveries run in the
// webhook-worker (SQS) and the scheduler's sweep, declared in Queues.
func init() {
	Register(func() []Route {
		r := grupo{group: "webhooks", name: "webhooks.", path: "/api/webhooks"}.route
		p := permisosDe("webhooks")
		rs := conResumenes(map[string]string{
			"webhooks.index":   "Listar las suscripciones de webhooks de la empresa (search, activos)",
			"webhooks.store":   "Crear una suscripción (el secreto se muestra solo en esta respuesta)",
			"webhooks.show":    "Ver una suscripción (secreto enmascarado)",
			"webhooks.update":  "Actualizar una suscripción",
			"webhooks.patch":   "Actualizar parcialmente una suscripción",
			"webhooks.destroy": "Eliminar (lógicamente) una suscripción",
		}, crud("webhooks", "webhooks", "webhooks"))
		return append(rs,
			r("eventos", "GET", "/eventos", p.leer, "Eventos disponibles con descripción y ejemplo"),
			r("probar", "POST", "/{id}/probar", p.actualizar, "Enviar ahora un evento firmado webhook.prueba y ver el resultado"),
			r("regenerar_secreto", "POST", "/{id}/regenerar-secreto", p.actualizar, "Generar un secreto nuevo (se muestra una vez)"),
			r("entregas", "GET", "/{id}/entregas", p.leer, "Registro de entregas: un renglón por intento (filtros estado, evento, fecha_inicio, fecha_fin)"),
			r("reenviar", "POST", "/{id}/entregas/{entrega_id}/reenviar", p.actualizar, "Programar una entrega nueva del evento de esa entrega"),
		)
	})
}
