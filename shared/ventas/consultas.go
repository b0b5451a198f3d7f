package ventas

import (
	"context"
	"net/http"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
)

// orden reads ?sort=&order= from a whitelist; without both, lists show the
// newest first.
func orden(r *http.Request, sorts map[string]string, newest string) (string, error) {
	q := r.URL.Query()
	if q.Get("sort") == "" && q.Get("order") == "" {
		return newest, nil
	}
	return httpx.SortQuery(r, sorts, strings.TrimSuffix(newest, " desc"))
}

var ventaSorts = map[string]string{
	"id": "v.id", "fecha_venta": "v.fecha_venta", "numero_comprobante": "v.numero_comprobante",
	"monto_total": "v.monto_total", "estado": "v.estado", "creado_en": "v.creado_en",
}

// index lists the tenant's sales. empresa_id is accepted and ignored: the
// tenant is always the active company.
func listaVentas(r *http.Request, p auth.Principal) (handler.Query[Venta], error) {
	f := httpx.NewFilters(r)
	sucursal, cliente := f.ID("sucursal_id"), f.ID("cliente_id")
	desde, hasta := f.Date("fecha_inicio"), f.Date("fecha_fin")
	if desde != nil && hasta != nil && hasta.Before(*desde) {
		f.Fail("fecha_fin", "El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio.")
	}
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo_comprobante", TiposComprobante)
	condicion := f.OneOf("condicion_venta", []string{Contado, Credito})
	if err := f.Err(); err != nil {
		return handler.Query[Venta]{}, err
	}
	order, err := orden(r, ventaSorts, "v.id desc")
	if err != nil {
		return handler.Query[Venta]{}, err
	}
	return handler.Query[Venta]{Cols: ventaCols, From: `from ventas v where v.empresa_id = $1 and not v.eliminado
		and ($2::bigint is null or v.sucursal_id = $2)
		and ($3::bigint is null or v.cliente_id = $3)
		and ($4::date is null or v.fecha_venta >= $4)
		and ($5::date is null or v.fecha_venta <= $5)
		and ($6::text is null or v.estado = $6)
		and ($7::text is null or v.tipo_comprobante = $7)
		and ($8::text is null or v.condicion_venta = $8)
		and ($9::text is null or v.numero_comprobante ilike $9)`, Order: order + ", v.id desc",
		Args: []any{sucursal, cliente, desde, hasta, estado, tipo, condicion, httpx.SearchQuery(r)},
		Scan: scanVenta, Load: func(ctx context.Context, tx *db.Tx, vs []Venta) error {
			return loadVentas(ctx, tx, vs, false)
		}}, nil
}

const msgNoEncontrada = "Venta no encontrada."

// Buscar loads a sale of the transaction's tenant, or an apperr NotFound.
func Buscar(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (Venta, error) {
	v, found, err := Find(ctx, tx, id)
	if err == nil && !found {
		err = apperr.NewNotFound(msgNoEncontrada)
	}
	return v, err
}
