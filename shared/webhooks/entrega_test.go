package webhooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/secrets"
	"github.com/erpcr/erp/shared/testenv"
	"github.com/erpcr/erp/shared/webhooks"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// receptor is a local receiver that verifies every signature and answers
// with the status the test sets.
type receptor struct {
	srv      *httptest.Server
	secreto  atomic.Value
	estado   atomic.Int64
	llamadas atomic.Int64
	validas  atomic.Int64
	// respuesta, when set, is the body answered instead of {"recibido":true}.
	respuesta atomic.Value
	mu        sync.Mutex
	ultimo    *http.Request
	cuerpo    []byte
}

func nuevoReceptor(t testing.TB) *receptor {
	rc := &receptor{}
	rc.estado.Store(204)
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.llamadas.Add(1)
		if s, _ := rc.secreto.Load().(string); s != "" &&
			webhooks.Verificar([]byte(s), r.Header.Get(webhooks.HeaderTimestamp), r.Header.Get(webhooks.HeaderFirma), body, time.Now()) {
			rc.validas.Add(1)
		}
		rc.mu.Lock()
		rc.ultimo, rc.cuerpo = r, body
		rc.mu.Unlock()
		w.WriteHeader(int(rc.estado.Load()))
		if b, ok := rc.respuesta.Load().(string); ok {
			_, _ = w.Write([]byte(b))
			return
		}
		_, _ = w.Write([]byte(`{"recibido":true}`))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

type fx struct {
	t     testing.TB
	e     *testenv.Env
	d     *webhooks.Despachador
	cola  *queue.Local
	reloj time.Time
	rc    *receptor
}

func setup(t testing.TB) *fx {
	t.Helper()
	e := testenv.New(t)
	f := &fx{t: t, e: e, rc: nuevoReceptor(t), reloj: time.Now().UTC().Add(time.Second)}
	cif, err := secrets.NuevoCifrador(make([]byte, 32), "webhooks")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(f.rc.srv.Listener.Addr().String())
	permitidos, _ := webhooks.NuevosPermitidos("127.0.0.1:" + port)
	f.cola = queue.NewLocal(func() time.Time { return f.reloj })
	f.d = &webhooks.Despachador{DB: e.Deps.DB, Cola: f.cola, Cifrador: cif, Permitidos: permitidos, Ahora: func() time.Time { return f.reloj }}
	return f
}

// tx runs fn in a transaction of company 1.
func (f *fx) tx(fn func(ctx context.Context, tx *db.Tx) error) {
	f.t.Helper()
	if err := f.e.Deps.DB.WithTx(context.Background(), db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
		return fn(context.Background(), tx)
	}); err != nil {
		f.t.Fatal(err)
	}
}

// suscribir creates a subscription of company 1 to the receiver.
func (f *fx) suscribir(reintentos int, evs ...string) webhooks.Webhook {
	f.t.Helper()
	nombre, url := "Receptor", f.rc.srv.URL+"/hook"
	var w webhooks.Webhook
	f.tx(func(ctx context.Context, tx *db.Tx) (err error) {
		w, err = webhooks.Suscripciones{Cifrador: f.d.Cifrador}.Crear(ctx, tx, webhooks.Datos{Nombre: &nombre, URL: &url, Eventos: evs, MaxReintentos: &reintentos})
		return err
	})
	f.rc.secreto.Store(w.Secreto)
	return w
}

// evento writes an outbox event of company 1 and returns its deliveries.
func (f *fx) evento(tipo string) []int64 {
	f.t.Helper()
	var ids []int64
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		if err := eventos.Registrar(ctx, tx, tipo, map[string]any{"id": 7, "numero_comprobante": "FAC-00000007"}); err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `select id from webhook_entregas where empresa_id = 1 and evento = $1 order by id`, tipo)
		got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		ids = append(ids, got...)
		return err
	})
	return ids
}

func (f *fx) entregar(id int64) {
	f.t.Helper()
	if err := f.d.Entregar(context.Background(), 1, id); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fx) estado(id int64) (estado string, intentos int) {
	f.t.Helper()
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `select estado, intentos from webhook_entregas where id = $1`, id).Scan(&estado, &intentos)
	})
	return
}

func TestAnEventFansOutToMatchingSubscriptionsAndArrivesSigned(t *testing.T) {
	t.Parallel()
	f := setup(t)
	primera := f.suscribir(5, eventos.VentaCreada)
	f.suscribir(5, "*")
	f.suscribir(5, eventos.PagoRecibido)
	f.rc.secreto.Store(primera.Secreto)
	ids := f.evento(eventos.VentaCreada)
	if len(ids) != 2 {
		t.Fatalf("deliveries for VentaCreadaEvent: %v, want 2 (the exact and the * subscriptions)", ids)
	}
	f.entregar(ids[0])
	if f.rc.llamadas.Load() != 1 || f.rc.validas.Load() != 1 {
		t.Fatalf("calls %d, valid signatures %d", f.rc.llamadas.Load(), f.rc.validas.Load())
	}
	f.rc.mu.Lock()
	r, body := f.rc.ultimo, f.rc.cuerpo
	f.rc.mu.Unlock()
	for h, want := range map[string]string{"Content-Type": "application/json", "User-Agent": "ERP-Webhooks/1",
		webhooks.HeaderEvento: eventos.VentaCreada} {
		if r.Header.Get(h) != want {
			t.Errorf("%s: %q, want %q", h, r.Header.Get(h), want)
		}
	}
	if r.Header.Get(webhooks.HeaderID) == "" {
		t.Error("no X-Webhook-Id")
	}
	var payload map[string]any
	if err := json.Unmarshal(body, &payload); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "evento", "creado_en", "empresa_id", "data"} {
		if payload[k] == nil {
			t.Errorf("payload lacks %s: %s", k, body)
		}
	}
	if e, n := f.estado(ids[0]); e != webhooks.Entregada || n != 1 {
		t.Errorf("delivery: %s after %d attempts", e, n)
	}
}

func TestFailuresAreRetriedAfter30Times4ToTheNThenFail(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.rc.estado.Store(500)
	f.suscribir(3, eventos.VentaCreada)
	id := f.evento(eventos.VentaCreada)[0]
	waits := []time.Duration{30 * time.Second, 120 * time.Second, 480 * time.Second}
	for n, wait := range waits {
		f.entregar(id)
		if e, k := f.estado(id); e != webhooks.Pendiente || k != n+1 {
			t.Fatalf("after attempt %d: %s, %d attempts", n+1, e, k)
		}
		// The retry is queued with its delay (SQS DelaySeconds locally).
		p := f.cola.Pending()
		if len(p) == 0 || p[len(p)-1].Due.Sub(f.reloj) != wait {
			t.Fatalf("after attempt %d: queued %v, want a wake-up in %v", n+1, p, wait)
		}
		// An early message (a duplicate, or SQS delivering early) sends nothing.
		f.entregar(id)
		if got := f.rc.llamadas.Load(); got != int64(n+1) {
			t.Fatalf("early message sent a request: %d calls", got)
		}
		f.reloj = f.reloj.Add(wait)
	}
	f.entregar(id)
	if e, k := f.estado(id); e != webhooks.Fallida || k != 4 {
		t.Fatalf("after the last retry: %s, %d attempts", e, k)
	}
	f.entregar(id) // a failed delivery stays failed
	if f.rc.llamadas.Load() != 4 {
		t.Errorf("calls %d, want 4", f.rc.llamadas.Load())
	}
	// Every attempt is in the log, with the retry time it scheduled.
	var logged, scheduled int
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `select count(*), count(proximo_intento_en) from webhook_intentos where entrega_id = $1 and estado_http = 500`, id).
			Scan(&logged, &scheduled)
	})
	if logged != 4 || scheduled != 3 {
		t.Errorf("log: %d attempts, %d with a next attempt", logged, scheduled)
	}
}

func TestConcurrentMessagesForOneDeliverySendOneRequest(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.suscribir(5, eventos.VentaCreada)
	id := f.evento(eventos.VentaCreada)[0]
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = f.d.Entregar(context.Background(), 1, id)
		}()
	}
	wg.Wait()
	if f.rc.llamadas.Load() != 1 {
		t.Errorf("8 concurrent messages sent %d requests", f.rc.llamadas.Load())
	}
}

func TestTwentyFailedDeliveriesInARowDeactivateTheSubscription(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.rc.estado.Store(410)
	w := f.suscribir(1, eventos.VentaCreada)
	f.e.Exec(`update webhooks set fallos_consecutivos = 19 where id = $1`, w.ID)
	id := f.evento(eventos.VentaCreada)[0]
	f.entregar(id)
	f.reloj = f.reloj.Add(30 * time.Second)
	f.entregar(id)
	var activo bool
	var fallos int
	var avisos int
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `select activo, fallos_consecutivos from webhooks where id = $1`, w.ID).Scan(&activo, &fallos); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select count(*) from eventos where tipo = $1 and (payload->>'webhook_id')::bigint = $2`,
			webhooks.EventoDesactivado, w.ID).Scan(&avisos)
	})
	if activo || fallos != 20 || avisos != 1 {
		t.Fatalf("activo %v, fallos %d, webhook.desactivado events %d", activo, fallos, avisos)
	}
	// A deactivated subscription gets no new deliveries.
	if ids := f.evento(eventos.VentaCreada); len(ids) != 1 {
		t.Errorf("deliveries after deactivation: %v", ids)
	}
}

func TestRedeliveryAndTheSweep(t *testing.T) {
	t.Parallel()
	f := setup(t)
	w := f.suscribir(5, eventos.VentaCreada)
	id := f.evento(eventos.VentaCreada)[0]
	// The wake-up after commit was lost: the sweep finds the due delivery.
	n, err := f.d.Barrer(context.Background(), 100)
	if err != nil || n != 1 {
		t.Fatalf("sweep woke %d, %v", n, err)
	}
	if _, err := f.cola.Drain(context.Background(), f.d.Procesar); err != nil {
		t.Fatal(err)
	}
	if e, _ := f.estado(id); e != webhooks.Entregada {
		t.Fatalf("after the sweep: %s", e)
	}
	var nueva webhooks.Reenvio
	f.tx(func(ctx context.Context, tx *db.Tx) (err error) {
		nueva, err = webhooks.Reenviar(ctx, tx, w.ID, id)
		return err
	})
	if nueva.EntregaID == id || nueva.Estado != webhooks.Pendiente {
		t.Fatalf("redelivery: %+v", nueva)
	}
	f.entregar(nueva.EntregaID)
	if f.rc.llamadas.Load() != 2 {
		t.Errorf("calls %d, want 2", f.rc.llamadas.Load())
	}
}

func TestWorkerReportsOnlyTheFailedMessagesOfABatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.suscribir(5, eventos.VentaCreada)
	id := f.evento(eventos.VentaCreada)[0]
	msg := func(j queue.Job) string { b, _ := json.Marshal(j); return string(b) }
	ev := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "ok", Body: msg(queue.Job{Tipo: webhooks.TrabajoEntrega, EmpresaID: 1, ID: id})},
		{MessageId: "basura", Body: "no es json"},
	}}
	resp, err := queue.Consume(f.d.Procesar, nil)(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "basura" {
		t.Fatalf("batch failures %+v, %v", resp.BatchItemFailures, err)
	}
	if e, _ := f.estado(id); e != webhooks.Entregada {
		t.Errorf("the good message was not delivered: %s", e)
	}
}

// A receiver's answer is logged whatever its bytes: NUL, invalid UTF-8 or
// a multi-byte character cut by the 2 KB limit once made PostgreSQL refuse
// the log row, so a delivered event stayed pending and was sent again.
func TestAnyReceiverAnswerIsLoggedAndEndsTheDelivery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.rc.estado.Store(200)
	f.suscribir(3, eventos.PagoRecibido)
	for _, c := range []struct{ nombre, cuerpo, guardado string }{
		{"NUL byte", "ok\x00fin", "ok\uFFFDfin"},
		{"Latin-1 bytes", "Recepci\xf3n", "Recepci\uFFFDn"},
		{"character cut at 2 KB", strings.Repeat("a", 2047) + "é", strings.Repeat("a", 2047)},
	} {
		f.rc.respuesta.Store(c.cuerpo)
		ids := f.evento(eventos.PagoRecibido)
		id := ids[len(ids)-1]
		if err := f.d.Entregar(context.Background(), 1, id); err != nil {
			t.Fatalf("%s: %v", c.nombre, err)
		}
		if e, n := f.estado(id); e != webhooks.Entregada || n != 1 {
			t.Errorf("%s: delivery %s after %d attempts, want entregada after 1", c.nombre, e, n)
		}
		var guardado string
		f.tx(func(ctx context.Context, tx *db.Tx) error {
			return tx.QueryRow(ctx, `select respuesta from webhook_intentos where entrega_id = $1`, id).Scan(&guardado)
		})
		if guardado != c.guardado {
			t.Errorf("%s: logged %q, want %q", c.nombre, guardado, c.guardado)
		}
	}
}

// A subscription deactivated after its deliveries were queued (by hand, or
// by 20 failures) receives nothing more: each pending delivery ends
// fallida unsent, with a logged attempt saying why, and can be sent again
// once the subscription is active. A test is sent whatever the state.
func TestAnInactiveSubscriptionIsNotSentItsPendingDeliveries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	w := f.suscribir(5, eventos.VentaCreada)
	id := f.evento(eventos.VentaCreada)[0]
	activar := func(on bool) {
		f.tx(func(ctx context.Context, tx *db.Tx) error {
			_, err := webhooks.Suscripciones{Cifrador: f.d.Cifrador}.Actualizar(ctx, tx, w.ID, webhooks.Datos{Activo: &on})
			return err
		})
	}
	activar(false)
	f.entregar(id)
	if n := f.rc.llamadas.Load(); n != 0 {
		t.Fatalf("an inactive subscription received %d requests", n)
	}
	if e, n := f.estado(id); e != webhooks.Fallida || n != 1 {
		t.Fatalf("delivery %s after %d attempts, want fallida after 1", e, n)
	}
	var msg string
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `select error from webhook_intentos where entrega_id = $1`, id).Scan(&msg)
	})
	if !strings.Contains(msg, "inactiva") {
		t.Errorf("logged error %q", msg)
	}
	if res, err := f.d.Probar(context.Background(), 1, w.ID); err != nil || !res.Entregada {
		t.Errorf("a test to an inactive subscription: %+v, %v", res, err)
	}
	activar(true)
	var nueva webhooks.Reenvio
	f.tx(func(ctx context.Context, tx *db.Tx) (err error) {
		nueva, err = webhooks.Reenviar(ctx, tx, w.ID, id)
		return err
	})
	f.entregar(nueva.EntregaID)
	if e, _ := f.estado(nueva.EntregaID); e != webhooks.Entregada || f.rc.validas.Load() != 2 {
		t.Errorf("redelivery once active: %s, %d valid requests", e, f.rc.validas.Load())
	}
}

// A redirect is never followed, not even to another permitted receiver:
// the 3xx is the attempt's answer (a failure, retried later).
func TestARedirectIsNotFollowed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	destino := f.rc
	var llamadas atomic.Int64
	origen := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		llamadas.Add(1)
		http.Redirect(w, r, destino.srv.URL+"/robado", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(origen.Close)
	_, p1, _ := net.SplitHostPort(origen.Listener.Addr().String())
	_, p2, _ := net.SplitHostPort(destino.srv.Listener.Addr().String())
	f.d.Permitidos, _ = webhooks.NuevosPermitidos("127.0.0.1:" + p1 + ",127.0.0.1:" + p2)
	nombre, url, reintentos := "Redirige", origen.URL+"/hook", 3
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		_, err := webhooks.Suscripciones{Cifrador: f.d.Cifrador}.Crear(ctx, tx,
			webhooks.Datos{Nombre: &nombre, URL: &url, Eventos: []string{eventos.VentaCreada}, MaxReintentos: &reintentos})
		return err
	})
	id := f.evento(eventos.VentaCreada)[0]
	f.entregar(id)
	if llamadas.Load() != 1 || destino.llamadas.Load() != 0 {
		t.Fatalf("receiver %d calls, redirect target %d", llamadas.Load(), destino.llamadas.Load())
	}
	var estadoHTTP int
	f.tx(func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `select estado_http from webhook_intentos where entrega_id = $1`, id).Scan(&estadoHTTP)
	})
	if e, _ := f.estado(id); e != webhooks.Pendiente || estadoHTTP != http.StatusTemporaryRedirect {
		t.Errorf("after a redirect: %s, logged %d; want pendiente (a retry) and 307", e, estadoHTTP)
	}
}

// plazos records the deadline of every request and answers 204.
type plazos struct {
	mu  sync.Mutex
	got []time.Duration
}

func (p *plazos) RoundTrip(r *http.Request) (*http.Response, error) {
	d, _ := r.Context().Deadline()
	p.mu.Lock()
	p.got = append(p.got, time.Until(d))
	p.mu.Unlock()
	return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
}

// A test is answered within the request, which API Gateway ends at 30 s:
// it waits at most MaxPrueba whatever the subscription's timeout, while a
// delivery waits its full timeout_segundos.
func TestATestWaitsAtMostMaxPruebaADeliveryItsTimeout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rt := &plazos{}
	f.d.Transporte = rt
	nombre, url, timeout := "Lento", f.rc.srv.URL+"/hook", 60
	var w webhooks.Webhook
	f.tx(func(ctx context.Context, tx *db.Tx) (err error) {
		w, err = webhooks.Suscripciones{Cifrador: f.d.Cifrador}.Crear(ctx, tx,
			webhooks.Datos{Nombre: &nombre, URL: &url, Eventos: []string{eventos.VentaCreada}, TimeoutSegundos: &timeout})
		return err
	})
	if res, err := f.d.Probar(context.Background(), 1, w.ID); err != nil || !res.Entregada {
		t.Fatalf("probar: %+v %v", res, err)
	}
	f.entregar(f.evento(eventos.VentaCreada)[0])
	if len(rt.got) != 2 || rt.got[0] > webhooks.MaxPrueba || rt.got[0] < webhooks.MaxPrueba-5*time.Second ||
		rt.got[1] < 55*time.Second || rt.got[1] > 60*time.Second {
		t.Errorf("deadlines %v: want the test's at most %v and the delivery's 60 s", rt.got, webhooks.MaxPrueba)
	}
}
