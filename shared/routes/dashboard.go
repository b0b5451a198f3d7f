package routes

// The dashboard group: the company's key figures at a glance.
func init() {
	Register(func() []Route {
		return []Route{
			{Name: "dashboard.show", Method: "GET", Path: "/api/dashboard", Group: "dashboard",
				Summary: "Indicadores de la empresa (cada cifra según los permisos del usuario; filtros sucursal_id y fecha)"},
			{Name: "dashboard.invalidar-cache", Method: "POST", Path: "/api/dashboard/invalidar-cache", Group: "dashboard",
				Summary: "Descartar los indicadores guardados de la empresa"},
		}
	})
}
