package compras

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// readOrden, readRecepcion and decodePago read them (the OpenAPI document;
// esquema_test.go proves the two agree).
var Esquemas = map[string]esquema.Cuerpo{
	"ordenes-compra.store":   esquemaOrden(true),
	"ordenes-compra.update":  esquemaOrden(false),
	"ordenes-compra.patch":   esquemaOrden(false),
	"ordenes-compra.recibir": esquemaRecepcion,
	"cuentas-por-pagar.pagos": {Campos: []esquema.Campo{
		{Nombre: "monto", Tipo: esquema.Decimal, Requerido: true, Positivo: true, Ejemplo: 1000, Descripcion: "Hasta 2 decimales; no mayor que el saldo."},
		{Nombre: "fecha", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-01-15"},
		{Nombre: "forma_pago_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
		{Nombre: "cuenta_bancaria_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Cuenta bancaria de la que sale el pago."},
		{Nombre: "caja_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Caja de la que sale el pago; debe tener una sesión abierta."},
		{Nombre: "referencia", Tipo: esquema.Texto, MaxLargo: 100},
	}},
}

func esquemaOrden(creating bool) esquema.Cuerpo {
	return esquema.Cuerpo{
		Descripcion: "Al editar se leen solo los campos enviados (PUT y PATCH por igual).",
		Campos: []esquema.Campo{
			{Nombre: "proveedor_id", Tipo: esquema.Entero, Requerido: creating, Minimo: "1", Ejemplo: 1},
			{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1"},
			{Nombre: "fecha_orden", Tipo: esquema.Fecha, Requerido: creating, Ejemplo: "2026-01-15"},
			{Nombre: "fecha_entrega_estimada", Tipo: esquema.Fecha, Descripcion: "No anterior a fecha_orden."},
			{Nombre: "estado", Tipo: esquema.Texto, Requerido: creating, Valores: Estados, Ejemplo: Pendiente},
			{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 2000},
			{Nombre: "detalles", Tipo: esquema.Lista, Requerido: creating, MinItems: 1, MaxItems: MaxLineas, Campos: []esquema.Campo{
				{Nombre: "producto_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
				{Nombre: "cantidad", Tipo: esquema.Decimal, Requerido: true, Positivo: true, Ejemplo: 10, Descripcion: "Hasta 3 decimales."},
				{Nombre: "precio_unitario", Tipo: esquema.Decimal, Requerido: true, Minimo: "0", Ejemplo: 850, Descripcion: "Hasta 2 decimales."},
				{Nombre: "descuento", Tipo: esquema.Decimal, Minimo: "0", Descripcion: "Hasta 2 decimales; no mayor que el subtotal de la línea."},
				{Nombre: "porcentaje_impuesto", Tipo: esquema.Decimal, Minimo: "0", Maximo: "100"},
				{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
			}},
		},
	}
}

var esquemaRecepcion = esquema.Cuerpo{
	Descripcion: "Sin detalles se recibe todo lo pendiente; lineas es un alias de detalles.",
	Campos: []esquema.Campo{
		{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "detalles", Tipo: esquema.Lista, MinItems: 1, MaxItems: MaxLineas, Campos: []esquema.Campo{
			{Nombre: "detalle_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "El detalle de la orden (o producto_id)."},
			{Nombre: "producto_id", Tipo: esquema.Entero, Minimo: "1"},
			{Nombre: "cantidad", Tipo: esquema.Decimal, Requerido: true, Positivo: true, Ejemplo: 1, Descripcion: "Hasta 3 decimales."},
			{Nombre: "lote", Tipo: esquema.Texto, MaxLargo: 100},
			{Nombre: "fecha_vencimiento", Tipo: esquema.Fecha},
			{Nombre: "costo_unitario", Tipo: esquema.Decimal, Minimo: "0", Descripcion: "Hasta 4 decimales."},
		}},
	},
}
