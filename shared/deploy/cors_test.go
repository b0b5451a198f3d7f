package deploy

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/routes"
)

// TestHTTPAPIHasTheCORSConfiguration pins the HTTP API's CORS: the
// x-amazon-apigateway-cors extension of the DefinitionBody (what SAM's
// CorsConfiguration compiles to; see corsConfiguration for why it is
// written there) with routes.CORS and the per-environment origins.
func TestHTTPAPIHasTheCORSConfiguration(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	props := doc.get(t, "Resources", apiLogicalID, "Properties")
	if props.lookup("CorsConfiguration") != nil {
		t.Error("CorsConfiguration would be compiled by SAM, which cannot take !Ref CorsAllowOrigins; keep the DefinitionBody extension")
	}
	cors := props.get(t, "DefinitionBody", corsExtension)
	p := routes.CORS()
	list := func(xs []string) string { return flow(xs...) }
	for key, want := range map[string]string{
		"allowOrigins":     "!Ref " + corsOriginsParam,
		"allowMethods":     list(p.AllowMethods),
		"allowHeaders":     list(p.AllowHeaders),
		"exposeHeaders":    list(p.ExposeHeaders),
		"maxAge":           strconv.Itoa(p.MaxAge),
		"allowCredentials": "false",
	} {
		if got := cors.get(t, key).scalar; got != want {
			t.Errorf("%s.%s = %q, want %q", corsExtension, key, got, want)
		}
	}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		if !strings.Contains(cors.get(t, "allowMethods").scalar, m) {
			t.Errorf("allowMethods lacks %s", m)
		}
	}
	for _, h := range []string{"Authorization", "Content-Type", "Accept", "X-Empresa-Id", "X-Empresa-Subdominio", "Idempotency-Key", "X-Trace-Id", "X-Span-Id", "If-None-Match"} {
		if !strings.Contains(cors.get(t, "allowHeaders").scalar, h) {
			t.Errorf("allowHeaders lacks %s", h)
		}
	}
	for _, h := range []string{"ETag", "X-Response-Time", "X-Trace-Id", "X-Span-Id", "Retry-After", "Idempotent-Replayed", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if !strings.Contains(cors.get(t, "exposeHeaders").scalar, h) {
			t.Errorf("exposeHeaders lacks %s", h)
		}
	}
	param := doc.get(t, "Parameters", corsOriginsParam)
	if param.get(t, "Type").scalar != "CommaDelimitedList" || param.lookup("Default") != nil {
		t.Errorf("%s must be a CommaDelimitedList without default (each environment names its origins)", corsOriginsParam)
	}
}

// TestSamconfigSetsEveryRequiredParameter checks that each sam deploy
// environment gives a value to every parameter without a default.
func TestSamconfigSetsEveryRequiredParameter(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "samconfig.toml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := parseYAML(t, Template())
	params := doc.get(t, "Parameters")
	var required []string
	for _, k := range params.keys {
		if params.get(t, k).lookup("Default") == nil {
			required = append(required, k)
		}
	}
	if len(required) == 0 {
		t.Fatal("no required parameters found")
	}
	section := regexp.MustCompile(`(?s)\[(\w+)\.deploy\.parameters\](.*?)parameter_overrides = """(.*?)"""`)
	envs := section.FindAllStringSubmatch(string(raw), -1)
	if len(envs) < 4 {
		t.Fatalf("found %d deploy environments in samconfig.toml, want default, dev, staging, prod", len(envs))
	}
	for _, env := range envs {
		for _, p := range required {
			if !regexp.MustCompile(`(^|\s)` + p + `=\S`).MatchString(env[3]) {
				t.Errorf("samconfig.toml [%s]: parameter %s has no default and no override", env[1], p)
			}
		}
	}
}
