package app_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/migracion"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/testenv"
)

// sampleToken is the bearer token the sample events carry; the test stores
// its hash for the demo administrator of company 1.
const sampleToken = "900001|MuestraDeEventoSoloParaPruebasLocales0001"

// muestra is the sample event file (under events/), as stored.
func muestra(t *testing.T, file string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", file))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// invoke runs handler on the sample event file through aws-lambda-go.
func invoke(t *testing.T, handler any, file string) []byte {
	t.Helper()
	return invocarJSON(t, handler, muestra(t, file))
}

func TestEverySampleEventRunsThroughItsFunctionsLambdaHandler(t *testing.T) {
	e := testenv.New(t)
	_, secret, _ := auth.ParseToken(sampleToken)
	e.Exec(`insert into tokens_acceso (id, usuario_id, token_hash, expira_en) values (900001, 1, $1, now() + interval '1 hour')`, auth.HashSecret(secret))

	// Content checks for some samples; every sample is checked for its
	// status (from its name: <case>.<status>.json), headers and JSON body.
	checks := map[string]func(t *testing.T, b map[string]any){
		"auth/login.200.json": func(t *testing.T, b map[string]any) {
			if testenv.Str(b, "data.usuario.email") != "admin@demo.cr" || testenv.Str(b, "data.token") == "" {
				t.Errorf("login body: %v", b)
			}
		},
		"auth/me.200.json": func(t *testing.T, b map[string]any) {
			if testenv.Str(b, "email") != "admin@demo.cr" {
				t.Errorf("me body: %v", b)
			}
		},
		"usuarios/index.200.json": func(t *testing.T, b map[string]any) {
			if testenv.Num(b, "per_page") != 5 || testenv.Str(b, "data.0.email") != "admin@demo.cr" {
				t.Errorf("index body: %v", b)
			}
		},
		"ops/health.200.json": func(t *testing.T, b map[string]any) {
			if testenv.Str(b, "status") != "ok" || testenv.Str(b, "checks.database.status") != "ok" {
				t.Errorf("health body: %v", b)
			}
		},
	}
	seen := 0
	for _, group := range routes.Groups() {
		files, _ := filepath.Glob(filepath.Join("..", "..", "events", group, "*.json"))
		for _, path := range files {
			file := group + "/" + filepath.Base(path)
			parts := strings.Split(filepath.Base(path), ".")
			status, err := strconv.Atoi(parts[len(parts)-2])
			if len(parts) < 3 || err != nil {
				t.Errorf("%s: name it <case>.<status>.json", file)
				continue
			}
			seen++
			t.Run(file, func(t *testing.T) {
				resp := invocarGrupo(t, e, group, json.RawMessage(muestra(t, file)))
				if resp.StatusCode != status {
					t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, resp.Body)
				}
				if resp.Headers["X-Trace-Id"] != "muestra0000000000000000000000001" || resp.Headers["X-Response-Time"] == "" {
					t.Errorf("headers: %v", resp.Headers)
				}
				var body map[string]any
				if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
					t.Fatalf("body is not JSON: %s", resp.Body)
				}
				if check := checks[file]; check != nil {
					check(t, body)
				}
			})
		}
	}
	if seen < len(routes.Groups()) {
		t.Errorf("only %d HTTP sample events for %d groups", seen, len(routes.Groups()))
	}

	t.Run("authorizer/request.json", func(t *testing.T) {
		var resp events.APIGatewayV2CustomAuthorizerSimpleResponse
		if err := json.Unmarshal(invoke(t, e.Deps.Authorizer(), "authorizer/request.json"), &resp); err != nil {
			t.Fatal(err)
		}
		if !resp.IsAuthorized || resp.Context["usuario_id"] != "1" || resp.Context["empresa_id"] != "1" ||
			!strings.Contains(resp.Context["permisos"].(string), "usuarios.leer") {
			t.Fatalf("authorizer answer: %+v", resp)
		}
	})

	// A wake-up for a comprobante (a webhook delivery) that does not exist
	// changes (sends) nothing and succeeds; an undecodable message is the
	// only failure reported.
	for _, w := range []struct {
		file    string
		handler any
	}{{"hacienda-worker/mensajes.json", e.Deps.HaciendaWorker()}, {"webhook-worker/mensajes.json", e.Deps.WebhookWorker()}} {
		t.Run(w.file, func(t *testing.T) {
			var resp events.SQSEventResponse
			if err := json.Unmarshal(invoke(t, w.handler, w.file), &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "2e1424d4-f796-459a-8184-9c92662be6da" {
				t.Fatalf("batch item failures: %+v", resp.BatchItemFailures)
			}
		})
	}

	t.Run("scheduler/barrido.json", func(t *testing.T) {
		var res plataforma.ResultadoBarrido
		if err := json.Unmarshal(invoke(t, e.Deps.Scheduler(), "scheduler/barrido.json"), &res); err != nil {
			t.Fatal(err)
		}
		if res.Hacienda != 0 {
			t.Fatalf("an empty database woke %d comprobantes", res.Hacienda)
		}
	})

	t.Run("migrate/deploy.json", func(t *testing.T) {
		var res migracion.MigrateResult
		if err := json.Unmarshal(invoke(t, migracion.MigrateHandler(e.Cfg), "migrate/deploy.json"), &res); err != nil {
			t.Fatal(err)
		}
		if res.Applied == nil || len(res.Applied) != 0 {
			t.Fatalf("an already migrated database applied %v", res.Applied)
		}
	})
}

func TestEveryFunctionHasAMainAndSampleEvents(t *testing.T) {
	for _, fn := range routes.Functions() {
		if _, err := os.Stat(filepath.Join("..", "..", "functions", fn.Name, "main.go")); err != nil {
			t.Errorf("function %s has no main.go: %v", fn.Name, err)
		}
		samples, _ := filepath.Glob(filepath.Join("..", "..", "events", fn.Name, "*.json"))
		if len(samples) == 0 {
			t.Errorf("function %s has no sample event under events/%s/", fn.Name, fn.Name)
		}
	}
	dirs, _ := os.ReadDir(filepath.Join("..", "..", "functions"))
	known := map[string]bool{}
	for _, fn := range routes.Functions() {
		known[fn.Name] = true
	}
	for _, d := range dirs {
		if d.IsDir() && !known[d.Name()] {
			t.Errorf("functions/%s is not in the route table's function list", d.Name())
		}
	}
}

func TestEveryHTTPGroupHasHandlersForExactlyItsRoutes(t *testing.T) {
	e := testenv.New(t)
	for _, g := range routes.Groups() {
		if _, err := e.Deps.HTTPHandler(g); err != nil {
			t.Errorf("group %s: %v", g, err)
		}
	}
}
