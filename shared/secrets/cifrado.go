package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
)

// Cifrador encrypts the companies' secrets at rest (Hacienda certificate,
// PIN and credentials; webhook signing secrets) with AES-256-GCM. Each
// ciphertext is bound, as associated data, to its domain, company and
// field, so a value copied into another row or column does not decrypt.
type Cifrador struct {
	aead    cipher.AEAD
	dominio string
}

// NuevoCifrador returns a Cifrador of one domain ("hacienda", "webhooks")
// for a 32-byte key.
func NuevoCifrador(key []byte, dominio string) (*Cifrador, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("secrets: the secrets key must have 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Cifrador{aead: aead, dominio: dominio}, nil
}

func (c *Cifrador) datosAsociados(empresaID int64, campo string) []byte {
	return []byte("erp/" + c.dominio + "/" + strconv.FormatInt(empresaID, 10) + "/" + campo)
}

// Cifrar returns nonce || ciphertext || tag.
func (c *Cifrador) Cifrar(empresaID int64, campo string, plano []byte) ([]byte, error) {
	nonce := make([]byte, c.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return c.aead.Seal(nonce, nonce, plano, c.datosAsociados(empresaID, campo)), nil
}

// ErrDescifrar means a stored secret does not decrypt with the current key
// (key rotated without re-encryption, or tampered data).
var ErrDescifrar = errors.New("secrets: a stored secret could not be decrypted with the current key")

// Descifrar reverses Cifrar.
func (c *Cifrador) Descifrar(empresaID int64, campo string, sellado []byte) ([]byte, error) {
	n := c.aead.NonceSize()
	if len(sellado) < n+c.aead.Overhead() {
		return nil, ErrDescifrar
	}
	plano, err := c.aead.Open(nil, sellado[:n], sellado[n:], c.datosAsociados(empresaID, campo))
	if err != nil {
		return nil, ErrDescifrar
	}
	return plano, nil
}
