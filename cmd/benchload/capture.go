package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// stmt is one statement the application sent, with its arguments.
type stmt struct {
	sql  string
	args []any
}

// recorder is the pool's query tracer: while on, it records every
// statement (alone or in a pipelined batch) and counts round trips (a
// statement sent alone, or a whole batch, is one).
type recorder struct {
	on         atomic.Bool
	mu         sync.Mutex
	stmts      []stmt
	roundTrips int
}

func (r *recorder) start() {
	r.mu.Lock()
	r.stmts, r.roundTrips = nil, 0
	r.mu.Unlock()
	r.on.Store(true)
}

func (r *recorder) stop() ([]stmt, int) {
	r.on.Store(false)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stmts, r.roundTrips
}

func (r *recorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if r.on.Load() {
		r.mu.Lock()
		r.stmts = append(r.stmts, stmt{d.SQL, append([]any(nil), d.Args...)})
		r.roundTrips++
		r.mu.Unlock()
	}
	return ctx
}
func (r *recorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *recorder) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	if r.on.Load() {
		r.mu.Lock()
		r.roundTrips++
		r.mu.Unlock()
	}
	return ctx
}
func (r *recorder) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	if r.on.Load() {
		r.mu.Lock()
		r.stmts = append(r.stmts, stmt{d.SQL, append([]any(nil), d.Args...)})
		r.mu.Unlock()
	}
}
func (r *recorder) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

var placeholder = regexp.MustCompile(`\$(\d+)`)

// pgbenchScript turns captured statements into a pgbench script that sends
// them one by one, each argument a pgbench variable (-D), so that under
// -M prepared PostgreSQL receives the same prepared statements with the
// same parameters the application sent. NULL arguments are written as
// typed NULL literals (pgbench variables cannot be NULL). The types come
// from describing each statement on conn (the owner, same database); the
// values are encoded in text by pgx as the application encodes them.
// commitReplay stands for a write's COMMIT in its replay: the deferred
// constraint triggers (the books' postings, the dashboard's summaries and
// version, the counters they take) fire as COMMIT would fire them, then the
// transaction rolls back so that the script can repeat. Without the first
// statement a replay that ends in ROLLBACK skips all of that work, which
// the API's COMMIT cannot, and its rate is a ceiling no request can reach.
// What is left out is the WAL flush of a real commit.
const commitReplay = "set constraints all immediate;\nrollback"

func pgbenchScript(ctx context.Context, conn *pgx.Conn, stmts []stmt, rollback bool) (script string, vars []string, err error) {
	var b strings.Builder
	for i, s := range stmts {
		sql := strings.TrimSpace(s.sql)
		sql = strings.TrimSuffix(sql, ";")
		if rollback && strings.EqualFold(sql, "commit") {
			sql = commitReplay
		}
		args := s.args
		if len(args) > 0 {
			if _, ok := args[0].(pgx.QueryExecMode); ok {
				args = args[1:]
			}
		}
		if len(args) > 0 {
			desc, err := conn.Prepare(ctx, "", sql)
			if err != nil {
				return "", nil, fmt.Errorf("describe %q: %w", sql, err)
			}
			lits := make([]string, len(args))
			for j, a := range args {
				oid := desc.ParamOIDs[j]
				buf, err := conn.TypeMap().Encode(oid, pgtype.TextFormatCode, a, nil)
				if err != nil {
					return "", nil, fmt.Errorf("encode $%d of %q (%T): %w", j+1, sql, a, err)
				}
				if buf == nil {
					var typ string
					if err := conn.QueryRow(ctx, `select format_type($1, null)`, oid).Scan(&typ); err != nil {
						return "", nil, err
					}
					lits[j] = "NULL::" + typ
					continue
				}
				name := fmt.Sprintf("s%d_%d", i, j+1)
				vars = append(vars, name+"="+string(buf))
				lits[j] = ":" + name
			}
			sql = placeholder.ReplaceAllStringFunc(sql, func(m string) string {
				n, _ := strconv.Atoi(m[1:])
				return lits[n-1]
			})
		}
		b.WriteString(sql)
		b.WriteString(";\n")
	}
	return b.String(), vars, nil
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// pgbench replays script with -M prepared, clients connections, for
// seconds, as the application role; it returns transactions per second, or
// an error with pgbench's output when a client aborted or failed.
func pgbench(ctx context.Context, dir, url, script string, vars []string, clients, threads, seconds int) (float64, error) {
	tps, _, err := pgbenchCost(ctx, dir, url, script, vars, clients, threads, seconds, "")
	return tps, err
}

// pgbenchCost is pgbench with the CPU one transaction cost PostgreSQL
// (pgCPU over the run) and pgbench itself, and, with -pgstat, the run's
// pg_stat_statements kept under title.
func pgbenchCost(ctx context.Context, dir, url, script string, vars []string, clients, threads, seconds int, title string) (float64, cost, error) {
	path := filepath.Join(dir, "replay.sql")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return 0, cost{}, err
	}
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(clients), "-j", strconv.Itoa(threads), "-T", strconv.Itoa(seconds), "-f", path}
	for _, v := range vars {
		args = append(args, "-D", v)
	}
	args = append(args, url)
	cmd := exec.CommandContext(ctx, "pgbench", args...)
	pgStat.reset(ctx)
	pg0 := pgCPU(pgData)
	out, err := cmd.CombinedOutput()
	// The backends of pgbench's connections exit as it does; the
	// postmaster reaps them (into its cutime) a moment later.
	time.Sleep(200 * time.Millisecond)
	pg1 := pgCPU(pgData)
	text := string(out)
	if err != nil || strings.Contains(text, "aborted") {
		return 0, cost{}, fmt.Errorf("pgbench: %v\n%s", err, tail(text, 2000))
	}
	if m := regexp.MustCompile(`number of failed transactions: ([1-9][0-9]*)`).FindStringSubmatch(text); m != nil {
		return 0, cost{}, fmt.Errorf("pgbench: %s failed transactions\n%s", m[1], tail(text, 2000))
	}
	m := tpsLine.FindStringSubmatch(text)
	if m == nil {
		return 0, cost{}, fmt.Errorf("pgbench: no tps in output\n%s", tail(text, 2000))
	}
	tps, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, cost{}, err
	}
	var c cost
	if m := txLine.FindStringSubmatch(text); m != nil {
		if n, _ := strconv.Atoi(m[1]); n > 0 {
			if pg0 > 0 && pg1 > pg0 {
				c.pg = (pg1 - pg0) / time.Duration(n)
			}
			c.client = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()) / time.Duration(n)
			if title != "" {
				keepStats(ctx, title, n)
			}
		}
	}
	return tps, c, nil
}

var txLine = regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`)

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
