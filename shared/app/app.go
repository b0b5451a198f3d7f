// Package app hosts every function group in one process: the local gateway
// (make run), the tests and the sample-event tool. A deployed function does
// not import it: functions/<group>/main.go names only its own group's
// constructor (plataforma.MustLambda), so its binary links only the
// domains that group needs (ARCHITECTURE.md).
package app

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/erpcr/erp/shared/catalogo"
	"github.com/erpcr/erp/shared/compras"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/contabilidad"
	"github.com/erpcr/erp/shared/dashboard"
	"github.com/erpcr/erp/shared/docs"
	"github.com/erpcr/erp/shared/empleados"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/gateway"
	"github.com/erpcr/erp/shared/importaciones"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/migracion"
	"github.com/erpcr/erp/shared/nomina"
	"github.com/erpcr/erp/shared/ops"
	"github.com/erpcr/erp/shared/organizacion"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/programados"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/reportes"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/sesiones"
	"github.com/erpcr/erp/shared/terceros"
	"github.com/erpcr/erp/shared/tesoreria"
	"github.com/erpcr/erp/shared/transporte"
	"github.com/erpcr/erp/shared/usuarios"
	"github.com/erpcr/erp/shared/ventas"
	"github.com/erpcr/erp/shared/webhooks"
)

// Grupos maps every HTTP function group to its constructor.
var Grupos = map[string]plataforma.Grupo{
	"almacenes":     organizacion.Almacenes,
	"auth":          sesiones.Grupo,
	"catalogos":     catalogo.Catalogos,
	"clientes":      terceros.Clientes,
	"compras":       compras.Grupo,
	"contabilidad":  contabilidad.Grupo,
	"dashboard":     dashboard.Grupo,
	"docs":          docs.Grupo,
	"empleados":     empleados.Grupo,
	"empresas":      organizacion.Empresas,
	"eventos":       plataforma.GrupoEventos,
	"importaciones": importaciones.Grupo,
	"inventario":    inventario.Grupo,
	"nomina":        nomina.Grupo,
	"ops":           ops.Grupo,
	"productos":     catalogo.Productos,
	"proveedores":   terceros.Proveedores,
	"reportes":      reportes.Grupo,
	"sucursales":    organizacion.Sucursales,
	"tesoreria":     tesoreria.Grupo,
	"transporte":    transporte.Grupo,
	"usuarios":      usuarios.Grupo,
	"ventas":        ventas.Grupo,
	"webhooks":      plataforma.GrupoWebhooks,
	// "hacienda" is served by the process's one invoicing service
	// (Deps.Hacienda), which the local worker shares; "programados" by the
	// process's one scheduled-reports service (Deps.Programados), which the
	// sweep shares.
}

// Deps are the process's dependencies plus the one invoicing service that
// the hacienda group, the local worker and the sweep share.
type Deps struct {
	*plataforma.Deps

	haciendaOnce sync.Once
	hacienda     *facturacion.Service

	programadosOnce sync.Once
	programados     *programados.Servicio
}

// Open builds the dependencies from cfg. Outside Lambda, AWS clients (the
// scheduled reports' S3 and SES, when configured) take the SDK's default
// chain (profiles, SSO); the function binaries link only shared/awsenv.
func Open(ctx context.Context, cfg config.Config) (*Deps, error) {
	d, err := plataforma.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	d.AWS = func(ctx context.Context) (aws.Config, error) { return awsconfig.LoadDefaultConfig(ctx) }
	return &Deps{Deps: d}, nil
}

// Prepare migrates and seeds a database (migracion.Preparar).
func Prepare(ctx context.Context, adminURL string, o PrepareOptions) ([]string, error) {
	return migracion.Preparar(ctx, adminURL, o)
}

// PrepareOptions are migracion.Options.
type PrepareOptions = migracion.Options

// Hacienda is the process's invoicing service, built on first use; tests
// replace its clock and HTTP client before the first request.
func (d *Deps) Hacienda() *facturacion.Service {
	d.haciendaOnce.Do(func() { d.hacienda = facturacion.NuevoServicio(d.Deps) })
	return d.hacienda
}

// Programados is the process's scheduled-reports service, built on first
// use; tests replace its clock, store and mail (one value for the routes
// and the sweep).
func (d *Deps) Programados() *programados.Servicio {
	d.programadosOnce.Do(func() { d.programados = programados.Nuevo(d.Deps) })
	return d.programados
}

func (d *Deps) grupo(group string) (plataforma.Grupo, error) {
	if group == "hacienda" {
		return func(*plataforma.Deps) lambdahttp.Handlers { return d.Hacienda().Handlers() }, nil
	}
	if group == "programados" {
		return func(*plataforma.Deps) lambdahttp.Handlers { return d.Programados().Handlers() }, nil
	}
	g, ok := Grupos[group]
	if !ok {
		return nil, fmt.Errorf("app: unknown function group %q", group)
	}
	return g, nil
}

// Handlers returns the handlers of an HTTP function group.
func (d *Deps) Handlers(group string) (lambdahttp.Handlers, error) {
	g, err := d.grupo(group)
	if err != nil {
		return nil, err
	}
	d.Webhooks()
	return g(d.Deps), nil
}

// HTTPHandler is a group's http.Handler (as the Lambda proxy serves it).
func (d *Deps) HTTPHandler(group string) (http.Handler, error) {
	g, err := d.grupo(group)
	if err != nil {
		return nil, err
	}
	return d.Mux(group, g)
}

// LambdaHandler is a group's Lambda handler, for the local gateway and the
// sample events.
func (d *Deps) LambdaHandler(group string) (*lambdahttp.Handler, error) {
	h, err := d.HTTPHandler(group)
	if err != nil {
		return nil, err
	}
	return lambdahttp.NewHandler(h), nil
}

// Gateway is the local API Gateway stand-in with every group behind it.
func (d *Deps) Gateway() (*gateway.Gateway, error) {
	groups := map[string]any{}
	for _, g := range routes.Groups() {
		h, err := d.LambdaHandler(g)
		if err != nil {
			return nil, err
		}
		groups[g] = h
	}
	gw := gateway.New(d.Authorizer(), groups, d.Log)
	if len(d.Cfg.CORSOrigins) > 0 {
		gw.CORS = gateway.NewCORS(d.Cfg.CORSOrigins)
	}
	return gw, nil
}

// procesarTrabajo routes a job of the in-process queue by type.
func (d *Deps) procesarTrabajo(ctx context.Context, j queue.Job) error {
	if j.Tipo == webhooks.TrabajoEntrega {
		return d.Webhooks().Procesar(ctx, j)
	}
	return d.Hacienda().Procesar(ctx, j)
}

// RunLocalWorkers runs the in-process queue's consumer and the one-minute
// sweep until ctx ends (make run: the stand-ins of SQS and EventBridge).
func (d *Deps) RunLocalWorkers(ctx context.Context) {
	d.Deps.RunLocalWorkers(ctx, d.procesarTrabajo, d.Hacienda(), d.Programados())
}

// Barrer runs one sweep (what the scheduler function does every minute).
func (d *Deps) Barrer(ctx context.Context) (plataforma.ResultadoBarrido, error) {
	return d.Deps.Barrer(ctx, d.Hacienda(), d.Programados())
}

// HaciendaWorker is the hacienda-worker function's handler.
func (d *Deps) HaciendaWorker() func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
	return d.Worker(d.Hacienda().Procesar)
}

// Scheduler is the scheduler function's handler (the sweep).
func (d *Deps) Scheduler() func(context.Context, events.EventBridgeEvent) (plataforma.ResultadoBarrido, error) {
	return d.Deps.Scheduler(d.Hacienda(), d.Programados())
}
