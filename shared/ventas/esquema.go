package ventas

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// the decoders of http.go and crear.go read them (the OpenAPI document;
// esquema_test.go proves the two agree).
var Esquemas = map[string]esquema.Cuerpo{
	"ventas.store":             esquemaVenta,
	"ventas.update":            esquemaCambio,
	"ventas.patch":             esquemaCambio,
	"cuentas-por-cobrar.pagos": esquemaPago,
}

var esquemaLinea = []esquema.Campo{
	{Nombre: "producto_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
	{Nombre: "cantidad", Tipo: esquema.Decimal, Requerido: true, Minimo: "0.01", Maximo: "9999999999999.999", Ejemplo: 2,
		Descripcion: "Hasta 3 decimales."},
	{Nombre: "precio_unitario", Tipo: esquema.Decimal, Requerido: true, Minimo: "0", Ejemplo: 1750, Descripcion: "Hasta 2 decimales."},
	{Nombre: "descuento", Tipo: esquema.Decimal, Minimo: "0", Descripcion: "Hasta 2 decimales; no mayor que cantidad × precio_unitario."},
	{Nombre: "porcentaje_impuesto", Tipo: esquema.Decimal, Minimo: "0", Maximo: "100",
		Descripcion: "Tarifa de IVA de la línea; sin ella, la del producto."},
	{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
}

var esquemaVenta = esquema.Cuerpo{
	Descripcion: "empresa_id no se lee: la venta es de la empresa activa. Las notas de crédito y débito requieren venta_referencia_id, codigo_referencia y razon_referencia.",
	Campos: []esquema.Campo{
		{Nombre: "sucursal_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "cliente_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Obligatorio en ventas a crédito."},
		{Nombre: "forma_pago_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "cuenta_bancaria_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Cuenta bancaria a la que entra el dinero de una venta de contado."},
		{Nombre: "caja_id", Tipo: esquema.Entero, Minimo: "1",
			Descripcion: "Caja en que se cobra; debe tener una sesión abierta y ser de la sucursal de la venta."},
		{Nombre: "fecha_venta", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-01-15"},
		{Nombre: "tipo_comprobante", Tipo: esquema.Texto, Requerido: true, Valores: TiposComprobante, Ejemplo: "tiquete"},
		{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{Borrador, Pendiente, Pagada}, Descripcion: "Por omisión pendiente; no se crea anulada."},
		{Nombre: "condicion_venta", Tipo: esquema.Texto, Valores: []string{Contado, Credito}},
		{Nombre: "moneda", Tipo: esquema.Texto, Valores: Monedas, Descripcion: "Por omisión CRC."},
		{Nombre: "tipo_cambio", Tipo: esquema.Decimal, Minimo: "0.00001", Maximo: "99999999",
			Descripcion: "Obligatorio en USD; 1 en colones. Hasta 5 decimales."},
		{Nombre: "venta_referencia_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Solo notas de crédito o débito."},
		{Nombre: "codigo_referencia", Tipo: esquema.Texto, Valores: CodigosReferencia, Descripcion: "Solo notas de crédito o débito."},
		{Nombre: "razon_referencia", Tipo: esquema.Texto, MaxLargo: 180, Descripcion: "Solo notas de crédito o débito."},
		{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 2000},
		{Nombre: "detalles", Tipo: esquema.Lista, Requerido: true, MinItems: 1, MaxItems: MaxLineas, Campos: esquemaLinea},
	},
}

var esquemaCambio = esquema.Cuerpo{Campos: []esquema.Campo{
	{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 2000, Ejemplo: "Entregada al cliente."},
	{Nombre: "estado", Tipo: esquema.Texto, Valores: Estados},
}}

var esquemaPago = esquema.Cuerpo{Campos: []esquema.Campo{
	{Nombre: "monto", Tipo: esquema.Decimal, Requerido: true, Minimo: "0.01", Ejemplo: 1000, Descripcion: "Hasta 2 decimales; no mayor que el saldo."},
	{Nombre: "fecha", Tipo: esquema.Fecha, Descripcion: "Por omisión hoy."},
	{Nombre: "forma_pago_id", Tipo: esquema.Entero, Minimo: "1"},
	{Nombre: "cuenta_bancaria_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Cuenta bancaria a la que entra el pago."},
	{Nombre: "caja_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Caja que recibe el pago; debe tener una sesión abierta."},
	{Nombre: "referencia", Tipo: esquema.Texto, MaxLargo: 100},
}}
