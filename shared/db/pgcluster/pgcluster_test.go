package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv/pgsql"
	"github.com/jackc/pgx/v5"
)

func TestBinDir(t *testing.T) {
	dir, err := BinDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range []string{"initdb", "pg_ctl", "postgres"} {
		if !isExecutable(filepath.Join(dir, prog)) {
			t.Errorf("BinDir() = %s, which holds no executable %s", dir, prog)
		}
	}
}

func TestVersionLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"9.6", "15", true},
		{"15", "9.6", false},
		{"15", "16", true},
		{"16", "15", false},
		{"15", "15", false},
	}
	for _, tt := range tests {
		if got := versionLess(tt.a, tt.b); got != tt.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestURL(t *testing.T) {
	c := &Cluster{Port: 54321}
	tests := []struct {
		name, db, want string
	}{
		{"plain database", "postgres", "postgres://postgres@127.0.0.1:54321/postgres?sslmode=disable"},
		{"name needing escaping", "a b", "postgres://postgres@127.0.0.1:54321/a%20b?sslmode=disable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.URL(tt.db); got != tt.want {
				t.Errorf("URL(%q) = %q, want %q", tt.db, got, tt.want)
			}
		})
	}
}

// TestCluster runs each behaviour against a real server in its own temp dir.
func TestCluster(t *testing.T) {
	runInTempDirs(t, []dirCase{
		{"starts in an empty temp dir and answers select 1", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: dir, Fast: true})
			if got := pgsql.Query[int](t, c.URL("postgres"), "select 1"); got != 1 {
				t.Fatalf("select 1 = %d", got)
			}
			if got := pgsql.Query[int](t, c.URL("postgres"), "select current_setting('max_connections')::int"); got < DefaultMaxConnections {
				t.Errorf("max_connections = %d, want >= %d", got, DefaultMaxConnections)
			}
			if got := pgsql.Query[string](t, c.URL("postgres"), "show fsync"); got != "off" {
				t.Errorf("fsync = %s, want off for a Fast cluster", got)
			}
			if got := pgsql.Query[string](t, c.URL("postgres"), "show unix_socket_directories"); got != "" {
				t.Errorf("unix_socket_directories = %q, want none", got)
			}
			if fi, err := os.Stat(c.LogFile()); err != nil || fi.Size() == 0 {
				t.Errorf("server log %s missing or empty: %v", c.LogFile(), err)
			}
		}},
		{"keeps data across stop and start", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: dir})
			pgsql.Exec(t, c.URL("postgres"), "create table kept (v int); insert into kept values (42)")
			if err := c.Stop(); err != nil {
				t.Fatal(err)
			}
			c2 := start(t, Options{Dir: dir})
			if c2.Port != c.Port {
				t.Errorf("restart moved from port %d to %d although it was free", c.Port, c2.Port)
			}
			if got := pgsql.Query[int](t, c2.URL("postgres"), "select v from kept"); got != 42 {
				t.Fatalf("kept row = %d, want 42", got)
			}
		}},
		{"starts again over a server left running by a crashed run", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: dir, Fast: true})
			pgsql.Exec(t, c.URL("postgres"), "create table kept (v int); insert into kept values (7)")
			// No Stop: the earlier run "crashed".
			c2 := start(t, Options{Dir: dir, Fast: true})
			if got := pgsql.Query[int](t, c2.URL("postgres"), "select v from kept"); got != 7 {
				t.Fatalf("kept row = %d, want 7", got)
			}
			// The stale handle must not stop the new server.
			if err := c.Stop(); err != nil {
				t.Fatal(err)
			}
			if got := pgsql.Query[int](t, c2.URL("postgres"), "select 1"); got != 1 {
				t.Fatalf("select 1 = %d", got)
			}
		}},
		{"starts again after the postmaster was killed", func(t *testing.T, dir string) {
			// Not Fast: with synchronous_commit=off a crash may lose the
			// last commits, which is the point of Fast.
			c := start(t, Options{Dir: dir})
			pgsql.Exec(t, c.URL("postgres"), "create table kept (v int); insert into kept values (9)")
			pid := c.postmasterPID()
			if pid == 0 {
				t.Fatal("no postmaster.pid")
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			c2 := start(t, Options{Dir: dir})
			if got := pgsql.Query[int](t, c2.URL("postgres"), "select v from kept"); got != 9 {
				t.Fatalf("kept row = %d, want 9", got)
			}
		}},
		{"stop is idempotent", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: dir, Fast: true})
			for i := 0; i < 2; i++ {
				if err := c.Stop(); err != nil {
					t.Fatalf("Stop #%d: %v", i+1, err)
				}
			}
			if _, err := pgx.Connect(context.Background(), c.URL("postgres")); err == nil {
				t.Fatal("server still accepts connections after Stop")
			}
		}},
		{"creates missing parent directories", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: filepath.Join(dir, "a", "b", "data"), Fast: true})
			if got := pgsql.Query[int](t, c.URL("postgres"), "select 1"); got != 1 {
				t.Fatalf("select 1 = %d", got)
			}
		}},
		{"refuses a non-empty directory without a cluster", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "stray"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Start(context.Background(), Options{Dir: dir, Fast: true})
			if err == nil {
				_ = c.Stop()
				t.Fatal("Start succeeded on a non-empty directory without a cluster")
			}
			if !strings.Contains(err.Error(), "not empty") {
				t.Errorf("error %q does not say the directory is not empty", err)
			}
		}},
		{"reports a taken port with the server log", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: filepath.Join(dir, "one"), Fast: true})
			_, err := Start(context.Background(), Options{Dir: filepath.Join(dir, "two"), Port: c.Port, Fast: true})
			if err == nil {
				t.Fatal("second cluster started on a taken port")
			}
			var se *startError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "could not") {
				t.Errorf("error lacks the server log: %v", err)
			}
		}},
	})
}

func TestWatchdog(t *testing.T) {
	runInTempDirs(t, []dirCase{
		{"stops the server and removes its dir when the process dies", func(t *testing.T, dir string) {
			data := filepath.Join(dir, "data")
			cmd := osexec.Command(os.Args[0], "-test.run=^TestWatchdogHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "PGCLUSTER_WATCHDOG_HELPER="+data)
			out, err := cmd.Output() // must not hang on the watchdog or the server holding stdout
			var ee *osexec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			port := 0
			for _, line := range strings.Split(string(out), "\n") {
				if p, ok := strings.CutPrefix(line, "HELPER_PORT "); ok {
					port, _ = strconv.Atoi(p)
				}
			}
			if port == 0 {
				t.Fatalf("helper printed no port:\n%s", out)
			}
			url := (&Cluster{Port: port}).URL("postgres")
			deadline := time.Now().Add(30 * time.Second)
			for {
				_, statErr := os.Stat(data)
				conn, connErr := pgx.Connect(context.Background(), url)
				if connErr == nil {
					_ = conn.Close(context.Background())
				}
				if connErr != nil && os.IsNotExist(statErr) {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("30s after the process died: server answers: %v, data dir exists: %v", connErr == nil, statErr == nil)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}},
		{"released watchdog leaves the server running", func(t *testing.T, dir string) {
			c := start(t, Options{Dir: dir, Fast: true})
			release, err := c.Watchdog(dir)
			if err != nil {
				t.Fatal(err)
			}
			release()
			release()
			time.Sleep(300 * time.Millisecond)
			if got := pgsql.Query[int](t, c.URL("postgres"), "select 1"); got != 1 {
				t.Fatalf("select 1 = %d", got)
			}
		}},
	})
}

// dirCase is a check that works in a directory of its own.
type dirCase struct {
	name string
	run  func(t *testing.T, dir string)
}

// runInTempDirs runs each case as a parallel subtest on a fresh temporary
// directory.
func runInTempDirs(t *testing.T, cases []dirCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, t.TempDir())
		})
	}
}

// TestWatchdogHelper is the process that dies in TestWatchdog.
func TestWatchdogHelper(t *testing.T) {
	data := os.Getenv("PGCLUSTER_WATCHDOG_HELPER")
	if data == "" {
		t.Skip("helper of TestWatchdog")
	}
	c, err := Start(context.Background(), Options{Dir: data, Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Watchdog(data); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("HELPER_PORT %d\n", c.Port)
	os.Exit(3) // "crash": no Stop, no release
}

// start starts a cluster and stops it when the test ends.
func start(t *testing.T, o Options) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o.Log = testWriter{t}
	begin := time.Now()
	c, err := Start(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Start took %s", time.Since(begin).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
