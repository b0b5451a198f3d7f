package importaciones

import (
	"fmt"

	"github.com/erpcr/erp/shared/esquema"
)

// MediosPlantilla are the media types of a template download.
const MediosPlantilla = "text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Formulario is the JSON Schema of an import's multipart/form-data body,
// for the OpenAPI document.
func Formulario() map[string]any {
	return map[string]any{
		"type": "object", "required": []any{campoArchivo},
		"properties": map[string]any{
			campoArchivo: map[string]any{"type": "string", "format": "binary", "description": fmt.Sprintf(
				"CSV en UTF-8 (BOM opcional, separado por comas o punto y coma) o libro de Excel .xlsx (primera hoja). "+
					"La primera fila es el encabezado con los nombres de los campos de la plantilla; hasta %d filas y %d MB.", MaxFilas, MaxArchivo>>20)},
			"modo": map[string]any{"type": "string", "enum": []any{Validar, Aplicar}, "default": Validar,
				"description": "validar: revisa todas las filas y no guarda nada. aplicar: crea todas las filas solo si ninguna tiene errores."},
		},
	}
}

// Datos is the JSON Schema of an import's answer data (also the data of
// the 422 of an aplicar with errors).
func Datos() map[string]any {
	entero := map[string]any{"type": "integer", "minimum": 0}
	return map[string]any{
		"type": "object", "required": []any{"modo", "tipo", "filas", "validas", "errores"},
		"properties": map[string]any{
			"modo":    map[string]any{"type": "string", "enum": []any{Validar, Aplicar}},
			"tipo":    map[string]any{"type": "string"},
			"filas":   entero,
			"validas": entero,
			"creados": entero,
			"errores": map[string]any{"type": "array", "items": map[string]any{
				"type": "object", "required": []any{"fila", "campo", "mensajes"},
				"properties": map[string]any{
					"fila":     map[string]any{"type": "integer", "description": "Número de fila en el archivo (el encabezado es la fila 1)."},
					"campo":    map[string]any{"type": "string", "description": "Campo con el error; vacío si el error es de la fila."},
					"mensajes": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				},
			}},
		},
	}
}

// ParametroTipo is the {tipo} path parameter.
func ParametroTipo() esquema.Campo {
	return esquema.Campo{Nombre: "tipo", Tipo: esquema.Texto, Valores: Nombres()}
}

// ConsultaFormato is the template's formato query parameter.
func ConsultaFormato() esquema.Campo {
	return esquema.Campo{Nombre: "formato", Tipo: esquema.Texto, Valores: []string{"csv", "excel"}, Descripcion: "Por omisión csv."}
}
