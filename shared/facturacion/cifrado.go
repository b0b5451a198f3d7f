package facturacion

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
)

// Cifrador encrypts the companies' Hacienda secrets (certificate, PIN,
// username, password) at rest with AES-256-GCM. Each ciphertext is bound to
// its company and field as associated data, so a value copied into another
// row or column does not decrypt.
type Cifrador struct{ aead cipher.AEAD }

// NuevoCifrador returns a Cifrador for a 32-byte key.
func NuevoCifrador(key []byte) (*Cifrador, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("facturacion: the secrets key must have 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Cifrador{aead: aead}, nil
}

func datosAsociados(empresaID int64, campo string) []byte {
	return []byte("erp/hacienda/" + strconv.FormatInt(empresaID, 10) + "/" + campo)
}

// Cifrar returns nonce || ciphertext || tag.
func (c *Cifrador) Cifrar(empresaID int64, campo string, plano []byte) ([]byte, error) {
	nonce := make([]byte, c.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return c.aead.Seal(nonce, nonce, plano, datosAsociados(empresaID, campo)), nil
}

// ErrDescifrar means a stored secret does not decrypt with the current key
// (key rotated without re-encryption, or tampered data).
var ErrDescifrar = errors.New("facturacion: a stored secret could not be decrypted with the current key")

// Descifrar reverses Cifrar.
func (c *Cifrador) Descifrar(empresaID int64, campo string, sellado []byte) ([]byte, error) {
	n := c.aead.NonceSize()
	if len(sellado) < n+c.aead.Overhead() {
		return nil, ErrDescifrar
	}
	plano, err := c.aead.Open(nil, sellado[:n], sellado[n:], datosAsociados(empresaID, campo))
	if err != nil {
		return nil, ErrDescifrar
	}
	return plano, nil
}
