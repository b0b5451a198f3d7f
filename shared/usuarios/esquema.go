package usuarios

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// decodeUsuario and decodeRol read them (the OpenAPI document;
// esquema_test.go proves the two agree).
var Esquemas = map[string]esquema.Cuerpo{
	"usuarios.store":  esquemaUsuario(true),
	"usuarios.update": esquemaUsuario(false),
	"usuarios.patch":  esquemaUsuario(false),
	"roles.store":     esquemaRol(true),
	"roles.update":    esquemaRol(false),
	"roles.patch":     esquemaRol(false),
}

func esquemaUsuario(creating bool) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 255, Ejemplo: "Ana"},
		{Nombre: "apellidos", Tipo: esquema.Texto, MaxLargo: 255, Ejemplo: "Mora Solís"},
		{Nombre: "email", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 255, Formato: "email", Ejemplo: "ana.mora@demo.cr",
			Descripcion: "Se guarda en minúsculas; único."},
		{Nombre: "password", Tipo: esquema.Texto, Requerido: creating, MinLargo: 8, MaxLargo: 72, Formato: "password", Ejemplo: "Segura123!",
			Descripcion: "Al menos 8 caracteres con mayúsculas, minúsculas, números y símbolos."},
		{Nombre: "cargo_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "activo", Tipo: esquema.Booleano},
		{Nombre: "roles", Tipo: esquema.Lista, Elemento: esquema.Texto, Descripcion: "Ids o slugs de roles de la empresa.",
			Ejemplo: []any{"vendedor"}},
	}}
}

func esquemaRol(creating bool) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 255, Ejemplo: "Cajero"},
		{Nombre: "slug", Tipo: esquema.Texto, MaxLargo: 100, Patron: `^[a-z0-9]+([_-][a-z0-9]+)*$`,
			Descripcion: "Por omisión, derivado del nombre."},
		{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
		{Nombre: "activo", Tipo: esquema.Booleano},
		{Nombre: "permisos", Tipo: esquema.Lista, Elemento: esquema.Texto, Ejemplo: []any{"ventas.leer", "ventas.crear"},
			Descripcion: "Slugs del catálogo GET /api/permisos."},
	}}
}
