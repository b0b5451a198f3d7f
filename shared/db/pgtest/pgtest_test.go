package pgtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv/pgsql"
	"github.com/jackc/pgx/v5"
)

// leaked is a connection the prepare function leaves open on purpose: the
// template must be cloneable anyway.
var leaked *pgx.Conn

func TestMain(m *testing.M) {
	SetPrepare(func(ctx context.Context, adminURL string) error {
		conn, err := pgx.Connect(ctx, adminURL)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "create table prepared (v text); insert into prepared values ('seed')"); err != nil {
			return err
		}
		leaked, err = pgx.Connect(ctx, adminURL)
		return err
	})
	os.Exit(Main(m))
}

func TestNewDB(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"clone holds what prepare created", func(t *testing.T) {
			if got := pgsql.Query[string](t, NewDB(t), "select v from prepared"); got != "seed" {
				t.Fatalf("prepared row = %q, want seed", got)
			}
		}},
		{"databases are isolated from each other", func(t *testing.T) {
			a, b := NewDB(t), NewDB(t)
			if a == b {
				t.Fatalf("two NewDB calls returned the same URL %s", a)
			}
			pgsql.Exec(t, a, "create table only_in_a (v int); insert into prepared values ('a')")
			if got := pgsql.Query[int](t, b, "select count(*) from pg_tables where tablename = 'only_in_a'"); got != 0 {
				t.Error("a table created in one database is visible in the other")
			}
			if got := pgsql.Query[int](t, b, "select count(*) from prepared"); got != 1 {
				t.Errorf("rows in the other database's prepared = %d, want 1", got)
			}
			if got := pgsql.Query[int](t, a, "select count(*) from only_in_a"); got != 0 {
				t.Errorf("only_in_a has %d rows", got)
			}
		}},
		{"database is dropped when its test ends", func(t *testing.T) {
			var name string
			t.Run("inner", func(t *testing.T) {
				name = pgsql.Query[string](t, NewDB(t), "select current_database()")
			})
			if got := pgsql.Query[int](t, ServerURL(), fmt.Sprintf("select count(*) from pg_database where datname = '%s'", name)); got != 0 {
				t.Errorf("database %s still exists after its test", name)
			}
		}},
		{"database is dropped even with connections left open", func(t *testing.T) {
			var name string
			t.Run("inner", func(t *testing.T) {
				url := NewDB(t)
				name = pgsql.Query[string](t, url, "select current_database()")
				conn, err := pgx.Connect(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				_ = conn // left open on purpose
			})
			if got := pgsql.Query[int](t, ServerURL(), fmt.Sprintf("select count(*) from pg_database where datname = '%s'", name)); got != 0 {
				t.Errorf("database %s still exists after its test", name)
			}
		}},
		{"template accepts no connections", func(t *testing.T) {
			tpl, err := Template(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			u, err := withDatabase(ServerURL(), tpl)
			if err != nil {
				t.Fatal(err)
			}
			if conn, err := pgx.Connect(context.Background(), u); err == nil {
				_ = conn.Close(context.Background())
				t.Fatal("connected to the template database")
			}
			if got := pgsql.Query[int](t, ServerURL(), fmt.Sprintf("select count(*) from pg_stat_activity where datname = '%s'", tpl)); got != 0 {
				t.Errorf("%d sessions on the template", got)
			}
		}},
		{"server URL reaches the postgres database as superuser", func(t *testing.T) {
			if got := pgsql.Query[string](t, ServerURL(), "select current_database() || ' ' || current_setting('is_superuser')"); got != "postgres on" {
				t.Fatalf("got %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestNewDBInParallel(t *testing.T) {
	const n = 8
	var mu sync.Mutex
	names := map[string]bool{}
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprintf("db%d", i), func(t *testing.T) {
				t.Parallel()
				begin := time.Now()
				url := NewDB(t)
				t.Logf("NewDB took %s", time.Since(begin).Round(time.Millisecond))
				pgsql.Exec(t, url, fmt.Sprintf("insert into prepared values ('%d')", i))
				if got := pgsql.Query[int](t, url, "select count(*) from prepared"); got != 2 {
					t.Errorf("prepared has %d rows, want 2 (seed + own)", got)
				}
				name := pgsql.Query[string](t, url, "select current_database()")
				mu.Lock()
				defer mu.Unlock()
				if names[name] {
					t.Errorf("database %s handed out twice", name)
				}
				names[name] = true
			})
		}
	})
	if len(names) != n {
		t.Errorf("%d distinct databases, want %d", len(names), n)
	}
}

func TestWithDatabase(t *testing.T) {
	tests := []struct {
		name, in, db, want string
	}{
		{"URL", "postgres://postgres@127.0.0.1:5432/erp?sslmode=disable", "x", "postgres://postgres@127.0.0.1:5432/x?sslmode=disable"},
		{"URL without database", "postgresql://u:p@h:1?sslmode=disable", "postgres", "postgresql://u:p@h:1/postgres?sslmode=disable"},
		{"keyword=value", "host=127.0.0.1 port=5432 user=postgres dbname=erp", "x", "host=127.0.0.1 port=5432 user=postgres dbname=erp dbname='x'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withDatabase(tt.in, tt.db)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("withDatabase(%q, %q) = %q, want %q", tt.in, tt.db, got, tt.want)
			}
		})
	}
}

func TestDBName(t *testing.T) {
	tests := []struct {
		name, testName string
	}{
		{"short name", "TestX"},
		{"subtest with spaces and slashes", "TestNewDB/databases are isolated/Ünïcode"},
		{"very long name", strings.Repeat("TestVeryLong", 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dbName(tt.testName)
			if len(got) > 63 {
				t.Errorf("dbName(%q) = %q: %d bytes, over 63", tt.testName, got, len(got))
			}
			if !strings.HasPrefix(got, "erp_t_"+tag+"_") {
				t.Errorf("dbName(%q) = %q lacks the process tag", tt.testName, got)
			}
			for _, r := range got {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
					t.Errorf("dbName(%q) = %q holds %q", tt.testName, got, r)
				}
			}
		})
	}
}

// TestPanickingBinaryLeavesNoServer runs this test binary again, without
// ERP_TEST_DATABASE_URL, with a test that panics: its throwaway server must
// be stopped by the watchdog.
func TestPanickingBinaryLeavesNoServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a cluster of its own")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperPanics$", "-test.count=1", "-test.v")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EnvURL+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGTEST_HELPER_PANIC=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan struct{})
	var out []byte
	var runErr error
	go func() {
		out, runErr = cmd.Output()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the helper binary did not exit (is a child holding its output open?)")
	}
	if runErr == nil {
		t.Fatalf("the helper binary succeeded although its test panics:\n%s", out)
	}
	var url string
	s := bufio.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		if u, ok := strings.CutPrefix(s.Text(), "HELPER_URL "); ok {
			url = u
		}
	}
	if url == "" {
		t.Fatalf("the helper printed no URL:\n%s\n%s", out, stderr.String())
	}
	// "pgcluster: server on 127.0.0.1:N (data DIR) ready in ..." (verbose).
	_, data, _ := strings.Cut(stderr.String(), "(data ")
	data, _, _ = strings.Cut(data, ")")
	if !strings.Contains(data, "pgtest-") {
		t.Fatalf("the helper logged no data dir:\n%s", stderr.String())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, connErr := pgx.Connect(ctx, url)
		cancel()
		if connErr == nil {
			_ = conn.Close(context.Background())
		}
		_, statErr := os.Stat(filepath.Dir(data))
		if connErr != nil && os.IsNotExist(statErr) {
			return // stopped and removed
		}
		if time.Now().After(deadline) {
			t.Fatalf("30s after the panic: server at %s answers: %v; temp dir %s exists: %v", url, connErr == nil, filepath.Dir(data), statErr == nil)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestHelperPanics(t *testing.T) {
	if os.Getenv("PGTEST_HELPER_PANIC") == "" {
		t.Skip("helper of TestPanickingBinaryLeavesNoServer")
	}
	fmt.Println("HELPER_URL " + ServerURL())
	_ = NewDB(t)
	panic("boom")
}
