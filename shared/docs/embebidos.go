package docs

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
)

// The documents and Swagger UI's big files are embedded gzip-compressed
// (cmd/genopenapi writes each .gz beside its source, and tests check they
// agree): 5.5 MB of JSON and JavaScript are 0.6 MB so, and the docs
// function stays under the size every function keeps (issue 17: 15 MB
// stripped). A file is decompressed on its first request and kept: the
// start of the function does not pay for it.
//
//go:embed openapi/v1.json.gz openapi/v2.json.gz
//go:embed ui/swagger-ui-bundle.js.gz ui/swagger-ui-standalone-preset.js.gz ui/swagger-ui.css.gz ui/LICENSE ui/NOTICE
var embebidos embed.FS

// embebido is one served file, decompressed once.
type embebido struct {
	ruta  string // in embebidos
	once  sync.Once
	datos []byte
	err   error
}

// archivos maps a served name ("openapi/v1.json", "ui/swagger-ui.css") to
// its embedded file.
var archivos = func() map[string]*embebido {
	m := map[string]*embebido{}
	_ = fs.WalkDir(embebidos, ".", func(ruta string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			m[strings.TrimSuffix(ruta, ".gz")] = &embebido{ruta: ruta}
		}
		return err
	})
	return m
}()

// archivo returns a served file's bytes; false when there is no such file.
func archivo(nombre string) ([]byte, bool) {
	e, ok := archivos[nombre]
	if !ok {
		return nil, false
	}
	e.once.Do(func() { e.datos, e.err = leer(e.ruta) })
	return e.datos, e.err == nil
}

func leer(ruta string) ([]byte, error) {
	b, err := embebidos.ReadFile(ruta)
	if err != nil || !strings.HasSuffix(ruta, ".gz") {
		return b, err
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("docs: %s: %w", ruta, err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("docs: %s: %w", ruta, err)
	}
	return out, nil
}
