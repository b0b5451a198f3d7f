package programados

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters the group's lists read (lista,
// listaEjecuciones), for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"reportes-programados.index": {
		{Nombre: "frecuencia", Tipo: esquema.Texto, Valores: Frecuencias},
		{Nombre: "tipo", Tipo: esquema.Texto, Descripcion: "Tipo de reporte (GET /api/reportes/tipos)."},
		esquema.Activos, esquema.Busqueda("nombre"), esquema.Orden(sorts)},
	"reportes-programados.ejecuciones.index": {
		{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{Pendiente, Ejecutando, Completada, Fallida}},
		esquema.Orden(ejecucionSorts)},
}
