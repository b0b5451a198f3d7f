package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const dir = "../../shared/docs/openapi"

// TestCommittedDocumentsMatchTheGenerator fails when a route or a declared
// schema changed without `make openapi`.
func TestCommittedDocumentsMatchTheGenerator(t *testing.T) {
	docs, err := Documents()
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range docs {
		got, err := os.ReadFile(filepath.Join(dir, v+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("shared/docs/openapi/%s.json is stale: run make openapi", v)
		}
		if !bytes.Equal(gunzip(t, filepath.Join(dir, v+".json.gz")), want) {
			t.Errorf("shared/docs/openapi/%s.json.gz (what the docs function embeds) is stale: run make openapi", v)
		}
	}
}

// TestEmbeddedSwaggerUIIsTheVendoredOne: each compressed copy the docs
// function embeds decompresses to the vendored file beside it.
func TestEmbeddedSwaggerUIIsTheVendoredOne(t *testing.T) {
	assets, err := UIAssets("../../shared/docs/ui")
	if err != nil || len(assets) < 3 {
		t.Fatalf("assets %v %v", assets, err)
	}
	for _, a := range assets {
		want, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gunzip(t, a+".gz"), want) {
			t.Errorf("%s.gz is stale: run make openapi", a)
		}
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// TestDocumentsValidateAgainstTheOpenAPI31MetaSchema runs the reference
// validator (Python openapi-spec-validator, installed by make tools).
func TestDocumentsValidateAgainstTheOpenAPI31MetaSchema(t *testing.T) {
	bin, err := exec.LookPath("openapi-spec-validator")
	if err != nil {
		t.Skip("openapi-spec-validator no está instalado (pip install openapi-spec-validator; make tools lo instala)")
	}
	docs, err := Documents()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	var files []string
	for v, b := range docs {
		f := filepath.Join(tmp, v+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, err := exec.Command(bin, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("openapi-spec-validator: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
