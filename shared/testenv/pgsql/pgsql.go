// Package pgsql runs SQL on a database URL for tests, failing the test on
// error. It depends on pgx only, so the tests of the database packages
// themselves (pgtest, pgcluster), which testenv builds on, can use it too.
package pgsql

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Connect opens a connection to url (within 30 s); it is closed when the
// test ends.
func Connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// Exec runs sql on its own connection, closed before it returns.
func Exec(t testing.TB, url, sql string, args ...any) {
	t.Helper()
	conn := Connect(t, url)
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// Scan runs sql on its own connection, closed before it returns, and reads
// its one row into dst.
func Scan(t testing.TB, url, sql string, args []any, dst ...any) {
	t.Helper()
	conn := Connect(t, url)
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(dst...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// Query is Scan of one value of one row.
func Query[T any](t testing.TB, url, sql string, args ...any) T {
	t.Helper()
	var v T
	Scan(t, url, sql, args, &v)
	return v
}
