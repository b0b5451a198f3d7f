// Package importaciones loads master data from a file: POST
// /api/importaciones/{tipo} reads a CSV or XLSX file of productos, clientes
// or proveedores and creates one record per row through the declared
// resource's own create path (recurso.Importar), so every row gets the
// API's rules and Spanish messages; GET /api/importaciones/plantillas/{tipo}
// downloads a template with the importable columns and an example row.
//
// The import is one transaction: modo=validar (the default) always rolls
// it back and reports the rows' errors; modo=aplicar commits only when no
// row has an error (all or nothing).
package importaciones

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
	"github.com/erpcr/erp/shared/terceros"
)

// Tipos are the importable resources by the path's {tipo}; each needs its
// <tipo>.crear permission.
var Tipos = map[string]*recurso.Resource{
	"productos":   catalogo.Producto,
	"clientes":    terceros.Cliente,
	"proveedores": terceros.Proveedor,
}

// Nombres are the Tipos' names, sorted.
func Nombres() []string { return slices.Sorted(maps.Keys(Tipos)) }

// Modos of an import.
const (
	Validar = "validar"
	Aplicar = "aplicar"
)

// Grupo returns the handlers of the importaciones group.
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"importaciones.importar":  importar(d.DB),
		"importaciones.plantilla": plantilla,
	}
}

// Resultado is the data of an import's answer.
type Resultado struct {
	Modo    string              `json:"modo"`
	Tipo    string              `json:"tipo"`
	Filas   int                 `json:"filas"`
	Validas int                 `json:"validas"`
	Errores []recurso.ErrorFila `json:"errores"`
	Creados *int                `json:"creados,omitempty"`
}

// rechazo is the 422 of an aplicar with row errors: the report as data,
// and the row errors as the usual field errors ("filas.3.identificacion").
type rechazo struct {
	Success bool                `json:"success"`
	Message string              `json:"message"`
	Data    Resultado           `json:"data"`
	Errors  map[string][]string `json:"errors"`
	TraceID string              `json:"trace_id"`
}

// errDeshacer rolls back the import's transaction on purpose.
var errDeshacer = errors.New("importaciones: rollback")

// recursoDe resolves {tipo} and checks the caller may create it.
func recursoDe(r *http.Request) (string, *recurso.Resource, auth.Principal, error) {
	tipo := r.PathValue("tipo")
	res, ok := Tipos[tipo]
	p := auth.FromRequest(r)
	if !ok {
		return "", nil, p, apperr.NewNotFound("Tipo de importación no encontrado. Tipos disponibles: " + strings.Join(Nombres(), ", ") + ".")
	}
	if !p.Can(tipo + ".crear") {
		return "", nil, p, apperr.NewForbidden("No tiene permiso para importar " + tipo + ": requiere " + tipo + ".crear.")
	}
	return tipo, res, p, nil
}

func importar(d *db.DB) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		tipo, res, p, err := recursoDe(r)
		if err != nil {
			return err
		}
		form, err := leerFormulario(r)
		if err != nil {
			return err
		}
		filas, err := leer(form.nombre, form.archivo, res.Columnas())
		if err != nil {
			return err
		}
		out := Resultado{Modo: form.modo, Tipo: tipo, Filas: len(filas), Errores: []recurso.ErrorFila{}}
		inicio := time.Now()
		err = d.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
			imp, err := res.Importar(r.Context(), tx, p, filas)
			if err != nil {
				return err
			}
			out.Validas = imp.Validas
			if imp.Errores != nil {
				out.Errores = imp.Errores
			}
			if form.modo == Validar || len(imp.Errores) > 0 {
				return errDeshacer
			}
			return nil
		})
		if err != nil && !errors.Is(err, errDeshacer) {
			return fmt.Errorf("importaciones: %s: %w", tipo, err)
		}
		httpx.Logger(r.Context()).Info("importación", "tipo", tipo, "modo", form.modo, "filas", len(filas),
			"errores", len(out.Errores), "duration_ms", time.Since(inicio).Milliseconds())
		conErrores := filasConErrores(out.Errores)
		switch {
		case form.modo == Validar && conErrores == 0:
			return httpx.OK(w, fmt.Sprintf("Validación completada: las %d filas son válidas. No se guardó nada (modo validar).", len(filas)), out)
		case form.modo == Validar:
			return httpx.OK(w, fmt.Sprintf("Validación completada: %d de %d filas tienen errores. No se guardó nada (modo validar).", conErrores, len(filas)), out)
		case conErrores == 0:
			n := out.Validas
			out.Creados = &n
			return httpx.Created(w, fmt.Sprintf("Importación completada: %d %s creados.", n, tipo), out)
		}
		errs := map[string][]string{}
		for _, e := range out.Errores {
			key := "filas." + strconv.Itoa(e.Fila)
			if e.Campo != "" {
				key += "." + e.Campo
			}
			errs[key] = append(errs[key], e.Mensajes...)
		}
		httpx.WriteJSON(w, http.StatusUnprocessableEntity, rechazo{
			Message: fmt.Sprintf("La importación no se aplicó: %d de %d filas tienen errores. No se guardó ningún registro.", conErrores, len(filas)),
			Data:    out, Errors: errs, TraceID: httpx.TraceID(r.Context()),
		})
		return nil
	}
}

func filasConErrores(errs []recurso.ErrorFila) int {
	vistas := map[int]bool{}
	for _, e := range errs {
		vistas[e.Fila] = true
	}
	return len(vistas)
}

// formulario is the multipart body of an import.
type formulario struct {
	nombre  string
	archivo []byte
	modo    string
}

// leerFormulario reads the multipart/form-data body: the file (archivo, at
// most MaxArchivo) and modo.
func leerFormulario(r *http.Request) (formulario, error) {
	f := formulario{modo: Validar}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return f, &httpx.Error{Kind: apperr.UnsupportedMedia, Message: "El tipo de contenido debe ser multipart/form-data, con el archivo en el campo archivo."}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return f, apperr.NewBadRequest("El cuerpo multipart/form-data no es válido.")
	}
	muyGrande := &httpx.Error{Kind: apperr.TooLarge, Message: fmt.Sprintf("El archivo supera el límite de %d MB.", MaxArchivo>>20)}
	var tieneArchivo, tieneModo bool
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return f, muyGrande
			}
			return f, apperr.NewBadRequest("El cuerpo multipart/form-data no es válido.")
		}
		switch part.FormName() {
		case campoArchivo:
			if tieneArchivo {
				// Which of two files would be imported is a guess: refuse.
				return f, apperr.InvalidField(campoArchivo, "Envíe un solo archivo por importación.")
			}
			data, err := io.ReadAll(io.LimitReader(part, MaxArchivo+1))
			if err != nil {
				var tooBig *http.MaxBytesError
				if errors.As(err, &tooBig) {
					return f, muyGrande
				}
				return f, apperr.NewBadRequest("No se pudo leer el archivo.")
			}
			if len(data) > MaxArchivo {
				return f, muyGrande
			}
			f.nombre, f.archivo, tieneArchivo = part.FileName(), data, true
		case "modo":
			data, err := io.ReadAll(io.LimitReader(part, 64))
			if err != nil {
				return f, apperr.NewBadRequest("El cuerpo multipart/form-data no es válido.")
			}
			f.modo, tieneModo = strings.ToLower(strings.TrimSpace(string(data))), true
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				return f, apperr.NewBadRequest("El cuerpo multipart/form-data no es válido.")
			}
		}
	}
	if tieneModo && f.modo == "" {
		f.modo = Validar
	}
	if f.modo != Validar && f.modo != Aplicar {
		return f, apperr.InvalidField("modo", "El campo modo debe ser uno de: validar, aplicar.")
	}
	if !tieneArchivo || len(bytes.TrimSpace(f.archivo)) == 0 {
		return f, apperr.InvalidField(campoArchivo, "El campo archivo es obligatorio: envíe un CSV o un libro de Excel (.xlsx).")
	}
	return f, nil
}

// plantilla answers the template of {tipo}: the importable columns and one
// example row, as CSV (default) or Excel.
func plantilla(w http.ResponseWriter, r *http.Request) error {
	tipo, res, _, err := recursoDe(r)
	if err != nil {
		return err
	}
	formato := strings.TrimSpace(r.URL.Query().Get("formato"))
	if formato == "" {
		formato = "csv"
	}
	if formato != "csv" && formato != "excel" {
		return apperr.InvalidField("formato", "El campo formato debe ser uno de: csv, excel.")
	}
	if err := handler.EscribirTabla(w, Plantilla(res), formato, "plantilla-"+tipo, tipo); err != nil {
		return fmt.Errorf("importaciones: plantilla %s %s: %w", tipo, formato, err)
	}
	return nil
}

// Plantilla is the template table of res: the header and one example row,
// numbers as numbers (Excel number cells).
func Plantilla(res *recurso.Resource) exportar.Tabla {
	ejemplo := res.EjemploFila(ejemplos[res.Name])
	fila := make([]any, len(ejemplo))
	for i, f := range res.Fields {
		fila[i] = ejemplo[i]
		if ejemplo[i] != "" && (f.Kind == recurso.Integer || f.Kind == recurso.Ref || f.Kind == recurso.Decimal) {
			fila[i] = json.Number(ejemplo[i])
		}
	}
	return exportar.Tabla{Columnas: res.Columnas(), Filas: [][]any{fila}}
}

// ejemplos are the template's example values that the declarations do not
// carry: a valid cédula and phone, a realistic name and address.
var ejemplos = map[string]map[string]string{
	"clientes": {
		"tipo_identificacion": "fisica", "identificacion": "101230456", "nombre": "María", "apellidos": "Rodríguez Mora",
		"razon_social": "", "nombre_comercial": "", "email": "maria.rodriguez@ejemplo.cr", "telefono": "2222-3333",
		"celular": "8888-1234", "direccion": "Del parque central 200 m norte", "provincia": "San José", "canton": "Escazú",
		"distrito": "San Rafael", "codigo_postal": "10201", "limite_credito": "500000.00", "dias_credito": "30",
		"observaciones": "", "activo": "sí",
	},
	"proveedores": {
		"nombre": "Distribuidora Central", "razon_social": "Distribuidora Central S.A.", "nit_ruc": "3-101-123456",
		"email": "ventas@distribuidora.cr", "telefono": "2222-4444", "celular": "8888-5555",
		"direccion": "Zona industrial, bodega 4", "pais": "Costa Rica", "provincia": "San José", "ciudad": "Pavas",
		"codigo_postal": "10109", "contacto_nombre": "Ana Solís", "contacto_telefono": "8777-1234",
		"contacto_email": "ana.solis@distribuidora.cr", "dias_credito": "30", "limite_credito": "1000000.00", "activo": "sí",
	},
	"productos": {
		"categoria_id": "1", "unidad_medida_id": "1", "marca_id": "", "tipo_impuesto_id": "", "proveedor_predeterminado_id": "",
		"cabys_id": "", "codigo_cabys": "", "nombre": "Café molido 500 g", "codigo": "CAF-500", "codigo_barras": "7441234567890",
		"descripcion": "Café tostado y molido, bolsa de 500 g", "tipo": "producto", "precio_compra": "2500.00",
		"precio_venta": "3500.00", "stock_minimo": "10", "stock_maximo": "100", "gestionado_inventario": "sí",
		"imagen_url": "", "activo": "sí",
	},
}
