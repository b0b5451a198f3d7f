package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Page runs a list's count and one page of it in a single pipelined round
// trip. from is the "from ... where ..." part shared by both, using args as
// $1..$n; the page adds limit and offset after them. order must come from a
// whitelist, never from user input.
func Page[T any](ctx context.Context, q Querier, cols, from, order string, args []any, limit, offset int, scan pgx.RowToFunc[T]) ([]T, int, error) {
	b := &pgx.Batch{}
	b.Queue(`select count(*) `+from, args...)
	n := len(args)
	pageArgs := append(append([]any{}, args...), limit, offset)
	b.Queue(fmt.Sprintf(`select %s %s order by %s limit $%d offset $%d`, cols, from, order, n+1, n+2), pageArgs...)
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
	return items, total, nil
}
