package inventario

import "github.com/erpcr/erp/shared/esquema"

// Consultas are the query parameters the group's lists read (lista,
// listaExistencias), for the OpenAPI document.
var Consultas = map[string][]esquema.Campo{
	"inventario.entradas.index": movimientoConsultas(TiposEntrada),
	"inventario.salidas.index":  movimientoConsultas(TiposSalida),
	"inventario.existencias.index": {esquema.ID("almacen_id"), esquema.ID("producto_id"),
		{Nombre: "bajo_minimo", Tipo: esquema.Booleano, Descripcion: "Solo bajo el stock mínimo del producto."},
		{Nombre: "lotes", Tipo: esquema.Booleano, Descripcion: "Incluye los lotes de cada existencia."},
		esquema.Busqueda("nombre, código y código de barras del producto"), esquema.Orden(existenciaSorts)},
}

func movimientoConsultas(tipos []string) []esquema.Campo {
	return append([]esquema.Campo{esquema.ID("almacen_id"), esquema.ID("producto_id"),
		{Nombre: "tipo", Tipo: esquema.Texto, Valores: tipos, Descripcion: "Sin distinguir mayúsculas."},
		{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{Pendiente, Procesada, Cancelada}, Descripcion: "Sin distinguir mayúsculas."},
		esquema.Busqueda("número y observaciones"), esquema.Orden(movimientoSorts)}, esquema.Rango("fecha")...)
}
