package facturacion

import (
	"context"
	"fmt"
	"time"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/jackc/pgx/v5"
)

var sorts = map[string]string{
	"id": "c.id", "fecha_emision": "c.fecha_emision", "estado": "c.estado", "tipo_documento": "c.tipo_documento",
	"clave": "c.clave", "creado_en": "c.creado_en",
}

// Estadisticas is GET /estadisticas: counts by state and by type (every
// state and type present, 0 when none), with the same date filters.
type Estadisticas struct {
	Total     int            `json:"total"`
	PorEstado map[string]int `json:"por_estado"`
	PorTipo   map[string]int `json:"por_tipo"`
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

// rangoFechas is [desde, hasta); nil ends are open.
type rangoFechas struct{ desde, hasta *time.Time }

// estadisticas counts the tenant's comprobantes per state and type in the
// range (every state and type present, zero when none).
func estadisticas(ctx context.Context, tx *db.Tx, _ auth.Principal, x rangoFechas) (Estadisticas, error) {
	out := Estadisticas{PorEstado: map[string]int{}, PorTipo: map[string]int{}}
	for _, e := range Estados {
		out.PorEstado[e] = 0
	}
	for _, t := range TiposDocumento {
		out.PorTipo[t] = 0
	}
	rows, err := tx.Query(ctx, `select estado, tipo_documento, count(*) from comprobantes_electronicos
			where empresa_id = $1 and not eliminado
			  and ($2::timestamptz is null or fecha_emision >= $2) and ($3::timestamptz is null or fecha_emision < $3)
			group by estado, tipo_documento`, tx.EmpresaID(), x.desde, x.hasta)
	if err != nil {
		return out, fmt.Errorf("facturacion: estadísticas: %w", err)
	}
	var estado, tipo string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&estado, &tipo, &n}, func() error {
		out.PorEstado[estado] += n
		out.PorTipo[tipo] += n
		out.Total += n
		return nil
	})
	return out, err
}
