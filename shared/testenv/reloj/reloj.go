// Package reloj is the fake clock of tests that must not sleep: the code
// under test reads Now (and sleeps through Dormir), the test moves the
// time with Avanzar or Fijar. It has no dependencies, so any package's
// tests can import it without a cycle.
package reloj

import (
	"context"
	"sync"
	"time"
)

// Reloj is a clock safe for concurrent use that only moves when told.
type Reloj struct {
	mu      sync.Mutex
	t       time.Time
	esperas []time.Duration
}

// En returns a clock standing at t.
func En(t time.Time) *Reloj { return &Reloj{t: t} }

// Now is the clock's time.
func (r *Reloj) Now() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.t
}

// Fijar sets the time.
func (r *Reloj) Fijar(t time.Time) {
	r.mu.Lock()
	r.t = t
	r.mu.Unlock()
}

// Avanzar moves the time forward by d.
func (r *Reloj) Avanzar(d time.Duration) {
	r.mu.Lock()
	r.t = r.t.Add(d)
	r.mu.Unlock()
}

// Dormir stands in for a sleep: it advances the clock by d at once and
// records the wait (see Esperas).
func (r *Reloj) Dormir(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.esperas = append(r.esperas, d)
	r.t = r.t.Add(d)
	r.mu.Unlock()
	return ctx.Err()
}

// Esperas lists every wait passed to Dormir, in order.
func (r *Reloj) Esperas() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.esperas...)
}
