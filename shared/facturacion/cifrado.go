package facturacion

import "github.com/erpcr/erp/shared/secrets"

// Cifrador encrypts the companies' Hacienda secrets (certificate, PIN,
// username, password) at rest: the service's one AES-256-GCM cipher
// (shared/secrets), in the "hacienda" domain.
type Cifrador = secrets.Cifrador

// NuevoCifrador returns the Hacienda secrets' Cifrador for a 32-byte key.
func NuevoCifrador(key []byte) (*Cifrador, error) { return secrets.NuevoCifrador(key, "hacienda") }

// ErrDescifrar means a stored secret does not decrypt with the current key
// (key rotated without re-encryption, or tampered data).
var ErrDescifrar = secrets.ErrDescifrar
