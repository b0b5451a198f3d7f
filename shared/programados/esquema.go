package programados

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// the decoders of http.go read them (OpenAPI documents; the docs tests
// check that the required ones are required).
var Esquemas = map[string]esquema.Cuerpo{
	"reportes-programados.store":  cuerpo(true),
	"reportes-programados.update": cuerpo(false),
	"reportes-programados.patch":  cuerpo(false),
}

func cuerpo(creando bool) esquema.Cuerpo {
	return esquema.Cuerpo{
		Descripcion: "tipo es un reporte de GET /api/reportes/tipos que el usuario puede ver (403 si no); parametros son los de ese " +
			"reporte, validados como en su ruta (errores bajo parametros.<nombre>); semanal requiere dia_semana, mensual dia_mes " +
			"(29 a 31 se ejecutan el último día de los meses más cortos). proxima_ejecucion (UTC) se calcula; el reporte se genera " +
			"como su creador, con sus permisos del momento.",
		Campos: []esquema.Campo{
			{Nombre: "nombre", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 255, Ejemplo: "Ventas semanales por cliente"},
			{Nombre: "tipo", Tipo: esquema.Texto, Requerido: creando, MaxLargo: 100, Ejemplo: "ventas"},
			{Nombre: "parametros", Tipo: esquema.Objeto, Descripcion: "Parámetros del reporte (texto, número o booleano cada uno). Un parámetro de fecha admite fechas relativas " +
				"que se resuelven el día de cada ejecución: hoy, ayer, inicio_semana, inicio_semana_anterior, fin_semana_anterior, " +
				"inicio_mes, inicio_mes_anterior, fin_mes_anterior, inicio_anio, inicio_anio_anterior, fin_anio_anterior.",
				Ejemplo: map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31"},
				Campos: []esquema.Campo{
					{Nombre: "fecha_inicio", Tipo: esquema.Fecha, Ejemplo: "2026-03-01"},
					{Nombre: "fecha_fin", Tipo: esquema.Fecha, Ejemplo: "2026-03-31"},
				}},
			{Nombre: "frecuencia", Tipo: esquema.Texto, Requerido: creando, Valores: Frecuencias, Ejemplo: Semanal},
			{Nombre: "dia_semana", Tipo: esquema.Entero, Minimo: "1", Maximo: "7", Ejemplo: 1,
				Descripcion: "Día ISO de la semana (1 lunes a 7 domingo); solo con frecuencia semanal."},
			{Nombre: "dia_mes", Tipo: esquema.Entero, Minimo: "1", Maximo: "31",
				Descripcion: "Día del mes; solo con frecuencia mensual. 29 a 31 se ejecutan el último día en los meses más cortos."},
			{Nombre: "hora", Tipo: esquema.Texto, Requerido: creando, Patron: `^([01][0-9]|2[0-3]):[0-5][0-9]$`, Ejemplo: "07:30",
				Descripcion: "HH:MM de 24 horas, hora de Costa Rica (UTC-6)."},
			{Nombre: "formato", Tipo: esquema.Texto, Requerido: creando, Valores: []string{"json", "pdf", "excel", "csv"}, Ejemplo: "pdf",
				Descripcion: "Uno de los formatos del tipo de reporte."},
			{Nombre: "destinatarios", Tipo: esquema.Lista, Elemento: esquema.Texto, MaxItems: MaxDestinatarios,
				Ejemplo: []string{"gerencia@demo.cr"}, Descripcion: "Correos que reciben el enlace de descarga (máximo 10)."},
			{Nombre: "activo", Tipo: esquema.Booleano, Descripcion: "Por omisión true; inactivo no tiene próxima ejecución."},
		},
	}
}
