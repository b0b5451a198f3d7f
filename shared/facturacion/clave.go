package facturacion

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"time"
	"unicode"

	"github.com/erpcr/erp/shared/horacr"
)

// Document types (tipo_documento): the 2-digit codes of the consecutivo.
const (
	TipoFactura     = "01"
	TipoNotaDebito  = "02"
	TipoNotaCredito = "03"
	TipoTiquete     = "04"
)

// TiposDocumento are the accepted tipo_documento values.
var TiposDocumento = []string{TipoFactura, TipoNotaDebito, TipoNotaCredito, TipoTiquete}

// TipoPorComprobante maps a sale's tipo_comprobante to its document type.
var TipoPorComprobante = map[string]string{
	"factura": TipoFactura, "nota_debito": TipoNotaDebito, "nota_credito": TipoNotaCredito, "tiquete": TipoTiquete,
}

// Situations of a document (position 42 of the clave).
const (
	SituacionNormal       = "1"
	SituacionContingencia = "2"
	SituacionSinInternet  = "3"
)

// Consecutivo is the 20-digit NumeroConsecutivo: establishment (3),
// terminal (5), document type (2) and sequence (10).
func Consecutivo(establecimiento, terminal int, tipo string, secuencia int64) (string, error) {
	switch {
	case establecimiento < 1 || establecimiento > 999:
		return "", fmt.Errorf("facturacion: establishment %d out of 1..999", establecimiento)
	case terminal < 1 || terminal > 99999:
		return "", fmt.Errorf("facturacion: terminal %d out of 1..99999", terminal)
	case len(tipo) != 2:
		return "", fmt.Errorf("facturacion: document type %q", tipo)
	case secuencia < 1 || secuencia > 9_999_999_999:
		return "", fmt.Errorf("facturacion: sequence %d out of 1..9999999999", secuencia)
	}
	return fmt.Sprintf("%03d%05d%s%010d", establecimiento, terminal, tipo, secuencia), nil
}

// IdentificacionClave is the issuer's identification as the 12 characters
// of the clave: separators removed, left-padded with zeros (from 2026 it may
// be alphanumeric for new personas jurídicas).
func IdentificacionClave(numero string) (string, error) {
	var b strings.Builder
	for _, r := range numero {
		switch {
		case r < unicode.MaxASCII && (unicode.IsDigit(r) || unicode.IsLetter(r)):
			b.WriteRune(unicode.ToUpper(r))
		case r == '-' || r == ' ' || r == '.':
		default:
			return "", fmt.Errorf("facturacion: identification %q has invalid characters", numero)
		}
	}
	s := b.String()
	if s == "" || len(s) > 12 {
		return "", fmt.Errorf("facturacion: identification %q must have 1 to 12 characters", numero)
	}
	return strings.Repeat("0", 12-len(s)) + s, nil
}

// Clave builds the 50-character key: 506, day, month and 2-digit year of
// the emission (Costa Rica time), the issuer's 12-character identification,
// the 20-digit consecutivo, the situation and the 8-digit security code.
func Clave(fecha time.Time, identificacion, consecutivo, situacion, seguridad string) (string, error) {
	id, err := IdentificacionClave(identificacion)
	if err != nil {
		return "", err
	}
	if len(consecutivo) != 20 || strings.Trim(consecutivo, "0123456789") != "" {
		return "", fmt.Errorf("facturacion: consecutivo %q must have 20 digits", consecutivo)
	}
	if situacion != SituacionNormal && situacion != SituacionContingencia && situacion != SituacionSinInternet {
		return "", fmt.Errorf("facturacion: situación %q", situacion)
	}
	if len(seguridad) != 8 || strings.Trim(seguridad, "0123456789") != "" {
		return "", fmt.Errorf("facturacion: security code %q must have 8 digits", seguridad)
	}
	f := fecha.In(horacr.Zona)
	return fmt.Sprintf("506%02d%02d%02d%s%s%s%s", f.Day(), int(f.Month()), f.Year()%100, id, consecutivo, situacion, seguridad), nil
}

// CodigoSeguridad returns 8 random digits (crypto/rand): the part of the
// clave that makes it unguessable from the consecutivo.
func CodigoSeguridad() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(100_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08d", n.Int64()), nil
}
