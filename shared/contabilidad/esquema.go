package contabilidad

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's hand-written routes, by
// route name, as the decoders of this package read them (the OpenAPI
// document; esquema_test.go proves the two agree). tipos-cambio is a
// declared resource: its schemas come from its fields.
var Esquemas = map[string]esquema.Cuerpo{
	"cuentas-contables.store":           esquemaCuenta(true),
	"cuentas-contables.update":          esquemaCuenta(false),
	"cuentas-contables.patch":           esquemaCuenta(false),
	"asientos-contables.store":          esquemaAsiento(true),
	"asientos-contables.update":         esquemaAsiento(false),
	"asientos-contables.patch":          esquemaAsiento(false),
	"asientos-contables.anular":         esquemaAnular,
	"contabilidad.configuracion.update": esquemaConfiguracion(),
}

// Parametros describe the path parameters that are not record ids.
var Parametros = map[string][]esquema.Campo{
	"periodos-contables.cerrar":  parametrosPeriodo,
	"periodos-contables.reabrir": parametrosPeriodo,
}

var parametrosPeriodo = []esquema.Campo{
	{Nombre: "anio", Tipo: esquema.Entero, Minimo: "1900", Maximo: "2999"},
	{Nombre: "mes", Tipo: esquema.Entero, Minimo: "1", Maximo: "12"},
}

// Consultas are the query parameters of the lists.
var Consultas = map[string][]esquema.Campo{
	"cuentas-contables.index": {
		{Nombre: "search", Tipo: esquema.Texto, Descripcion: "En codigo y nombre (sin distinguir acentos)."},
		{Nombre: "tipo", Tipo: esquema.Texto, Valores: Tipos},
		{Nombre: "padre_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "nivel", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "acepta_movimientos", Tipo: esquema.Booleano},
		{Nombre: "activos", Tipo: esquema.Booleano},
		{Nombre: "arbol", Tipo: esquema.Booleano, Descripcion: "true: la página son las cuentas de nivel superior con sus subcuentas anidadas en hijos."},
		{Nombre: "fecha_corte", Tipo: esquema.Fecha, Descripcion: "Agrega saldo: movimientos contabilizados hasta esa fecha, con el signo de la naturaleza; el de una cuenta de agrupación es el de sus subcuentas."},
		{Nombre: "sort", Tipo: esquema.Texto, Valores: []string{"id", "codigo", "nombre", "nivel", "tipo", "creado_en", "actualizado_en"}},
	},
	"asientos-contables.index": {
		{Nombre: "fecha_inicio", Tipo: esquema.Fecha},
		{Nombre: "fecha_fin", Tipo: esquema.Fecha},
		{Nombre: "estado", Tipo: esquema.Texto, Valores: EstadosAsiento},
		{Nombre: "origen", Tipo: esquema.Texto, Valores: Origenes},
		{Nombre: "origen_id", Tipo: esquema.Entero, Minimo: "1"},
		{Nombre: "cuenta_id", Tipo: esquema.Entero, Minimo: "1", Descripcion: "Asientos con una línea en esa cuenta."},
		{Nombre: "search", Tipo: esquema.Texto, Descripcion: "En numero y descripcion."},
		{Nombre: "sort", Tipo: esquema.Texto, Valores: []string{"id", "fecha", "numero", "total_debe", "creado_en", "actualizado_en"}},
	},
	"periodos-contables.index": {
		{Nombre: "anio", Tipo: esquema.Entero, Minimo: "1900", Maximo: "2999"},
		{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{"abierto", "cerrado"}},
		esquema.Orden(periodoSorts),
	},
}

func esquemaCuenta(creating bool) esquema.Cuerpo {
	fijo := ""
	if !creating {
		fijo = " No cambia después de crear la cuenta (enviar el mismo valor se acepta)."
	}
	return esquema.Cuerpo{
		Descripcion: "Una cuenta con movimientos no se elimina: se desactiva con activo=false. Las cuentas de la configuración contable siguen activas y de detalle.",
		Campos: []esquema.Campo{
			{Nombre: "codigo", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 30, Patron: `^[0-9]+(\.[0-9]+)*$`, Ejemplo: "6.2.01.010",
				Descripcion: "Único en la empresa; comienza con el código de la cuenta padre." + fijo},
			{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 255, Ejemplo: "Publicidad"},
			{Nombre: "tipo", Tipo: esquema.Texto, Requerido: creating, Valores: Tipos, Ejemplo: "gasto",
				Descripcion: "El de la cuenta padre." + fijo},
			{Nombre: "naturaleza", Tipo: esquema.Texto, Valores: Naturalezas,
				Descripcion: "Por omisión deudora para activo, costo y gasto; acreedora para pasivo, patrimonio e ingreso."},
			{Nombre: "padre_id", Tipo: esquema.Entero, Minimo: "1",
				Descripcion: "Una cuenta de agrupación (acepta_movimientos=false) de la empresa; sin ella la cuenta es de nivel 1." + fijo},
			{Nombre: "acepta_movimientos", Tipo: esquema.Booleano, Descripcion: "Por omisión true: solo las cuentas de detalle reciben asientos."},
			{Nombre: "moneda", Tipo: esquema.Texto, Valores: Monedas, Descripcion: "Por omisión CRC."},
			{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
			{Nombre: "activo", Tipo: esquema.Booleano},
		},
	}
}

var esquemaLinea = []esquema.Campo{
	{Nombre: "cuenta_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 4,
		Descripcion: "Una cuenta de detalle activa de la empresa."},
	{Nombre: "debe", Tipo: esquema.Decimal, Minimo: "0", Ejemplo: 1000, Descripcion: "Hasta 2 decimales; debe o haber mayor que 0, no ambos."},
	{Nombre: "haber", Tipo: esquema.Decimal, Minimo: "0", Descripcion: "Hasta 2 decimales."},
	{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
	{Nombre: "sucursal_id", Tipo: esquema.Entero, Minimo: "1"},
}

func esquemaAsiento(creating bool) esquema.Cuerpo {
	min := 2
	if !creating {
		min = 1
	}
	return esquema.Cuerpo{
		Descripcion: "Montos en colones, la moneda de los libros; moneda y tipo_cambio registran la del documento. " +
			"Para contabilizar: al menos dos líneas, total del debe igual al del haber, cuentas de detalle activas y período abierto.",
		Campos: []esquema.Campo{
			{Nombre: "fecha", Tipo: esquema.Fecha, Requerido: creating, Ejemplo: "2026-01-15"},
			{Nombre: "descripcion", Tipo: esquema.Texto, Requerido: creating, MaxLargo: 1000, Ejemplo: "Aporte de capital"},
			{Nombre: "estado", Tipo: esquema.Texto, Valores: []string{Borrador, Contabilizado},
				Descripcion: "Por omisión borrador; contabilizado lo contabiliza (número AS-<año>-<n>)."},
			{Nombre: "moneda", Tipo: esquema.Texto, Valores: Monedas, Descripcion: "Por omisión CRC."},
			{Nombre: "tipo_cambio", Tipo: esquema.Decimal, Positivo: true, Maximo: "9999999",
				Descripcion: "1 en colones; en USD, por omisión el tipo de venta registrado para la fecha. Hasta 5 decimales."},
			{Nombre: "lineas", Tipo: esquema.Lista, Requerido: creating, MinItems: min, MaxItems: MaxLineas, Campos: esquemaLinea,
				Ejemplo:     []any{map[string]any{"cuenta_id": 4, "debe": 1000}, map[string]any{"cuenta_id": 4, "haber": 1000}},
				Descripcion: "Al modificar un borrador, reemplaza sus líneas."},
		},
	}
}

var esquemaAnular = esquema.Cuerpo{Campos: []esquema.Campo{
	{Nombre: "fecha", Tipo: esquema.Fecha, Descripcion: "Fecha del asiento de reversión; por omisión hoy (o la del asiento si es posterior)."},
}}

func esquemaConfiguracion() esquema.Cuerpo {
	c := esquema.Cuerpo{Descripcion: "Cualquier subconjunto de las cuentas; cada una, una cuenta de detalle activa de la empresa."}
	for _, k := range CuentasConfiguracion {
		c.Campos = append(c.Campos, esquema.Campo{Nombre: k.Clave, Tipo: esquema.Entero, Minimo: "1", Descripcion: k.Uso})
	}
	return c
}
