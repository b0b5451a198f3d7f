package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// WhileLocked runs sql (with args) in an owner transaction, sends req while
// that transaction holds the row locks it took, waits until an application
// query whose text is like the pattern waits for a lock, commits and returns
// req's answer: a race between a write committed meanwhile and the request,
// made deterministic (e.g. two deletes of one record).
func (e *Env) WhileLocked(t testing.TB, sql string, args []any, like string, req func() Resp) Resp {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
	done := make(chan Resp, 1)
	go func() { done <- req() }()
	deadline := time.Now().Add(10 * time.Second)
	for Scalar[int64](t, e, `select count(*) from pg_stat_activity where datname = current_database() and usename = 'erp_app'
		and wait_event_type = 'Lock' and query like $1`, like) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the request never waited for the locked rows")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return <-done
}
