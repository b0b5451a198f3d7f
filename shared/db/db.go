// Package db owns the PostgreSQL access of the service: a Lambda-friendly pgx
// pool, transactions bound to the active tenant (row-level security), and the
// embedded SQL migrations.
package db

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// AppRole is the PostgreSQL role the API connects as. It owns no table and
// has no BYPASSRLS, so row-level security always applies to it.
const AppRole = "erp_app"

// Options configure the pool.
type Options struct {
	URL      string
	MaxConns int32
	// ExecMode is pgx's default_query_exec_mode: cache_statement (default),
	// cache_describe, describe_exec, exec (RDS Proxy friendly) or
	// simple_protocol.
	ExecMode string
	// Tracer, when set, observes every query (tests count round trips).
	Tracer pgx.QueryTracer
}

// Querier is what both a pool and a transaction offer; store functions take it
// so they can run inside or outside a transaction.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// DB is the process-wide pool, created once per process (per Lambda
// container) outside the handler.
type DB struct {
	Pool *pgxpool.Pool
	// AlConfirmar, when set, runs after a commit of WithTx whose
	// transaction set app.despertar (marca is its value): the wake-up of
	// the workers, which must see the committed rows. A lost wake-up is the
	// scheduler's sweep's to find.
	AlConfirmar func(ctx context.Context, s Scope, marca string)
}

// Open creates the pool. It does not connect eagerly (MinConns 0), which
// keeps Lambda cold starts cheap and lets RDS Proxy multiplex.
func Open(ctx context.Context, o Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(o.URL)
	if err != nil {
		return nil, fmt.Errorf("db: parse url: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	cfg.MinConns = 0
	cfg.MaxConnIdleTime = 5 * time.Minute
	mode, err := execMode(o.ExecMode)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.DefaultQueryExecMode = mode
	// Timestamps are UTC on both sides, whatever the server's default zone
	// and the process's TZ: the application role's sessions run in UTC (a
	// role default set by migration 0009, neither a SET statement nor a
	// startup parameter, so nothing for RDS Proxy to pin on), so rows
	// PostgreSQL builds as JSON print +00:00, which httpx.NormalizeTimestamps
	// rewrites as Z; and pgx scans timestamptz into time.Time in UTC instead
	// of the process's local zone, so Go prints Z.
	cfg.AfterConnect = scanTimestamptzInUTC
	if o.Tracer != nil {
		cfg.ConnConfig.Tracer = o.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: new pool: %w", err)
	}
	return &DB{Pool: pool}, nil
}

// scanTimestamptzInUTC makes a connection's type map return timestamptz
// values (alone or in arrays) in UTC.
func scanTimestamptzInUTC(_ context.Context, conn *pgx.Conn) error {
	m := conn.TypeMap()
	t := &pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID, Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_timestamptz", OID: pgtype.TimestamptzArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
	return nil
}

func execMode(s string) (pgx.QueryExecMode, error) {
	switch s {
	case "", "cache_statement":
		return pgx.QueryExecModeCacheStatement, nil
	case "cache_describe":
		return pgx.QueryExecModeCacheDescribe, nil
	case "describe_exec":
		return pgx.QueryExecModeDescribeExec, nil
	case "exec":
		return pgx.QueryExecModeExec, nil
	case "simple_protocol":
		return pgx.QueryExecModeSimpleProtocol, nil
	}
	return 0, fmt.Errorf("db: unknown exec mode %q", s)
}

// Close releases the pool.
func (d *DB) Close() {
	if d != nil && d.Pool != nil {
		d.Pool.Close()
	}
}

// Scope is who a transaction acts for: the tenant (empresa) and the user.
// Zero values mean "not set": with no tenant, row-level security hides every
// tenant row.
type Scope struct {
	EmpresaID int64
	UsuarioID int64
}

// Tx is a transaction bound to a Scope. It implements Querier.
//
// BEGIN and the scope's settings are not sent on their own: they travel in
// front of the transaction's first statement, in the same pipeline (one
// round trip instead of two), and a transaction that sends nothing costs
// nothing (opening.go).
type Tx struct {
	conn  *pgxpool.Conn
	done  bool
	scope Scope
	// begun is set once BEGIN and the settings were sent.
	begun bool
	// finalBatch lets SendFinalBatch commit with the batch it sends.
	finalBatch bool
	// despertar is app.despertar as read at commit.
	despertar *string
	// atCommit are the writes deferred to the commit (ExecAtCommit).
	atCommit []*pgx.QueuedQuery
	// marcadores are the values the commit takes (Marcador).
	marcadores []*Marcador
}

// EmpresaID is the tenant the transaction is bound to (row-level security
// reads the same value): domain code takes it from here rather than from a
// parameter that could disagree.
func (t *Tx) EmpresaID() int64 { return t.scope.EmpresaID }

// ActuarEn records that the statement just run set app.empresa_id to id in
// this transaction (a company the caller was checked to belong to: showing,
// changing or creating a company), so that EmpresaID keeps agreeing with
// row-level security.
func (t *Tx) ActuarEn(id int64) { t.scope.EmpresaID = id }

// UsuarioID is the user the transaction acts for (0 when none).
func (t *Tx) UsuarioID() int64 { return t.scope.UsuarioID }

const setScope = `select set_config('app.empresa_id', $1, true), set_config('app.usuario_id', $2, true)`

// WithTx runs fn in one transaction scoped to s. BEGIN and the tenant
// settings travel with the first statement fn sends (one pipelined round
// trip), the settings are transaction-local (safe behind RDS Proxy), and
// the transaction is committed when fn returns nil and rolled back
// otherwise.
func (d *DB) WithTx(ctx context.Context, s Scope, fn func(tx *Tx) error) (err error) {
	defer func() { err = Regla(err) }()
	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("db: acquire: %w", err)
	}
	// The after-commit hook runs once the connection is back in the pool
	// (deferred first, so it runs last): it may open transactions of its
	// own, and holding one connection while waiting for another could
	// exhaust a small pool under concurrency.
	tx := &Tx{conn: conn, scope: s}
	defer func() {
		if err == nil && tx.despertar != nil && d.AlConfirmar != nil {
			d.AlConfirmar(ctx, s, *tx.despertar)
		}
	}()
	defer conn.Release()
	defer func() {
		if tx.done {
			return
		}
		if !tx.begun && (err != nil || len(tx.atCommit) == 0) {
			// Nothing was sent: there is nothing to commit or roll back.
			return
		}
		if p := recover(); p != nil {
			_, _ = conn.Exec(context.WithoutCancel(ctx), "rollback")
			panic(p)
		}
		if err != nil {
			if _, rbErr := conn.Exec(context.WithoutCancel(ctx), "rollback"); rbErr != nil {
				_ = conn.Conn().Close(ctx)
			}
			return
		}
		// The commit travels with a read of app.despertar, which database
		// code sets when the transaction left work for a worker (webhook
		// deliveries): one round trip, as a bare COMMIT.
		b := &pgx.Batch{}
		tx.queueCommit(b)
		if cErr := tx.SendBatch(ctx, b).Close(); cErr != nil {
			tx.despertar = nil
			err = fmt.Errorf("db: commit: %w", cErr)
			// A statement of the commit's pipeline failed (the rest was
			// skipped, the transaction is aborted) or the COMMIT did (the
			// transaction is over; ROLLBACK then only warns): a ROLLBACK
			// leaves the connection clean for the pool, as for any failed
			// statement. Writes deferred to the commit may fail there on
			// purpose (a stale plan, run again), so the connection is kept.
			if _, rbErr := conn.Exec(context.WithoutCancel(ctx), "rollback"); rbErr != nil {
				_ = conn.Conn().Close(ctx)
			}
		}
	}()
	return fn(tx)
}

// HintRegla marks an exception raised by database code for a rule the
// caller broke (a posting into a closed accounting period, an unbalanced
// entry): its DETAIL is the field key and its message the Spanish text.
const HintRegla = "erp:422"

// Regla turns a rule the database refused (HintRegla) into the API's 422 on
// that field; any other error is returned as it is. Rules checked at COMMIT
// by deferred triggers (automatic posting) arrive this way too.
func Regla(err error) error {
	var pg *pgconn.PgError
	if err != nil && errors.As(err, &pg) && pg.Hint == HintRegla {
		campo := pg.Detail
		if campo == "" {
			campo = "general"
		}
		return apperr.InvalidField(campo, pg.Message)
	}
	return err
}

func idText(id int64) string {
	if id <= 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

// IsUniqueViolation reports whether err is a unique-constraint violation and
// returns the constraint name.
func IsUniqueViolation(err error) (string, bool) {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" {
		return pg.ConstraintName, true
	}
	return "", false
}

// IsForeignKeyViolation reports whether err is a foreign-key violation.
func IsForeignKeyViolation(err error) (string, bool) {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23503" {
		return pg.ConstraintName, true
	}
	return "", false
}

// AppURL derives the application role's URL from an owner URL: same host,
// port, database and options, other user and password.
func AppURL(adminURL, password string) (string, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", fmt.Errorf("db: parse admin url: %w", err)
	}
	u.User = url.UserPassword(AppRole, password)
	return u.String(), nil
}
