// Package config loads the service's typed configuration once, from the
// environment (and, in AWS, from Secrets Manager for the database).
package config

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
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
	// LoginMaxAttempts failed logins of one e-mail within LoginWindow lock
	// it; LoginMaxFailuresPerAddress failed logins from one client address
	// (any e-mail) lock that address.
	LoginMaxAttempts           int
	LoginMaxFailuresPerAddress int
	LoginWindow                time.Duration
	// DemoPassword is the demo admins' password (ERP_DEMO_PASSWORD).
	DemoPassword string
	// AppDBPassword is the password given to the erp_app role by the local
	// runner and the migrate function (ERP_DB_APP_PASSWORD).
	AppDBPassword string
	// Port of the local gateway.
	Port int
	// LogLevel: debug, info, warn, error.
	LogLevel string
	// CORSOrigins are the browser origins the local gateway admits
	// (ERP_CORS_ORIGINS, comma-separated, default DefaultCORSOrigins; "*"
	// admits any). In AWS the HTTP API's CorsConfiguration does the same from
	// the template parameter CorsAllowOrigins.
	CORSOrigins []string
	// WebhookAllowedHosts are host:port webhook destinations exempt from the
	// SSRF rules (ERP_WEBHOOK_ALLOWED_HOSTS, comma-separated; for receivers
	// on 127.0.0.1 while developing; refused in production).
	WebhookAllowedHosts string
	// WebhookQueueURL is the SQS queue of the webhook worker
	// (ERP_WEBHOOK_QUEUE_URL); empty: the in-process queue.
	WebhookQueueURL string

	// SecretsKey is the AES-256 key (ERP_SECRETS_KEY, base64 of 32 bytes)
	// that encrypts the companies' Hacienda secrets at rest. Outside
	// production an unset key falls back to DevSecretsKey (see ClaveSecretos).
	SecretsKey []byte
	// SecretsKeyARN names a Secrets Manager secret holding that key (base64),
	// read in AWS instead of ERP_SECRETS_KEY (ERP_SECRETS_KEY_ARN).
	SecretsKeyARN string
	// Hacienda holds the tax authority's endpoints and the invoicing limits.
	Hacienda Hacienda
	// Limites are the rate limits by class of the route table
	// (ERP_RATE_LIMIT_<CLASS>, defaults LimitesPorDefecto). A class absent
	// from the map is not limited (tests build Config without it).
	Limites map[string]Limite
}

// Hacienda configures electronic invoicing (comprobantes electrónicos).
type Hacienda struct {
	// Staging and Production are the endpoints of each Hacienda
	// environment; a company picks one in its settings.
	Staging, Production Endpoints
	// SimuladorURL, when set (ERP_HACIENDA_SIMULADOR_URL), sends every
	// company to the local tax-authority simulator at that base URL
	// (<url>/idp/token, <url>/recepcion) whatever environment it chose.
	// Ignored when ERP_ENV=production.
	SimuladorURL string
	// SimuladorPuerto is the port cmd/local starts the simulator on when no
	// endpoint is configured (ERP_HACIENDA_SIMULADOR_PUERTO, default 3100).
	SimuladorPuerto int
	// SimuladorDemora is how long the simulator takes to decide
	// (ERP_HACIENDA_SIMULADOR_DEMORA, default 5s).
	SimuladorDemora time.Duration
	// QueueURL is the SQS queue of the hacienda worker
	// (ERP_HACIENDA_QUEUE_URL); empty means the in-process queue.
	QueueURL string
	// EndpointsConfigurados is true when any ERP_HACIENDA_*_URL was set
	// (then cmd/local starts no simulator).
	EndpointsConfigurados bool
}

// Endpoints are the token (IdP) URL, OAuth client id and recepción base URL
// of one Hacienda environment.
type Endpoints struct {
	TokenURL, ClientID, RecepcionURL string
}

// Official endpoints (NOTES.md §5). The sandbox recepción base is the one
// reported to answer 202 in practice; both are overridable.
const (
	StagingTokenURL        = "https://idp.comprobanteselectronicos.go.cr/auth/realms/rut-stag/protocol/openid-connect/token"
	StagingRecepcionURL    = "https://api-sandbox.comprobanteselectronicos.go.cr/recepcion/v1/"
	ProductionTokenURL     = "https://idp.comprobanteselectronicos.go.cr/auth/realms/rut/protocol/openid-connect/token"
	ProductionRecepcionURL = "https://api.comprobanteselectronicos.go.cr/recepcion/v1/"
)

// DefaultCORSOrigins are the local front-end development servers (Vite on
// 5173, another dev server on 3001).
const DefaultCORSOrigins = "http://localhost:5173,http://localhost:3001"

// ParseOrigins reads a comma-separated list of browser origins: each one
// "*" or scheme://host[:port] (http or https, no path), returned in lower
// case as browsers send them.
func ParseOrigins(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		o := strings.TrimSpace(part)
		if o == "" {
			continue
		}
		if o == "*" {
			out = append(out, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(u.Host, "*% ") {
			return nil, fmt.Errorf("origin %q: expected * or scheme://host[:port], e.g. https://app.example.cr", o)
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no origin in %q", s)
	}
	return out, nil
}

// DevSecretsKey is the fixed key used outside production when
// ERP_SECRETS_KEY is unset: data encrypted with it is not secret. It is
// refused in production.
const DevSecretsKey = "ZXJwLWRldi1zb2xvLWxvY2FsLW5vLXNlY3JldG8tMDE="

// ErrNoSecretsKey is returned in production when no key is configured.
var ErrNoSecretsKey = errors.New("config: ERP_SECRETS_KEY or ERP_SECRETS_KEY_ARN is required in production")

// ClaveSecretos returns the key that encrypts secrets at rest: the
// configured one, else (outside production) DevSecretsKey. In AWS the key
// comes from ERP_SECRETS_KEY_ARN and is resolved by the caller.
func (c Config) ClaveSecretos() ([]byte, error) {
	if len(c.SecretsKey) > 0 {
		return c.SecretsKey, nil
	}
	if c.Env == EnvProduction {
		return nil, ErrNoSecretsKey
	}
	return DecodeKey(DevSecretsKey)
}

// DecodeKey reads a base64 AES-256 key.
func DecodeKey(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(k) != 32 {
		return nil, fmt.Errorf("config: the secrets key must be the base64 of 32 bytes")
	}
	return k, nil
}

// HaciendaEndpoints returns the endpoints of a Hacienda environment ("staging" or
// "production"): the simulator's when one is configured outside production.
func (c Config) HaciendaEndpoints(ambiente string) Endpoints {
	if c.Hacienda.SimuladorURL != "" && c.Env != EnvProduction {
		base := strings.TrimRight(c.Hacienda.SimuladorURL, "/")
		return Endpoints{TokenURL: base + "/idp/token", ClientID: "api-stag", RecepcionURL: base}
	}
	if ambiente == "production" {
		return c.Hacienda.Production
	}
	return c.Hacienda.Staging
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
	if c.LoginMaxFailuresPerAddress, err = integer("ERP_LOGIN_MAX_FAILURES_ADDRESS", 50); err != nil {
		return c, err
	}
	if c.Port, err = integer("PORT", 3000); err != nil {
		return c, err
	}
	if c.Limites, err = loadLimites(); err != nil {
		return c, err
	}
	if c.Debug, err = boolean("ERP_DEBUG", false); err != nil {
		return c, err
	}
	if c.CORSOrigins, err = ParseOrigins(get("ERP_CORS_ORIGINS", DefaultCORSOrigins)); err != nil {
		return c, fmt.Errorf("ERP_CORS_ORIGINS: %w", err)
	}
	if v := os.Getenv("ERP_SECRETS_KEY"); v != "" {
		if c.SecretsKey, err = DecodeKey(v); err != nil {
			return c, fmt.Errorf("ERP_SECRETS_KEY: %w", err)
		}
	}
	c.SecretsKeyARN = os.Getenv("ERP_SECRETS_KEY_ARN")
	c.WebhookAllowedHosts = strings.TrimSpace(os.Getenv("ERP_WEBHOOK_ALLOWED_HOSTS"))
	c.WebhookQueueURL = os.Getenv("ERP_WEBHOOK_QUEUE_URL")
	if c.WebhookAllowedHosts != "" && c.Env == EnvProduction {
		return c, fmt.Errorf("ERP_WEBHOOK_ALLOWED_HOSTS: not allowed in production (it exempts destinations from the SSRF rules)")
	}
	if c.Hacienda, err = loadHacienda(); err != nil {
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

func loadHacienda() (Hacienda, error) {
	h := Hacienda{
		Staging: Endpoints{
			TokenURL:     get("ERP_HACIENDA_STAGING_TOKEN_URL", StagingTokenURL),
			ClientID:     get("ERP_HACIENDA_STAGING_CLIENT_ID", "api-stag"),
			RecepcionURL: get("ERP_HACIENDA_STAGING_URL", StagingRecepcionURL),
		},
		Production: Endpoints{
			TokenURL:     get("ERP_HACIENDA_PRODUCTION_TOKEN_URL", ProductionTokenURL),
			ClientID:     get("ERP_HACIENDA_PRODUCTION_CLIENT_ID", "api-prod"),
			RecepcionURL: get("ERP_HACIENDA_PRODUCTION_URL", ProductionRecepcionURL),
		},
		SimuladorURL: os.Getenv("ERP_HACIENDA_SIMULADOR_URL"),
		QueueURL:     os.Getenv("ERP_HACIENDA_QUEUE_URL"),
	}
	for _, k := range []string{"ERP_HACIENDA_STAGING_TOKEN_URL", "ERP_HACIENDA_STAGING_URL", "ERP_HACIENDA_PRODUCTION_TOKEN_URL",
		"ERP_HACIENDA_PRODUCTION_URL", "ERP_HACIENDA_SIMULADOR_URL"} {
		if os.Getenv(k) != "" {
			h.EndpointsConfigurados = true
		}
	}
	var err error
	if h.SimuladorPuerto, err = integer("ERP_HACIENDA_SIMULADOR_PUERTO", 3100); err != nil {
		return h, err
	}
	if h.SimuladorDemora, err = duration("ERP_HACIENDA_SIMULADOR_DEMORA", 5*time.Second); err != nil {
		return h, err
	}
	return h, nil
}

// String prints the configuration with secrets masked.
func (c Config) String() string {
	key := "unset"
	if len(c.SecretsKey) > 0 {
		key = "***"
	}
	return fmt.Sprintf("env=%s db=%s admin_db=%s db_secret=%s max_conns=%d exec_mode=%s token_ttl=%s base_domain=%q debug=%t secrets_key=%s hacienda_simulador=%q hacienda_queue=%q",
		c.Env, MaskURL(c.DatabaseURL), MaskURL(c.DatabaseAdminURL), c.DBSecretARN, c.DBMaxConns, c.DBExecMode, c.TokenTTL, c.TenantBaseDomain, c.Debug,
		key, c.Hacienda.SimuladorURL, c.Hacienda.QueueURL)
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

// parsed reads the variable key with parse, def when it is unset or
// empty; a value parse refuses is an error saying what was expected.
func parsed[T any](key string, def T, expected string, parse func(string) (T, bool)) (T, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	x, ok := parse(v)
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s=%q: expected %s", key, v, expected)
	}
	return x, nil
}

func duration(key string, def time.Duration) (time.Duration, error) {
	return parsed(key, def, "a positive duration such as 24h", func(v string) (time.Duration, bool) {
		d, err := time.ParseDuration(v)
		return d, err == nil && d > 0
	})
}

func integer(key string, def int) (int, error) {
	return parsed(key, def, "a non-negative integer", func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 0
	})
}

func boolean(key string, def bool) (bool, error) {
	return parsed(key, def, "true or false", func(v string) (bool, bool) {
		b, err := strconv.ParseBool(v)
		return b, err == nil
	})
}
