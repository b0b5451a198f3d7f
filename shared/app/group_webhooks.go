package app

import (
	"context"
	"sync"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/secrets"
	"github.com/erpcr/erp/shared/webhooks"
)

// cifradorPerezoso seals webhook secrets with the service's secrets key,
// fetched on first use (from Secrets Manager in AWS).
type cifradorPerezoso struct {
	llave func(ctx context.Context) ([]byte, error)
	once  sync.Mutex
	c     *secrets.Cifrador
}

func (c *cifradorPerezoso) cifrador() (*secrets.Cifrador, error) {
	c.once.Lock()
	defer c.once.Unlock()
	if c.c != nil {
		return c.c, nil
	}
	k, err := c.llave(context.Background())
	if err != nil {
		return nil, err
	}
	if c.c, err = secrets.NuevoCifrador(k, "webhooks"); err != nil {
		return nil, err
	}
	return c.c, nil
}

func (c *cifradorPerezoso) Cifrar(empresaID int64, campo string, plano []byte) ([]byte, error) {
	x, err := c.cifrador()
	if err != nil {
		return nil, err
	}
	return x.Cifrar(empresaID, campo, plano)
}

func (c *cifradorPerezoso) Descifrar(empresaID int64, campo string, sellado []byte) ([]byte, error) {
	x, err := c.cifrador()
	if err != nil {
		return nil, err
	}
	return x.Descifrar(empresaID, campo, sellado)
}

// Webhooks returns the process's webhook dispatcher, built once: the SQS
// queue of ERP_WEBHOOK_QUEUE_URL or the in-process queue, the secrets key,
// and the exempted local receivers. It also makes every commit that fanned
// an event out to deliveries wake the worker (db.DB.AlConfirmar).
func (d *Deps) Webhooks() *webhooks.Despachador {
	d.webhooksOnce.Do(func() {
		permitidos, err := webhooks.NuevosPermitidos(d.Cfg.WebhookAllowedHosts)
		if err != nil {
			d.Log.Error("webhooks: ERP_WEBHOOK_ALLOWED_HOSTS ignorado", "error", err.Error())
		}
		w := &webhooks.Despachador{DB: d.DB, Cifrador: &cifradorPerezoso{llave: llaveSecretos(d.Cfg)}, Permitidos: permitidos}
		w.Cola = d.LocalQueue()
		if url := d.Cfg.WebhookQueueURL; url != "" {
			q, err := queue.NewSQS(context.Background(), url)
			if err != nil {
				d.Log.Error("webhooks: cola SQS no disponible; se usa la cola en proceso", "error", err.Error())
			} else {
				w.Cola = q
			}
		}
		d.DB.AlConfirmar = func(ctx context.Context, s db.Scope, marca string) {
			if marca != "webhooks" {
				return
			}
			if _, err := w.BarrerEmpresa(ctx, s.EmpresaID, 100); err != nil {
				d.Log.Warn("webhooks: despertar tras confirmar", "error", err.Error())
			}
		}
		d.webhooks = w
	})
	return d.webhooks
}

// WebhookWorker is the Lambda entry point of the webhook-worker function:
// an SQS batch consumer that reports the failed records only.
func (d *Deps) WebhookWorker() func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
	return queue.Consume(d.Webhooks().Procesar, d.Log)
}

// procesarTrabajo routes a job of the in-process queue to its worker.
func (d *Deps) procesarTrabajo(ctx context.Context, j queue.Job) error {
	if j.Tipo == webhooks.TrabajoEntrega {
		return d.Webhooks().Procesar(ctx, j)
	}
	return d.Hacienda().Procesar(ctx, j)
}

// GrupoWebhooks returns the handlers of the "webhooks" function group.
func (d *Deps) GrupoWebhooks() lambdahttp.Handlers {
	return (&webhooks.Service{DB: d.DB, Despachador: d.Webhooks()}).Handlers()
}
