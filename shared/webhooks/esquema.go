package webhooks

import (
	"sort"

	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/eventos"
)

// Esquemas are the request bodies of the group's routes, by route name, as
// leer reads them (the OpenAPI document; esquema_test.go proves the two
// agree).
var Esquemas = map[string]esquema.Cuerpo{
	"webhooks.store":  esquemaWebhook(true),
	"webhooks.update": esquemaWebhook(false),
	"webhooks.patch":  esquemaWebhook(false),
}

// Consultas are the query parameters of the group's lists, by route name
// (what listaWebhooks and listaIntentos read).
var Consultas = map[string][]esquema.Campo{
	"webhooks.index": {
		{Nombre: "search", Tipo: esquema.Texto, Descripcion: "Busca en el nombre y la URL."},
		{Nombre: "activos", Tipo: esquema.Booleano, Descripcion: "Solo activos (true) o inactivos (false)."},
		{Nombre: "sort", Tipo: esquema.Texto, Valores: ordenesWebhooks()},
	},
	"webhooks.entregas": {
		{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{Pendiente, Entregada, Fallida}, Descripcion: "Estado de la entrega."},
		{Nombre: "evento", Tipo: esquema.Texto, Descripcion: "Nombre del evento (VentaCreadaEvent, webhook.prueba...)."},
		{Nombre: "fecha_inicio", Tipo: esquema.Fecha, Descripcion: "Intentos desde este día (inclusive)."},
		{Nombre: "fecha_fin", Tipo: esquema.Fecha, Descripcion: "Intentos hasta este día (inclusive)."},
		esquema.Orden(intentoSorts),
	},
}

func ordenesWebhooks() []string {
	out := make([]string, 0, len(webhookSorts))
	for k := range webhookSorts {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nombresEventos are the names a subscription may list ("*" is every event).
func nombresEventos() []string {
	out := []string{"*"}
	for _, e := range Catalogo {
		out = append(out, e.Nombre)
	}
	return out
}

func esquemaWebhook(creating bool) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 255, Ejemplo: "ERP contable"},
		{Nombre: "url", Tipo: esquema.Texto, Requerido: creating, MaxLargo: MaxURL, Formato: "uri", Ejemplo: "https://hooks.example.com/erp",
			Descripcion: "https, a un servidor público (no direcciones privadas ni locales)."},
		{Nombre: "eventos", Tipo: esquema.Lista, Requerido: creating, MinItems: 1, Elemento: esquema.Texto, Valores: nombresEventos(),
			Ejemplo: []any{eventos.VentaCreada}},
		{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
		{Nombre: "timeout_segundos", Tipo: esquema.Entero, Minimo: "5", Maximo: "60"},
		{Nombre: "max_reintentos", Tipo: esquema.Entero, Minimo: "1", Maximo: "10"},
		{Nombre: "activo", Tipo: esquema.Booleano},
		{Nombre: "secreto", Tipo: esquema.Texto, MinLargo: 16, MaxLargo: 255, Descripcion: "Por omisión se genera uno."},
	}}
}
