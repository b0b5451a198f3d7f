// Package queue is the small "wake up job X (after d)" interface the
// asynchronous work of the service runs on (DESIGN.md §4). PostgreSQL holds
// every job's state; a message only says "look at row N of company E", so
// delivering one twice, late, or not at all changes nothing but timing: the
// consumer re-reads the row and the scheduler's sweep re-wakes anything
// whose message was lost.
//
// Two implementations: SQS (AWS; delays up to 15 minutes with DelaySeconds)
// and Local (in-process, for make run and tests, driven by an injectable
// clock so tests never sleep).
package queue

import (
	"context"
	"fmt"
	"time"
)

// Job names one unit of asynchronous work: its kind and the row it is about.
type Job struct {
	// Tipo is the kind of work, e.g. "hacienda".
	Tipo string `json:"tipo"`
	// EmpresaID is the tenant of the row (workers open their transaction
	// scoped to it).
	EmpresaID int64 `json:"empresa_id"`
	// ID is the row to look at.
	ID int64 `json:"id"`
}

func (j Job) String() string { return fmt.Sprintf("%s/%d/%d", j.Tipo, j.EmpresaID, j.ID) }

// Queue wakes jobs up.
type Queue interface {
	// Wake asks for j to be handled after d (0: as soon as possible).
	// Delivery is at least once and never earlier than d (SQS may clamp
	// delays above MaxDelay; consumers must tolerate early or duplicate
	// messages).
	Wake(ctx context.Context, j Job, d time.Duration) error
}

// Handler handles one job. A returned error means "not handled": the
// message is delivered again later (SQS: after the visibility timeout, then
// to the dead-letter queue; Local: after its Redelivery delay).
type Handler func(ctx context.Context, j Job) error

// MaxDelay is the longest delay SQS accepts (DelaySeconds 900). Longer waits
// are left to the scheduler's sweep.
const MaxDelay = 15 * time.Minute

// Discard is a Queue that loses every message (tests of the sweep, and
// processes that have no consumer).
type Discard struct{}

// Wake implements Queue by doing nothing.
func (Discard) Wake(context.Context, Job, time.Duration) error { return nil }
