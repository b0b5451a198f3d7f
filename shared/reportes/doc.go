package reportes

import (
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/exportar"
)

// The group's routes as the OpenAPI document describes them
// (shared/docs/fuentes): query parameters from the registry, the report's
// shape, and the media types of the downloads.

type obj = map[string]any

var formatoDoc = esquema.Campo{Nombre: "formato", Tipo: esquema.Texto, Valores: Formatos,
	Descripcion: "Por omisión json; pdf, excel (xlsx) y csv descargan el reporte como archivo (Content-Disposition: attachment)."}

// Consultas are the query parameters of each report route.
func Consultas() map[string][]esquema.Campo {
	out := map[string][]esquema.Campo{}
	// /financiero takes the union of its three types' parameters; tipo
	// says which apply (fecha_inicio is optional for the balance sheet).
	var fin []esquema.Campo
	seen := map[string]bool{}
	for _, k := range []string{EstadoResultados, BalanceGeneral, FlujoEfectivo} {
		t, _ := Buscar(k)
		for _, p := range t.Parametros {
			if !seen[p.Nombre] {
				seen[p.Nombre] = true
				fin = append(fin, p)
			}
		}
	}
	for i := range fin {
		if fin[i].Nombre == "fecha_inicio" {
			fin[i].Requerido = false
			fin[i].Descripcion = "Primer día del período; obligatorio salvo en balance_general (por omisión el 1 de enero del año de fecha_fin)."
		}
	}
	out["reportes.financiero"] = append(fin, formatoDoc)
	rutas := map[string]string{"reportes.balanza_comprobacion": BalanzaComprobacion,
		"reportes.libro_mayor": LibroMayor, "reportes.libro_diario": LibroDiario}
	for ruta, k := range operativos {
		rutas[ruta] = k
	}
	for ruta, k := range rutas {
		t, _ := Buscar(k)
		ps := append(append([]esquema.Campo{}, t.Parametros...), formatoDoc)
		if t.Paginado {
			ps = append(ps,
				esquema.Campo{Nombre: "page", Tipo: esquema.Entero, Minimo: "1", Maximo: "1000000", Descripcion: "Página (solo JSON)."},
				esquema.Campo{Nombre: "per_page", Tipo: esquema.Entero, Minimo: "1", Maximo: "100", Descripcion: "Asientos por página, por omisión 15 (solo JSON)."})
		}
		out[ruta] = ps
	}
	return out
}

// operativos are the operational reports (issue 14), each on its own
// route, served by Service.Servir.
var operativos = map[string]string{
	"reportes.antiguedad_cobrar": AntiguedadCobrar, "reportes.antiguedad_pagar": AntiguedadPagar,
	"reportes.ventas": Ventas, "reportes.impuestos": Impuestos,
	"reportes.inventario_valorizado": InventarioValorizado, "reportes.kardex": Kardex, "reportes.compras": Compras,
}

// descargas are the media types of the files (CSV without its charset
// parameter: the document names the type).
const descargas = exportar.MediaPDF + "," + exportar.MediaExcel + ",text/csv"

// Descargas are the media types each report route answers besides JSON.
var Descargas = map[string]string{
	"reportes.financiero":           descargas,
	"reportes.balanza_comprobacion": descargas,
	"reportes.libro_mayor":          descargas,
	"reportes.libro_diario":         descargas,
}

func init() {
	for ruta := range operativos {
		Descargas[ruta] = descargas
	}
}

// Datos are the data of each route's JSON answer.
func Datos() map[string]map[string]any {
	importes := obj{"type": "object", "additionalProperties": obj{"type": "number"}}
	columna := obj{"type": "object", "required": []any{"clave", "titulo", "tipo"}, "properties": obj{
		"clave": obj{"type": "string"}, "titulo": obj{"type": "string"},
		"tipo": obj{"enum": []any{ColTexto, ColEntero, ColFecha, ColImporte, ColPorcentaje}}}}
	seccion := obj{"type": "object", "required": []any{"clave", "titulo", "columnas", "filas"}, "properties": obj{
		"clave": obj{"type": "string"}, "titulo": obj{"type": "string"},
		"columnas": obj{"type": "array", "items": columna},
		"filas": obj{"type": "array", "items": obj{"type": "object", "additionalProperties": true,
			"description": "Un valor por clave de columna: texto, entero, importe (número con 2 decimales) o null."}},
		"totales": importes}}
	reporte := obj{"type": "object", "required": []any{"tipo", "titulo", "parametros", "secciones", "totales"}, "properties": obj{
		"tipo": obj{"type": "string"}, "titulo": obj{"type": "string"},
		"parametros": obj{"type": "object", "additionalProperties": true, "description": "Parámetros normalizados (también la clave de la caché)."},
		"secciones":  obj{"type": "array", "items": seccion},
		"totales": obj{"type": "object", "additionalProperties": obj{"type": "number"},
			"description": "estado_resultados: ingresos, costo_ventas, utilidad_bruta, gastos, utilidad_operativa, otros_ingresos, utilidad_neta; balance_general: activo, pasivo, patrimonio, pasivo_y_patrimonio; flujo_efectivo: operacion, inversion, financiamiento, variacion_neta, saldo_inicial, saldo_final; balanza: debe, haber y saldos; libro mayor: saldo_inicial, debe, haber, saldo_final; libro diario: debe, haber; los reportes operativos (ventas, compras, impuestos, antigüedad, inventario-valorizado, kardex): los que lista GET /api/reportes/tipos."},
		"comparacion": obj{"type": "object", "required": []any{"parametros", "secciones", "totales", "variacion"}, "properties": obj{
			"parametros": obj{"type": "object", "additionalProperties": true},
			"secciones":  obj{"type": "array", "items": seccion},
			"totales":    importes,
			"variacion": obj{"type": "array", "items": obj{"type": "object", "required": []any{"clave", "actual", "anterior", "monto", "porcentaje"},
				"properties": obj{"clave": obj{"type": "string"}, "actual": obj{"type": "number"}, "anterior": obj{"type": "number"},
					"monto": obj{"type": "number"}, "porcentaje": obj{"type": []any{"number", "null"}}}}},
		}},
		"movimientos": obj{"type": "array", "description": "Solo kardex: las filas de movimientos en orden cronológico (las mismas de la sección movimientos).",
			"items": obj{"type": "object", "additionalProperties": true}},
		"paginacion": obj{"type": "object", "required": []any{"current_page", "per_page", "total", "last_page", "from", "to"}, "properties": obj{
			"current_page": obj{"type": "integer"}, "per_page": obj{"type": "integer"}, "total": obj{"type": "integer"},
			"last_page": obj{"type": "integer"}, "from": obj{"type": []any{"integer", "null"}}, "to": obj{"type": []any{"integer", "null"}}}},
	}}
	parametro := obj{"type": "object", "required": []any{"nombre", "tipo", "requerido"}, "properties": obj{
		"nombre": obj{"type": "string"}, "tipo": obj{"type": "string"}, "requerido": obj{"type": "boolean"},
		"valores": obj{"type": "array", "items": obj{"type": "string"}}, "descripcion": obj{"type": "string"}}}
	tipo := obj{"type": "object", "required": []any{"clave", "nombre", "ruta", "parametros", "formatos", "totales", "limite"}, "properties": obj{
		"clave": obj{"type": "string"}, "nombre": obj{"type": "string"}, "descripcion": obj{"type": "string"}, "ruta": obj{"type": "string"},
		"parametros": obj{"type": "array", "items": parametro}, "formatos": obj{"type": "array", "items": obj{"type": "string"}},
		"totales": obj{"type": "array", "items": columna}, "limite": obj{"type": "string"}}}
	datos := map[string]map[string]any{
		"reportes.financiero":           reporte,
		"reportes.balanza_comprobacion": reporte,
		"reportes.libro_mayor":          reporte,
		"reportes.libro_diario":         reporte,
		"reportes.tipos":                obj{"type": "array", "items": tipo},
		"reportes.invalidar_cache": obj{"type": "object", "required": []any{"eliminados"},
			"properties": obj{"eliminados": obj{"type": "integer", "minimum": 0}}},
	}
	for ruta := range operativos {
		datos[ruta] = reporte
	}
	return datos
}
