package config

import (
	"strings"
	"testing"
	"time"
)

func TestLoadDefaultsAndValidation(t *testing.T) {
	t.Setenv("ERP_ENV", "")
	c, err := Load()
	if err != nil || c.Env != EnvDevelopment || c.TokenTTL.Hours() != 24 || c.Port != 3000 || c.LoginMaxAttempts != 5 {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	t.Setenv("ERP_ENV", "production")
	t.Setenv("ERP_DEBUG", "true")
	if c, _ := Load(); c.Debug {
		t.Errorf("debug must be off in production")
	}
	for k, v := range map[string]string{"ERP_ENV": "prod", "ERP_TOKEN_TTL": "mañana", "ERP_DB_MAX_CONNS": "-1", "ERP_DEBUG": "talvez"} {
		t.Run(k, func(t *testing.T) {
			t.Setenv(k, v)
			if _, err := Load(); err == nil {
				t.Errorf("%s=%s accepted", k, v)
			}
		})
	}
}

func TestMaskURLHidesPasswords(t *testing.T) {
	if got := MaskURL("postgres://erp_app:secreto@db:5432/erp"); got != "postgres://erp_app:***@db:5432/erp" {
		t.Errorf("%s", got)
	}
}

func TestHaciendaSettings(t *testing.T) {
	t.Setenv("ERP_ENV", "development")
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Limites["hacienda"] != (Limite{Max: 10, Ventana: time.Hour}) || c.Hacienda.SimuladorPuerto != 3100 || c.Hacienda.SimuladorDemora.Seconds() != 5 ||
		c.Hacienda.EndpointsConfigurados || c.HaciendaEndpoints("production").RecepcionURL != ProductionRecepcionURL ||
		c.HaciendaEndpoints("staging").TokenURL != StagingTokenURL {
		t.Fatalf("defaults: %+v", c.Hacienda)
	}
	// Outside production a missing key falls back to the development key.
	if k, err := c.ClaveSecretos(); err != nil || len(k) != 32 {
		t.Fatalf("dev key: %v", err)
	}
	// The simulator replaces both environments, except in production.
	t.Setenv("ERP_HACIENDA_SIMULADOR_URL", "http://127.0.0.1:3100/")
	c, _ = Load()
	if e := c.HaciendaEndpoints("production"); e.RecepcionURL != "http://127.0.0.1:3100" || e.TokenURL != "http://127.0.0.1:3100/idp/token" || !c.Hacienda.EndpointsConfigurados {
		t.Fatalf("simulator endpoints: %+v", e)
	}
	t.Setenv("ERP_ENV", "production")
	c, _ = Load()
	if e := c.HaciendaEndpoints("production"); e.RecepcionURL != ProductionRecepcionURL {
		t.Fatalf("production used the simulator: %+v", e)
	}
	if _, err := c.ClaveSecretos(); err != ErrNoSecretsKey {
		t.Fatalf("production without a key: %v", err)
	}
	t.Setenv("ERP_SECRETS_KEY", DevSecretsKey)
	c, err = Load()
	if k, kerr := c.ClaveSecretos(); err != nil || kerr != nil || len(k) != 32 || strings.Contains(c.String(), DevSecretsKey) {
		t.Fatalf("configured key: %v %v %s", err, kerr, c.String())
	}
	for k, v := range map[string]string{"ERP_SECRETS_KEY": "corta", "ERP_HACIENDA_MAX_ENVIOS_HORA": "-1", "ERP_HACIENDA_SIMULADOR_DEMORA": "pronto"} {
		t.Run(k, func(t *testing.T) {
			t.Setenv(k, v)
			if _, err := Load(); err == nil {
				t.Errorf("%s=%s accepted", k, v)
			}
		})
	}
}

func TestCORSOrigins(t *testing.T) {
	t.Setenv("ERP_CORS_ORIGINS", "")
	c, err := Load()
	if err != nil || strings.Join(c.CORSOrigins, ",") != DefaultCORSOrigins {
		t.Fatalf("default: %v %v", c.CORSOrigins, err)
	}
	t.Setenv("ERP_CORS_ORIGINS", " https://App.Example.cr , http://localhost:8080/,* ")
	if c, err = Load(); err != nil || strings.Join(c.CORSOrigins, ",") != "https://app.example.cr,http://localhost:8080,*" {
		t.Fatalf("parsed: %v %v", c.CORSOrigins, err)
	}
	for _, bad := range []string{"app.example.cr", "ftp://x.cr", "https://x.cr/app", "https://x.cr?a=1", " , "} {
		t.Setenv("ERP_CORS_ORIGINS", bad)
		if _, err := Load(); err == nil {
			t.Errorf("ERP_CORS_ORIGINS=%q accepted", bad)
		}
	}
}

func TestRateLimitsAreConfigurationPerClass(t *testing.T) {
	cases := []struct {
		name, env, val string
		class          string
		want           Limite
		fails          bool
	}{
		{"default general is SPEC's 60 per minute", "", "", "general", Limite{60, time.Minute}, false},
		{"default payment_process is 3 per hour", "", "", "payment_process", Limite{3, time.Hour}, false},
		{"default exports is 5 per day", "", "", "exports", Limite{5, 24 * time.Hour}, false},
		{"operator raises general", "ERP_RATE_LIMIT_GENERAL", "600/min", "general", Limite{600, time.Minute}, false},
		{"spelled units", "ERP_RATE_LIMIT_REPORTS", "20/hour", "reports", Limite{20, time.Hour}, false},
		{"zero turns a class off", "ERP_RATE_LIMIT_IMPORTS", "0/day", "imports", Limite{0, 24 * time.Hour}, false},
		{"older hacienda variable still counts", "ERP_HACIENDA_MAX_ENVIOS_HORA", "4", "hacienda", Limite{4, time.Hour}, false},
		{"no unit", "ERP_RATE_LIMIT_GENERAL", "60", "general", Limite{}, true},
		{"unknown unit", "ERP_RATE_LIMIT_GENERAL", "60/week", "general", Limite{}, true},
		{"negative", "ERP_RATE_LIMIT_GENERAL", "-1/min", "general", Limite{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("ERP_ENV", "development")
			if c.env != "" {
				t.Setenv(c.env, c.val)
			}
			cfg, err := Load()
			if c.fails {
				if err == nil || !strings.Contains(err.Error(), c.env) {
					t.Fatalf("want an error naming %s, got %v", c.env, err)
				}
				return
			}
			if err != nil || cfg.Limites[c.class] != c.want {
				t.Fatalf("%s = %+v, %v; want %+v", c.class, cfg.Limites[c.class], err, c.want)
			}
		})
	}
}
