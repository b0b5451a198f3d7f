// Package webhooks delivers the companies' domain events to the URLs they
// subscribe (GitHub/Stripe style): one delivery row per event and
// subscription, written in the event's own transaction; a worker POSTs the
// signed JSON, logs every attempt, retries after 30 x 4^(n-1) seconds up to
// the subscription's max_reintentos, and deactivates a subscription after
// 20 consecutive failed deliveries. Destinations are checked against SSRF
// when saved and again at connect time.
package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/queue"
)

// TrabajoEntrega is the queue job kind of a delivery (Job.ID = delivery id).
const TrabajoEntrega = "webhook"

// States of a delivery.
const (
	Pendiente = "pendiente"
	Entregada = "entregada"
	Fallida   = "fallida"
)

// MaxFallosSeguidos failed deliveries in a row deactivate a subscription.
const MaxFallosSeguidos = 20

// EventoDesactivado is recorded in the outbox when a subscription is
// deactivated for failing.
const EventoDesactivado = "webhook.desactivado"

// maxRespuesta is how much of a receiver's answer the log keeps.
const maxRespuesta = 2048

// Cifrador seals subscription secrets (the same key source as the other
// secrets of the service).
type Cifrador interface {
	Cifrar(empresaID int64, campo string, plano []byte) ([]byte, error)
	Descifrar(empresaID int64, campo string, sellado []byte) ([]byte, error)
}

// campoSecreto is the associated data of a subscription's secret: a secret
// copied onto another row does not decrypt.
func campoSecreto(webhookID int64) string {
	return "webhook/" + strconv.FormatInt(webhookID, 10) + "/secreto"
}

// Despachador sends deliveries.
type Despachador struct {
	DB       *db.DB
	Cola     queue.Queue
	Cifrador Cifrador
	// Permitidos exempts local receivers (never in production).
	Permitidos Permitidos
	// Ahora is the clock (tests move it); nil means time.Now.
	Ahora func() time.Time
	// Transporte is for tests that route requests elsewhere; nil means the
	// SSRF-guarded transport.
	Transporte http.RoundTripper
}

func (d *Despachador) now() time.Time {
	if d.Ahora != nil {
		return d.Ahora()
	}
	return time.Now()
}

// cliente is an HTTP client that never follows redirects and connects
// only to permitted destinations.
func (d *Despachador) cliente(timeout time.Duration) *http.Client {
	tr := d.Transporte
	if tr == nil {
		tr = &http.Transport{DialContext: dialContext(timeout, d.Permitidos), TLSHandshakeTimeout: timeout,
			ResponseHeaderTimeout: timeout, MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second}
	}
	return &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// tomada is a delivery a worker holds for one attempt.
type tomada struct {
	empresaID, id, webhookID int64
	url, evento              string
	payload                  []byte
	secreto                  []byte
	numero, maxReintentos    int
	timeout                  time.Duration
}

// Resultado is the outcome of one attempt.
type Resultado struct {
	EstadoHTTP int    `json:"estado_http"`
	DuracionMS int    `json:"duracion_ms"`
	Error      string `json:"error,omitempty"`
	Entregada  bool   `json:"entregada"`
}

// Entregar makes the attempt a queue message asks for. It is idempotent: a
// duplicate or early message, or one for a delivery another worker holds or
// that has ended, sends nothing.
func (d *Despachador) Entregar(ctx context.Context, empresaID, id int64) error {
	t, ok, err := d.tomar(ctx, empresaID, id, false)
	if err != nil || !ok {
		return err
	}
	res, headers := d.enviar(ctx, t)
	return d.registrar(ctx, t, res, headers)
}

// msgInactiva is the log's error of a delivery ended unsent because its
// subscription was deactivated (by hand, or after 20 failures) meanwhile.
const msgInactiva = "No se envió: la suscripción está inactiva. Actívela y use reenviar para entregar este evento."

// tomar locks the delivery, checks it is due and free, and leases it for
// the attempt (intentos + 1), in one transaction. A delivery of a
// subscription deactivated since it was queued is not sent: it ends
// fallida with a logged attempt saying why (so the log shows it and
// reenviar can send it once the subscription is active again); a test
// (prueba) is sent whatever the subscription's state.
func (d *Despachador) tomar(ctx context.Context, empresaID, id int64, prueba bool) (tomada, bool, error) {
	now := d.now()
	var t tomada
	var cifrado []byte
	var timeoutSeg int
	ok := false
	err := d.DB.WithTx(ctx, db.Scope{EmpresaID: empresaID}, func(tx *db.Tx) error {
		var estado string
		var activa bool
		var proximo, tomadaHasta *time.Time
		err := tx.QueryRow(ctx, `select e.id, e.empresa_id, e.webhook_id, e.evento, e.payload::text, e.estado, e.intentos,
				e.proximo_intento_en, e.tomada_hasta, w.url, w.timeout_segundos, w.max_reintentos, w.secreto_cifrado, w.activo
			from webhook_entregas e join webhooks w on w.empresa_id = e.empresa_id and w.id = e.webhook_id
			where e.empresa_id = $1 and e.id = $2 for update of e`, tx.EmpresaID(), id).
			Scan(&t.id, &t.empresaID, &t.webhookID, &t.evento, &t.payload, &estado, &t.numero,
				&proximo, &tomadaHasta, &t.url, &timeoutSeg, &t.maxReintentos, &cifrado, &activa)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("webhooks: tomar %d: %w", id, err)
		}
		if estado != Pendiente || (proximo != nil && proximo.After(now)) || (tomadaHasta != nil && tomadaHasta.After(now)) {
			return nil
		}
		t.numero++
		if !activa && !prueba {
			b := &pgx.Batch{}
			b.Queue(`insert into webhook_intentos (empresa_id, entrega_id, numero, solicitud_headers, duracion_ms, error)
				values ($1, $2, $3, '{}', 0, $4)`, tx.EmpresaID(), id, t.numero, msgInactiva)
			b.Queue(`update webhook_entregas set estado = 'fallida', intentos = $3, proximo_intento_en = null, tomada_hasta = null
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, t.numero)
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return fmt.Errorf("webhooks: inactiva %d: %w", id, err)
			}
			return nil
		}
		t.timeout = time.Duration(timeoutSeg) * time.Second
		// The lease outlives the request (timeout) with a margin; a worker
		// that dies mid-attempt releases the delivery when it expires.
		if _, err := tx.Exec(ctx, `update webhook_entregas set intentos = $3, tomada_hasta = $4 where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), id, t.numero, now.Add(t.timeout+30*time.Second)); err != nil {
			return fmt.Errorf("webhooks: tomar %d: %w", id, err)
		}
		ok = true
		return nil
	})
	if err != nil || !ok {
		return t, false, err
	}
	if t.secreto, err = d.Cifrador.Descifrar(t.empresaID, campoSecreto(t.webhookID), cifrado); err != nil {
		return t, false, fmt.Errorf("webhooks: secreto de %d: %w", t.webhookID, err)
	}
	return t, true, nil
}

// enviar POSTs the signed payload and returns the outcome and the headers
// sent (logged without the secret, which is never sent).
func (d *Despachador) enviar(ctx context.Context, t tomada) (Resultado, map[string]string) {
	start := d.now()
	headers := map[string]string{
		"Content-Type":  "application/json",
		"User-Agent":    UserAgent,
		HeaderID:        strconv.FormatInt(t.id, 10),
		HeaderEvento:    t.evento,
		HeaderTimestamp: strconv.FormatInt(start.Unix(), 10),
		HeaderFirma:     Firmar(t.secreto, start, t.payload),
	}
	res := Resultado{}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(t.payload))
	if err != nil {
		res.Error = "URL inválida: " + err.Error()
		return res, headers
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	began := time.Now()
	resp, err := d.cliente(t.timeout).Do(req)
	res.DuracionMS = int(time.Since(began).Milliseconds())
	if err != nil {
		res.Error = describir(err)
		return res, headers
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxRespuesta))
	res.EstadoHTTP = resp.StatusCode
	res.Entregada = resp.StatusCode >= 200 && resp.StatusCode < 300
	headers["_respuesta"] = texto(body, maxRespuesta)
	return res, headers
}

// describir words a transport error for the delivery log.
func describir(err error) string {
	switch {
	case errors.Is(err, ErrDestinoProhibido):
		return "destino no permitido (dirección privada, interna o reservada)"
	case errors.Is(err, context.DeadlineExceeded):
		return "tiempo de espera agotado"
	}
	return texto([]byte(err.Error()), 2000)
}

// texto makes a receiver's bytes storable as PostgreSQL text: invalid
// UTF-8 and NUL (which a text column refuses, failing the whole log write
// and leaving the delivery to be sent again and again) become U+FFFD, and
// the result is cut to at most max bytes on a character boundary.
func texto(b []byte, max int) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// registrar logs the attempt and moves the delivery on: delivered, retried
// after Espera(n), or failed — counting consecutive failures of the
// subscription and deactivating it at MaxFallosSeguidos.
func (d *Despachador) registrar(ctx context.Context, t tomada, res Resultado, headers map[string]string) error {
	now := d.now()
	respuesta := headers["_respuesta"]
	delete(headers, "_respuesta")
	hjson, _ := json.Marshal(headers)
	var proximo *time.Time
	estado := Pendiente
	switch {
	case res.Entregada:
		estado = Entregada
	case t.numero > t.maxReintentos:
		estado = Fallida
	default:
		p := now.Add(Espera(t.numero))
		proximo = &p
	}
	var respPtr, errPtr *string
	if respuesta != "" {
		respPtr = &respuesta
	}
	if res.Error != "" {
		errPtr = &res.Error
	}
	var estadoHTTP *int
	if res.EstadoHTTP != 0 {
		estadoHTTP = &res.EstadoHTTP
	}
	err := d.DB.WithTx(ctx, db.Scope{EmpresaID: t.empresaID}, func(tx *db.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`insert into webhook_intentos (empresa_id, entrega_id, numero, solicitud_headers, estado_http, duracion_ms, respuesta, error, proximo_intento_en)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			tx.EmpresaID(), t.id, t.numero, hjson, estadoHTTP, res.DuracionMS, respPtr, errPtr, proximo)
		b.Queue(`update webhook_entregas set estado = $3, proximo_intento_en = $4, tomada_hasta = null where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), t.id, estado, proximo)
		switch estado {
		case Entregada:
			b.Queue(`update webhooks set fallos_consecutivos = 0 where empresa_id = $1 and id = $2 and fallos_consecutivos <> 0`, tx.EmpresaID(), t.webhookID)
		case Fallida:
			b.Queue(`update webhooks set fallos_consecutivos = fallos_consecutivos + 1,
				activo = case when fallos_consecutivos + 1 >= $3 then false else activo end,
				desactivado_en = case when fallos_consecutivos + 1 >= $3 and activo then now() else desactivado_en end
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), t.webhookID, MaxFallosSeguidos)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("webhooks: registrar %d: %w", t.id, err)
		}
		if estado != Fallida {
			return nil
		}
		return d.avisarDesactivado(ctx, tx, t.webhookID)
	})
	if err != nil {
		return err
	}
	if proximo != nil && Espera(t.numero) <= MaxDelaySQS {
		return d.Cola.Wake(ctx, queue.Job{Tipo: TrabajoEntrega, EmpresaID: t.empresaID, ID: t.id}, Espera(t.numero))
	}
	return nil
}

// avisarDesactivado records webhook.desactivado once, when the failure
// just recorded deactivated the subscription.
func (d *Despachador) avisarDesactivado(ctx context.Context, tx *db.Tx, webhookID int64) error {
	var nombre, url string
	err := tx.QueryRow(ctx, `select nombre, url from webhooks where empresa_id = $1 and id = $2
		and not activo and fallos_consecutivos = $3`, tx.EmpresaID(), webhookID, MaxFallosSeguidos).Scan(&nombre, &url)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("webhooks: desactivado: %w", err)
	}
	return eventos.Registrar(ctx, tx, EventoDesactivado, map[string]any{
		"webhook_id": webhookID, "nombre": nombre, "url": url, "fallos_consecutivos": MaxFallosSeguidos,
		"motivo": "Desactivado tras " + strconv.Itoa(MaxFallosSeguidos) + " entregas fallidas consecutivas.",
	})
}

// Barrer is the scheduler's sweep: it wakes every due delivery no worker
// holds (a lost wake-up after commit, a crashed worker, a wait longer than
// SQS can delay). It returns how many it woke.
func (d *Despachador) Barrer(ctx context.Context, limite int) (int, error) {
	rows, err := d.DB.Pool.Query(ctx, `select empresa_id, id from webhooks_entregas_vencidas($1, $2)`, d.now(), limite)
	if err != nil {
		return 0, fmt.Errorf("webhooks: barrer: %w", err)
	}
	jobs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (queue.Job, error) {
		j := queue.Job{Tipo: TrabajoEntrega}
		return j, r.Scan(&j.EmpresaID, &j.ID)
	})
	if err != nil {
		return 0, fmt.Errorf("webhooks: barrer: %w", err)
	}
	for _, j := range jobs {
		if err := d.Cola.Wake(ctx, j, 0); err != nil {
			return 0, err
		}
	}
	return len(jobs), nil
}

// Procesar is the queue handler of the webhook worker (SQS in AWS, the
// in-process queue locally): one message, one attempt. An error (the
// database unreachable) makes the queue redeliver the message; a failed
// HTTP attempt is not an error, it is scheduled as a retry.
func (d *Despachador) Procesar(ctx context.Context, j queue.Job) error {
	return d.Entregar(ctx, j.EmpresaID, j.ID)
}

// BarrerEmpresa wakes the due deliveries of one company: the wake-up after
// a commit that fanned an event out.
func (d *Despachador) BarrerEmpresa(ctx context.Context, empresaID int64, limite int) (int, error) {
	var ids []int64
	err := d.DB.WithTx(ctx, db.Scope{EmpresaID: empresaID}, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `select id from webhook_entregas where empresa_id = $1 and estado = 'pendiente'
			and proximo_intento_en <= $2 and (tomada_hasta is null or tomada_hasta < $2) order by id limit $3`,
			tx.EmpresaID(), d.now(), limite)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("webhooks: despertar empresa %d: %w", empresaID, err)
	}
	for _, id := range ids {
		if err := d.Cola.Wake(ctx, queue.Job{Tipo: TrabajoEntrega, EmpresaID: empresaID, ID: id}, 0); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
