// Package migracion prepares a database: migrations, the application
// role's login, global catalogs and (never in production) the demo
// companies. The migrate function, the local runner and the tests call it.
package migracion

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/secrets"
	"github.com/erpcr/erp/shared/seed"
)

// Options say what Prepare does besides migrating.
type Options struct {
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

// Preparar migrates the database with the owner connection, lets the
// application role log in, and seeds catalogs (and the demo data when asked).
// It is what make run, the tests and the migrate function do.
func Preparar(ctx context.Context, adminURL string, o Options) ([]string, error) {
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

// MigrateResult is what the migrate function returns.
type MigrateResult struct {
	Applied []string `json:"applied"`
}

// MigrateHandler is the migrate function: it applies pending migrations and
// the catalog seed with the owner's credentials (DB_ADMIN_SECRET_ARN or
// DATABASE_URL), and gives the application role the password held in the
// application's secret (DB_SECRET_ARN) so both stay in step.
func MigrateHandler(cfg config.Config) func(ctx context.Context, _ map[string]any) (MigrateResult, error) {
	return func(ctx context.Context, _ map[string]any) (MigrateResult, error) {
		adminURL := cfg.DatabaseAdminURL
		if adminURL == "" && cfg.DBAdminSecretARN != "" {
			var err error
			if adminURL, err = secrets.DatabaseURL(ctx, cfg.DBAdminSecretARN); err != nil {
				return MigrateResult{}, err
			}
		}
		if adminURL == "" {
			return MigrateResult{}, fmt.Errorf("migrate: no owner database configured (DATABASE_URL or DB_ADMIN_SECRET_ARN)")
		}
		appPassword := ""
		appURL := cfg.DatabaseURL
		if appURL == "" && cfg.DBSecretARN != "" {
			var err error
			if appURL, err = secrets.DatabaseURL(ctx, cfg.DBSecretARN); err != nil {
				return MigrateResult{}, err
			}
		}
		if u, err := url.Parse(appURL); err == nil && u.User != nil {
			appPassword, _ = u.User.Password()
		}
		applied, err := Preparar(ctx, adminURL, Options{Env: cfg.Env, AppDBPassword: appPassword})
		if err != nil {
			return MigrateResult{Applied: applied}, err
		}
		if applied == nil {
			applied = []string{}
		}
		return MigrateResult{Applied: applied}, nil
	}
}
