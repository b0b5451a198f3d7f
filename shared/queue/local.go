package queue

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// Local is the in-process queue: jobs wait in memory until their time comes
// by Now, which tests replace with a manual clock. It is safe for concurrent
// use. Messages are lost when the process stops, which the sweep tolerates.
type Local struct {
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Redelivery is how long a failed job waits before it is delivered
	// again (SQS's visibility timeout; default 30 s).
	Redelivery time.Duration
	// Log receives handler failures (nil: slog.Default()).
	Log *slog.Logger

	mu     sync.Mutex
	items  []item
	seq    int64
	signal chan struct{}
}

type item struct {
	due time.Time
	seq int64
	job Job
}

// NewLocal returns an empty in-process queue on the given clock (nil: time.Now).
func NewLocal(now func() time.Time) *Local {
	return &Local{Now: now}
}

func (q *Local) now() time.Time {
	if q.Now != nil {
		return q.Now()
	}
	return time.Now()
}

// Wake implements Queue.
func (q *Local) Wake(ctx context.Context, j Job, d time.Duration) error {
	if d < 0 {
		d = 0
	}
	q.mu.Lock()
	q.seq++
	q.items = append(q.items, item{due: q.now().Add(d), seq: q.seq, job: j})
	sig := q.signal
	q.mu.Unlock()
	if sig != nil {
		select {
		case sig <- struct{}{}:
		default:
		}
	}
	return nil
}

// Len returns the number of waiting jobs (due or not).
func (q *Local) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Pending returns a copy of the waiting jobs with their due times, earliest first.
func (q *Local) Pending() []Pendiente {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Pendiente, len(q.items))
	for i, it := range q.items {
		out[i] = Pendiente{Job: it.job, Due: it.due}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	return out
}

// Pendiente is a waiting job and when it is due.
type Pendiente struct {
	Job Job
	Due time.Time
}

// Clear drops every waiting job (a "lost" message in tests).
func (q *Local) Clear() {
	q.mu.Lock()
	q.items = nil
	q.mu.Unlock()
}

// take removes and returns the earliest due job, if any.
func (q *Local) take() (Job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.now()
	best := -1
	for i, it := range q.items {
		if it.due.After(now) {
			continue
		}
		if best < 0 || it.due.Before(q.items[best].due) || (it.due.Equal(q.items[best].due) && it.seq < q.items[best].seq) {
			best = i
		}
	}
	if best < 0 {
		return Job{}, false
	}
	j := q.items[best].job
	q.items = append(q.items[:best], q.items[best+1:]...)
	return j, true
}

// next returns the due time of the earliest waiting job.
func (q *Local) next() (time.Time, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return time.Time{}, false
	}
	min := q.items[0].due
	for _, it := range q.items[1:] {
		if it.due.Before(min) {
			min = it.due
		}
	}
	return min, true
}

// maxDrain bounds one Drain, so a handler that keeps waking its own job
// with no delay cannot spin forever.
const maxDrain = 100_000

// ErrDrainLimit is returned when Drain stopped at maxDrain jobs.
var ErrDrainLimit = errors.New("queue: drain stopped after too many jobs")

// Drain handles, one after the other, every job that is due by the clock,
// including jobs woken without delay while draining. A failed job goes back
// with the Redelivery delay. It returns how many jobs were handled and the
// first handler error.
func (q *Local) Drain(ctx context.Context, h Handler) (int, error) {
	n := 0
	var first error
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if n >= maxDrain {
			return n, ErrDrainLimit
		}
		j, ok := q.take()
		if !ok {
			return n, first
		}
		n++
		if err := h(ctx, j); err != nil {
			if first == nil {
				first = err
			}
			q.log().Error("queue: job failed; delivered again later", "job", j.String(), "error", err.Error())
			redelivery := q.Redelivery
			if redelivery <= 0 {
				redelivery = 30 * time.Second
			}
			_ = q.Wake(ctx, j, redelivery)
		}
	}
}

func (q *Local) log() *slog.Logger {
	if q.Log != nil {
		return q.Log
	}
	return slog.Default()
}

// Run consumes the queue until ctx ends (make run): it drains what is due,
// then waits until the next job is due, a job is woken, or poll elapses
// (the clock may not be the wall clock). It returns nil when ctx ends.
func (q *Local) Run(ctx context.Context, h Handler, poll time.Duration) error {
	if poll <= 0 {
		poll = time.Second
	}
	q.mu.Lock()
	if q.signal == nil {
		q.signal = make(chan struct{}, 1)
	}
	sig := q.signal
	q.mu.Unlock()
	for {
		_, _ = q.Drain(ctx, h)
		wait := poll
		if due, ok := q.next(); ok {
			if d := due.Sub(q.now()); d < wait {
				wait = max(d, time.Millisecond)
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-sig:
			t.Stop()
		case <-t.C:
		}
	}
}
