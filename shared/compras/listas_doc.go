package compras

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters the group's lists read (listaOrdenes,
// listaCuentas), for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"ordenes-compra.index": append([]esquema.Campo{esquema.ID("proveedor_id"),
		{Nombre: "estado", Tipo: esquema.Texto, Valores: Estados},
		{Nombre: "pendientes", Tipo: esquema.Booleano, Descripcion: "Ni recibidas ni canceladas (true), o solo esas (false)."},
		{Nombre: "activas", Tipo: esquema.Booleano, Descripcion: "No canceladas (true), o solo las canceladas (false)."},
		esquema.Activos, esquema.Busqueda("numero_orden"), esquema.Orden(ordenSorts)}, esquema.Rango("fecha de orden")...),
	"cuentas-por-pagar.index": {esquema.ID("proveedor_id"), esquema.ID("orden_compra_id"),
		{Nombre: "estado", Tipo: esquema.Texto, Valores: estadosCuenta},
		{Nombre: "vencidas", Tipo: esquema.Booleano, Descripcion: "Pendientes vencidas (true), o las demás (false)."},
		esquema.Busqueda("numero_orden de la orden"), esquema.Orden(cuentaSorts)},
}
