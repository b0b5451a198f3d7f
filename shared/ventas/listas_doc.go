package ventas

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters the group's lists read (listaVentas,
// listaCuentas), for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"ventas.index": append([]esquema.Campo{esquema.ID("sucursal_id"), esquema.ID("cliente_id"),
		{Nombre: "estado", Tipo: esquema.Texto, Valores: Estados},
		{Nombre: "tipo_comprobante", Tipo: esquema.Texto, Valores: TiposComprobante},
		{Nombre: "condicion_venta", Tipo: esquema.Texto, Valores: []string{Contado, Credito}},
		esquema.Busqueda("numero_comprobante"), esquema.Orden(ventaSorts)}, esquema.Rango("fecha de venta")...),
	"cuentas-por-cobrar.index": {esquema.ID("cliente_id"), esquema.ID("venta_id"),
		{Nombre: "estado", Tipo: esquema.Texto, Valores: EstadosCuenta},
		{Nombre: "vencidas", Tipo: esquema.Booleano, Descripcion: "Solo pendientes vencidas (true)."},
		esquema.Orden(cuentaSorts)},
}
