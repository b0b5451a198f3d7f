package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/config"
)

// row is one line of the table.
type row struct {
	scenario
	result
	statements, roundTrips int
	pgbench                float64 // same-SQL replay, transactions per second
	replayNote             string
	replayCost             cost
	before                 *baselineResult // the statements sent before issue 17's changes, replayed alike
	bcrypt                 bcryptResult    // raw CompareHashAndPassword (login only)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func (r row) ratio() string {
	switch {
	case r.pgbench > 0:
		return fmt.Sprintf("%.2f (%.0f vs %.0f per s%s)", r.perSecond/r.pgbench, r.perSecond, r.pgbench, note(r.replayNote))
	case r.bcrypt.perSecond > 0:
		// The CPU ratio is what the throughput ratio would be were both
		// bound by these cores alone; unlike it, it holds while other
		// processes take the cores in turns with the run.
		cpuRatio := 0.0
		if r.cpu+r.pgCPU > 0 {
			cpuRatio = float64(r.bcrypt.cpu) / float64(r.cpu+r.pgCPU)
		}
		return fmt.Sprintf("%.2f of raw bcrypt (%.1f vs %.1f per s, cost %d, %d goroutines); by CPU %.2f (%s ms per login + %s in PostgreSQL vs %s per compare)",
			r.perSecond/r.bcrypt.perSecond, r.perSecond, r.bcrypt.perSecond, r.bcrypt.cost, r.bcrypt.workers, cpuRatio, ms(r.cpu), ms(r.pgCPU), ms(r.bcrypt.cpu))
	}
	return "—"
}

// beforeRatio is the API against the replay of the statements the same
// request sent at the baseline commit.
func (r row) beforeRatio() string {
	switch {
	case r.before == nil:
		return "—"
	case r.before.err != nil:
		return fmt.Sprintf("replay failed (%d statements; see below)", r.before.statements)
	}
	return fmt.Sprintf("%.2f (%.0f vs %.0f per s, %d statements%s)", r.perSecond/r.before.tps, r.perSecond, r.before.tps, r.before.statements, note(r.before.note))
}

func note(n string) string {
	if n == "" {
		return ""
	}
	if n == "rollback" {
		return "; replay fires the deferred triggers, then ROLLBACK"
	}
	return "; replay ends in " + strings.ToUpper(n)
}

func (r row) summary() string {
	return fmt.Sprintf("%.0f/s (clientes/latencia media: %.1f/s) p50 %s p95 %s p99 %s ms, %d sentencias en %d viajes, CPU %s ms/req (+ %s PostgreSQL), %.0f allocs/req, ratio %s, antes %s, errores %d",
		r.perSecond, r.little, ms(r.p50), ms(r.p95), ms(r.p99), r.statements, r.roundTrips, ms(r.cpu), ms(r.pgCPU), r.allocs, r.ratio(), r.beforeRatio(), r.errors)
}

// writeReport prints the markdown table and saves it as
// <out>/<date>-<commit>.md (a dirty tree is marked).
func writeReport(o options, rows []row, cfg config.Config, cs coldResult) error {
	commit := gitOut("rev-parse", "--short=12", "HEAD")
	if commit == "" {
		commit = "unknown"
	}
	if gitOut("status", "--porcelain", "--untracked-files=no") != "" {
		commit += "-dirty"
	}
	now := time.Now().UTC()
	var b strings.Builder
	fmt.Fprintf(&b, "# make bench-load — %s, commit %s\n\n", now.Format("2006-01-02 15:04 UTC"), commit)
	fmt.Fprintf(&b, "CPUs: %d (GOMAXPROCS %d), %s/%s, %s; %d closed-loop keep-alive clients, warm-up %s, measured %s per request kind;\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(), o.clients, o.warmup, o.duration)
	fmt.Fprintf(&b, "pool %d connections (ERP_DB_MAX_CONNS), exec mode %s; pgbench -M prepared -c %d as erp_app (RLS) for as long, same PostgreSQL;\n",
		cfg.DBMaxConns, cfg.DBExecMode, o.pgClients)
	fmt.Fprintf(&b, "data: %d products, %d customers, stock; rate limits off, login limiter thresholds raised (its statements still run). CPU and allocations: the whole process (gateway, functions and load generator) per request.\n\n", o.productos, o.clientes)
	b.WriteString("| request | per s | p50 ms | p95 ms | p99 ms | statements / round trips | CPU ms/req | allocs/req | KB/req | API / same SQL in pgbench | API / before-change SQL in pgbench | errors |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %s | %d / %d | %.2f | %.0f | %.1f | %s | %s | %d |\n",
			r.label, r.perSecond, ms(r.p50), ms(r.p95), ms(r.p99), r.statements, r.roundTrips, float64(r.cpu.Microseconds())/1000, r.allocs, r.bytes/1024, r.ratio(), r.beforeRatio(), r.errors)
	}
	b.WriteString("\nCPU ms per request, PostgreSQL + its client (our process for the API, pgbench for a replay), each over its own window: PostgreSQL's from /proc (the postmaster, its live and reaped children), the client's from its rusage. On 2 cores, per s ≈ 2000 / total when both are busy.\n\n")
	b.WriteString("| request | API: PostgreSQL + ours | same SQL: PostgreSQL + pgbench | before-change SQL: PostgreSQL + pgbench |\n|---|---|---|---|\n")
	for _, r := range rows {
		if r.pgCPU == 0 && r.replayCost == (cost{}) {
			continue
		}
		before := "—"
		if r.before != nil {
			before = r.before.cost.String()
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.label, cost{r.pgCPU, r.cpu}, r.replayCost, before)
	}
	b.WriteString(pgStatMD.String())
	if o.baseline != "" {
		fmt.Fprintf(&b, "\nBefore-change SQL: the statements each request sent at the baseline commit, kept in %s (see its README), replayed by pgbench with the same settings right after the request's own replay, with this run's token and, for a sale, this run's traced sale's rows.\n", o.baseline)
		for _, r := range rows {
			if r.before != nil && r.before.err != nil {
				fmt.Fprintf(&b, "\n%s: the before-change replay fails on today's schema:\n\n```\n%s\n```\n", r.label, tail(r.before.err.Error(), 1500))
			}
		}
	}
	if cs.fn != "" {
		fmt.Fprintf(&b, "\nCold start: functions/%s stripped (-s -w, -trimpath, lambda.norpc, %s) is %.1f MB; process start -> ready (asking the Lambda runtime API for its first invocation) %.1f ms, median of 7.\n",
			cs.fn, runtime.GOARCH, float64(cs.size)/(1<<20), float64(cs.ready.Microseconds())/1000)
	}
	fmt.Println()
	fmt.Print(b.String())
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(o.out, now.Format("2006-01-02T1504")+"-"+commit+".md")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Println("\nGuardado en", path)
	return nil
}

func gitOut(args ...string) string {
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
