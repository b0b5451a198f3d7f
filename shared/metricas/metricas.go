// Package metricas records the API's request metrics where Lambda
// instances, which share no memory, can add them up: each process
// aggregates its requests in memory (counts and latency-histogram buckets
// per company, route pattern and status; request and error counts per
// ten-second window) and adds them to PostgreSQL (metricas_http,
// metricas_recientes; migration 0011) with one statement, at the end of a
// request, at most once per Intervalo. A Lambda instance is frozen between
// invocations, so nothing is left to a background goroutine. In Lambda each
// request also writes one CloudWatch Embedded Metric Format line to the log
// (no API call).
//
// GET /api/metrics and GET /api/tiempo-real (shared/ops) read the tables;
// they flush their own process first, so in one process (make run, tests)
// what they show is exact.
package metricas

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
)

// Limites are the upper bounds, in seconds, of the latency histogram's
// buckets; a last bucket (+Inf) takes the rest.
var Limites = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Ventana is the width of the real-time windows.
const Ventana = 10 * time.Second

// IntervaloPorDefecto is how often a process adds its aggregates to
// PostgreSQL (one statement).
const IntervaloPorDefecto = 10 * time.Second

// Registro is a process's request recorder (httpx.Recorder).
type Registro struct {
	DB  *db.DB
	Log *slog.Logger
	// Intervalo is the least time between two flushes made at the end of a
	// request; 0 flushes only on Vaciar (the metrics routes call it).
	Intervalo time.Duration
	// EMF, when set, receives one CloudWatch Embedded Metric Format line
	// per request (Lambda: stdout, which goes to CloudWatch Logs).
	EMF io.Writer
	// Funcion is the EMF dimension naming the function (group) that served.
	Funcion string
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu        sync.Mutex
	http      map[claveHTTP]*Acumulado
	recientes map[claveReciente]*reciente
	ultimo    time.Time // last flush (or first request)
	vaciando  atomic.Bool
	emfMu     sync.Mutex
}

type claveHTTP struct {
	empresa int64
	metodo  string
	ruta    string
	estado  int
}

// Acumulado is the aggregate of one series: count, sum of seconds and the
// per-bucket counts (len(Limites)+1, not cumulative).
type Acumulado struct {
	Solicitudes int64
	Suma        float64
	Cubetas     []int64
}

func (a *Acumulado) sumar(b *Acumulado) {
	a.Solicitudes += b.Solicitudes
	a.Suma += b.Suma
	if len(a.Cubetas) < len(b.Cubetas) {
		a.Cubetas = append(a.Cubetas, make([]int64, len(b.Cubetas)-len(a.Cubetas))...)
	}
	for i, n := range b.Cubetas {
		a.Cubetas[i] += n
	}
}

type claveReciente struct {
	empresa int64
	ventana int64 // Unix seconds, a multiple of Ventana
}

type reciente struct {
	solicitudes, errores, erroresCliente int
}

// Nuevo returns an empty recorder.
func Nuevo(pool *db.DB, log *slog.Logger, intervalo time.Duration) *Registro {
	return &Registro{DB: pool, Log: log, Intervalo: intervalo}
}

func (r *Registro) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Registro) log() *slog.Logger { return cmp.Or(r.Log, slog.Default()) }

// cubeta returns the bucket index of a latency.
func cubeta(segundos float64) int {
	for i, l := range Limites {
		if segundos <= l {
			return i
		}
	}
	return len(Limites)
}

// Record implements httpx.Recorder: it adds the request to the process's
// aggregates, writes its EMF line when configured, and flushes when the
// last flush is Intervalo old.
func (r *Registro) Record(ctx context.Context, o httpx.Observation) {
	seg := o.Duration.Seconds()
	ruta := o.Route
	if ruta == "" {
		ruta = SinRuta
	}
	now := r.now()
	r.mu.Lock()
	if r.http == nil {
		r.http = map[claveHTTP]*Acumulado{}
		r.recientes = map[claveReciente]*reciente{}
	}
	k := claveHTTP{empresa: o.EmpresaID, metodo: o.Method, ruta: ruta, estado: o.Status}
	a := r.http[k]
	if a == nil {
		a = &Acumulado{Cubetas: make([]int64, len(Limites)+1)}
		r.http[k] = a
	}
	a.Solicitudes++
	a.Suma += seg
	a.Cubetas[cubeta(seg)]++
	v := now.Unix() - now.Unix()%int64(Ventana/time.Second)
	rc := r.recientes[claveReciente{empresa: o.EmpresaID, ventana: v}]
	if rc == nil {
		rc = &reciente{}
		r.recientes[claveReciente{empresa: o.EmpresaID, ventana: v}] = rc
	}
	rc.solicitudes++
	switch {
	case o.Status >= 500:
		rc.errores++
	case o.Status >= 400:
		rc.erroresCliente++
	}
	if r.ultimo.IsZero() {
		r.ultimo = now // the first interval starts with the first request
	}
	due := r.Intervalo > 0 && now.Sub(r.ultimo) >= r.Intervalo
	r.mu.Unlock()

	if r.EMF != nil {
		r.escribirEMF(now, o, ruta, seg)
	}
	if due && r.vaciando.CompareAndSwap(false, true) {
		defer r.vaciando.Store(false)
		// The request is answered already (locally) or about to be
		// (Lambda returns once the handler does): a slow database must not
		// hold it long, and the client going away must not lose the batch.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if err := r.Vaciar(fctx); err != nil {
			r.log().Warn("metricas: no se pudieron guardar; se reintentará", "error", err.Error())
		}
	}
}

// SinRuta labels requests that matched no route of the table.
const SinRuta = "(sin ruta)"

type filaHTTP struct {
	EmpresaID   *int64  `json:"empresa_id"`
	Metodo      string  `json:"metodo"`
	Ruta        string  `json:"ruta"`
	Estado      int     `json:"estado"`
	Solicitudes int64   `json:"solicitudes"`
	Suma        float64 `json:"suma_segundos"`
	Cubetas     []int64 `json:"cubetas"`
}

type filaReciente struct {
	EmpresaID      *int64    `json:"empresa_id"`
	Ventana        time.Time `json:"ventana"`
	Solicitudes    int       `json:"solicitudes"`
	Errores        int       `json:"errores"`
	ErroresCliente int       `json:"errores_cliente"`
}

func empresa(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// Vaciar adds the process's aggregates to PostgreSQL in one statement and
// starts new ones. On failure they are kept (merged with what came
// meanwhile) for the next flush.
func (r *Registro) Vaciar(ctx context.Context) error {
	r.mu.Lock()
	hs, rs := r.http, r.recientes
	r.http, r.recientes = nil, nil
	r.ultimo = r.now()
	r.mu.Unlock()
	if len(hs) == 0 && len(rs) == 0 {
		return nil
	}
	filasHTTP := make([]filaHTTP, 0, len(hs))
	for k, a := range hs {
		filasHTTP = append(filasHTTP, filaHTTP{EmpresaID: empresa(k.empresa), Metodo: k.metodo, Ruta: k.ruta, Estado: k.estado,
			Solicitudes: a.Solicitudes, Suma: a.Suma, Cubetas: a.Cubetas})
	}
	filasRecientes := make([]filaReciente, 0, len(rs))
	for k, c := range rs {
		filasRecientes = append(filasRecientes, filaReciente{EmpresaID: empresa(k.empresa), Ventana: time.Unix(k.ventana, 0).UTC(),
			Solicitudes: c.solicitudes, Errores: c.errores, ErroresCliente: c.erroresCliente})
	}
	jh, err := json.Marshal(filasHTTP)
	if err != nil {
		return fmt.Errorf("metricas: codificar: %w", err)
	}
	jr, err := json.Marshal(filasRecientes)
	if err != nil {
		return fmt.Errorf("metricas: codificar: %w", err)
	}
	if _, err := r.DB.Pool.Exec(ctx, `select metricas_registrar($1::jsonb, $2::jsonb)`, string(jh), string(jr)); err != nil {
		r.devolver(hs, rs)
		return fmt.Errorf("metricas: registrar: %w", err)
	}
	return nil
}

// devolver puts aggregates that could not be saved back, dropping windows
// older than the hour the dashboard looks at.
func (r *Registro) devolver(hs map[claveHTTP]*Acumulado, rs map[claveReciente]*reciente) {
	limite := r.now().Add(-time.Hour).Unix()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.http == nil {
		r.http = map[claveHTTP]*Acumulado{}
		r.recientes = map[claveReciente]*reciente{}
	}
	for k, a := range hs {
		if b := r.http[k]; b != nil {
			b.sumar(a)
		} else {
			r.http[k] = a
		}
	}
	for k, c := range rs {
		if k.ventana < limite {
			continue
		}
		if d := r.recientes[k]; d != nil {
			d.solicitudes += c.solicitudes
			d.errores += c.errores
			d.erroresCliente += c.erroresCliente
		} else {
			r.recientes[k] = c
		}
	}
}

// Pendientes is the number of series waiting for the next flush.
func (r *Registro) Pendientes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.http)
}

// Namespace is the CloudWatch namespace of the EMF lines.
const Namespace = "ERP"

// escribirEMF writes one CloudWatch Embedded Metric Format line: the
// metrics Solicitudes, Errores (5xx), ErroresCliente (4xx) and Latencia
// (ms) with the dimensions Funcion and Ruta; the status, the company and
// the trace id travel as properties (searchable in Logs Insights, no
// extra series).
func (r *Registro) escribirEMF(now time.Time, o httpx.Observation, ruta string, seg float64) {
	errores, cliente := 0, 0
	switch {
	case o.Status >= 500:
		errores = 1
	case o.Status >= 400:
		cliente = 1
	}
	linea := map[string]any{
		"_aws": map[string]any{
			"Timestamp": now.UnixMilli(),
			"CloudWatchMetrics": []any{map[string]any{
				"Namespace":  Namespace,
				"Dimensions": [][]string{{"Funcion", "Ruta"}},
				"Metrics": []map[string]string{
					{"Name": "Solicitudes", "Unit": "Count"},
					{"Name": "Errores", "Unit": "Count"},
					{"Name": "ErroresCliente", "Unit": "Count"},
					{"Name": "Latencia", "Unit": "Milliseconds"},
				},
			}},
		},
		"Funcion":        r.Funcion,
		"Ruta":           o.Method + " " + ruta,
		"Estado":         o.Status,
		"Solicitudes":    1,
		"Errores":        errores,
		"ErroresCliente": cliente,
		"Latencia":       seg * 1000,
		"trace_id":       o.TraceID,
	}
	if o.EmpresaID != 0 {
		linea["empresa_id"] = o.EmpresaID
	}
	b, err := json.Marshal(linea)
	if err != nil {
		return
	}
	b = append(b, '\n')
	r.emfMu.Lock()
	_, _ = r.EMF.Write(b)
	r.emfMu.Unlock()
}

// Serie is one (method, route, status) series as GET /api/metrics shows it.
type Serie struct {
	Metodo string
	Ruta   string
	Estado int
	Acumulado
}

// HTTP returns the request series: those of the company of s, or, with
// servicio, every company's and those of no company added up (platform
// operators).
func (r *Registro) HTTP(ctx context.Context, s db.Scope, servicio bool) ([]Serie, error) {
	var out []Serie
	err := r.DB.WithTx(ctx, s, func(tx *db.Tx) error {
		q := `select metodo, ruta, estado, solicitudes, suma_segundos, cubetas from metricas_http where empresa_id = $1`
		args := []any{tx.EmpresaID()}
		if servicio {
			q, args = `select metodo, ruta, estado, solicitudes, suma_segundos, cubetas from metricas_http_servicio()`, nil
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		idx := map[claveHTTP]int{}
		for rows.Next() {
			var x Serie
			if err := rows.Scan(&x.Metodo, &x.Ruta, &x.Estado, &x.Solicitudes, &x.Suma, &x.Cubetas); err != nil {
				return err
			}
			k := claveHTTP{metodo: x.Metodo, ruta: x.Ruta, estado: x.Estado}
			if i, ok := idx[k]; ok {
				out[i].sumar(&x.Acumulado)
				continue
			}
			idx[k] = len(out)
			out = append(out, x)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("metricas: leer series: %w", err)
	}
	return out, nil
}

// Recientes are the request counts of the windows since a time.
type Recientes struct {
	Solicitudes    int64
	Errores        int64
	ErroresCliente int64
}

// LeerRecientes sums the windows that started at or after desde: the
// company's (tx's tenant), or with servicio every company's.
func LeerRecientes(ctx context.Context, tx *db.Tx, desde time.Time, servicio bool) (Recientes, error) {
	var x Recientes
	q := `select coalesce(sum(solicitudes), 0)::bigint, coalesce(sum(errores), 0)::bigint, coalesce(sum(errores_cliente), 0)::bigint
		from metricas_recientes where empresa_id = $1 and ventana >= $2`
	args := []any{tx.EmpresaID(), desde}
	if servicio {
		q, args = `select solicitudes, errores, errores_cliente from metricas_recientes_servicio($1)`, []any{desde}
	}
	if err := tx.QueryRow(ctx, q, args...).Scan(&x.Solicitudes, &x.Errores, &x.ErroresCliente); err != nil {
		return x, fmt.Errorf("metricas: leer recientes: %w", err)
	}
	return x, nil
}

var _ httpx.Recorder = (*Registro)(nil)
