package programados

import (
	"context"
	"time"
)

// Reclamar exposes the claim of one schedule to the tests: a scheduler
// holding a stale list of due schedules must claim nothing.
func (s *Servicio) Reclamar(ctx context.Context, empresa, id int64, ahora time.Time) (*int64, error) {
	return s.reclamar(ctx, empresa, id, ahora)
}
