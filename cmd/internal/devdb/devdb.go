// Package devdb opens the database of the developer commands (make
// plataforma, make contabilidad): DATABASE_URL, or else the cluster that
// `make run` started under .local/pgdata, as its owner.
package devdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db/pgcluster"
)

// Conectar opens one connection; the caller closes it.
func Conectar(ctx context.Context) (*pgx.Conn, error) {
	dsn := os.Getenv("DATABASE_URL")
	if dsn == "" {
		var err error
		if dsn, err = pgcluster.URLLocal(filepath.Join(".local", "pgdata")); err != nil {
			return nil, err
		}
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("conectar: %w", err)
	}
	return conn, nil
}
