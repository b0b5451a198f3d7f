// Package config loads the service's typed configuration once, from the
// environment (and, in AWS, from Secrets Manager for the database).
package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Environments.
const (
	EnvDevelopment = "development"
	EnvTest        = "test"
	EnvStaging     = "staging"
	EnvProduction  = "production"
)

// Config is the whole configuration of a process.
type Config struct {
	// Env is ERP_ENV: development, test, staging or production.
	Env string
	// DatabaseURL is the application's connection (role erp_app, no table
	// ownership, no BYPASSRLS). DATABASE_APP_URL, or derived from
	// DATABASE_URL by the local runner.
	DatabaseURL string
	// DatabaseAdminURL is the owner connection used only for migrations
	// (DATABASE_URL locally).
	DatabaseAdminURL string
	// DBSecretARN / DBAdminSecretARN name Secrets Manager secrets (RDS
	// format: username, password, host, port, dbname) used in AWS.
	DBSecretARN      string
	DBAdminSecretARN string
	// DBMaxConns caps the pgx pool (Lambda: 1-4).
	DBMaxConns int32
	// DBExecMode is pgx's default_query_exec_mode; "exec" behind RDS Proxy.
	DBExecMode string
	// TokenTTL is the lifetime of personal access tokens (ERP_TOKEN_TTL).
	TokenTTL time.Duration
	// TenantBaseDomain lets "demo.<base>" select the company by subdomain.
	TenantBaseDomain string
	// Debug exposes internal error details in 500 bodies (never in production).
	Debug bool
	// BcryptCost is the password hashing cost.
	BcryptCost int
	// LoginMaxAttempts within LoginWindow per e-mail and address.
	LoginMaxAttempts int
	LoginWindow      time.Duration
	// DemoPassword is the demo admins' password (ERP_DEMO_PASSWORD).
	DemoPassword string
	// AppDBPassword is the password given to the erp_app role by the local
	// runner and the migrate function (ERP_DB_APP_PASSWORD).
	AppDBPassword string
	// Port of the local gateway.
	Port int
	// LogLevel: debug, info, warn, error.
	LogLevel string
}

// Load reads the environment. It never fails for missing optional values;
// malformed values are errors.
func Load() (Config, error) {
	c := Config{
		Env:              get("ERP_ENV", EnvDevelopment),
		DatabaseURL:      os.Getenv("DATABASE_APP_URL"),
		DatabaseAdminURL: os.Getenv("DATABASE_URL"),
		DBSecretARN:      os.Getenv("DB_SECRET_ARN"),
		DBAdminSecretARN: os.Getenv("DB_ADMIN_SECRET_ARN"),
		DBExecMode:       get("ERP_DB_EXEC_MODE", "cache_statement"),
		TenantBaseDomain: strings.ToLower(os.Getenv("ERP_TENANT_BASE_DOMAIN")),
		DemoPassword:     get("ERP_DEMO_PASSWORD", "Demo1234!"),
		AppDBPassword:    get("ERP_DB_APP_PASSWORD", "erp_app_local"),
		LogLevel:         get("ERP_LOG_LEVEL", "info"),
	}
	var err error
	if c.TokenTTL, err = duration("ERP_TOKEN_TTL", 24*time.Hour); err != nil {
		return c, err
	}
	if c.LoginWindow, err = duration("ERP_LOGIN_WINDOW", 15*time.Minute); err != nil {
		return c, err
	}
	maxConns, err := integer("ERP_DB_MAX_CONNS", 4)
	if err != nil {
		return c, err
	}
	c.DBMaxConns = int32(maxConns)
	if c.BcryptCost, err = integer("ERP_BCRYPT_COST", 10); err != nil {
		return c, err
	}
	if c.LoginMaxAttempts, err = integer("ERP_LOGIN_MAX_ATTEMPTS", 5); err != nil {
		return c, err
	}
	if c.Port, err = integer("PORT", 3000); err != nil {
		return c, err
	}
	if c.Debug, err = boolean("ERP_DEBUG", false); err != nil {
		return c, err
	}
	if c.Env == EnvProduction {
		c.Debug = false
	}
	switch c.Env {
	case EnvDevelopment, EnvTest, EnvStaging, EnvProduction:
	default:
		return c, fmt.Errorf("ERP_ENV %q: expected development, test, staging or production", c.Env)
	}
	return c, nil
}

// String prints the configuration with secrets masked.
func (c Config) String() string {
	return fmt.Sprintf("env=%s db=%s admin_db=%s db_secret=%s max_conns=%d exec_mode=%s token_ttl=%s base_domain=%q debug=%t",
		c.Env, MaskURL(c.DatabaseURL), MaskURL(c.DatabaseAdminURL), c.DBSecretARN, c.DBMaxConns, c.DBExecMode, c.TokenTTL, c.TenantBaseDomain, c.Debug)
}

// MaskURL hides the password of a connection URL.
func MaskURL(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 {
		return u
	}
	cred := u[scheme+3 : at]
	if i := strings.Index(cred, ":"); i >= 0 {
		return u[:scheme+3] + cred[:i] + ":***" + u[at:]
	}
	return u
}

func get(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

func duration(key string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: expected a positive duration such as 24h", key, v)
	}
	return d, nil
}

func integer(key string, def int) (int, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: expected a non-negative integer", key, v)
	}
	return n, nil
}

func boolean(key string, def bool) (bool, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: expected true or false", key, v)
	}
	return b, nil
}
