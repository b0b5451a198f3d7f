package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory-lock key that serialises concurrent migrators
// (two deploys, or make run next to the migrate function).
const migrationLock = 7_301_506

// Migrate applies, in file-name order, every embedded migration not yet
// recorded in schema_migrations, each in its own transaction, while holding an
// advisory lock. It must run with the owner's connection (DATABASE_URL /
// the admin secret), never the application role's. It returns the versions
// it applied.
func Migrate(ctx context.Context, adminURL string) ([]string, error) {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return nil, fmt.Errorf("migrate: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `select pg_advisory_lock($1)`, migrationLock); err != nil {
		return nil, fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `select pg_advisory_unlock($1)`, migrationLock) //nolint:errcheck
	if _, err := conn.Exec(ctx, `create table if not exists schema_migrations (
		version text primary key,
		aplicado_en timestamptz not null default now())`); err != nil {
		return nil, fmt.Errorf("migrate: bookkeeping table: %w", err)
	}
	done := map[string]bool{}
	rows, err := conn.Query(ctx, `select version from schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("migrate: read applied: %w", err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("migrate: read applied: %w", err)
	}
	for _, v := range versions {
		done[v] = true
	}
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var applied []string
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		if done[version] {
			continue
		}
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return applied, err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `insert into schema_migrations (version) values ($1)`, version)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migrate: %s: %w", version, err)
		}
		applied = append(applied, version)
	}
	return applied, nil
}

// EnableAppLogin lets the application role log in with the given password.
// The role itself is created by the first migration (NOLOGIN); the password
// belongs to the environment, not to a migration.
func EnableAppLogin(ctx context.Context, adminURL, password string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("app role: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var stmt string
	// format(%L) quotes the password as a literal; ALTER ROLE takes no parameters.
	if err := conn.QueryRow(ctx, `select format('alter role `+AppRole+` login password %L', $1::text)`, password).Scan(&stmt); err != nil {
		return fmt.Errorf("app role: %w", err)
	}
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return fmt.Errorf("app role: %w", err)
	}
	return nil
}
