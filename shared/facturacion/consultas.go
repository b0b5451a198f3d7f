package facturacion

import (
	"context"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
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
