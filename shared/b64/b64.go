// Package b64 decodes the base64 that people and Hacienda actually send:
// wrapped in line breaks (XML signatures, `base64 file.p12`) and with or
// without padding.
package b64

import (
	"encoding/base64"
	"strings"
)

// Decodificar decodes standard base64, ignoring white space, with or
// without trailing padding.
func Decodificar(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '\r', '\t':
			return -1
		}
		return r
	}, s)
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}
