// Package plataforma builds what every process shares, once per process
// (outside any handler): configuration, logger, database pool, the
// in-process queue and the webhook dispatcher whose post-commit wake-up
// every write needs. It imports no business domain, so a function's binary
// links only the domains its own group names (functions/<group>/main.go
// passes that group's constructor to MustLambda; ARCHITECTURE.md).
package plataforma

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/awsenv"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/metricas"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/secrets"
	"github.com/erpcr/erp/shared/webhooks"
)

// Deps are built once per process (outside any handler).
type Deps struct {
	Cfg config.Config
	Log *slog.Logger
	DB  *db.DB
	// AWS loads the configuration of the process's AWS clients (S3, SES);
	// nil is awsenv.Load, the Lambda environment. shared/app (make run,
	// tools) sets the SDK's default chain, with profiles: only it links
	// that chain, not the function binaries (shared/awsenv says why).
	AWS func(context.Context) (aws.Config, error)

	localOnce sync.Once
	local     *queue.Local
	// The webhook dispatcher, built on first use.
	webhooksOnce sync.Once
	webhooks     *webhooks.Despachador
	// The request-metrics recorder (metricas.go), built on first use.
	metricasOnce sync.Once
	metricas     *metricas.Registro
}

// Grupo builds the handlers of one HTTP function group.
type Grupo func(d *Deps) lambdahttp.Handlers

// NewLogger is the structured JSON logger of every process.
func NewLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: l}))
}

// Open builds the dependencies from cfg. In AWS the database URL comes from
// the secret named by DB_SECRET_ARN.
func Open(ctx context.Context, cfg config.Config) (*Deps, error) {
	log := NewLogger(cfg.LogLevel)
	slog.SetDefault(log)
	url := cfg.DatabaseURL
	if url == "" && cfg.DBSecretARN != "" {
		var err error
		if url, err = secrets.DatabaseURL(ctx, cfg.DBSecretARN); err != nil {
			return nil, err
		}
	}
	if url == "" {
		return nil, fmt.Errorf("app: no database configured (DATABASE_APP_URL or DB_SECRET_ARN)")
	}
	pool, err := db.Open(ctx, db.Options{URL: url, MaxConns: cfg.DBMaxConns, ExecMode: cfg.DBExecMode})
	if err != nil {
		return nil, err
	}
	return &Deps{Cfg: cfg, Log: log, DB: pool}, nil
}

// MustOpen is Open for main functions: it loads the configuration from the
// environment and exits the process on failure.
func MustOpen() *Deps {
	cfg, err := config.Load()
	if err != nil {
		slog.Error("config", "error", err.Error())
		os.Exit(1)
	}
	d, err := Open(context.Background(), cfg)
	if err != nil {
		slog.Error("startup", "error", err.Error())
		os.Exit(1)
	}
	return d
}

// AWSConfig is the configuration for the process's AWS clients (Deps.AWS).
func (d *Deps) AWSConfig(ctx context.Context) (aws.Config, error) {
	if d.AWS != nil {
		return d.AWS(ctx)
	}
	return awsenv.Load(ctx)
}

// Close releases the pool (Lambda SIGTERM hook).
func (d *Deps) Close() { d.DB.Close() }

// Mux is the http.Handler of a group: its handlers behind the route
// table's guard (authentication, permissions), as every host serves it.
// Building a group also builds the webhook dispatcher, whose post-commit
// hook wakes deliveries for the events the group's writes record.
func (d *Deps) Mux(group string, grupo Grupo) (http.Handler, error) {
	d.Webhooks()
	lim := &ratelimit.Clases{DB: d.DB, Limites: d.Cfg.Limites}
	return lambdahttp.Mux(group, grupo(d), httpx.Options{Log: d.Log, Debug: d.Cfg.Debug, Metrics: d.Metricas()}, lim)
}

// MustLambda is the Lambda handler of a deployed group; a wiring mistake
// (a route without a handler) stops the container at start-up.
// It takes the raw event (lambda.Handler), so lambda.Start runs it without
// reflection.
func (d *Deps) MustLambda(group string, grupo Grupo) *lambdahttp.Handler {
	h, err := d.Mux(group, grupo)
	if err != nil {
		d.Log.Error("startup", "error", err.Error())
		os.Exit(1)
	}
	return lambdahttp.NewHandler(h)
}

// Authorizer is the Lambda entry point of the authorizer function, a raw
// handler (lambdahttp.Authorizer).
func (d *Deps) Authorizer() lambda.Handler {
	return lambdahttp.Authorizer(&auth.Authorizer{DB: d.DB, BaseDomain: d.Cfg.TenantBaseDomain, Log: d.Log})
}

// LocalQueue is the process's in-process queue: the hacienda queue when no
// SQS URL is configured (make run consumes it; tests drain it).
func (d *Deps) LocalQueue() *queue.Local {
	d.localOnce.Do(func() { d.local = queue.NewLocal(nil) })
	return d.local
}

// LlaveSecretos returns the secrets key provider: the configured key, or
// the one in Secrets Manager (read once), or the development default.
func LlaveSecretos(cfg config.Config) func(ctx context.Context) ([]byte, error) {
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
		awsCfg, err := awsenv.Load(ctx)
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
		w := &webhooks.Despachador{DB: d.DB, Cifrador: &cifradorPerezoso{llave: LlaveSecretos(d.Cfg)}, Permitidos: permitidos}
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

// GrupoWebhooks returns the handlers of the "webhooks" function group.
func GrupoWebhooks(d *Deps) lambdahttp.Handlers {
	return (&webhooks.Service{DB: d.DB, Despachador: d.Webhooks()}).Handlers()
}

// GrupoEventos is the "eventos" group (the outbox, read by Administrador).
func GrupoEventos(d *Deps) lambdahttp.Handlers { return eventos.Handlers(d.DB) }

// Barredor is a sweep the scheduler runs every minute (Hacienda's pending
// submissions and polls).
type Barredor interface {
	Barrer(ctx context.Context) (int, error)
}

// ResultadoBarrido is what one scheduler run did.
type ResultadoBarrido struct {
	Hacienda int `json:"hacienda"`
	Webhooks int `json:"webhooks"`
	// ReportesProgramados counts the scheduled reports run (completed or
	// failed) by the sweep.
	ReportesProgramados int `json:"reportes_programados"`
}

// maxBarridoWebhooks bounds the deliveries one sweep wakes.
const maxBarridoWebhooks = 1000

// Barrer runs the Hacienda sweep, then wakes webhook deliveries that are
// due (lost wake-ups, retries longer than SQS can delay), then runs the
// due scheduled reports (shared/programados) when given. The reports run
// even when an earlier sweep failed: they do not depend on it.
func (d *Deps) Barrer(ctx context.Context, hacienda Barredor, programados Barredor) (ResultadoBarrido, error) {
	var res ResultadoBarrido
	n, err := hacienda.Barrer(ctx)
	res.Hacienda = n
	if err == nil {
		res.Webhooks, err = d.Webhooks().Barrer(ctx, maxBarridoWebhooks)
	}
	if programados != nil {
		var errProgramados error
		res.ReportesProgramados, errProgramados = programados.Barrer(ctx)
		err = errors.Join(err, errProgramados)
	}
	return res, err
}

// Scheduler is the EventBridge-scheduled function.
func (d *Deps) Scheduler(hacienda Barredor, programados Barredor) func(context.Context, events.EventBridgeEvent) (ResultadoBarrido, error) {
	return func(ctx context.Context, _ events.EventBridgeEvent) (ResultadoBarrido, error) {
		return d.Barrer(ctx, hacienda, programados)
	}
}

// Worker consumes an SQS queue with procesar. Building it also builds the
// webhook dispatcher: what the worker commits (an accepted invoice's event)
// wakes deliveries.
func (d *Deps) Worker(procesar func(context.Context, queue.Job) error) func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
	d.Webhooks()
	return queue.Consume(procesar, d.Log)
}

// RunLocalWorkers runs what SQS and EventBridge run in AWS, in-process: the
// local queue's consumer (procesar routes a job by type) and the
// one-minute sweep, until ctx ends.
func (d *Deps) RunLocalWorkers(ctx context.Context, procesar func(context.Context, queue.Job) error, hacienda, programados Barredor) {
	go func() { _ = d.LocalQueue().Run(ctx, procesar, 500*time.Millisecond) }()
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if _, err := d.Barrer(ctx, hacienda, programados); err != nil && ctx.Err() == nil {
					d.Log.Error("barrido", "error", err.Error())
				}
			}
		}
	}()
}
