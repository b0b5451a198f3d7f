package db

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// Uno runs a query that selects at most one row (a record by its id) and
// scans it: found is false, with no error, when it selects none, so a
// domain function can answer its own 404.
func Uno[T any](ctx context.Context, q Querier, scan pgx.RowToFunc[T], sql string, args ...any) (x T, found bool, err error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return x, false, err
	}
	x, err = pgx.CollectOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return x, false, nil
	}
	return x, err == nil, err
}
