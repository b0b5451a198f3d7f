// Command local runs the whole API on one machine (make run): a PostgreSQL
// (DATABASE_URL, or a private cluster under .local/ started with the
// machine's initdb/pg_ctl), migrations, the idempotent seed, the local
// API Gateway on :3000 calling the real authorizer and function handlers,
// the hacienda worker on an in-process queue, the scheduler's sweep on a
// ticker, and (outside production, when no Hacienda endpoint is configured)
// the local tax-authority simulator. Ctrl-C stops everything it started.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/db/pgcluster"
	"github.com/erpcr/erp/shared/gateway"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/seed"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	adminURL := cfg.DatabaseAdminURL
	if adminURL == "" {
		dir, err := filepath.Abs(filepath.Join(".local", "pgdata"))
		if err != nil {
			return err
		}
		fmt.Println("Iniciando PostgreSQL privado en", dir, "...")
		cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
		if err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		defer func() {
			fmt.Println("Deteniendo PostgreSQL ...")
			if err := cluster.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, "postgres stop:", err)
			}
		}()
		if err := ensureDatabase(ctx, cluster.URL("postgres"), "erp"); err != nil {
			return err
		}
		adminURL = cluster.URL("erp")
	}

	applied, err := app.Prepare(ctx, adminURL, app.PrepareOptions{
		Env: cfg.Env, AppDBPassword: cfg.AppDBPassword,
		Demo: cfg.Env != config.EnvProduction, DemoData: cfg.Env != config.EnvProduction,
		DemoPassword: cfg.DemoPassword, BcryptCost: cfg.BcryptCost,
	})
	if err != nil {
		return fmt.Errorf("preparar base de datos: %w", err)
	}
	fmt.Printf("Migraciones aplicadas en este arranque: %d\n", len(applied))

	if cfg.DatabaseURL == "" {
		if cfg.DatabaseURL, err = db.AppURL(adminURL, cfg.AppDBPassword); err != nil {
			return err
		}
	}
	// The tax-authority simulator, unless real endpoints are configured
	// (never in production).
	var simSrv *http.Server
	if !cfg.Hacienda.EndpointsConfigurados && cfg.Env != config.EnvProduction {
		sim, err := simulador.Nuevo(simulador.Opciones{Demora: cfg.Hacienda.SimuladorDemora, Entorno: cfg.Env, VerificarFirma: firma.Verificar})
		if err != nil {
			return fmt.Errorf("simulador: %w", err)
		}
		simSrv = &http.Server{Addr: fmt.Sprintf("127.0.0.1:%d", cfg.Hacienda.SimuladorPuerto), Handler: sim, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := simSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				fmt.Fprintln(os.Stderr, "simulador:", err)
			}
		}()
		cfg.Hacienda.SimuladorURL = fmt.Sprintf("http://127.0.0.1:%d", cfg.Hacienda.SimuladorPuerto)
		defer func() {
			shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = simSrv.Shutdown(shutdown)
		}()
	}

	deps, err := app.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer deps.Close()
	// SQS and EventBridge stand-ins: the in-process queue's consumer and the
	// sweep every minute, until Ctrl-C.
	workers, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	deps.RunLocalWorkers(workers)
	gw, err := deps.Gateway()
	if err != nil {
		return err
	}
	// API Gateway's limits: 30 s to send a request, 10240 bytes of headers,
	// idle keep-alive connections closed after 60 s.
	srv := gateway.NewServer(fmt.Sprintf(":%d", cfg.Port), gw, gateway.DefaultServerOptions())
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()

	fmt.Printf("\nAPI local lista en http://localhost:%d/api\n", cfg.Port)
	fmt.Printf("CORS (ERP_CORS_ORIGINS): %s\n", strings.Join(cfg.CORSOrigins, ", "))
	fmt.Println("Credenciales demo (contraseña ERP_DEMO_PASSWORD, por defecto Demo1234!):")
	for _, c := range seed.DemoCompanies {
		fmt.Printf("  empresa %d %-14s %s / %s\n", c.ID, c.Nombre, c.AdminEmail, cfg.DemoPassword)
	}
	fmt.Printf("Ejemplo: curl -s -X POST http://localhost:%d/api/login -H 'Content-Type: application/json' -d '{\"email\":\"admin@demo.cr\",\"password\":\"%s\"}'\n", cfg.Port, cfg.DemoPassword)
	if simSrv != nil {
		fmt.Printf("Simulador de Hacienda en %s (demora %s); cualquier usuario y clave no vacíos son aceptados.\n",
			cfg.Hacienda.SimuladorURL, cfg.Hacienda.SimuladorDemora)
	}
	fmt.Println("Ctrl-C para detener.")

	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("servidor: %w", err)
		}
	}
	slog.Info("deteniendo")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// ensureDatabase creates the database on first run; later runs reuse it.
func ensureDatabase(ctx context.Context, serverURL, name string) error {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var exists bool
	if err := conn.QueryRow(ctx, `select exists (select 1 from pg_database where datname = $1)`, name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, `create database `+pgx.Identifier{name}.Sanitize())
	return err
}
