// Package functions_test guards what the Lambda binaries link (issue 10:
// each function links only what its group needs; issue 17: <= 15 MB
// stripped, cold start). It reads the import graph with one `go list`
// (under a second), built as deployed: linux/arm64, tag lambda.norpc.
// The size limit itself is checked by `make build` (part of make test),
// which builds every function as deployed.
package functions_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const modulo = "github.com/erpcr/erp/"

// nunca are packages no function may link, and why.
var nunca = map[string]string{
	modulo + "shared/app":     "every group in one process (make run, tests): a function names only its own group",
	modulo + "shared/gateway": "the local gateway: API Gateway does this in AWS",
	modulo + "shared/testenv": "test clusters",
	"github.com/aws/aws-sdk-go-v2/config": "the SDK's default chain (SSO, STS, IMDS, shared files: ~2.4 MB); " +
		"Lambda code takes the environment's credentials (shared/awsenv, plataforma.Deps.AWSConfig)",
	"text/template": "its reflective method calls make the linker keep every exported method of every type " +
		"(html/template uses it; ~2 MB in the docs function)",
}

// soloEn are packages only the named functions may link, and why.
var soloEn = map[string]struct {
	funciones []string
	porque    string
}{
	"github.com/xuri/excelize/v2": {[]string{"importaciones"}, "reading uploaded workbooks; writing goes through " +
		"shared/exportar (excelize's write path reaches go-deepcopy's reflect calls: ~4 MB per binary)"},
	modulo + "shared/hacienda/firma":     {[]string{"hacienda", "hacienda-worker", "scheduler"}, "the XAdES signer of electronic invoices"},
	"software.sslmate.com/src/go-pkcs12": {[]string{"hacienda", "hacienda-worker", "scheduler"}, "the signer's certificate"},
	modulo + "shared/facturacion":        {[]string{"hacienda", "hacienda-worker", "scheduler"}, "invoicing: its own group, worker and sweep"},
	modulo + "shared/usuarios": {[]string{"auth", "usuarios", "empresas", "almacenes", "sucursales", "migrate"},
		"users and memberships (shared/organizacion creates a company with its owner)"},
	modulo + "shared/migracion":                  {[]string{"migrate"}, "migrations and seeds run by the migrate function only"},
	"github.com/aws/aws-sdk-go-v2/service/s3":    {[]string{"programados", "scheduler"}, "scheduled reports' files"},
	"github.com/aws/aws-sdk-go-v2/service/sesv2": {[]string{"programados", "scheduler"}, "scheduled reports' e-mail"},
}

// TestEachFunctionLinksOnlyWhatItsGroupNeeds fails when an import edge
// drags into a function a package that the rules above keep out.
func TestEachFunctionLinksOnlyWhatItsGroupNeeds(t *testing.T) {
	deps := dependencias(t)
	if len(deps) < 20 || deps["ventas"] == nil {
		t.Fatalf("go list found %d functions", len(deps))
	}
	for fn, ds := range deps {
		for _, d := range ds {
			if porque, ok := nunca[d]; ok {
				t.Errorf("functions/%s links %s: %s", fn, d, porque)
			}
			if r, ok := soloEn[d]; ok && !slices.Contains(r.funciones, fn) {
				t.Errorf("functions/%s links %s (only %s may: %s)", fn, d, strings.Join(r.funciones, ", "), r.porque)
			}
		}
	}
}

// The sale's function in particular (issue 10): no invoicing signer, no
// user administration, no other group's domain.
func TestVentasLinksNeitherTheSignerNorUsers(t *testing.T) {
	ds := dependencias(t)["ventas"]
	for _, d := range []string{"shared/facturacion", "shared/hacienda/firma", "shared/usuarios", "shared/compras", "shared/reportes"} {
		if slices.Contains(ds, modulo+d) {
			t.Errorf("functions/ventas links %s", d)
		}
	}
	if !slices.Contains(ds, modulo+"shared/ventas") || !slices.Contains(ds, modulo+"shared/inventario") {
		t.Errorf("functions/ventas does not link its own domain: %v", ds)
	}
}

// dependencias maps each function to every package it links (transitively).
func dependencias(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-tags", "lambda.norpc", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./...")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		fn, ok := strings.CutPrefix(f[0], modulo+"functions/")
		if ok {
			m[fn] = f[1:]
		}
	}
	return m
}
