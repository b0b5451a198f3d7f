// Package ratelimit counts requests in fixed windows kept in PostgreSQL, so
// that a limit holds across every Lambda instance rather than per process.
package ratelimit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/erpcr/erp/shared/db"
)

// Limiter applies one limit: Max hits per Window for a key.
type Limiter struct {
	DB     *db.DB
	Name   string
	Max    int
	Window time.Duration
	// Now is for tests; nil means time.Now.
	Now func() time.Time
}

// Hit counts one attempt for key. It returns whether the attempt is within
// the limit and, if not, how many seconds until the window ends.
func (l *Limiter) Hit(ctx context.Context, key string) (bool, int, error) {
	if l.Max <= 0 {
		return true, 0, nil
	}
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.Truncate(l.Window)
	var n int
	err := l.DB.Pool.QueryRow(ctx, `insert into limites_tasa (clave, ventana_inicio, cuenta) values ($1, $2, 1)
		on conflict (clave, ventana_inicio) do update set cuenta = limites_tasa.cuenta + 1
		returning cuenta`, l.Name+":"+key, start).Scan(&n)
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit %s: %w", l.Name, err)
	}
	// Old windows are garbage; sweeping on a small fraction of hits keeps the
	// table small without a scheduled job.
	if rand.IntN(100) == 0 {
		_, _ = l.DB.Pool.Exec(ctx, `delete from limites_tasa where ventana_inicio < now() - interval '2 days'`)
	}
	if n > l.Max {
		retry := int(start.Add(l.Window).Sub(now).Seconds()) + 1
		return false, retry, nil
	}
	return true, 0, nil
}
