// Package fuentes gathers the schemas every domain declares (the declared
// resources of shared/recurso, the Esquemas maps next to the hand-written
// decoders) into the openapi builder's Fuentes. It imports every domain, so
// only cmd/genopenapi and tests use it, never a deployed function.
package fuentes

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/compras"
	"github.com/erpcr/erp/shared/contabilidad"
	"github.com/erpcr/erp/shared/docs/openapi"
	"github.com/erpcr/erp/shared/empleados"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/importaciones"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/nomina"
	"github.com/erpcr/erp/shared/ops"
	"github.com/erpcr/erp/shared/organizacion"
	"github.com/erpcr/erp/shared/programados"
	"github.com/erpcr/erp/shared/recurso"
	"github.com/erpcr/erp/shared/reportes"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/sesiones"
	"github.com/erpcr/erp/shared/terceros"
	"github.com/erpcr/erp/shared/tesoreria"
	"github.com/erpcr/erp/shared/transporte"
	"github.com/erpcr/erp/shared/usuarios"
	"github.com/erpcr/erp/shared/ventas"
	"github.com/erpcr/erp/shared/webhooks"
)

// Recursos are the declared resources, each served under its Name.
var Recursos = []*recurso.Resource{
	catalogo.Categorias, catalogo.Marcas, catalogo.Unidades, catalogo.Regimenes, catalogo.TiposImpuesto,
	catalogo.FormasPago, catalogo.TiposIdentificacion, catalogo.Producto,
	terceros.Cliente, terceros.Proveedor,
	organizacion.Empresa, organizacion.Sucursal, organizacion.Almacen,
	contabilidad.TiposCambio,
	empleados.Empleado, transporte.Ruta, transporte.Bus,
}

// Manuales are the request bodies the hand-written domains declare.
var Manuales = []map[string]esquema.Cuerpo{
	sesiones.Esquemas, usuarios.Esquemas, ventas.Esquemas, compras.Esquemas,
	inventario.Esquemas, facturacion.Esquemas, webhooks.Esquemas, contabilidad.Esquemas, tesoreria.Esquemas,
	nomina.Esquemas, programados.Esquemas,
}

// listasExtra are the routes answering a page whose name does not end in ".index".
var listasExtra = []string{"webhooks.entregas"}

// Todas returns every declared schema.
func Todas() openapi.Fuentes {
	f := openapi.Fuentes{
		Cuerpos:    map[string]esquema.Cuerpo{},
		Datos:      map[string]map[string]any{},
		Respuestas: map[string]map[string]any{},
		Consultas:  map[string][]esquema.Campo{},
		Listas:     map[string]bool{},
		Parametros: map[string][]esquema.Campo{},
		Medios:     map[string]string{},
		Ejemplos:   map[string]any{},
		// Users and roles compare If-Match like the declared resources
		// (shared/usuarios siCoincide).
		Condicionales: map[string]bool{"usuarios.update": true, "usuarios.patch": true, "usuarios.destroy": true,
			"roles.update": true, "roles.patch": true, "roles.destroy": true},
	}
	for _, m := range Manuales {
		maps.Copy(f.Cuerpos, m)
	}
	for _, res := range Recursos {
		n := res.Name
		f.Datos[n+".index"] = res.Respuesta(false)
		f.Datos[n+".show"] = res.Respuesta(true)
		consultas := res.FiltrosDoc()
		if !res.ReadOnly {
			consultas = append(consultas, esquema.Campo{Nombre: "activos", Tipo: esquema.Booleano, Descripcion: "Solo activos (true) o inactivos (false)."})
			for _, op := range []string{".update", ".patch", ".destroy"} {
				f.Condicionales[n+op] = true // recurso's ifMatch
			}
			f.Cuerpos[n+".store"] = res.Esquema(true)
			f.Cuerpos[n+".update"] = res.Esquema(false)
			f.Cuerpos[n+".patch"] = res.Esquema(false)
			for _, op := range []string{".store", ".update", ".patch"} {
				f.Datos[n+op] = res.Respuesta(true)
			}
		}
		f.Consultas[n+".index"] = consultas
	}
	for _, rt := range routes.All() {
		if strings.HasSuffix(rt.Name, ".index") {
			f.Listas[rt.Name] = true
		}
	}
	for _, n := range listasExtra {
		f.Listas[n] = true
	}
	objeto := map[string]any{"type": "object", "additionalProperties": true}
	f.Respuestas["auth.me"] = objeto
	f.Respuestas["auth.user"] = objeto
	// The health body is the ops group's (shared/ops): an object whose keys
	// that group documents.
	f.Respuestas["ops.health"] = objeto
	f.Datos["webhooks.eventos"] = map[string]any{"type": "array", "items": map[string]any{
		"type": "object", "required": []any{"nombre", "descripcion"}, "additionalProperties": true,
		"properties": map[string]any{"nombre": map[string]any{"type": "string"}, "descripcion": map[string]any{"type": "string"},
			"ejemplo": map[string]any{}},
	}}
	maps.Copy(f.Consultas, tesoreria.Consultas)
	maps.Copy(f.Consultas, webhooks.Consultas)
	maps.Copy(f.Consultas, ops.Consultas)
	maps.Copy(f.Consultas, eventos.Consultas)
	for _, m := range []map[string][]esquema.Campo{ventas.Consultas, compras.Consultas, facturacion.Consultas,
		inventario.Consultas, usuarios.Consultas, programados.Consultas} {
		maps.Copy(f.Consultas, m)
	}
	documentacion(&f)
	// The reports (shared/reportes): parameters from its registry, the
	// report's shape, and the files of formato=pdf|excel|csv.
	f.Descargas = map[string]string{}
	maps.Copy(f.Consultas, reportes.Consultas())
	maps.Copy(f.Datos, reportes.Datos())
	maps.Copy(f.Descargas, reportes.Descargas)
	maps.Copy(f.Parametros, contabilidad.Parametros)
	maps.Copy(f.Consultas, contabilidad.Consultas)
	maps.Copy(f.Ejemplos, ejemplos)
	importacionesDoc(&f)
	nominaDoc(&f)
	exportacionesDoc(&f)
	return f
}

// exportacionesDoc declares the exports of the lists (issue 14): every
// route the table marks with a download class answers ?formato=csv|excel
// with all the rows its filters select, as a file (handler.List); the
// routes that declare their own formato (reports) keep theirs.
func exportacionesDoc(f *openapi.Fuentes) {
	formato := esquema.Campo{Nombre: "formato", Tipo: esquema.Texto, Valores: append([]string{"json"}, exportar.Formatos...),
		Descripcion: "json (la página), o un archivo con todas las filas que seleccionan los filtros (hasta " +
			strconv.Itoa(exportar.MaxFilas) + "); cuenta en la clase de límite exports."}
	for _, rt := range routes.All() {
		if rt.Descargas == "" || rt.Method != "GET" || f.Descargas[rt.Name] != "" || slices.ContainsFunc(f.Consultas[rt.Name],
			func(c esquema.Campo) bool { return c.Nombre == "formato" }) {
			continue
		}
		f.Consultas[rt.Name] = append(f.Consultas[rt.Name], formato)
		f.Descargas[rt.Name] = "text/csv," + exportar.MediaExcel
	}
}

// nominaDoc declares the payroll's queries, the platform-only bodies of
// the rates (outside Manuales: a company administrator gets 403 before
// the decoder) and the media of the pay slip and the CCSS report.
func nominaDoc(f *openapi.Fuentes) {
	maps.Copy(f.Cuerpos, nomina.EsquemasPlataforma)
	maps.Copy(f.Consultas, nomina.Consultas)
	maps.Copy(f.Medios, nomina.Medios)
}

// importacionesDoc declares the imports: the multipart form, the report
// (200 when validating, 201 when created), {tipo} and the template files.
func importacionesDoc(f *openapi.Fuentes) {
	f.Formularios = map[string]map[string]any{"importaciones.importar": importaciones.Formulario()}
	f.Estados = map[string][]string{"importaciones.importar": {"200", "201"}}
	f.Datos["importaciones.importar"] = importaciones.Datos()
	f.Parametros["importaciones.importar"] = []esquema.Campo{importaciones.ParametroTipo()}
	f.Parametros["importaciones.plantilla"] = []esquema.Campo{importaciones.ParametroTipo()}
	f.Consultas["importaciones.plantilla"] = []esquema.Campo{importaciones.ConsultaFormato()}
	f.Medios["importaciones.plantilla"] = importaciones.MediosPlantilla
}

// ejemplos are response examples of the main resources (data of a show, or
// one element of a list).
var ejemplos = map[string]any{
	"productos.show": map[string]any{"id": 1, "nombre": "Arroz 1 kg", "codigo": "ARROZ-1KG", "tipo": "producto",
		"categoria_id": 1, "unidad_medida_id": 1, "precio_venta": 1750.00, "precio_compra": 1300.00, "activo": true,
		"categoria": map[string]any{"id": 1, "nombre": "Abarrotes"}},
	"clientes.show": map[string]any{"id": 1, "tipo_identificacion": "fisica", "identificacion": "109870654",
		"nombre": "María", "apellidos": "Fernández Rojas", "nombre_completo": "María Fernández Rojas", "activo": true},
	"ventas.show": map[string]any{"id": 1, "numero_comprobante": "FAC-00000001", "tipo_comprobante": "factura",
		"estado": "pendiente", "fecha_venta": "2026-01-15", "monto_total": "3955.00", "cliente_id": 1,
		"detalles": []any{map[string]any{"producto_id": 1, "cantidad": "2.000", "precio_unitario": "1750.00"}}},
}

// documentacion declares the docs routes' parameters and answers.
func documentacion(f *openapi.Fuentes) {
	version := esquema.Campo{Nombre: "version", Tipo: esquema.Texto, Valores: openapi.Versions, Descripcion: "Por omisión v1."}
	f.Consultas["docs.page"] = []esquema.Campo{version}
	f.Consultas["docs.json"] = []esquema.Campo{version}
	f.Parametros["docs.version"] = []esquema.Campo{{Nombre: "version", Tipo: esquema.Texto, Valores: []string{"v1.json", "v2.json"}}}
	f.Parametros["docs.ui"] = []esquema.Campo{{Nombre: "archivo", Tipo: esquema.Texto,
		Valores: []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css", "LICENSE", "NOTICE"}}}
	openapiDoc := map[string]any{"type": "object", "required": []any{"openapi", "info", "paths"},
		"properties": map[string]any{"openapi": map[string]any{"const": "3.1.0"}}, "additionalProperties": true}
	f.Respuestas["docs.json"] = openapiDoc
	f.Respuestas["docs.version"] = openapiDoc
	f.Medios["docs.page"] = "text/html"
	f.Medios["docs.ui"] = "text/javascript,text/css,text/plain"
}
