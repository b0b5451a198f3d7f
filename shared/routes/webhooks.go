package routes

// The webhooks group: administration of a company's subscriptions, their
// delivery log, tests and redeliveries (issue 11). Deliveries run in the
// webhook-worker (SQS) and the scheduler's sweep, declared in Queues.
func init() {
	Register(func() []Route {
		const base = "/api/webhooks"
		// The two naming schemes of SPEC.md are the same permission (OR).
		leer := []string{"webhooks.leer"}
		crear := []string{"webhooks.crear"}
		actualizar := []string{"webhooks.actualizar"}
		eliminar := []string{"webhooks.eliminar"}
		r := func(name, method, path string, perms []string, summary string) Route {
			return Route{Name: "webhooks." + name, Method: method, Path: base + path, Group: "webhooks", Permissions: perms, Summary: summary}
		}
		return []Route{
			r("index", "GET", "", leer, "Listar las suscripciones de webhooks de la empresa (search, activos)"),
			r("store", "POST", "", crear, "Crear una suscripción (el secreto se muestra solo en esta respuesta)"),
			r("eventos", "GET", "/eventos", leer, "Eventos disponibles con descripción y ejemplo"),
			r("show", "GET", "/{id}", leer, "Ver una suscripción (secreto enmascarado)"),
			r("update", "PUT", "/{id}", actualizar, "Actualizar una suscripción"),
			r("patch", "PATCH", "/{id}", actualizar, "Actualizar parcialmente una suscripción"),
			r("destroy", "DELETE", "/{id}", eliminar, "Eliminar (lógicamente) una suscripción"),
			r("probar", "POST", "/{id}/probar", actualizar, "Enviar ahora un evento firmado webhook.prueba y ver el resultado"),
			r("regenerar_secreto", "POST", "/{id}/regenerar-secreto", actualizar, "Generar un secreto nuevo (se muestra una vez)"),
			r("entregas", "GET", "/{id}/entregas", leer, "Registro de entregas: un renglón por intento (filtros estado, evento, fecha_inicio, fecha_fin)"),
			r("reenviar", "POST", "/{id}/entregas/{entrega_id}/reenviar", actualizar, "Programar una entrega nueva del evento de esa entrega"),
		}
	})
}
