package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// clockTick is the unit of utime and stime in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux the project runs on).
const clockTick = 10 * time.Millisecond

// pgCPU is the CPU time (user + system) the private PostgreSQL has used so
// far: the postmaster's own and that of its children it has reaped
// (cutime, cstime: backends of closed connections, such as pgbench's),
// plus every live child's (backends, background workers). The difference
// over a window is PostgreSQL's CPU for what ran in it, whatever else the
// machine runs. Zero when /proc or the pid file cannot be read.
func pgCPU(dataDir string) time.Duration {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pm, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0
	}
	_, self, ok := procTimes(pm, true)
	if !ok {
		return 0
	}
	total := self
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == pm {
			continue
		}
		if ppid, t, ok := procTimes(pid, false); ok && ppid == pm {
			total += t
		}
	}
	return total
}

// procTimes reads a process's parent and its CPU time (with its reaped
// children's when children is set) from /proc/<pid>/stat.
func procTimes(pid int, children bool) (ppid int, t time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): ppid is field 4, utime..cstime 14..17.
	if len(f) < 15 {
		return 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	last := 12
	if children {
		last = 14
	}
	var ticks int64
	for _, s := range f[11 : last+1] {
		n, _ := strconv.ParseInt(s, 10, 64)
		ticks += n
	}
	return ppid, time.Duration(ticks) * clockTick, true
}

// cost is the CPU one request or replayed transaction costs: PostgreSQL's
// (pgCPU) and its client's (our process, or pgbench).
type cost struct {
	pg, client time.Duration
}

func (c cost) String() string {
	if c.pg == 0 && c.client == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f + %.2f = %.2f", msf(c.pg), msf(c.client), msf(c.pg+c.client))
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// statStatements is pg_stat_statements over a window (-pgstat): the
// extension is loaded by a restart with shared_preload_libraries, created
// in the bench database, reset at the start of a window and read at its
// end.
type statStatements struct {
	url string
}

// stmtStat is one statement's totals over a window.
type stmtStat struct {
	query      string
	calls      int64
	exec, plan float64 // ms, total
	plans      int64
	rows       int64
	hit, read  int64
}

func (s *statStatements) reset(ctx context.Context) {
	if s == nil {
		return
	}
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	_, _ = conn.Exec(ctx, `select pg_stat_statements_reset()`)
}

// read returns the window's statements of role, most costly first.
func (s *statStatements) read(ctx context.Context, role string) ([]stmtStat, error) {
	if s == nil {
		return nil, nil
	}
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `select s.query, s.calls, s.total_exec_time, s.total_plan_time, s.plans, s.rows,
		s.shared_blks_hit, s.shared_blks_read
		from pg_stat_statements s join pg_roles r on r.oid = s.userid
		where r.rolname = $1 and s.dbid = (select oid from pg_database where datname = current_database())
		order by s.total_exec_time + s.total_plan_time desc`, role)
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (stmtStat, error) {
		var x stmtStat
		err := r.Scan(&x.query, &x.calls, &x.exec, &x.plan, &x.plans, &x.rows, &x.hit, &x.read)
		return x, err
	})
}

// loadStatStatements loads pg_stat_statements at the next start (on) or
// unloads it (off: its bookkeeping costs PostgreSQL CPU, which the run
// measures) and tells whether a restart is needed for that; once loaded,
// it also keeps planning times.
func loadStatStatements(ctx context.Context, serverURL string, on bool) (restart bool, err error) {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return false, err
	}
	defer conn.Close(ctx)
	var libs string
	if err := conn.QueryRow(ctx, `show shared_preload_libraries`).Scan(&libs); err != nil {
		return false, err
	}
	loaded := strings.Contains(libs, "pg_stat_statements")
	switch {
	case on && !loaded:
		_, err := conn.Exec(ctx, `alter system set shared_preload_libraries = 'pg_stat_statements'`)
		return true, err
	case !on && loaded:
		_, err := conn.Exec(ctx, `alter system reset shared_preload_libraries`)
		return true, err
	case on:
		if _, err := conn.Exec(ctx, `alter system set pg_stat_statements.track_planning = on`); err != nil {
			return false, err
		}
		_, err = conn.Exec(ctx, `select pg_reload_conf()`)
		return false, err
	}
	return false, nil
}

// statTable writes a window's statements as markdown, per request (n
// requests or transactions in the window).
func statTable(b *strings.Builder, title string, stats []stmtStat, n int) {
	if len(stats) == 0 || n == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s — pg_stat_statements over the window, per request (%d):\n\n", title, n)
	b.WriteString("| statement | calls/req | exec ms/call | plan ms/call | plans/call | exec+plan ms/req | rows/call | buffers hit/call |\n|---|---|---|---|---|---|---|---|\n")
	var sum float64
	for _, s := range stats {
		if s.calls == 0 {
			continue
		}
		c := float64(s.calls)
		per := (s.exec + s.plan) / float64(n)
		sum += per
		q := strings.Join(strings.Fields(s.query), " ")
		if len(q) > 110 {
			q = q[:110] + "…"
		}
		fmt.Fprintf(b, "| `%s` | %.2f | %.4f | %.4f | %.2f | %.4f | %.1f | %.1f |\n",
			strings.ReplaceAll(q, "|", "\\|"), c/float64(n), s.exec/c, s.plan/c, float64(s.plans)/c, per, float64(s.rows)/c, float64(s.hit)/c)
	}
	fmt.Fprintf(b, "| total | | | | | %.4f | | |\n", sum)
}

// The run's PostgreSQL, for the measurements of every window (the load's
// and pgbench's): its data directory (pgCPU), its pg_stat_statements when
// -pgstat is set (nil otherwise), and the sections kept for the report.
var (
	pgData   string
	pgStat   *statStatements
	pgStatMD strings.Builder
	// pgOwner is the database's owner URL, for the ANALYZE that ends each
	// warm-up (measure).
	pgOwner string
)

// keepStats reads the window's statements of the application role (the
// API's and pgbench's both run as erp_app) into the report's appendix.
func keepStats(ctx context.Context, title string, n int) {
	if pgStat == nil {
		return
	}
	stats, err := pgStat.read(ctx, "erp_app")
	if err != nil {
		fmt.Fprintf(&pgStatMD, "\n%s: pg_stat_statements: %v\n", title, err)
		return
	}
	statTable(&pgStatMD, title, stats, n)
}
