// Package esquemas embeds the official Hacienda v4.4 XSDs (2026 revision, in
// force since 2026-11-01) with their folder layout: they import
// ../../xmldsig-core-schema.xsd, so Extraer writes them out as a tree that
// xmllint can resolve without the network.
package esquemas

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed xmldsig-core-schema.xsd 2026/v4.4/*.xsd
var files embed.FS

// Archivo maps a document's root element to its schema file.
var Archivo = map[string]string{
	"FacturaElectronica":            "FacturaElectronica_V4.4.xsd",
	"NotaDebitoElectronica":         "NotaDebitoElectronica_V4.4.xsd",
	"NotaCreditoElectronica":        "NotaCreditoElectronica_V4.4.xsd",
	"TiqueteElectronico":            "TiqueteElectronico_V4.4.xsd",
	"FacturaElectronicaCompra":      "FacturaElectronicaCompra_V4.4.xsd",
	"FacturaElectronicaExportacion": "FacturaElectronicaExportacion_V4.4.xsd",
	"MensajeHacienda":               "MensajeHacienda_V4.4.xsd",
	"MensajeReceptor":               "MensajeReceptor_V4.4.xsd",
	"ReciboElectronicoPago":         "ReciboElectronicoPago_V4.4.xsd",
}

// FS is the embedded tree (xmldsig-core-schema.xsd, 2026/v4.4/*.xsd).
func FS() fs.FS { return files }

// Extraer writes the tree under dir and returns the path of the schema of
// the given root element (e.g. "FacturaElectronica").
func Extraer(dir, raiz string) (string, error) {
	name, ok := Archivo[raiz]
	if !ok {
		return "", fmt.Errorf("esquemas: no schema for %q", raiz)
	}
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("esquemas: extract: %w", err)
	}
	return filepath.Join(dir, "2026", "v4.4", name), nil
}
