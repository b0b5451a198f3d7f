package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Bloqueo is an owner transaction that holds the row locks its statement
// took, so that a test can send requests meanwhile and commit when they
// wait: a race between a write in flight and the API, made deterministic.
// It is rolled back at the end of the test unless Confirmar committed it.
type Bloqueo struct {
	t  testing.TB
	e  *Env
	Tx pgx.Tx
}

// Bloquear opens the owner transaction and runs sql (with args) in it.
func (e *Env) Bloquear(t testing.TB, sql string, args ...any) *Bloqueo {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
	return &Bloqueo{t: t, e: e, Tx: tx}
}

// Esperan reports whether at least n application queries whose text is
// like the pattern ("%" for any) wait for a lock now.
func (b *Bloqueo) Esperan(like string, n int64) bool {
	b.t.Helper()
	return Scalar[int64](b.t, b.e, `select count(*) from pg_stat_activity where datname = current_database() and usename = 'erp_app'
		and wait_event_type = 'Lock' and query like $1`, like) >= n
}

// HastaQue polls cond for up to 10 seconds, failing the test with msg.
func HastaQue(t testing.TB, cond func() bool, msg string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
	}
}

// HastaQueEsperen waits until n application queries like the pattern wait
// for a lock.
func (b *Bloqueo) HastaQueEsperen(like string, n int64) {
	b.t.Helper()
	HastaQue(b.t, func() bool { return b.Esperan(like, n) }, "the request never waited for the locked rows")
}

// Confirmar commits the owner transaction, releasing its locks.
func (b *Bloqueo) Confirmar() {
	b.t.Helper()
	if err := b.Tx.Commit(context.Background()); err != nil {
		b.t.Fatal(err)
	}
}

// WhileLocked runs sql (with args) in an owner transaction, sends req while
// that transaction holds the row locks it took, waits until an application
// query whose text is like the pattern waits for a lock, commits and returns
// req's answer (e.g. two deletes of one record).
func (e *Env) WhileLocked(t testing.TB, sql string, args []any, like string, req func() Resp) Resp {
	t.Helper()
	b := e.Bloquear(t, sql, args...)
	done := make(chan Resp, 1)
	go func() { done <- req() }()
	b.HastaQueEsperen(like, 1)
	b.Confirmar()
	return <-done
}
