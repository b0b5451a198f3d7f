package ventas

import (
	"fmt"

	"github.com/jackc/pgx/v5"
)

// siguiente reads the next result of a pipelined batch with scan; what
// names the relation in the error. The loaders below read one batch
// result per related table, in the order they queued them.
func siguiente[T any](br pgx.BatchResults, what string, scan pgx.RowToFunc[T]) ([]T, error) {
	rows, _ := br.Query() // a failed query surfaces as CollectRows' error
	xs, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, fmt.Errorf("ventas: %s: %w", what, err)
	}
	return xs, nil
}
