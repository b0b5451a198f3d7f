package ops_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db/pgcluster"
	"github.com/erpcr/erp/shared/testenv"
)

func TestHealthReportsVersionCommitAndItsChecks(t *testing.T) {
	simulador := httptest.NewServer(http.NotFoundHandler()) // any answer means it is up
	t.Cleanup(simulador.Close)                              // after the parallel subtests
	caido := httptest.NewServer(http.NotFoundHandler())
	caido.Close()
	cases := []struct {
		name      string
		simulador string
		status    string
		simStatus string // "" = no hacienda_simulador check
	}{
		{"without the Hacienda simulator", "", "ok", ""},
		{"with the simulator up", simulador.URL, "ok", "ok"},
		{"with the simulator down: degraded, still 200", caido.URL, "degraded", "error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := testenv.New(t, func(cfg *config.Config) { cfg.Hacienda.SimuladorURL = c.simulador })
			r := e.Get("/api/health", "")
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
			if r.Header.Get("ETag") != "" || r.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
			}
			for path, want := range map[string]string{
				"status": c.status, "checks.database.status": "ok", "checks.queue.status": "ok", "checks.queue.type": "local",
				"checks.hacienda_simulador.status": c.simStatus,
			} {
				if got := testenv.Str(r.JSON, path); got != want {
					t.Errorf("%s = %q, want %q: %s", path, got, want, r.Raw)
				}
			}
			if testenv.Str(r.JSON, "version") == "" || testenv.Str(r.JSON, "commit") == "" {
				t.Errorf("no version or commit: %s", r.Raw)
			}
			if testenv.Num(r.JSON, "checks.database.latency_ms") < 0 || testenv.Num(r.JSON, "checks.queue.depth") < 0 {
				t.Errorf("no database latency or queue depth: %s", r.Raw)
			}
		})
	}
}

// Stopping the PostgreSQL server turns health into 503: a cluster of the
// test's own (no migrations needed: health asks only for a round trip).
func TestHealthIs503WhenTheDatabaseIsDown(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(t.TempDir(), "data"), Fast: true})
	if err != nil {
		t.Fatalf("starting a PostgreSQL of the test's own: %v", err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = c.Stop()
		}
	}()
	deps, err := app.Open(ctx, config.Config{Env: config.EnvTest, DatabaseURL: c.URL("postgres"), DBMaxConns: 2, LogLevel: "error"})
	if err != nil {
		t.Fatal(err)
	}
	defer deps.Close()
	gw, err := deps.Gateway()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	defer srv.Close()
	get := func() testenv.Resp {
		e := &testenv.Env{T: t, Server: srv}
		return e.Get("/api/health", "")
	}
	if r := get(); r.Status != http.StatusOK || testenv.Str(r.JSON, "checks.database.status") != "ok" {
		t.Fatalf("with the server up: %d %s", r.Status, r.Raw)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	start := time.Now()
	r := get()
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("with the server stopped: %d %s", r.Status, r.Raw)
	}
	for path, want := range map[string]string{"status": "error", "checks.database.status": "error",
		"checks.database.error": "La base de datos no responde."} {
		if got := testenv.Str(r.JSON, path); got != want {
			t.Errorf("%s = %q, want %q: %s", path, got, want, r.Raw)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("health took %s with the database down (bounded at 2 s)", d)
	}
}
