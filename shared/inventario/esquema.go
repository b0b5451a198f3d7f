package inventario

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// readMovimiento and readTransferencia read them (the OpenAPI document;
// esquema_test.go proves the two agree).
var Esquemas = map[string]esquema.Cuerpo{
	"inventario.entradas.store":       esquemaMovimiento(Entrada),
	"inventario.salidas.store":        esquemaMovimiento(Salida),
	"inventario.transferencias.store": esquemaTransferencia,
}

func esquemaLineas(entry bool) esquema.Campo {
	campos := []esquema.Campo{
		{Nombre: "producto_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
		{Nombre: "cantidad", Tipo: esquema.Decimal, Requerido: true, Positivo: true, Ejemplo: 1, Descripcion: "Hasta 3 decimales."},
	}
	if entry {
		campos = append(campos,
			esquema.Campo{Nombre: "costo_unitario", Tipo: esquema.Decimal, Minimo: "0", Descripcion: "Hasta 4 decimales."},
			esquema.Campo{Nombre: "lote", Tipo: esquema.Texto, MaxLargo: 100},
			esquema.Campo{Nombre: "fecha_vencimiento", Tipo: esquema.Fecha})
	}
	return esquema.Campo{Nombre: "detalles", Tipo: esquema.Lista, Requerido: true, MinItems: 1, MaxItems: MaxLineas, Campos: campos}
}

func esquemaMovimiento(clase string) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "tipo", Tipo: esquema.Texto, Requerido: true, Valores: tiposDe(clase),
			Descripcion: "Sin distinguir mayúsculas ni acentos."},
		{Nombre: "almacen_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
		{Nombre: "fecha", Tipo: esquema.Fecha, Descripcion: "Por omisión hoy."},
		{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 2000},
		{Nombre: "proveedor_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "cliente_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "procesar", Tipo: esquema.Booleano, Descripcion: "true aplica el movimiento a las existencias al registrarlo."},
		esquemaLineas(clase == Entrada),
	}}
}

var esquemaTransferencia = esquema.Cuerpo{Campos: []esquema.Campo{
	{Nombre: "almacen_origen_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
	{Nombre: "almacen_destino_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 2,
		Descripcion: "Distinto del almacén de origen."},
	{Nombre: "fecha", Tipo: esquema.Fecha, Descripcion: "Por omisión hoy."},
	{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 2000},
	esquemaLineas(false),
}}
