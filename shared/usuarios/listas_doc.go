package usuarios

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters the group's lists read (tenantList,
// listaPermisos), for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"usuarios.index": {esquema.Busqueda("nombre, apellidos y e-mail"), esquema.Activos, esquema.Orden(usuarioSorts)},
	"roles.index":    {esquema.Busqueda("nombre y slug"), esquema.Activos, esquema.Orden(rolSorts)},
	"permisos.index": {{Nombre: "modulo", Tipo: esquema.Texto, Descripcion: "Solo los permisos de este módulo (ventas, productos...)."},
		esquema.Orden(permisoSorts)},
}
