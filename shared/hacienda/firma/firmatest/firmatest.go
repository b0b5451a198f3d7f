// Package firmatest makes throw-away signing identities for tests: an
// RSA-2048 self-signed certificate shaped like the ones Hacienda's CA issues
// (C=CR, keyUsage digitalSignature + nonRepudiation, extKeyUsage
// emailProtection), packed as .p12 in the modern and the legacy encodings.
package firmatest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// Nuevo generates an RSA-2048 self-signed certificate for the given common
// name / cédula (it becomes the subject CN, and the subject serialNumber
// too when it looks like an identification: digits and dashes only), valid
// from one hour ago for four years, with a random serial of 39 decimal digits (its decimal
// form is long, as in real certificates). It returns the key and
// certificate packed as .p12 with pin twice:
//
//   - modern: PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC), MAC HMAC-SHA-256
//     (OpenSSL 3's default);
//   - legacy: key PBE-SHA1-3DES, certificate PBE-SHA1-RC2-40, MAC HMAC-SHA-1
//     (OpenSSL 1.x's default and what older issuers produce).
func Nuevo(cn string, pin string) (modern, legacy []byte, cert *x509.Certificate, err error) {
	key, cert, err := Generar(cn)
	if err != nil {
		return nil, nil, nil, err
	}
	modern, err = pkcs12.Modern2023.Encode(key, cert, nil, pin)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("firmatest: p12 moderno: %w", err)
	}
	legacy, err = pkcs12.LegacyRC2.Encode(key, cert, nil, pin)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("firmatest: p12 legado: %w", err)
	}
	return modern, legacy, cert, nil
}

// Generar returns a fresh RSA-2048 key and its self-signed certificate (the
// certificate Nuevo packs), for tests that need them unpacked.
func Generar(cn string) (*rsa.PrivateKey, *x509.Certificate, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, fmt.Errorf("firmatest: RSA: %w", err)
	}
	// 10^38 + [0, 7·10^37): always 39 decimal digits and below 2^127, like
	// the long decimal serials of Hacienda-issued certificates.
	low := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	serial, err := rand.Int(rand.Reader, new(big.Int).Mul(big.NewInt(7), new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)))
	if err != nil {
		return nil, nil, fmt.Errorf("firmatest: serial: %w", err)
	}
	serial.Add(serial, low)
	nombre := pkix.Name{CommonName: cn, Country: []string{"CR"}, Organization: []string{"PRUEBAS"}}
	if esIdentificacion(cn) {
		nombre.SerialNumber = cn
	}
	ahora := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               nombre,
		Issuer:                nombre,
		NotBefore:             ahora.Add(-time.Hour),
		NotAfter:              ahora.AddDate(4, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageEmailProtection},
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("firmatest: certificado: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, fmt.Errorf("firmatest: certificado: %w", err)
	}
	return key, cert, nil
}

func esIdentificacion(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}
