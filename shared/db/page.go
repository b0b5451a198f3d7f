package db

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// Page runs a list's count and one page of it in a single pipelined round
// trip. from is the "from ... where ..." part shared by both, using args as
// $1..$n; the page adds its offset after them. order must come from a
// whitelist, never from user input.
func Page[T any](ctx context.Context, q Querier, cols, from, order string, args []any, limit, offset int, scan pgx.RowToFunc[T]) ([]T, int, error) {
	return page(ctx, q, cols, from, order, args, limit, offset, scan, false)
}

// PageLate is Page for columns that are costly to compute (a row built as
// JSON, computed fields with subqueries): the page is cut first, as the
// common table expression pagina over the table aliased t (from must read
// "from <table> t ..."), and cols are computed only for its rows, read as
// t, joined with join (which may be empty). Otherwise PostgreSQL may
// compute them for every row that passes the filter before sorting and
// cutting. join and cols may also read pagina as a whole (an aggregate
// over the page's ids, computed once).
func PageLate[T any](ctx context.Context, q Querier, cols, join, from, order string, args []any, limit, offset int, scan pgx.RowToFunc[T]) ([]T, int, error) {
	return page(ctx, q, cols+" from pagina t"+join, from, order, args, limit, offset, scan, true)
}

func page[T any](ctx context.Context, q Querier, cols, from, order string, args []any, limit, offset int, scan pgx.RowToFunc[T], late bool) ([]T, int, error) {
	b := &pgx.Batch{}
	b.Queue(`select count(*) `+from, args...)
	// The limit is written into the statement (a page size is one of a few
	// values, at most 100), the offset is an argument: with LIMIT $n
	// PostgreSQL estimates the generic plan for an unknown share of the rows
	// and keeps planning the prepared statement anew on every execution
	// (custom plans), which for a row built as JSON with its relations costs
	// as much as running it; with a known limit it settles on one plan.
	n := len(args)
	pageArgs := append(append(make([]any, 0, n+1), args...), offset)
	lim := strconv.Itoa(limit)
	if late {
		b.Queue(fmt.Sprintf(`with pagina as (select t.* %s order by %s limit %s offset $%d) select %s order by %s`, from, order, lim, n+1, cols, order), pageArgs...)
	} else {
		b.Queue(fmt.Sprintf(`select %s %s order by %s limit %s offset $%d`, cols, from, order, lim, n+1), pageArgs...)
	}
	br := q.SendBatch(ctx, b)
	defer br.Close()
	var total int
	if err := br.QueryRow().Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: count: %w", err)
	}
	rows, _ := br.Query()
	items, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, 0, fmt.Errorf("db: page: %w", err)
	}
	// The batch may carry the commit (Final): its error is the page's.
	if err := br.Close(); err != nil {
		return nil, 0, fmt.Errorf("db: page: %w", err)
	}
	return items, total, nil
}
