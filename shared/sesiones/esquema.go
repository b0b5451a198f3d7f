package sesiones

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// login reads them (the OpenAPI document).
var Esquemas = map[string]esquema.Cuerpo{
	"auth.login": {Campos: []esquema.Campo{
		{Nombre: "email", Tipo: esquema.Texto, Requerido: true, MaxLargo: 255, Formato: "email", Ejemplo: "admin@demo.cr"},
		{Nombre: "password", Tipo: esquema.Texto, Requerido: true, MinLargo: 6, MaxLargo: 255, Formato: "password", Ejemplo: "Demo1234!"},
		{Nombre: "dispositivo", Tipo: esquema.Texto, MaxLargo: 255, Descripcion: "Nombre del token (un token por dispositivo)."},
	}},
}
