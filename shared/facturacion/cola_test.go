package facturacion_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/testenv"
)

// firmado returns a signed comprobante of company 1, ready to send.
func (f *fx) firmado() int64 {
	f.T.Helper()
	n := f.serie.Add(1)
	p := f.producto("F"+itoa(n), ptr(CABYS), false)
	id := f.generar(f.Admin, f.vender(venta(f.cliente(itoa(200000000+n)), linea(p, 1, 1000))))
	f.emitir(f.Admin, id)
	return id
}

// Lost messages (the submission's and a poll's) are recovered by the
// scheduler's sweep, no earlier than Gracia after they were due.
func TestALostQueueMessageIsRecoveredByTheSweep(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	id := f.firmado()
	f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)
	f.q.Clear() // the wake-up is lost
	if f.drain() != 0 || testenv.Str(f.estado(id), "estado") != facturacion.Firmado {
		t.Fatal("something ran without a message")
	}
	testenv.Barre(t, f.svc.Barrer, 0, "before the grace period")
	f.clk.Avanzar(facturacion.Gracia + time.Second)
	testenv.Barre(t, f.svc.Barrer, 1, "the lost submission")
	f.drain()
	if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Enviado {
		t.Fatalf("after the sweep: %s", e)
	}
	// Now the first status poll's message is lost as well.
	f.q.Clear()
	f.clk.Avanzar(Demora + facturacion.Gracia + time.Second)
	if f.drain() != 0 {
		t.Fatal("a poll ran without a message")
	}
	testenv.Barre(t, f.svc.Barrer, 1, "the lost poll")
	f.drain()
	if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Aceptado {
		t.Fatalf("after the second sweep: %s", e)
	}
	testenv.Barre(t, f.svc.Barrer, 0, "after both were recovered")
	if n := f.Int(`select count(*) from eventos where tipo = 'FacturaEmitidaEvent'`); n != 1 {
		t.Errorf("%d events", n)
	}
}

// Duplicated and early messages change nothing: one submission, one poll
// per due time, one event.
func TestDuplicateMessagesChangeNothingButTiming(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	id := f.firmado()
	f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)
	job := queue.Job{Tipo: facturacion.TrabajoHacienda, EmpresaID: 1, ID: id}
	ctx := context.Background()
	_ = f.q.Wake(ctx, job, 0)
	_ = f.q.Wake(ctx, job, 0)
	f.drain()
	if st := f.estado(id); testenv.Str(st, "estado") != facturacion.Enviado || testenv.Num(st, "consultas") != 0 {
		t.Fatalf("after three deliveries of one submission: %v", st)
	}
	// Early duplicates of the poll: nothing is due yet.
	_ = f.q.Wake(ctx, job, 0)
	_ = f.q.Wake(ctx, job, 5*time.Second)
	f.clk.Avanzar(5 * time.Second)
	f.drain()
	if n := testenv.Num(f.estado(id), "consultas"); n != 0 {
		t.Fatalf("early messages polled %v times", n)
	}
	// At the due time, the real message and two duplicates: one poll.
	_ = f.q.Wake(ctx, job, 25*time.Second)
	_ = f.q.Wake(ctx, job, 25*time.Second)
	f.clk.Avanzar(25 * time.Second)
	f.drain()
	if n := testenv.Num(f.estado(id), "consultas"); n != 1 {
		t.Fatalf("%v polls for one due time", n)
	}
	e, _ := f.esperarFinal(id, 5)
	for i := 0; i < 3; i++ {
		_ = f.q.Wake(ctx, job, 0)
	}
	f.drain()
	if e != facturacion.Aceptado || f.Int(`select count(*) from eventos where tipo = 'FacturaEmitidaEvent'`) != 1 {
		t.Fatalf("state %s, events %d", e, f.Int(`select count(*) from eventos where tipo = 'FacturaEmitidaEvent'`))
	}
	if d, ok := f.sim.Comprobante(testenv.Str(f.estado(id), "clave")); !ok || len(d) == 0 {
		t.Error("the simulator has no document")
	}
}

// Network failures and 5xx are retried with backoff through the queue
// (30 s, 60 s, ...) without sleeping; a 4xx refusal ends in error with
// Hacienda's X-Error-Cause.
func TestSubmissionsAreRetriedWithBackoffAndRefusalsEndInError(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	id := f.firmado()
	f.fallos.Store(2)
	f.enviar(id)
	d := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil)
	if testenv.Str(d.JSON, "data.estado") != facturacion.Firmado || testenv.Num(d.JSON, "data.intentos_envio") != 1 ||
		!strings.Contains(testenv.Str(d.JSON, "data.ultimo_error"), "Intento 1") {
		t.Fatalf("after a 503: %s", d.Raw)
	}
	p := f.q.Pending()
	if len(p) != 1 || !p[0].Due.Equal(f.clk.Now().Add(30*time.Second)) {
		t.Fatalf("retry not queued 30 s later: %+v", p)
	}
	f.clk.Avanzar(30 * time.Second)
	f.drain()
	if n := testenv.Num(f.estado(id), "consultas"); testenv.Str(f.estado(id), "estado") != facturacion.Firmado || n != 0 {
		t.Fatalf("after the second 503: %v", f.estado(id))
	}
	if p := f.q.Pending(); len(p) != 1 || !p[0].Due.Equal(f.clk.Now().Add(time.Minute)) {
		t.Fatalf("second retry not 60 s later: %+v", p)
	}
	f.clk.Avanzar(time.Minute)
	f.drain()
	if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Enviado {
		t.Fatalf("after recovery: %s", e)
	}

	otro := f.firmado()
	causa := "El comprobante no cumple con el esquema: Clave inválida"
	f.causa400.Store(&causa)
	f.enviar(otro)
	st := f.estado(otro)
	if testenv.Str(st, "estado") != facturacion.Error || !strings.Contains(testenv.Str(st, "ultimo_error"), causa) || f.q.Len() != 1 {
		t.Fatalf("after a 400: %v (queue %d)", st, f.q.Len())
	}
	// Not received by Hacienda: it may be fixed and sent again.
	f.causa400.Store(nil)
	f.Must(http.StatusOK, http.MethodPost, ruta(otro, "generar-xml"), nil)
	f.Must(http.StatusOK, http.MethodPost, ruta(otro, "firmar"), nil)
	f.enviar(otro)
	if e := testenv.Str(f.estado(otro), "estado"); e != facturacion.Enviado {
		t.Fatalf("resent: %s", e)
	}
}

func TestWrongHaciendaCredentialsEndInError(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	f.Must(http.StatusOK, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"clave": "otra-clave"})
	id := f.firmado()
	f.enviar(id)
	st := f.estado(id)
	if testenv.Str(st, "estado") != facturacion.Error || !strings.Contains(testenv.Str(st, "ultimo_error"), "usuario o la clave") {
		t.Fatalf("%v", st)
	}
	if strings.Contains(f.logs.String(), "otra-clave") {
		t.Error("the password reached the logs")
	}
}

// Polling stops after MaxConsultas (2 hours at 30 s) in error.
func TestPollingIsCappedAt240Polls(t *testing.T) {
	f := setup(t, opciones{sim: func(o *simulador.Opciones) { o.Demora = 24 * time.Hour }})
	f.configurar(f.Admin)
	id := f.firmado()
	f.enviar(id)
	f.E.Exec(`update comprobantes_electronicos set consultas = $2 where id = $1`, id, facturacion.MaxConsultas-2)
	f.clk.Avanzar(facturacion.IntervaloConsulta)
	f.drain()
	if st := f.estado(id); testenv.Str(st, "estado") != facturacion.Enviado || testenv.Str(st, "ind_estado") != "recibido" {
		t.Fatalf("poll %d: %v", facturacion.MaxConsultas-1, st)
	}
	f.clk.Avanzar(facturacion.IntervaloConsulta)
	f.drain()
	st := f.estado(id)
	if testenv.Str(st, "estado") != facturacion.Error || !strings.Contains(testenv.Str(st, "ultimo_error"), "240 consultas") || f.q.Len() != 0 {
		t.Fatalf("after the cap: %v (queue %d)", st, f.q.Len())
	}
	// enviar resumes the polling of a received document (no new submission).
	f.enviar(id)
	if st := f.estado(id); testenv.Str(st, "estado") != facturacion.Enviado || testenv.Num(st, "consultas") != 1 {
		t.Fatalf("resumed: %v", st)
	}
}

func TestSubmissionsPerHourAreLimited(t *testing.T) {
	f := setup(t, opciones{cfg: func(c *config.Config) { c.Limites = map[string]config.Limite{"hacienda": {Max: 2, Ventana: time.Hour}} }})
	f.configurar(f.Admin)
	a, b, c := f.firmado(), f.firmado(), f.firmado()
	f.Must(http.StatusAccepted, http.MethodPost, ruta(a, "enviar"), nil)
	// A repeated call while queued does not count.
	f.Must(http.StatusAccepted, http.MethodPost, ruta(a, "enviar"), nil)
	f.Must(http.StatusAccepted, http.MethodPost, ruta(b, "enviar"), nil)
	r := f.E.Call(f.Admin, http.MethodPost, ruta(c, "enviar"), nil)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("third submission: %d %v %s", r.Status, r.Header, r.Raw)
	}
	if e := testenv.Str(f.estado(c), "estado"); e != facturacion.Firmado || testenv.Get(f.estado(c), "envio_en_curso") != false {
		t.Fatalf("a refused submission was queued: %v", f.estado(c))
	}
	// The window ends.
	f.clk.Avanzar(time.Hour)
	f.Must(http.StatusAccepted, http.MethodPost, ruta(c, "enviar"), nil)
}

// The outbound budget (60 requests per minute per company, counted in
// PostgreSQL across instances) is never exceeded: over budget the worker
// does not wait inside its Lambda, it re-queues the job for the next window
// without counting an attempt.
func TestTheOutboundBudgetOf60PerMinuteIsRespected(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	id := f.firmado()
	ventana := f.clk.Now().Truncate(time.Minute)
	f.E.Exec(`insert into limites_tasa (clave, ventana_inicio, cuenta) values ('hacienda_api:1', $1, $2)`, ventana, facturacion.LimiteAPI)
	f.enviar(id)
	st := f.estado(id)
	if testenv.Str(st, "estado") != facturacion.Firmado || testenv.Get(st, "envio_en_curso") != true {
		t.Fatalf("over budget: %v", st)
	}
	if d := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil); testenv.Num(d.JSON, "data.intentos_envio") != 0 {
		t.Errorf("a budget wait counted as an attempt: %s", d.Raw)
	}
	p := f.q.Pending()
	if len(p) != 1 || p[0].Due.After(ventana.Add(time.Minute+time.Second)) || !p[0].Due.After(f.clk.Now()) {
		t.Fatalf("not re-queued for the next window (%s): %+v", ventana.Add(time.Minute), p)
	}
	f.clk.Fijar(p[0].Due)
	f.drain()
	if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Enviado {
		t.Fatalf("in the next window: %s", e)
	}
}

// Duplicate enviar calls racing on one document queue one submission and
// count one against the hourly limit: of 8 concurrent calls all answer 202,
// the limit's counter says 1, and the rest of the budget (2) still admits
// another document before the third is refused.
func TestConcurrentDuplicateSubmissionsCountOnceAgainstTheLimit(t *testing.T) {
	f := setup(t, opciones{cfg: func(c *config.Config) { c.Limites = map[string]config.Limite{"hacienda": {Max: 2, Ventana: time.Hour}} }})
	f.configurar(f.Admin)
	a, b, c := f.firmado(), f.firmado(), f.firmado()
	for _, r := range testenv.Concurrently(8, func(int) testenv.Resp { return f.E.Call(f.Admin, http.MethodPost, ruta(a, "enviar"), nil) }) {
		if r.Status != http.StatusAccepted {
			t.Errorf("duplicate enviar: %d %s", r.Status, r.Raw)
		}
	}
	if n := f.Int(`select coalesce(sum(cuenta), 0)::int from limites_tasa where clave = 'hacienda_envios:1'`); n != 1 {
		t.Fatalf("8 duplicate calls counted %d submissions, want 1", n)
	}
	if f.q.Len() != 1 {
		t.Errorf("%d messages queued for one submission", f.q.Len())
	}
	r := f.Must(http.StatusAccepted, http.MethodPost, ruta(b, "enviar"), nil)
	if r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("second document: X-RateLimit-Remaining %q", r.Header.Get("X-RateLimit-Remaining"))
	}
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(c, "enviar"), nil); r.Status != http.StatusTooManyRequests {
		t.Fatalf("third document: %d %s", r.Status, r.Raw)
	}
	// A refused submission does not count either.
	if n := f.Int(`select coalesce(sum(cuenta), 0)::int from limites_tasa where clave = 'hacienda_envios:1'`); n != 2 {
		t.Errorf("counter %d after a 429, want 2", n)
	}
}
