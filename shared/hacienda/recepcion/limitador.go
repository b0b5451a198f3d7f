package recepcion

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// LimitadorMemoria allows at most N requests per company in any window of
// length Periodo (a sliding log of reservations), in this process only.
// A caller over budget reserves the earliest free slot and waits for it
// through Dormir, so waiting callers are served in order.
type LimitadorMemoria struct {
	N       int
	Periodo time.Duration
	Now     func() time.Time
	Dormir  func(ctx context.Context, d time.Duration) error

	mu     sync.Mutex
	turnos map[int64][]time.Time // sorted reservation times per company
}

// NuevoLimitador returns an in-memory limiter of n requests per periodo per
// company. nil now/dormir mean time.Now and Dormir.
func NuevoLimitador(n int, periodo time.Duration, now func() time.Time, dormir func(ctx context.Context, d time.Duration) error) *LimitadorMemoria {
	if now == nil {
		now = time.Now
	}
	if dormir == nil {
		dormir = Dormir
	}
	return &LimitadorMemoria{N: n, Periodo: periodo, Now: now, Dormir: dormir, turnos: map[int64][]time.Time{}}
}

// Esperar implements Limitador.
func (l *LimitadorMemoria) Esperar(ctx context.Context, empresaID int64) error {
	if l.N <= 0 || l.Periodo <= 0 {
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	now := l.Now()
	ts := l.turnos[empresaID]
	// Forget reservations that left the window.
	i := 0
	for i < len(ts) && !ts[i].After(now.Add(-l.Periodo)) {
		i++
	}
	ts = ts[i:]
	turno := now
	if len(ts) >= l.N {
		// The slot frees when the N-th most recent reservation leaves the window.
		turno = ts[len(ts)-l.N].Add(l.Periodo)
		if last := ts[len(ts)-1]; turno.Before(last) {
			turno = last
		}
	}
	ts = append(ts, turno)
	l.turnos[empresaID] = ts
	l.mu.Unlock()

	d := turno.Sub(now)
	if d <= 0 {
		return nil
	}
	if err := l.Dormir(ctx, d); err != nil {
		l.liberar(empresaID, turno)
		return err
	}
	return nil
}

// liberar gives back a reservation that was not used.
func (l *LimitadorMemoria) liberar(empresaID int64, turno time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.turnos[empresaID]
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Equal(turno) {
			l.turnos[empresaID] = append(ts[:i:i], ts[i+1:]...)
			return
		}
	}
}

// LimitadorFunc adapts a function to Limitador.
type LimitadorFunc func(ctx context.Context, empresaID int64) error

// Esperar implements Limitador.
func (f LimitadorFunc) Esperar(ctx context.Context, empresaID int64) error { return f(ctx, empresaID) }

// Contador is a shared fixed-window counter; *ratelimit.Limiter (PostgreSQL,
// shared across Lambda instances) has this method.
type Contador interface {
	Hit(ctx context.Context, key string) (ok bool, retrySeconds int, err error)
}

// LimitadorCompartido turns a Contador into a Limitador: the key is the
// company id; over budget it waits the counter's retry time (through
// dormir, nil = Dormir) and tries again.
func LimitadorCompartido(c Contador, dormir func(ctx context.Context, d time.Duration) error) Limitador {
	if dormir == nil {
		dormir = Dormir
	}
	return LimitadorFunc(func(ctx context.Context, empresaID int64) error {
		key := strconv.FormatInt(empresaID, 10)
		for {
			ok, retry, err := c.Hit(ctx, key)
			if err != nil {
				return err
			}
			if ok {
				return nil
			}
			if retry < 1 {
				retry = 1
			}
			if err := dormir(ctx, time.Duration(retry)*time.Second); err != nil {
				return err
			}
		}
	})
}
