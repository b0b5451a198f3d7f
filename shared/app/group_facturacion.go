package app

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/queue"
)

// LocalQueue is the process's in-process queue: the hacienda queue when no
// SQS URL is configured (make run consumes it; tests drain it).
func (d *Deps) LocalQueue() *queue.Local {
	d.localOnce.Do(func() { d.local = queue.NewLocal(nil) })
	return d.local
}

// Hacienda returns the invoicing service of the process, built once: the
// SQS queue of ERP_HACIENDA_QUEUE_URL or the in-process queue, the secrets
// key from ERP_SECRETS_KEY, Secrets Manager (ERP_SECRETS_KEY_ARN) or, outside
// production, the development key. Tests may replace its fields (clock,
// queue, HTTP client) before the first request.
func (d *Deps) Hacienda() *facturacion.Service {
	d.haciendaOnce.Do(func() {
		s := &facturacion.Service{DB: d.DB, Cfg: d.Cfg, Log: d.Log, Llave: llaveSecretos(d.Cfg)}
		s.Queue = d.LocalQueue()
		if url := d.Cfg.Hacienda.QueueURL; url != "" {
			q, err := queue.NewSQS(context.Background(), url)
			if err != nil {
				d.Log.Error("hacienda: cola SQS no disponible; se usa la cola en proceso", "error", err.Error())
			} else {
				s.Queue = q
			}
		}
		d.hacienda = s
	})
	return d.hacienda
}

// llaveSecretos returns the secrets key provider: the configured key, or
// the one in Secrets Manager (read once), or the development default.
func llaveSecretos(cfg config.Config) func(ctx context.Context) ([]byte, error) {
	if len(cfg.SecretsKey) > 0 || cfg.SecretsKeyARN == "" {
		return func(context.Context) ([]byte, error) { return cfg.ClaveSecretos() }
	}
	arn := cfg.SecretsKeyARN
	var (
		mu    sync.Mutex
		llave []byte
	)
	// Fetched on first use and kept for the container's life; a failure is
	// not cached, so the next request tries again.
	return func(ctx context.Context) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		if llave != nil {
			return llave, nil
		}
		awsCfg, err := awsconfig.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, fmt.Errorf("secrets key: aws config: %w", err)
		}
		out, err := secretsmanager.NewFromConfig(awsCfg).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: &arn})
		if err != nil {
			return nil, fmt.Errorf("secrets key: get %s: %w", arn, err)
		}
		if out.SecretString == nil {
			return nil, fmt.Errorf("secrets key: %s has no string value", arn)
		}
		k, err := config.DecodeKey(*out.SecretString)
		if err != nil {
			return nil, err
		}
		llave = k
		return llave, nil
	}
}

// HaciendaWorker is the Lambda entry point of the hacienda-worker function:
// an SQS batch consumer that reports the failed records only.
func (d *Deps) HaciendaWorker() func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
	d.Webhooks() // an accepted invoice's event wakes the webhook worker
	return queue.Consume(d.Hacienda().Procesar, d.Log)
}

// ResultadoBarrido is what the scheduler function returns.
type ResultadoBarrido struct {
	// Hacienda is how many comprobantes with overdue work were woken.
	Hacienda int `json:"hacienda"`
	// Webhooks is how many due webhook deliveries were woken.
	Webhooks int `json:"webhooks"`
}

// maxBarridoWebhooks bounds one sweep's wake-ups; the next minute's sweep
// takes the rest.
const maxBarridoWebhooks = 1000

// Barrer runs every sweep once (the scheduler's work; also the local ticker).
func (d *Deps) Barrer(ctx context.Context) (ResultadoBarrido, error) {
	n, err := d.Hacienda().Barrer(ctx)
	if err != nil {
		return ResultadoBarrido{Hacienda: n}, err
	}
	m, err := d.Webhooks().Barrer(ctx, maxBarridoWebhooks)
	return ResultadoBarrido{Hacienda: n, Webhooks: m}, err
}

// Scheduler is the Lambda entry point of the scheduler function, the target
// of an EventBridge rule (rate 1 minute).
func (d *Deps) Scheduler() func(context.Context, events.EventBridgeEvent) (ResultadoBarrido, error) {
	return func(ctx context.Context, _ events.EventBridgeEvent) (ResultadoBarrido, error) {
		return d.Barrer(ctx)
	}
}

// RunLocalWorkers consumes the in-process queue and runs the sweep every
// minute until ctx ends (make run: the stand-ins of SQS and EventBridge).
func (d *Deps) RunLocalWorkers(ctx context.Context) {
	go func() { _ = d.LocalQueue().Run(ctx, d.procesarTrabajo, 500*time.Millisecond) }()
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if _, err := d.Barrer(ctx); err != nil && ctx.Err() == nil {
					d.Log.Error("barrido", "error", err.Error())
				}
			}
		}
	}()
}

// GrupoHacienda returns the handlers of the "hacienda" function group.
func (d *Deps) GrupoHacienda() lambdahttp.Handlers {
	return d.Hacienda().Handlers()
}
