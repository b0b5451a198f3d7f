package ventas

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
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

// serveList answers a paginated list in a constant number of round trips:
// the count and the page pipelined, then the relations of the whole page.
func serveList[T any](s *Service, w http.ResponseWriter, r *http.Request, cols, from, order string, args []any,
	scan pgx.RowToFunc[T], load func(ctx context.Context, q db.Querier, empresaID int64, rows []T) error) error {
	p := auth.FromRequest(r)
	page, err := httpx.ParsePage(r)
	if err != nil {
		return err
	}
	var out httpx.Page[T]
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		rows, total, err := db.Page(r.Context(), tx, cols, from, order, args, page.PerPage, page.Offset(), scan)
		if err != nil {
			return fmt.Errorf("ventas: list: %w", err)
		}
		if err := load(r.Context(), tx, p.EmpresaID, rows); err != nil {
			return err
		}
		out = httpx.NewPage(page, rows, total)
		return nil
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

var ventaSorts = map[string]string{
	"id": "v.id", "fecha_venta": "v.fecha_venta", "numero_comprobante": "v.numero_comprobante",
	"monto_total": "v.monto_total", "estado": "v.estado", "creado_en": "v.creado_en",
}

// index lists the tenant's sales. empresa_id is accepted and ignored: the
// tenant is always the active company.
func (s *Service) index(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
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
		return err
	}
	order, err := orden(r, ventaSorts, "v.id desc")
	if err != nil {
		return err
	}
	return serveList(s, w, r, ventaCols, `from ventas v where v.empresa_id = $1 and not v.eliminado
		and ($2::bigint is null or v.sucursal_id = $2)
		and ($3::bigint is null or v.cliente_id = $3)
		and ($4::date is null or v.fecha_venta >= $4)
		and ($5::date is null or v.fecha_venta <= $5)
		and ($6::text is null or v.estado = $6)
		and ($7::text is null or v.tipo_comprobante = $7)
		and ($8::text is null or v.condicion_venta = $8)
		and ($9::text is null or v.numero_comprobante ilike $9)`, order+", v.id desc",
		[]any{p.EmpresaID, sucursal, cliente, desde, hasta, estado, tipo, condicion, httpx.SearchQuery(r)},
		scanVenta, func(ctx context.Context, q db.Querier, empresaID int64, vs []Venta) error {
			return loadVentas(ctx, q, empresaID, vs, false)
		})
}

const msgNoEncontrada = "Venta no encontrada."

func (s *Service) show(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	var v Venta
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		var found bool
		v, found, err = Find(r.Context(), tx, p.EmpresaID, id)
		if err == nil && !found {
			err = httpx.NotFound(msgNoEncontrada)
		}
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", v)
}
