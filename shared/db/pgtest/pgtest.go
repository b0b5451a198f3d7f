// Package pgtest gives each test its own PostgreSQL database, cloned from a
// template database that is prepared (migrated, seeded) once per test binary.
//
// Use it from a package's TestMain:
//
//	func TestMain(m *testing.M) {
//		pgtest.SetPrepare(func(ctx context.Context, adminURL string) error {
//			return migrateAndSeed(ctx, adminURL) // runs once, on the template
//		})
//		os.Exit(pgtest.Main(m))
//	}
//
//	func TestSomething(t *testing.T) {
//		t.Parallel()
//		url := pgtest.NewDB(t) // superuser URL of a fresh clone, dropped at the end
//		...
//	}
//
// The server is the one of ERP_TEST_DATABASE_URL (a superuser URL) when it is
// set — several test binaries may then share it, so every database name
// carries the process id and a random tag — otherwise Main starts a throwaway
// cluster (pgcluster, Fast) in a temp dir, stops it and removes the dir at the
// end, and leaves a watchdog that does the same if the test binary dies
// (panic, -timeout, kill).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/erpcr/erp/shared/db/pgcluster"
)

// EnvURL names the variable holding the superuser URL of an existing server
// to use instead of a throwaway cluster.
const EnvURL = "ERP_TEST_DATABASE_URL"

const (
	prepareTimeout = 5 * time.Minute
	cloneTimeout   = time.Minute
	cloneRetryFor  = 15 * time.Second
	// SQLSTATE 55006 object_in_use: "source database is being accessed by
	// other users".
	codeObjectInUse = "55006"
)

var (
	tag = newTag() // <pid>_<random>, unique per process

	stateMu    sync.Mutex // guards serverURL and tplCreated; held briefly
	serverURL  string     // superuser URL of the "postgres" database
	tplCreated bool       // the template database exists and must be dropped

	tplMu     sync.Mutex // guards prepareFn, tplDone, tplErr; held while preparing
	prepareFn func(ctx context.Context, adminURL string) error
	tplDone   bool // preparation attempted (its outcome is sticky)
	tplErr    error

	cloneMu sync.Mutex // serializes clones; guards admin
	admin   *pgx.Conn

	seq atomic.Int64
)

func newTag() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return strconv.Itoa(os.Getpid()) + "_" + hex.EncodeToString(b)
}

// templateName is the per-process template database.
func templateName() string { return "erp_tpl_" + tag }

// SetPrepare sets the function that prepares the template database (e.g. runs
// the migrations and seeds it). Call it from TestMain before Main. prepare
// gets the superuser URL of the template database; it must close every
// connection it opens (leftovers are terminated anyway). A nil prepare leaves
// the template empty. SetPrepare panics once the template has been prepared.
func SetPrepare(prepare func(ctx context.Context, adminURL string) error) {
	tplMu.Lock()
	defer tplMu.Unlock()
	if tplDone {
		panic("pgtest: SetPrepare called after the template database was prepared; call it from TestMain before Main")
	}
	prepareFn = prepare
}

// Main runs the tests of a package against a PostgreSQL server and returns
// the exit code; call it from TestMain as os.Exit(pgtest.Main(m)). The server
// is the one of ERP_TEST_DATABASE_URL when set, else a throwaway Fast cluster
// in a temp dir, stopped and removed at the end (and by a watchdog process
// if the test binary dies first). The template database is dropped at the
// end.
func Main(m *testing.M) (code int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	var progress io.Writer
	if testing.Verbose() {
		progress = os.Stderr
	}
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		if code == 0 {
			code = 1
		}
	}

	u := os.Getenv(EnvURL)
	if u == "" {
		tmp, err := os.MkdirTemp("", "pgtest-")
		if err != nil {
			fail(err)
			return code
		}
		var release func() // of the watchdog, once the dir is gone
		defer func() {
			if err := os.RemoveAll(tmp); err != nil {
				fail(err)
			}
			if release != nil {
				release()
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(tmp, "data"), Fast: true, Log: progress})
		cancel()
		if err != nil {
			fail(fmt.Errorf("starting a throwaway PostgreSQL (set %s to use an existing server): %w", EnvURL, err))
			return code
		}
		if release, err = c.Watchdog(tmp); err != nil {
			fail(err)
		}
		defer func() {
			if err := c.Stop(); err != nil {
				fail(err)
			}
		}()
		u = c.URL("postgres")
	}
	su, err := withDatabase(u, "postgres")
	if err != nil {
		fail(fmt.Errorf("%s: %w", EnvURL, err))
		return code
	}
	if err := ping(su); err != nil {
		fail(err)
		return code
	}
	stateMu.Lock()
	serverURL = su
	stateMu.Unlock()
	defer func() {
		if err := cleanup(); err != nil {
			fail(err)
		}
	}()
	return m.Run()
}

func ping(u string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return fmt.Errorf("connecting to the test server: %w", err)
	}
	defer conn.Close(context.Background())
	return conn.Ping(ctx)
}

// cleanup closes the admin connection and drops the template database.
func cleanup() error {
	cloneMu.Lock()
	if admin != nil {
		_ = admin.Close(context.Background())
		admin = nil
	}
	cloneMu.Unlock()
	stateMu.Lock()
	created := tplCreated
	tplCreated = false
	stateMu.Unlock()
	if !created {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), cloneTimeout)
	defer cancel()
	if err := dropDatabase(ctx, templateName()); err != nil {
		return fmt.Errorf("dropping the template database: %w", err)
	}
	return nil
}

// ServerURL returns the superuser URL of the server's "postgres" database.
// It panics when Main is not running.
func ServerURL() string {
	stateMu.Lock()
	defer stateMu.Unlock()
	if serverURL == "" {
		panic("pgtest: no server: call os.Exit(pgtest.Main(m)) from TestMain")
	}
	return serverURL
}

// Template prepares the template database once per process (concurrent
// callers wait for the first) and returns its name: an empty database
// created for this process, handed to the prepare function of SetPrepare,
// then closed to connections so that it can be cloned. A failed preparation
// is not retried: every later call returns the same error.
func Template(ctx context.Context) (string, error) {
	su := ServerURL()
	tplMu.Lock()
	defer tplMu.Unlock()
	if tplDone {
		return templateName(), tplErr
	}
	tplDone = true
	tplErr = prepareTemplate(ctx, su)
	return templateName(), tplErr
}

// prepareTemplate runs with tplMu held.
func prepareTemplate(ctx context.Context, su string) error {
	ctx, cancel := context.WithTimeout(ctx, prepareTimeout)
	defer cancel()
	name := templateName()
	ident := pgx.Identifier{name}.Sanitize()
	begin := time.Now()
	conn, err := pgx.Connect(ctx, su)
	if err != nil {
		return fmt.Errorf("pgtest: template: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return fmt.Errorf("pgtest: creating the template database %s: %w", name, err)
	}
	stateMu.Lock()
	tplCreated = true
	stateMu.Unlock()
	if prepareFn != nil {
		tu, err := withDatabase(su, name)
		if err != nil {
			return err
		}
		if err := prepareFn(ctx, tu); err != nil {
			return fmt.Errorf("pgtest: preparing the template database %s: %w", name, err)
		}
	}
	// No connection may remain on a template, and none may come later.
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return fmt.Errorf("pgtest: closing the template database %s: %w", name, err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name); err != nil {
		return fmt.Errorf("pgtest: closing the template database %s: %w", name, err)
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "pgtest: template database %s prepared in %s\n", name, time.Since(begin).Round(time.Millisecond))
	}
	return nil
}

// NewDB creates a database for one test by cloning the template, drops it
// (WITH (FORCE)) when the test ends, and returns its superuser URL. Close
// the test's pools before that (register their Close with t.Cleanup after
// NewDB, so they run first) or they are cut off.
func NewDB(t testing.TB) string {
	t.Helper()
	su := ServerURL()
	ctx, cancel := context.WithTimeout(context.Background(), prepareTimeout)
	defer cancel()
	tpl, err := Template(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	name := dbName(t.Name())
	if err := clone(ctx, su, name, tpl); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cloneTimeout)
		defer cancel()
		if err := dropDatabase(ctx, name); err != nil {
			t.Errorf("pgtest: dropping %s: %v", name, err)
		}
	})
	u, err := withDatabase(su, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return u
}

// dbName is erp_t_<pid>_<random>_<seq>_<test name>, within PostgreSQL's 63
// bytes.
func dbName(testName string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "erp_t_%s_%d_", tag, seq.Add(1))
	for _, r := range strings.ToLower(testName) {
		if b.Len() >= 63 {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if s := b.String(); s[len(s)-1] != '_' {
			b.WriteByte('_')
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// clone runs CREATE DATABASE name TEMPLATE tpl on the shared admin
// connection, one clone at a time, retrying while the template is briefly in
// use.
func clone(ctx context.Context, su, name, tpl string) error {
	cloneMu.Lock()
	defer cloneMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, cloneTimeout)
	defer cancel()
	sql := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize() + " TEMPLATE " + pgx.Identifier{tpl}.Sanitize()
	deadline := time.Now().Add(cloneRetryFor)
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		if admin == nil || admin.IsClosed() {
			conn, err := pgx.Connect(ctx, su)
			if err != nil {
				return fmt.Errorf("connecting to the test server: %w", err)
			}
			admin = conn
		}
		_, err := admin.Exec(ctx, sql)
		if err == nil {
			return nil
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			_ = admin.Close(context.Background()) // broken: reconnect next time
			admin = nil
		}
		if pgErr == nil || pgErr.Code != codeObjectInUse || time.Now().After(deadline) {
			return fmt.Errorf("cloning %s into %s: %w", tpl, name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cloning %s into %s: %w", tpl, name, err)
		case <-time.After(delay):
		}
	}
}

// dropDatabase drops a database on a connection of its own, cutting off the
// sessions still connected to it.
func dropDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

// withDatabase returns the connection string s pointing to database name; s
// is a postgres:// URL or a keyword=value string.
func withDatabase(s, name string) (string, error) {
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		u, err := url.Parse(s)
		if err != nil {
			return "", fmt.Errorf("invalid database URL: %w", err)
		}
		u.Path = "/" + name
		u.RawPath = ""
		return u.String(), nil
	}
	if _, err := pgconn.ParseConfig(s); err != nil {
		return "", fmt.Errorf("invalid connection string: %w", err)
	}
	// In keyword=value strings a later keyword overrides an earlier one.
	return s + " dbname='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "'", nil
}
