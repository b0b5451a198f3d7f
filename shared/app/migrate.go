package app

import (
	"context"
	"fmt"
	"net/url"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/secrets"
)

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
		applied, err := Prepare(ctx, adminURL, PrepareOptions{Env: cfg.Env, AppDBPassword: appPassword})
		if err != nil {
			return MigrateResult{Applied: applied}, err
		}
		if applied == nil {
			applied = []string{}
		}
		return MigrateResult{Applied: applied}, nil
	}
}
