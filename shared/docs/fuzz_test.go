package docs_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/docs"
	"github.com/erpcr/erp/shared/testenv"
)

// fuzzExamples is schemathesis's --max-examples per operation: small in
// make test, larger in make fuzz (go test -run Schemathesis -fuzz-ejemplos=N).
var fuzzExamples = flag.Int("fuzz-ejemplos", 5, "schemathesis: ejemplos por operación")

// TestSchemathesisFindsNoServerErrorNorUndocumentedResponse runs
// schemathesis over every operation of the v1 document against the local
// API, authenticated as a demo administrator: no answer may be a 5xx, and
// every answer must have a documented status and match its documented
// schema. POST /api/logout is left out: it would revoke the run's token.
func TestSchemathesisFindsNoServerErrorNorUndocumentedResponse(t *testing.T) {
	bin, err := exec.LookPath("schemathesis")
	if err != nil {
		t.Skip("schemathesis no está instalado (pip install schemathesis; make tools lo instala)")
	}
	e, tok := testenv.NewAdmin(t)
	dir := t.TempDir()
	doc, _ := docs.Documento("v1")
	file := filepath.Join(dir, "v1.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", file,
		"--url", e.Server.URL,
		"-H", "Authorization: Bearer "+tok,
		"-H", "X-Empresa-Id: 1",
		"--checks", "not_a_server_error,status_code_conformance,response_schema_conformance",
		"--max-examples", strconv.Itoa(*fuzzExamples),
		"--exclude-path", "/api/logout",
		"--seed", "12",
		"--workers", "1",
		"--request-timeout", "30",
		"--no-color",
		"--report", "junit", "--report-dir", dir,
	)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SCHEMATHESIS_HOOKS=", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("schemathesis: %v\n%s", err, out)
	}
	t.Logf("schemathesis:\n%s", tail(out, 40))
}

// tail returns the last n lines of out.
func tail(out []byte, n int) []byte {
	lines := 0
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] == '\n' {
			lines++
			if lines > n {
				return out[i+1:]
			}
		}
	}
	return out
}
