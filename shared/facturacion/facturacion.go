// Package facturacion is the electronic-invoicing domain (/api/v1/hacienda):
// per-company settings with encrypted secrets, comprobantes created from
// sales with their clave and consecutivo, their v4.4 XML, the XAdES-EPES
// signature, and the asynchronous submission to Hacienda's recepción API
// with status polling every 30 seconds.
//
// The asynchronous part follows DESIGN.md §4: PostgreSQL holds the state
// (comprobantes_electronicos.trabajo and proximo_intento_en say what is due
// and when), a queue message only says "look at comprobante N", the worker
// (Procesar) takes a short lease on the row before calling Hacienda, and the
// scheduler's sweep (Barrer) re-wakes anything whose message was lost. A
// message delivered twice finds nothing due, or the lease taken, and does
// nothing.
//
// States of a comprobante (estado):
//
//	pending   created by generar; generar-xml stores its XML (still pending)
//	signed    firmar signed the XML; enviar queues the submission (202)
//	sent      Hacienda received it (2xx or duplicate 400); polled every 30 s
//	accepted  Hacienda accepted it (final; FacturaEmitidaEvent is written)
//	rejected  Hacienda rejected it (final)
//	error     Hacienda refused the submission (4xx: the document may be
//	          fixed, signed and sent again), answered ind-estado error
//	          (final), or did not answer within the polling cap (enviar
//	          resumes polling)
//
// A step out of order is a 422 under estado with a Spanish message:
// firmar needs the XML, enviar the signature, and nothing changes a
// document once Hacienda received it (or while its submission is queued).
package facturacion

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/queue"
)

// States of a comprobante.
const (
	Pendiente = "pending"
	Firmado   = "signed"
	Enviado   = "sent"
	Aceptado  = "accepted"
	Rechazado = "rejected"
	Error     = "error"
)

// Estados lists the states, in their natural order.
var Estados = []string{Pendiente, Firmado, Enviado, Aceptado, Rechazado, Error}

// Work the worker does on a comprobante (column trabajo).
const (
	trabajoEnviar    = "enviar"
	trabajoConsultar = "consultar"
)

// TrabajoHacienda is the queue.Job kind of the hacienda worker.
const TrabajoHacienda = "hacienda"

// Rhythm and caps of the asynchronous work.
const (
	// IntervaloConsulta is the status polling interval (SPEC: about every
	// 30 seconds).
	IntervaloConsulta = 30 * time.Second
	// MaxConsultas caps polling: 240 polls at 30 s are 2 hours; then the
	// comprobante goes to error (it can be resumed with enviar).
	MaxConsultas = 240
	// MaxIntentosEnvio caps the submissions that fail for network or 5xx
	// reasons; retry n waits BackoffEnvio * 2^(n-1), at most MaxBackoff.
	MaxIntentosEnvio = 10
	BackoffEnvio     = 30 * time.Second
	MaxBackoff       = queue.MaxDelay
	// Lease is how long a worker holds a comprobante while it talks to
	// Hacienda; an expired lease lets the sweep hand the work to another.
	Lease = 3 * time.Minute
	// Gracia is how overdue work must be before the sweep re-wakes it, so
	// that messages in flight win and the sweep only catches lost ones.
	Gracia = 30 * time.Second
	// tolerancia accepts a message that arrives slightly before its due
	// time (clocks of different hosts).
	tolerancia = 2 * time.Second
	// MaxBarrido caps the rows one sweep wakes.
	MaxBarrido = 500
)

// Service serves the hacienda group and runs the worker and the sweep.
// Fields may be replaced before first use (tests inject a clock, a queue
// and an HTTP client).
type Service struct {
	DB  *db.DB
	Cfg config.Config
	// Queue wakes the worker (SQS in AWS, queue.Local in-process).
	Queue queue.Queue
	// Now is the clock of every decision (nil: time.Now).
	Now func() time.Time
	// Llave returns the AES-256 key of the secrets (nil: Cfg.ClaveSecretos).
	Llave func(ctx context.Context) ([]byte, error)
	// HTTP is the client for Hacienda's endpoints (nil: 20 s timeout).
	HTTP *http.Client
	// Dormir is every wait of the outbound client (rate limit); nil: a timer.
	Dormir func(ctx context.Context, d time.Duration) error
	// Log receives the worker's and the sweep's logs (nil: slog.Default()).
	Log *slog.Logger
	// EMF, when set, receives the CloudWatch EMF line of a status poll
	// that finds a comprobante still in "sent" UmbralAtascado after it was
	// sent (stdout in Lambda); Funcion is its Funcion dimension.
	EMF     io.Writer
	Funcion string

	mu       sync.Mutex
	cifrador *Cifrador
	clientes map[config.Endpoints]clienteHacienda
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, slog.Default()) }

func (s *Service) cifra(ctx context.Context) (*Cifrador, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cifrador != nil {
		return s.cifrador, nil
	}
	var key []byte
	var err error
	if s.Llave != nil {
		key, err = s.Llave(ctx)
	} else {
		key, err = s.Cfg.ClaveSecretos()
	}
	if err != nil {
		return nil, err
	}
	c, err := NuevoCifrador(key)
	if err != nil {
		return nil, err
	}
	s.cifrador = c
	return c, nil
}
