package routes

func init() {
	Register(func() []Route {
		return []Route{{Name: "eventos.index", Method: "GET", Path: "/api/eventos", Group: "eventos",
			Roles: []string{"administrador"}, Summary: "Eventos de dominio de la empresa (outbox)"}}
	})
}
