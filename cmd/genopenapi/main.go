// Command genopenapi writes the OpenAPI 3.1 documents of the API (v1.json
// and v2.json) from the route table and the schemas the domains declare
// (shared/docs/fuentes): `make openapi`. The docs function embeds the
// files; a test fails when the committed files differ from this output.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/erpcr/erp/shared/docs/fuentes"
	"github.com/erpcr/erp/shared/docs/openapi"
)

func main() {
	dir := flag.String("dir", filepath.Join("shared", "docs", "openapi"), "directory of v1.json and v2.json")
	flag.Parse()
	if err := write(*dir); err != nil {
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

func write(dir string) error {
	docs, err := Documents()
	if err != nil {
		return err
	}
	for v, b := range docs {
		path := filepath.Join(dir, v+".json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		fmt.Println("wrote", path)
	}
	return nil
}
