package config

import "testing"

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
