// Package app is the composition root: it builds a process's dependencies
// once (configuration, logger, pool) and knows which domain serves which
// function group. functions/*/main.go, the local gateway and the tests all
// obtain their handlers here, so the three hosts run the same code.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/secrets"
	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/webhooks"
)

// Deps are built once per process (outside any handler).
type Deps struct {
	Cfg config.Config
	Log *slog.Logger
	DB  *db.DB

	// The invoicing service and the in-process queue, built on first use
	// (group_facturacion.go).
	haciendaOnce sync.Once
	hacienda     *facturacion.Service
	localOnce    sync.Once
	local        *queue.Local
	// The webhook dispatcher, built on first use (group_webhooks.go).
	webhooksOnce sync.Once
	webhooks     *webhooks.Despachador
}

// NewLogger is the structured JSON logger of every process.
func NewLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: l}))
}

// Open builds the dependencies from cfg. In AWS the database URL comes from
// the secret named by DB_SECRET_ARN.
func Open(ctx context.Context, cfg config.Config) (*Deps, error) {
	log := NewLogger(cfg.LogLevel)
	slog.SetDefault(log)
	url := cfg.DatabaseURL
	if url == "" && cfg.DBSecretARN != "" {
		var err error
		if url, err = secrets.DatabaseURL(ctx, cfg.DBSecretARN); err != nil {
			return nil, err
		}
	}
	if url == "" {
		return nil, fmt.Errorf("app: no database configured (DATABASE_APP_URL or DB_SECRET_ARN)")
	}
	pool, err := db.Open(ctx, db.Options{URL: url, MaxConns: cfg.DBMaxConns, ExecMode: cfg.DBExecMode})
	if err != nil {
		return nil, err
	}
	return &Deps{Cfg: cfg, Log: log, DB: pool}, nil
}

// MustOpen is Open for main functions: it loads the configuration from the
// environment and exits the process on failure.
func MustOpen() *Deps {
	cfg, err := config.Load()
	if err != nil {
		slog.Error("config", "error", err.Error())
		os.Exit(1)
	}
	d, err := Open(context.Background(), cfg)
	if err != nil {
		slog.Error("startup", "error", err.Error())
		os.Exit(1)
	}
	return d
}

// Close releases the pool (Lambda SIGTERM hook).
func (d *Deps) Close() { d.DB.Close() }

// Handlers returns the handlers of an HTTP function group (every group is
// known here: the local gateway and the tests host them all).
func (d *Deps) Handlers(group string) (lambdahttp.Handlers, error) {
	fn, ok := d.grupos()[group]
	if !ok {
		return nil, fmt.Errorf("app: unknown function group %q", group)
	}
	return d.handlersOf(fn), nil
}

// handlersOf builds a group's handlers. Every function that commits domain
// events wakes the webhook worker after the commit (db.DB.AlConfirmar, set
// by the dispatcher), so the dispatcher is built first.
func (d *Deps) handlersOf(fn func() lambdahttp.Handlers) lambdahttp.Handlers {
	d.Webhooks()
	return fn()
}

// HTTPHandler is a group's http.Handler with every convention applied.
func (d *Deps) HTTPHandler(group string) (http.Handler, error) {
	hs, err := d.Handlers(group)
	if err != nil {
		return nil, err
	}
	return lambdahttp.Mux(group, hs, httpx.Options{Log: d.Log, Debug: d.Cfg.Debug})
}

// LambdaHandler is the Lambda entry point of an HTTP function group.
func (d *Deps) LambdaHandler(group string) (func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error), error) {
	h, err := d.HTTPHandler(group)
	if err != nil {
		return nil, err
	}
	return lambdahttp.Lambda(h), nil
}

// MustLambda is the Lambda entry point of one HTTP function group for its
// main function, built from that group's own constructor
// (deps.MustLambda("ventas", deps.GrupoVentas)): naming only it, the binary
// links only the group's domains, not every group's.
func (d *Deps) MustLambda(group string, fn func() lambdahttp.Handlers) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	h, err := lambdahttp.Mux(group, d.handlersOf(fn), httpx.Options{Log: d.Log, Debug: d.Cfg.Debug})
	if err != nil {
		d.Log.Error("startup", "error", err.Error())
		os.Exit(1)
	}
	return lambdahttp.Lambda(h)
}

// Authorizer is the Lambda entry point of the authorizer function.
func (d *Deps) Authorizer() func(context.Context, events.APIGatewayV2CustomAuthorizerV2Request) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
	a := &auth.Authorizer{DB: d.DB, BaseDomain: d.Cfg.TenantBaseDomain, Log: d.Log}
	return a.Handle
}

// PrepareOptions say what Prepare does besides migrating.
type PrepareOptions struct {
	Env           string
	AppDBPassword string
	// Demo seeds the demo companies (never in production).
	Demo bool
	// DemoData also gives them products with stock, customers and a supplier
	// (seed.DemoData; implies Demo). Meant for make run (cmd/local); tests
	// leave it off, since they count the records of the demo companies.
	DemoData     bool
	DemoPassword string
	BcryptCost   int
}

// Prepare migrates the database with the owner connection, lets the
// application role log in, and seeds catalogs (and the demo data when asked).
// It is what make run, the tests and the migrate function do.
func Prepare(ctx context.Context, adminURL string, o PrepareOptions) ([]string, error) {
	applied, err := db.Migrate(ctx, adminURL)
	if err != nil {
		return applied, err
	}
	if o.AppDBPassword != "" {
		if err := db.EnableAppLogin(ctx, adminURL, o.AppDBPassword); err != nil {
			return applied, err
		}
	}
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return applied, fmt.Errorf("prepare: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := seed.Catalogs(ctx, conn); err != nil {
		return applied, err
	}
	if o.Demo || o.DemoData {
		if strings.EqualFold(o.Env, config.EnvProduction) {
			return applied, seed.ErrProduction
		}
		hash, err := auth.HashPassword(o.DemoPassword, o.BcryptCost)
		if err != nil {
			return applied, err
		}
		if err := seed.Demo(ctx, conn, o.Env, hash); err != nil {
			return applied, err
		}
	}
	if o.DemoData {
		if err := seed.DemoData(ctx, adminURL, o.Env); err != nil {
			return applied, err
		}
	}
	return applied, nil
}
