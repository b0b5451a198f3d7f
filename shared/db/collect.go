package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Uno reads one record (a query selecting at most one row, by its id),
// scanned with scan, and, when cargar is not nil, loads its relations with
// the loader a list uses for its page. found is false, with no error, when
// the query selects none, so a domain function answers its own 404; what
// names the record in errors.
func Uno[T any](ctx context.Context, q Querier, what string, scan pgx.RowToFunc[T], cargar func([]T) error, sql string, args ...any) (x T, found bool, err error) {
	var zero T
	rows, err := q.Query(ctx, sql, args...)
	if err == nil {
		x, err = pgx.CollectOneRow(rows, scan)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return zero, false, nil
	}
	if err != nil {
		return zero, false, fmt.Errorf("%s: %w", what, err)
	}
	if cargar == nil {
		return x, true, nil
	}
	xs := []T{x}
	if err := cargar(xs); err != nil {
		return zero, false, err
	}
	return xs[0], true, nil
}
