package programados

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Almacen keeps the generated files: an S3 bucket in AWS (AlmacenS3), a
// git-ignored folder locally (AlmacenLocal). Keys are built by the
// scheduler (clave): empresa/<id>/programados/<id>/<ejecucion>-<random>.<ext>.
type Almacen interface {
	Guardar(ctx context.Context, key, contentType string, datos []byte) error
	Leer(ctx context.Context, key string) ([]byte, error)
}

// ErrArchivoNoExiste is a key the store does not hold (expired by the
// bucket's lifecycle rule, or a local folder emptied).
var ErrArchivoNoExiste = errors.New("programados: el archivo no existe en el almacén")

// claveValida keeps keys to the shape the scheduler builds, so that a
// local key can never leave the folder.
var claveValida = regexp.MustCompile(`^[a-z0-9_-]+(/[a-z0-9_.-]+)*$`)

func revisarClave(key string) error {
	if !claveValida.MatchString(key) || strings.Contains(key, "..") {
		return fmt.Errorf("programados: clave de archivo no válida %q", key)
	}
	return nil
}

// AlmacenLocal is a folder (make run: .data/reportes, git-ignored).
type AlmacenLocal struct{ Dir string }

// Guardar writes the file under the folder (created on first use).
func (a AlmacenLocal) Guardar(_ context.Context, key, _ string, datos []byte) error {
	if err := revisarClave(key); err != nil {
		return err
	}
	p := filepath.Join(a.Dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("programados: almacén local: %w", err)
	}
	if err := os.WriteFile(p, datos, 0o640); err != nil {
		return fmt.Errorf("programados: almacén local: %w", err)
	}
	return nil
}

// Leer reads a file back.
func (a AlmacenLocal) Leer(_ context.Context, key string) ([]byte, error) {
	if err := revisarClave(key); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(a.Dir, filepath.FromSlash(key)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrArchivoNoExiste
	}
	if err != nil {
		return nil, fmt.Errorf("programados: almacén local: %w", err)
	}
	return b, nil
}
