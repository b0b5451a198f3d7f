// Command genopenapi writes the OpenAPI 3.1 documents of the API (v1.json
// and v2.json) from the route table and the schemas the domains declare
// (shared/docs/fuentes): `make openapi`. The docs function embeds the
// files gzip-compressed, so beside each document it writes its .gz, and
// beside Swagger UI's scripts and stylesheet (vendored in shared/docs/ui)
// theirs; a test fails when the committed files differ from this output.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/erpcr/erp/shared/docs/fuentes"
	"github.com/erpcr/erp/shared/docs/openapi"
)

func main() {
	dir := flag.String("dir", filepath.Join("shared", "docs", "openapi"), "directory of v1.json and v2.json")
	ui := flag.String("ui", filepath.Join("shared", "docs", "ui"), "directory of the vendored Swagger UI")
	flag.Parse()
	if err := write(*dir, *ui); err != nil {
		fmt.Fprintln(os.Stderr, "genopenapi:", err)
		os.Exit(1)
	}
}

// Documents returns each version's document.
func Documents() (map[string][]byte, error) {
	f := fuentes.Todas()
	out := map[string][]byte{}
	for _, v := range openapi.Versions {
		b, err := openapi.Build(v, f)
		if err != nil {
			return nil, err
		}
		out[v] = b
	}
	return out, nil
}

func write(dir, ui string) error {
	docs, err := Documents()
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for v, b := range docs {
		path := filepath.Join(dir, v+".json")
		files[path], files[path+".gz"] = b, gzipped(b)
	}
	assets, err := UIAssets(ui)
	if err != nil {
		return err
	}
	for _, a := range assets { // vendored: only its .gz is written
		b, err := os.ReadFile(a)
		if err != nil {
			return err
		}
		files[a+".gz"] = gzipped(b)
	}
	for path, b := range files {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		fmt.Println("wrote", path)
	}
	return nil
}

// UIAssets are the vendored Swagger UI files the docs function embeds
// compressed: its scripts and stylesheets.
func UIAssets(ui string) ([]string, error) {
	var out []string
	for _, pat := range []string{"*.js", "*.css"} {
		m, err := filepath.Glob(filepath.Join(ui, pat))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	return out, nil
}

// gzipped is b compressed with no name or time in the header, so the same
// input gives the same file.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	z, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = z.Write(b)
	_ = z.Close()
	return buf.Bytes()
}
