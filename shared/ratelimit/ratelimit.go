// Package ratelimit counts requests in fixed windows kept in PostgreSQL, so
// that a limit holds across every Lambda instance rather than per process.
package ratelimit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/config"
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

// Resultado is one counted request: what the X-RateLimit-* headers say.
type Resultado struct {
	Permitido bool
	Limite    int
	Ventana   time.Duration
	Restantes int
	// Reinicio is when the window ends (X-RateLimit-Reset, in Unix seconds).
	Reinicio time.Time
	// Espera is Retry-After, in seconds, when not Permitido.
	Espera int
}

// Contar counts one request for key in one statement and reports where the
// key stands in the current window. A Limiter with Max <= 0 admits all and
// touches nothing.
func (l *Limiter) Contar(ctx context.Context, key string) (Resultado, error) {
	if l.Max <= 0 {
		return Resultado{Permitido: true}, nil
	}
	r, err := l.ContarEn(ctx, l.DB.Pool, key)
	// Old windows are garbage; sweeping on a small fraction of hits keeps the
	// table small without a scheduled job.
	if err == nil && rand.IntN(100) == 0 {
		_, _ = l.DB.Pool.Exec(ctx, `delete from limites_tasa where ventana_inicio < now() - interval '2 days'`)
	}
	return r, err
}

// Consulta is where ContarEn counts: the pool, or a transaction (*db.Tx).
type Consulta interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ContarEn counts one request for key through q. In a transaction, the
// hit counts only if it commits (and the window's row stays locked until
// then): a caller counts inside the transaction that does the counted work,
// so work that turns out not to happen (a duplicate, a refusal) does not
// use up the limit.
func (l *Limiter) ContarEn(ctx context.Context, q Consulta, key string) (Resultado, error) {
	if l.Max <= 0 {
		return Resultado{Permitido: true}, nil
	}
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.Truncate(l.Window)
	var n int
	err := q.QueryRow(ctx, `insert into limites_tasa (clave, ventana_inicio, cuenta) values ($1, $2, 1)
		on conflict (clave, ventana_inicio) do update set cuenta = limites_tasa.cuenta + 1
		returning cuenta`, l.Name+":"+key, start).Scan(&n)
	if err != nil {
		return Resultado{}, fmt.Errorf("ratelimit %s: %w", l.Name, err)
	}
	fin := start.Add(l.Window)
	r := Resultado{Permitido: n <= l.Max, Limite: l.Max, Ventana: l.Window, Restantes: max(l.Max-n, 0), Reinicio: fin}
	if !r.Permitido {
		r.Espera = int(fin.Sub(now).Seconds()) + 1
	}
	return r, nil
}

// Hit counts one attempt for key. It returns whether the attempt is within
// the limit and, if not, how many seconds until the window ends.
func (l *Limiter) Hit(ctx context.Context, key string) (bool, int, error) {
	r, err := l.Contar(ctx, key)
	return r.Permitido, r.Espera, err
}

// Clases applies the configured limit of each rate-limit class of the route
// table (config.Limites); a class without a configured limit is not
// counted.
type Clases struct {
	DB      *db.DB
	Limites map[string]config.Limite
	Now     func() time.Time
}

// Contar counts one request of class for key.
func (c *Clases) Contar(ctx context.Context, class, key string) (Resultado, error) {
	l, ok := c.Limites[class]
	if !ok || l.Max <= 0 {
		return Resultado{Permitido: true}, nil
	}
	return (&Limiter{DB: c.DB, Name: class, Max: l.Max, Window: l.Ventana, Now: c.Now}).Contar(ctx, key)
}
