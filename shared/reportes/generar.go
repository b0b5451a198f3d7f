package reportes

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
)

// MediaJSON is the media type of a report saved as JSON.
const MediaJSON = "application/json"

// ValidarParametros checks parameters given outside a request (a scheduled
// report's parametros) against a registered type with the same parsing as
// GET /api/reportes/<clave>, so the messages are the report's own. A
// parameter the type does not declare is refused. Errors are apperr
// Invalid with the field keys under prefijo ("parametros.fecha_fin").
func ValidarParametros(clave string, params url.Values, prefijo string) error {
	_, _, err := consultaDe(clave, params, FormatoJSON, prefijo)
	return err
}

// The messages of a parameter naming a row the company does not have.
const (
	msgSucursal  = "La sucursal no existe en la empresa."
	msgAlmacen   = "El almacén no existe en la empresa."
	msgProducto  = "El producto no existe en la empresa."
	msgCategoria = "La categoría no existe en la empresa."
	msgCuenta    = "La cuenta contable no existe."
)

// ValidarReferencias checks, in one round trip, that the ids among a
// registered type's parameters (sucursal_id, almacen_id, producto_id,
// categoria_id, cuenta_id) name rows of the transaction's company: what
// the report's route refuses when it runs (another company's or an unknown
// id), with its messages, under prefijo. params are parsed as
// ValidarParametros does, and its errors come first.
func ValidarReferencias(ctx context.Context, tx *db.Tx, clave string, params url.Values, prefijo string) error {
	_, c, err := consultaDe(clave, params, FormatoJSON, prefijo)
	if err != nil {
		return err
	}
	var ok [5]bool
	err = tx.QueryRow(ctx, `select
			($2::bigint is null or exists (select 1 from sucursales where empresa_id = $1 and id = $2)),
			($3::bigint is null or exists (select 1 from almacenes where empresa_id = $1 and id = $3)),
			($4::bigint is null or exists (select 1 from productos where empresa_id = $1 and id = $4)),
			($5::bigint is null or exists (select 1 from categorias_producto where empresa_id = $1 and id = $5)),
			($6::bigint is null or exists (select 1 from cuentas_contables where empresa_id = $1 and id = $6 and not eliminado))`,
		tx.EmpresaID(), c.SucursalID, c.AlmacenID, c.ProductoID, c.CategoriaID, c.CuentaID).Scan(&ok[0], &ok[1], &ok[2], &ok[3], &ok[4])
	if err != nil {
		return fmt.Errorf("reportes: referencias de %s: %w", clave, err)
	}
	errs := map[string][]string{}
	for i, r := range [...]struct{ campo, msg string }{
		{"sucursal_id", msgSucursal}, {"almacen_id", msgAlmacen}, {"producto_id", msgProducto},
		{"categoria_id", msgCategoria}, {"cuenta_id", msgCuenta},
	} {
		if !ok[i] {
			errs[prefijo+r.campo] = []string{r.msg}
		}
	}
	if len(errs) > 0 {
		return apperr.NewInvalid(errs)
	}
	return nil
}

// GenerarArchivo computes a registered report of the transaction's company
// with params (validated as ValidarParametros does) and renders it as
// formato: JSON (the report as GET answers it, without the envelope), PDF,
// Excel or CSV. It goes through the report cache as the route does. A
// paginated report is generated whole, as its downloads are.
func GenerarArchivo(ctx context.Context, tx *db.Tx, clave string, params url.Values, formato string) (exportar.Archivo, error) {
	t, c, err := consultaDe(clave, params, formato, "parametros.")
	if err != nil {
		return exportar.Archivo{}, err
	}
	e, err := generar(ctx, tx, auth.Principal{}, peticion{tipo: t, c: c})
	if err != nil {
		return exportar.Archivo{}, err
	}
	res, ok := e.(*respuesta)
	if !ok {
		return exportar.Archivo{}, fmt.Errorf("reportes: generar %s: respuesta inesperada %T", clave, e)
	}
	rep, err := decodificar(res.raw)
	if err != nil {
		return exportar.Archivo{}, err
	}
	if formato == FormatoJSON {
		return exportar.Archivo{Nombre: nombreArchivo(rep) + ".json", ContentType: MediaJSON, Datos: append([]byte(nil), res.raw...)}, nil
	}
	return Exportar(rep, t, Encabezado{Empresa: res.empresa, Cedula: res.cedula}, formato)
}

// consultaDe parses params as the query string of the type's route would be.
func consultaDe(clave string, params url.Values, formato, prefijo string) (Tipo, Consulta, error) {
	t, ok := Buscar(clave)
	if !ok {
		return Tipo{}, Consulta{}, fmt.Errorf("reportes: tipo no registrado %q", clave)
	}
	fails := map[string][]string{}
	q := url.Values{}
	for k, vs := range params {
		if k == "formato" || (!tiene(t, k) && !(t.Paginado && (k == "page" || k == "per_page"))) {
			fails[prefijo+k] = append(fails[prefijo+k], fmt.Sprintf("El reporte %s no tiene el parámetro %s.", clave, k))
			continue
		}
		q[k] = vs
	}
	q.Set("formato", formato)
	r := &http.Request{Method: http.MethodGet, URL: &url.URL{RawQuery: q.Encode()}, Header: http.Header{}}
	c, err := leerConsulta(r, t)
	if e, ok := apperr.As(err); ok && e.Kind == apperr.Invalid {
		for k, msgs := range e.Fields {
			fails[prefijo+k] = append(fails[prefijo+k], msgs...)
		}
	} else if err != nil {
		return t, c, err
	}
	if len(fails) > 0 {
		return t, c, apperr.NewInvalid(fails)
	}
	if t.Paginado {
		c.Pagina.Page, c.Pagina.PerPage = 1, 0
	}
	return t, c, nil
}
