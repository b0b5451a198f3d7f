// Command benchload is make bench-load: it starts the local stack as make
// run does (a private PostgreSQL under .local/bench-pgdata, migrations, the
// demo companies, the local API Gateway with every function group), seeds
// a reproducible data set in a fresh database (1,000 products, 200
// customers, stock), and runs a closed-loop load (keep-alive, 32 clients,
// warm-up, then a fixed duration) over a product list, a product show, a
// 5-line and a 50-line sale and the login. For each request it prints
// throughput and p50/p95/p99, the statements and round trips one request
// sends (a pgx tracer), and the same-SQL ceiling: the statements one
// request sent, replayed one by one by pgbench -M prepared as the
// application role (so row-level security applies) in the same run. The
// login is compared with raw bcrypt.CompareHashAndPassword calls per second
// on the same cores. The markdown table is written to
// bench/results/<date>-<commit>.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/db/pgcluster"
	"github.com/erpcr/erp/shared/gateway"
)

const (
	benchDB       = "erp_bench"
	benchPassword = "Demo1234!"
	appDBPassword = "erp_app_bench"
)

type options struct {
	dir, out, only, profileDir, scripts, cold, baseline string
	clients, pgClients, bcryptGoroutines                int
	pgstat                                              bool
	warmup, duration                                    time.Duration
	productos, clientes                                 int
}

func main() {
	var o options
	flag.StringVar(&o.dir, "dir", ".local/bench-pgdata", "data directory of the private PostgreSQL")
	flag.StringVar(&o.out, "out", "bench/results", "directory of the markdown results")
	flag.StringVar(&o.only, "only", "", "comma-separated scenarios to run (default all)")
	flag.StringVar(&o.scripts, "scripts", "", "directory where the pgbench replay scripts are kept (default: discarded)")
	flag.StringVar(&o.baseline, "baseline", "bench/baseline/e156efa", "directory of the replay scripts of the statements each request sent before issue 17's changes, replayed after each scenario's own (empty or missing: none)")
	flag.StringVar(&o.profileDir, "cpuprofile", "", "directory for a CPU profile of each scenario's measured window")
	flag.StringVar(&o.cold, "coldstart", "productos", "function whose stripped binary size and start -> ready time are reported (empty: none)")
	flag.BoolVar(&o.pgstat, "pgstat", false, "per-statement PostgreSQL times (pg_stat_statements, loaded by a restart of the private server, unloaded by the next run without -pgstat) of each window, appended to the report")
	flag.IntVar(&o.clients, "clients", 32, "concurrent closed-loop clients")
	flag.IntVar(&o.pgClients, "pgbench-clients", 8, "pgbench -c")
	flag.IntVar(&o.bcryptGoroutines, "bcrypt-goroutines", 0, "goroutines of the raw bcrypt the login is compared with (0: GOMAXPROCS, one per core)")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "warm-up per request kind (not recorded)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "measured duration per request kind (pgbench runs as long)")
	flag.IntVar(&o.productos, "productos", 1000, "products seeded")
	flag.IntVar(&o.clientes, "clientes", 200, "customers seeded")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	if _, err := exec.LookPath("pgbench"); err != nil {
		return fmt.Errorf("pgbench not found (apt-get install postgresql-client): %w", err)
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	if o.baseline != "" {
		if _, err := os.Stat(o.baseline); err != nil {
			fmt.Println("sin línea base:", err)
			o.baseline = ""
		}
	}
	fmt.Println("PostgreSQL privado en", o.dir, "...")
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: o.dir})
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer func() { _ = cluster.Stop() }()
	restart, err := loadStatStatements(ctx, cluster.URL("postgres"), o.pgstat)
	if err != nil {
		return err
	}
	if restart {
		if err := cluster.Stop(); err != nil {
			return err
		}
		if cluster, err = pgcluster.Start(ctx, pgcluster.Options{Dir: o.dir}); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		if _, err := loadStatStatements(ctx, cluster.URL("postgres"), o.pgstat); err != nil {
			return err
		}
	}
	pgData = cluster.Dir
	if err := freshDatabase(ctx, cluster.URL("postgres"), benchDB); err != nil {
		return err
	}
	adminURL := cluster.URL(benchDB)
	pgOwner = adminURL
	if o.pgstat {
		if err := execOn(ctx, adminURL, `create extension if not exists pg_stat_statements`); err != nil {
			return fmt.Errorf("pg_stat_statements: %w", err)
		}
		pgStat = &statStatements{url: adminURL}
	}
	if _, err := app.Prepare(ctx, adminURL, app.PrepareOptions{
		Env: config.EnvDevelopment, AppDBPassword: appDBPassword, Demo: true,
		DemoPassword: benchPassword, BcryptCost: cfg.BcryptCost,
	}); err != nil {
		return fmt.Errorf("preparar: %w", err)
	}
	ds, err := seedDataset(ctx, adminURL, o.productos, o.clientes)
	if err != nil {
		return fmt.Errorf("datos: %w", err)
	}
	fmt.Printf("Datos: %d productos, %d clientes, stock en almacén %d\n", len(ds.productos), len(ds.clientes), ds.almacen)

	appURL, err := db.AppURL(adminURL, appDBPassword)
	if err != nil {
		return err
	}
	// As make run, except: no rate limits (the general class allows 60
	// requests a minute, which a load test exceeds at once; tests run
	// without them too), and errors-only logging.
	cfg.Env, cfg.DatabaseURL, cfg.DatabaseAdminURL, cfg.Limites, cfg.LogLevel = config.EnvDevelopment, appURL, adminURL, nil, "error"
	cfg.DemoPassword = benchPassword
	// The login limiter records each attempt as a failure in advance and
	// forgets it on success, so 32 simultaneous logins of one e-mail from
	// one address would be refused as an attack: its thresholds are raised
	// for the run (each login still goes through it).
	cfg.LoginMaxAttempts, cfg.LoginMaxFailuresPerAddress = 1_000_000, 1_000_000
	deps, err := app.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer deps.Close()
	rec := &recorder{}
	deps.DB.Close()
	if deps.DB, err = db.Open(ctx, db.Options{URL: appURL, MaxConns: cfg.DBMaxConns, ExecMode: cfg.DBExecMode, Tracer: rec}); err != nil {
		return err
	}
	gw, err := deps.Gateway()
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := gateway.NewServer(l.Addr().String(), gw, gateway.DefaultServerOptions())
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	base := "http://" + l.Addr().String()

	c := client(o.clients)
	status, body, err := do(c, base, "", http.MethodPost, "/api/login", []byte(`{"email":"admin@demo.cr","password":"`+benchPassword+`"}`))
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("login: %d %s %v", status, body, err)
	}
	var login struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &login); err != nil {
		return err
	}
	token := login.Data.Token

	owner, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer owner.Close(context.WithoutCancel(ctx))
	tmp, err := os.MkdirTemp("", "benchload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	rows := []row{}
	for _, s := range scenarios(ds) {
		if !selected(o.only, s.name) {
			continue
		}
		fmt.Printf("%-12s carga %s + %s con %d clientes ...\n", s.name, o.warmup, o.duration, o.clients)
		// The login's raw bcrypt runs half right before its load and half
		// right after, so that the load other processes put on the machine
		// weighs on both sides of the ratio alike.
		var raw bcryptResult
		if s.name == "login" {
			raw = raw.add(rawBcrypt(o.duration/2, cfg.BcryptCost, o, "bcrypt-before"))
		}
		r := measure(ctx, c, base, token, s, o)
		if r.errors > 0 {
			fmt.Printf("  %d errores; el primero: %s\n", r.errors, r.firstError)
		}
		// One request alone, traced: its statements and round trips.
		method, path, body := s.build(o.clients+1, 1_000_000)
		tok := ""
		if s.token {
			tok = token
		}
		rec.start()
		st, out, err := do(c, base, tok, method, path, body)
		stmts, rts := rec.stop()
		if err != nil || st != s.want {
			return fmt.Errorf("%s: traced request: %d %.300s %v", s.name, st, out, err)
		}
		if s.captured != nil {
			if err := s.captured(ctx, owner, out); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
		}
		rw := row{scenario: s, result: r, statements: len(stmts), roundTrips: rts}
		if s.replay {
			rw.pgbench, rw.replayCost, rw.replayNote, err = replay(ctx, owner, tmp, appURL, stmts, o, s.captured != nil, s.label+", its statements replayed by pgbench")
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if rw.before, err = replayBaseline(ctx, owner, tmp, appURL, s.name, s.label+", the before-change statements replayed by pgbench", token, out, o, s.captured != nil); err != nil {
				return fmt.Errorf("%s: línea base: %w", s.name, err)
			}
		}
		if s.name == "login" {
			// After the traced request: its pool connections are then as
			// fresh as the load left them (pgxpool pings one idle for more
			// than a second before use, which the tracer would count).
			rw.bcrypt = raw.add(rawBcrypt(o.duration-o.duration/2, cfg.BcryptCost, o, "bcrypt-after"))
		}
		fmt.Println("  " + rw.summary())
		rows = append(rows, rw)
	}
	var cs coldResult
	if o.cold != "" {
		fmt.Printf("arranque en frío de functions/%s ...\n", o.cold)
		cs.fn = o.cold
		if cs.size, cs.ready, err = coldStart(ctx, o.cold, tmp, appURL, 7); err != nil {
			return err
		}
		fmt.Printf("  %.1f MB, listo en %s\n", float64(cs.size)/(1<<20), cs.ready)
	}
	return writeReport(o, rows, cfg, cs)
}

// coldResult is one function binary's size and start -> ready time.
type coldResult struct {
	fn    string
	size  int64
	ready time.Duration
}

// measure runs the closed loop, with the process's allocations over the
// measured window and an optional CPU profile of it.
func measure(ctx context.Context, c *http.Client, base, token string, s scenario, o options) result {
	var pg time.Duration
	r := closedLoopWith(ctx, c, base, token, s, o.clients, o.warmup, o.duration, func() func() {
		// Statistics as of the warm-up's writes. The seed leaves the sales,
		// stock movements, consumptions and journal entries empty, so the
		// plans the pool's connections cache during a sale's warm-up are
		// made for empty tables (a foreign-key check or an exit's cost
		// reading every row of the company) and grow slower through the
		// window, as a database in use with statistics would not. ANALYZE
		// invalidates those plans; the load goes on meanwhile (unrecorded).
		if err := execOn(ctx, pgOwner, `analyze`); err != nil {
			fmt.Printf("  analyze: %v\n", err)
		}
		pgStat.reset(ctx)
		pg0 := pgCPU(pgData)
		stop := startProfile(o, s.name)
		return func() {
			stop()
			if pg1 := pgCPU(pgData); pg0 > 0 && pg1 > pg0 {
				pg = pg1 - pg0
			}
		}
	})
	if r.n > 0 {
		r.pgCPU = pg / time.Duration(r.n)
		keepStats(ctx, s.label+", the API", r.n)
	}
	return r
}

// startProfile starts, under -cpuprofile, the CPU profile named name, and
// returns what stops it (a no-op without -cpuprofile or when it cannot
// start).
func startProfile(o options, name string) (stop func()) {
	if o.profileDir == "" {
		return func() {}
	}
	if err := os.MkdirAll(o.profileDir, 0o755); err != nil {
		return func() {}
	}
	f, err := os.Create(filepath.Join(o.profileDir, name+".pprof"))
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }
}

// execOn runs one statement on a connection of its own.
func execOn(ctx context.Context, url, sql string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, sql)
	return err
}

// replay runs the captured statements under pgbench. A write, which cannot
// be repeated as it was sent (the sale's number), is replayed with its
// deferred triggers fired and then ROLLBACK instead of COMMIT
// (commitReplay; no WAL flush: a ceiling on the high side), and the table
// says so; so is a read that fails when committed.
func replay(ctx context.Context, owner *pgx.Conn, dir, appURL string, stmts []stmt, o options, write bool, title string) (float64, cost, string, error) {
	secs := int(o.duration.Seconds())
	if secs < 1 {
		secs = 1
	}
	threads := runtime.NumCPU()
	if threads > o.pgClients {
		threads = o.pgClients
	}
	script, vars, err := pgbenchScript(ctx, owner, stmts, false)
	if err != nil {
		return 0, cost{}, "", err
	}
	keep(o, stmts, script, vars)
	var first error
	if !write {
		tps, c, err := pgbenchCost(ctx, dir, appURL, script, vars, o.pgClients, threads, secs, title)
		if err == nil {
			return tps, c, "", nil
		}
		first = err
	}
	script, vars, err = pgbenchScript(ctx, owner, stmts, true)
	if err != nil {
		return 0, cost{}, "", err
	}
	tps, c, err := pgbenchCost(ctx, dir, appURL, script, vars, o.pgClients, threads, secs, title)
	if err != nil {
		return 0, cost{}, "", errors.Join(first, err)
	}
	return tps, c, "rollback", nil
}

func selected(only, name string) bool {
	if only == "" {
		return true
	}
	for _, s := range strings.Split(only, ",") {
		if strings.TrimSpace(s) == name {
			return true
		}
	}
	return false
}

// freshDatabase drops and creates the bench database, so that every run
// starts from the same data.
func freshDatabase(ctx context.Context, serverURL, name string) error {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `drop database if exists `+pgx.Identifier{name}.Sanitize()+` with (force)`); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `create database `+pgx.Identifier{name}.Sanitize())
	return err
}

// keep writes a replay script and its variables under -scripts, named by
// the first statement's hash, for reading what a request sends.
func keep(o options, stmts []stmt, script string, vars []string) {
	if o.scripts == "" {
		return
	}
	_ = os.MkdirAll(o.scripts, 0o755)
	name := fmt.Sprintf("%d-statements-%d.sql", len(stmts), time.Now().UnixNano())
	_ = os.WriteFile(filepath.Join(o.scripts, name), []byte(script+"\n-- variables:\n-- "+strings.Join(vars, "\n-- ")+"\n"), 0o644)
}
