package facturacion

import (
	"context"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
)

// rango reads fecha_inicio/fecha_fin as [desde, hasta) instants in Costa
// Rica time (fecha_fin includes its whole day).
func rango(f *httpx.Filters) (desde, hasta *time.Time) {
	desde, fin := f.Date("fecha_inicio"), f.Date("fecha_fin")
	if desde != nil && fin != nil && fin.Before(*desde) {
		f.Fail("fecha_fin", "El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio.")
	}
	if fin != nil {
		h := fin.AddDate(0, 0, 1)
		hasta = &h
	}
	return desde, hasta
}

var sorts = map[string]string{
	"id": "c.id", "fecha_emision": "c.fecha_emision", "estado": "c.estado", "tipo_documento": "c.tipo_documento",
	"clave": "c.clave", "creado_en": "c.creado_en",
}

// index is GET /api/v1/hacienda: the tenant's comprobantes, newest first,
// filtered by estado, tipo_documento, fecha_inicio/fecha_fin (emission
// date, Costa Rica time), venta_id and search (clave or consecutivo).
func lista(r *http.Request, p auth.Principal) (handler.Query[Comprobante], error) {
	f := httpx.NewFilters(r)
	f.Loc = ZonaCR
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo_documento", TiposDocumento)
	desde, hasta := rango(f)
	venta := f.ID("venta_id")
	if err := f.Err(); err != nil {
		return handler.Query[Comprobante]{}, err
	}
	order := "c.id desc"
	q := r.URL.Query()
	if q.Get("sort") != "" || q.Get("order") != "" {
		var err error
		if order, err = httpx.SortQuery(r, sorts, "c.id"); err != nil {
			return handler.Query[Comprobante]{}, err
		}
		order += ", c.id desc"
	}
	return handler.Query[Comprobante]{Cols: compCols, From: compFrom + ` where c.empresa_id = $1 and not c.eliminado
			and ($2::text is null or c.estado = $2)
			and ($3::text is null or c.tipo_documento = $3)
			and ($4::timestamptz is null or c.fecha_emision >= $4)
			and ($5::timestamptz is null or c.fecha_emision < $5)
			and ($6::bigint is null or c.venta_id = $6)
			and ($7::text is null or c.clave ilike $7 or c.numero_consecutivo ilike $7)`, Order: order,
		Args: []any{estado, tipo, desde, hasta, venta, httpx.SearchQuery(r)}, Scan: scanComprobante}, nil
}

// Estadisticas is GET /estadisticas: counts by state and by type (every
// state and type present, 0 when none), with the same date filters.
type Estadisticas struct {
	Total     int            `json:"total"`
	PorEstado map[string]int `json:"por_estado"`
	PorTipo   map[string]int `json:"por_tipo"`
}

func (s *Service) estadisticas(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	f := httpx.NewFilters(r)
	f.Loc = ZonaCR
	desde, hasta := rango(f)
	if err := f.Err(); err != nil {
		return err
	}
	out := Estadisticas{PorEstado: map[string]int{}, PorTipo: map[string]int{}}
	for _, e := range Estados {
		out.PorEstado[e] = 0
	}
	for _, t := range TiposDocumento {
		out.PorTipo[t] = 0
	}
	err := s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		rows, err := tx.Query(r.Context(), `select estado, tipo_documento, count(*) from comprobantes_electronicos
			where empresa_id = $1 and not eliminado
			  and ($2::timestamptz is null or fecha_emision >= $2) and ($3::timestamptz is null or fecha_emision < $3)
			group by estado, tipo_documento`, tx.EmpresaID(), desde, hasta)
		if err != nil {
			return err
		}
		var estado, tipo string
		var n int
		_, err = pgx.ForEachRow(rows, []any{&estado, &tipo, &n}, func() error {
			out.PorEstado[estado] += n
			out.PorTipo[tipo] += n
			out.Total += n
			return nil
		})
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", out)
}

// mostrar is GET /{id}: the comprobante with its XML and the authority's answer.
func mostrar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (Detalle, error) {
	return buscarDetalle(ctx, tx, id)
}

// estado is GET /{id}/estado: the state as the worker last recorded it
// (the worker polls Hacienda every 30 s; this never waits for it).
func estado(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (EstadoActual, error) {
	c, err := buscar(ctx, tx, id)
	if err != nil {
		return EstadoActual{}, err
	}
	return c.estadoActual(), nil
}
