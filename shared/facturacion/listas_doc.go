package facturacion

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters GET /api/v1/hacienda reads (lista),
// for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"hacienda.index": append([]esquema.Campo{
		{Nombre: "estado", Tipo: esquema.Texto, Valores: Estados},
		{Nombre: "tipo_documento", Tipo: esquema.Texto, Valores: TiposDocumento},
		esquema.ID("venta_id"), esquema.Busqueda("clave y numero_consecutivo"), esquema.Orden(sorts)},
		esquema.Rango("fecha de emisión (hora de Costa Rica)")...),
}
