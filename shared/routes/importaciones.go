package routes

// The importaciones group: master data loaded from a CSV or XLSX file and
// the templates of those files (one Lambda). The route admits any of the
// three create permissions; the handler requires the one of its {tipo}.
func init() {
	Register(func() []Route {
		perms := []string{"productos.crear", "clientes.crear", "proveedores.crear"}
		return []Route{
			{Name: "importaciones.importar", Method: "POST", Path: "/api/importaciones/{tipo}", Group: "importaciones",
				Permissions: perms, Rate: RateImports,
				Summary: "Importar productos, clientes o proveedores desde un archivo CSV o XLSX (multipart/form-data: archivo, modo=validar|aplicar; límite imports)"},
			{Name: "importaciones.plantilla", Method: "GET", Path: "/api/importaciones/plantillas/{tipo}", Group: "importaciones",
				Permissions: perms,
				Summary:     "Descargar la plantilla de importación de productos, clientes o proveedores (formato=csv|excel)"},
		}
	})
}
