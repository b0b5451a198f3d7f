package nomina

import (
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/exportar"
)

// Esquemas are the request bodies of the group's company routes, by route
// name, as the decoders of http.go read them (the OpenAPI document; the
// docs tests prove the two agree on required fields).
var Esquemas = map[string]esquema.Cuerpo{
	"planillas.store": {Campos: []esquema.Campo{
		{Nombre: "tipo", Tipo: esquema.Texto, Requerido: true, Valores: Tipos, Ejemplo: Mensual},
		{Nombre: "fecha_inicio", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-03-01"},
		{Nombre: "fecha_fin", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-03-31",
			Descripcion: "No anterior a fecha_inicio; a lo sumo 31 días (mensual), 16 (quincenal) o 7 (semanal)."},
		{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 1000},
	}},
	"planillas.lineas.update": {
		Descripcion: "Solo en borrador o calculada (una calculada vuelve a borrador). Cada línea cambia los campos enviados.",
		Campos: []esquema.Campo{{Nombre: "lineas", Tipo: esquema.Lista, Requerido: true, MinItems: 1, Ejemplo: []any{
			map[string]any{"empleado_id": 1, "horas_extra": 4}},
			Campos: []esquema.Campo{
				{Nombre: "empleado_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Descripcion: "Un empleado con línea en la planilla."},
				{Nombre: "horas_extra", Tipo: esquema.Decimal, Minimo: "0", Maximo: "744",
					Descripcion: "Horas extra del período, pagadas a 1,5 veces la hora ordinaria (Código de Trabajo art. 139)."},
				{Nombre: "bonificaciones", Tipo: esquema.Decimal, Minimo: "0"},
				{Nombre: "comisiones", Tipo: esquema.Decimal, Minimo: "0"},
				{Nombre: "dias_incapacidad", Tipo: esquema.Entero, Minimo: "0", Maximo: "31"},
				{Nombre: "otras_deducciones", Tipo: esquema.Decimal, Minimo: "0"},
			}}},
	},
	"planillas.marcar-pagada": {Campos: []esquema.Campo{
		{Nombre: "fecha_pago", Tipo: esquema.Fecha, Descripcion: "Fecha del pago y del asiento; por omisión hoy (Costa Rica)."},
	}},
	"nomina.configuracion.update": {Campos: []esquema.Campo{
		{Nombre: "porcentaje_vacaciones", Tipo: esquema.Decimal, Requerido: true, Minimo: "0", Maximo: "100", Ejemplo: 4.17,
			Descripcion: "Provisión de vacaciones sobre el salario bruto (por omisión 4,17 %: dos semanas por cada cincuenta, art. 153)."},
	}},
}

// EsquemasPlataforma are the bodies of the rates' routes (platform
// administrators only).
var EsquemasPlataforma = map[string]esquema.Cuerpo{
	"nomina.tarifas.store":  tarifaEsquema(true),
	"nomina.tarifas.update": tarifaEsquema(false),
}

func tarifaEsquema(creando bool) esquema.Cuerpo {
	return esquema.Cuerpo{
		Descripcion: "Un crédito lleva monto; un tramo de renta porcentaje, desde y hasta (sin hasta: sin tope); " +
			"las cuotas obreras, patronales y provisiones porcentaje.",
		Campos: []esquema.Campo{
			{Nombre: "tipo", Tipo: esquema.Texto, Requerido: creando, Valores: TiposTarifa, Ejemplo: TarifaCredito},
			{Nombre: "concepto", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 60, Ejemplo: "hijo",
				Descripcion: "Un crédito es hijo o conyuge; una provisión, aguinaldo; una cuota o un tramo, su rubro (SEM, IVM, T1...). " +
					"Una tarifa nueva cierra la vigencia abierta anterior del mismo tipo y concepto; otro solape es un 422."},
			{Nombre: "descripcion", Tipo: esquema.Texto, MaxLargo: 255},
			{Nombre: "porcentaje", Tipo: esquema.Decimal, Minimo: "0", Maximo: "100"},
			{Nombre: "monto", Tipo: esquema.Decimal, Minimo: "0", Ejemplo: 1710},
			{Nombre: "desde", Tipo: esquema.Decimal, Minimo: "0"},
			{Nombre: "hasta", Tipo: esquema.Decimal, Minimo: "0"},
			{Nombre: "vigente_desde", Tipo: esquema.Fecha, Requerido: creando, Ejemplo: "2027-01-01"},
			{Nombre: "vigente_hasta", Tipo: esquema.Fecha},
			{Nombre: "fuente", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 500, Ejemplo: "Decreto Ejecutivo de tramos y créditos 2027",
				Descripcion: "El decreto o aviso (La Gaceta, CCSS) que fija la tarifa."},
		},
	}
}

// Consultas are the query parameters of the group's reads.
var Consultas = map[string][]esquema.Campo{
	"planillas.index": {
		{Nombre: "estado", Tipo: esquema.Texto, Valores: Estados},
		{Nombre: "tipo", Tipo: esquema.Texto, Valores: Tipos},
		{Nombre: "anio", Tipo: esquema.Entero, Minimo: "1900", Maximo: "2999", Descripcion: "Año de fecha_fin."},
		esquema.Orden(planillaSorts),
	},
	"nomina.tarifas.index": {
		{Nombre: "tipo", Tipo: esquema.Texto, Valores: TiposTarifa},
		{Nombre: "concepto", Tipo: esquema.Texto},
		{Nombre: "vigente_en", Tipo: esquema.Fecha, Descripcion: "Solo las tarifas vigentes en esa fecha."},
		esquema.Orden(tarifaSorts),
	},
	"planillas.comprobantes.show": {{Nombre: "formato", Tipo: esquema.Texto, Valores: []string{"pdf"}}},
	"planillas.reporte-ccss":      {{Nombre: "formato", Tipo: esquema.Texto, Valores: []string{"csv", "excel"}, Descripcion: "Por omisión csv."}},
	"planillas.aguinaldo": {{Nombre: "anio", Tipo: esquema.Entero, Requerido: true, Minimo: "1901", Maximo: "2999", Ejemplo: 2026,
		Descripcion: "Aguinaldo de diciembre de ese año: planillas pagadas del 1 de diciembre anterior al 30 de noviembre."}},
}

// Medios are the media types of the file answers.
var Medios = map[string]string{
	"planillas.comprobantes.show": exportar.MediaPDF,
	"planillas.reporte-ccss":      "text/csv," + exportar.MediaExcel,
}
