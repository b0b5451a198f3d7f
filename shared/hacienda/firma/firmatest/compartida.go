package firmatest

import (
	"crypto/x509"
	"sync"
)

// Identidad is a generated identity: the .p12 in both encodings and its
// certificate.
type Identidad struct {
	Modern, Legacy []byte
	Cert           *x509.Certificate
}

var (
	compartidasMu sync.Mutex
	compartidas   = map[[2]string]*compartida{}
)

type compartida struct {
	once sync.Once
	id   Identidad
	err  error
}

// Compartida is Nuevo(cn, pin) made once per process and shared by every
// caller asking for the same cn and pin: RSA-2048 generation is the slow
// part of the tests that sign.
func Compartida(cn, pin string) (Identidad, error) {
	compartidasMu.Lock()
	c, ok := compartidas[[2]string{cn, pin}]
	if !ok {
		c = &compartida{}
		compartidas[[2]string{cn, pin}] = c
	}
	compartidasMu.Unlock()
	c.once.Do(func() { c.id.Modern, c.id.Legacy, c.id.Cert, c.err = Nuevo(cn, pin) })
	return c.id, c.err
}
