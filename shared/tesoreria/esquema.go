package tesoreria

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// the decoders of http.go read them (the OpenAPI document; the docs tests
// prove the two agree on required fields).
var Esquemas = map[string]esquema.Cuerpo{
	"cuentas-bancarias.store":                cuentaEsquema(true),
	"cuentas-bancarias.update":               cuentaEsquema(false),
	"cuentas-bancarias.patch":                cuentaEsquema(false),
	"cuentas-bancarias.conciliaciones.store": conciliacionEsquema,
	"cajas.store":                            cajaEsquema(true),
	"cajas.update":                           cajaEsquema(false),
	"cajas.patch":                            cajaEsquema(false),
	"cajas.abrir":                            sesionEsquema("monto_inicial", "Efectivo con que abre la caja.", 20000),
	"cajas.cerrar":                           sesionEsquema("monto_contado", "Efectivo contado al cerrar.", 45250),
	"presupuestos.store":                     presupuestoEsquema(true),
	"presupuestos.update":                    presupuestoEsquema(false),
	"presupuestos.patch":                     presupuestoEsquema(false),
}

// Consultas are the query parameters of the budget report and of the
// lists (listaCuentas, listaConciliaciones, listaCajas, listaPresupuestos).
var Consultas = map[string][]esquema.Campo{
	"cuentas-bancarias.index": {esquema.Busqueda("banco, número e IBAN"), {Nombre: "moneda", Tipo: esquema.Texto, Valores: Monedas},
		esquema.Activos, esquema.Orden(cuentaSorts)},
	"cuentas-bancarias.conciliaciones.index": {esquema.Orden(conciliacionSorts)},
	"cajas.index": {esquema.ID("sucursal_id"), {Nombre: "abierta", Tipo: esquema.Booleano, Descripcion: "Con una sesión abierta (true) o sin ella (false)."},
		esquema.Busqueda("nombre y código"), esquema.Activos, esquema.Orden(cajaSorts)},
	"presupuestos.index": {esquema.ID("anio"), esquema.ID("cuenta_contable_id"), esquema.Activos, esquema.Orden(presupuestoSorts)},
	"reportes.presupuesto_vs_real": {
		{Nombre: "anio", Tipo: esquema.Entero, Requerido: true, Minimo: "1900", Maximo: "2999", Ejemplo: 2026},
		{Nombre: "mes", Tipo: esquema.Entero, Minimo: "1", Maximo: "12", Descripcion: "Sin mes, el año completo."},
	},
}

func cuentaEsquema(creando bool) esquema.Cuerpo {
	return esquema.Cuerpo{
		Descripcion: "El saldo se calcula de los libros (líneas contabilizadas de su cuenta contable), no se envía.",
		Campos: []esquema.Campo{
			{Nombre: "banco", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 255, Ejemplo: "Banco Nacional de Costa Rica"},
			{Nombre: "numero", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 50, Ejemplo: "100-01-000-123456-7"},
			{Nombre: "iban", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 64, Ejemplo: "CR05015202001026284066",
				Descripcion: "IBAN de Costa Rica: CR y 20 dígitos con dígitos de control válidos (ISO 13616, módulo 97); se admiten espacios."},
			{Nombre: "moneda", Tipo: esquema.Texto, Valores: Monedas, Descripcion: "Por omisión CRC."},
			{Nombre: "titular", Tipo: esquema.Texto, MaxLargo: 255},
			{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
			{Nombre: "cuenta_contable_id", Tipo: esquema.Entero, Minimo: "1",
				Descripcion: "Cuenta de detalle bajo 1.1.02 Bancos; sin ella se crea una con el nombre del banco y el número."},
			{Nombre: "activo", Tipo: esquema.Booleano},
		},
	}
}

var conciliacionEsquema = esquema.Cuerpo{
	Descripcion: "El saldo del estado de cuenta debe ser el saldo en libros a la fecha de corte menos los movimientos no conciliados; si no cuadra, 422.",
	Campos: []esquema.Campo{
		{Nombre: "fecha_corte", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-03-31"},
		{Nombre: "saldo_estado_cuenta", Tipo: esquema.Decimal, Requerido: true, Ejemplo: 0, Descripcion: "Hasta 2 decimales; puede ser negativo."},
		{Nombre: "movimientos", Tipo: esquema.Lista, Requerido: true, Elemento: esquema.Entero, Ejemplo: []any{},
			Descripcion: "Ids de las líneas de asiento (movimientos_pendientes de la cuenta) que el estado de cuenta muestra."},
		{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 1000},
	},
}

func cajaEsquema(creando bool) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "sucursal_id", Tipo: esquema.Entero, Requerido: creando, Minimo: "1", Ejemplo: 1},
		{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 255, Ejemplo: "Caja 1"},
		{Nombre: "codigo", Tipo: esquema.Texto, MaxLargo: 50},
		{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
		{Nombre: "cuenta_contable_id", Tipo: esquema.Entero, Minimo: "1",
			Descripcion: "Cuenta de detalle bajo 1.1.01 Efectivo; por omisión la cuenta de caja de la configuración contable."},
		{Nombre: "activo", Tipo: esquema.Booleano},
	}}
}

func sesionEsquema(campo, descripcion string, ejemplo any) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: campo, Tipo: esquema.Decimal, Requerido: true, Minimo: "0", Ejemplo: ejemplo, Descripcion: descripcion + " Hasta 2 decimales."},
		{Nombre: "observaciones", Tipo: esquema.Texto, MaxLargo: 1000},
	}}
}

func presupuestoEsquema(creando bool) esquema.Cuerpo {
	return esquema.Cuerpo{Campos: []esquema.Campo{
		{Nombre: "anio", Tipo: esquema.Entero, Requerido: creando, Minimo: "1900", Maximo: "2999", Ejemplo: 2026},
		{Nombre: "cuenta_contable_id", Tipo: esquema.Entero, Requerido: creando, Minimo: "1", Ejemplo: 1,
			Descripcion: "Una cuenta de la empresa; el real de una cuenta de agrupación suma las cuentas bajo ella."},
		{Nombre: "montos", Tipo: esquema.Lista, Requerido: creando, MinItems: 12, MaxItems: 12, Elemento: esquema.Decimal,
			Ejemplo:     []any{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
			Descripcion: "Doce montos mensuales (enero a diciembre), >= 0, hasta 2 decimales."},
		{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
		{Nombre: "activo", Tipo: esquema.Booleano},
	}}
}
