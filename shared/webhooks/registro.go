package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/queue"
)

// Intento is one row of a subscription's delivery log: one attempt.
type Intento struct {
	ID               int64           `json:"id"`
	EntregaID        int64           `json:"entrega_id"`
	EventoID         *string         `json:"evento_id"`
	Evento           string          `json:"evento"`
	EstadoEntrega    string          `json:"estado_entrega"`
	Numero           int             `json:"intento"`
	SolicitudHeaders json.RawMessage `json:"solicitud_headers"`
	EstadoHTTP       *int            `json:"estado_http"`
	DuracionMS       int             `json:"duracion_ms"`
	Respuesta        *string         `json:"respuesta"`
	Error            *string         `json:"error"`
	ProximoIntentoEn *time.Time      `json:"proximo_intento_en"`
	CreadoEn         time.Time       `json:"creado_en"`
}

// IntentoCols and IntentoFrom are the delivery log's list query ($1 the
// tenant, $2 the subscription, $3 estado, $4 evento, $5/$6 the date range).
const (
	IntentoCols = `i.id, i.entrega_id, e.evento_id::text, e.evento, e.estado, i.numero, i.solicitud_headers, i.estado_http,
		i.duracion_ms, i.respuesta, i.error, i.proximo_intento_en, i.creado_en`
	IntentoFrom = `from webhook_intentos i join webhook_entregas e on e.empresa_id = i.empresa_id and e.id = i.entrega_id
		where i.empresa_id = $1 and e.webhook_id = $2
		and ($3::text is null or e.estado = $3) and ($4::text is null or e.evento = $4)
		and ($5::date is null or i.creado_en >= $5::date) and ($6::date is null or i.creado_en < $6::date + 1)`
)

// ScanIntento reads a row of IntentoCols.
func ScanIntento(row pgx.CollectableRow) (Intento, error) {
	var x Intento
	err := row.Scan(&x.ID, &x.EntregaID, &x.EventoID, &x.Evento, &x.EstadoEntrega, &x.Numero, &x.SolicitudHeaders, &x.EstadoHTTP,
		&x.DuracionMS, &x.Respuesta, &x.Error, &x.ProximoIntentoEn, &x.CreadoEn)
	return x, err
}

// Reenvio is a fresh delivery of an earlier delivery's event.
type Reenvio struct {
	EntregaID int64  `json:"entrega_id"`
	Evento    string `json:"evento"`
	Estado    string `json:"estado"`
}

// Reenviar queues a new delivery of the event of entrega (of webhook id),
// due now; the caller wakes the worker after commit.
func Reenviar(ctx context.Context, tx *db.Tx, webhookID, entregaID int64) (Reenvio, error) {
	if _, err := Buscar(ctx, tx, webhookID); err != nil {
		return Reenvio{}, err
	}
	var r Reenvio
	err := tx.QueryRow(ctx, `insert into webhook_entregas (empresa_id, webhook_id, evento_id, evento, payload, proximo_intento_en)
		select empresa_id, webhook_id, evento_id, evento, payload, now() from webhook_entregas
		where empresa_id = $1 and webhook_id = $2 and id = $3
		returning id, evento, estado`, tx.EmpresaID(), webhookID, entregaID).Scan(&r.EntregaID, &r.Evento, &r.Estado)
	if errors.Is(err, pgx.ErrNoRows) {
		return Reenvio{}, apperr.NewNotFound("Entrega no encontrada.")
	}
	if err != nil {
		return Reenvio{}, fmt.Errorf("webhooks: reenviar: %w", err)
	}
	return r, nil
}

// Despertar wakes the worker for a delivery now (after the commit that
// created it; a lost wake-up is the sweep's).
func (d *Despachador) Despertar(ctx context.Context, empresaID, entregaID int64) error {
	return d.Cola.Wake(ctx, queue.Job{Tipo: TrabajoEntrega, EmpresaID: empresaID, ID: entregaID}, 0)
}

// EventoPrueba is the event of POST /api/webhooks/{id}/probar.
const EventoPrueba = "webhook.prueba"

// MaxPrueba bounds the wait of a test, which is answered in the request:
// API Gateway ends an HTTP API integration at 30 s with its own English
// 503, so a subscription's timeout_segundos up to 60 would outlive the
// answer; the test reports "tiempo de espera agotado" instead.
const MaxPrueba = 25 * time.Second

// Probar sends a signed webhook.prueba event to the subscription now and
// answers with the outcome. The attempt is logged like any other; a test
// is never retried and never counts toward deactivation.
func (d *Despachador) Probar(ctx context.Context, empresaID, webhookID int64) (Resultado, error) {
	var entregaID int64
	err := d.DB.WithTx(ctx, db.Scope{EmpresaID: empresaID}, func(tx *db.Tx) error {
		if _, err := Buscar(ctx, tx, webhookID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `with ev as (select gen_random_uuid() as id, now() as en)
			insert into webhook_entregas (empresa_id, webhook_id, evento_id, evento, payload, proximo_intento_en)
			select $1, $2, ev.id, $3::text, jsonb_build_object('id', ev.id, 'evento', $3::text,
				'creado_en', to_char(ev.en at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'empresa_id', $1::bigint,
				'data', jsonb_build_object('mensaje', 'Prueba de conexión del webhook.')), null
			from ev returning id`, tx.EmpresaID(), webhookID, EventoPrueba).Scan(&entregaID)
	})
	if err != nil {
		return Resultado{}, err
	}
	t, ok, err := d.tomarPrueba(ctx, empresaID, entregaID)
	if err != nil {
		return Resultado{}, err
	}
	if !ok { // the subscription was deleted meanwhile (its deliveries ended)
		return Resultado{}, apperr.NewNotFound(msgNoEncontrado)
	}
	t.timeout = min(t.timeout, MaxPrueba)
	res, headers := d.enviar(ctx, t)
	t.maxReintentos = 0 // a test is answered now: no retry
	return res, d.registrarPrueba(ctx, t, res, headers)
}

// tomarPrueba leases a test delivery (it is created without a due time).
func (d *Despachador) tomarPrueba(ctx context.Context, empresaID, id int64) (tomada, bool, error) {
	if err := d.DB.WithTx(ctx, db.Scope{EmpresaID: empresaID}, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `update webhook_entregas set proximo_intento_en = $3 where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), id, d.now())
		return err
	}); err != nil {
		return tomada{}, false, fmt.Errorf("webhooks: prueba: %w", err)
	}
	return d.tomar(ctx, empresaID, id, true)
}

// registrarPrueba logs a test attempt and ends its delivery, without
// touching the subscription's failure count.
func (d *Despachador) registrarPrueba(ctx context.Context, t tomada, res Resultado, headers map[string]string) error {
	respuesta := headers["_respuesta"]
	delete(headers, "_respuesta")
	hjson, _ := json.Marshal(headers)
	estado := Fallida
	if res.Entregada {
		estado = Entregada
	}
	return d.DB.WithTx(ctx, db.Scope{EmpresaID: t.empresaID}, func(tx *db.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`insert into webhook_intentos (empresa_id, entrega_id, numero, solicitud_headers, estado_http, duracion_ms, respuesta, error)
			values ($1, $2, $3, $4, nullif($5, 0), $6, nullif($7, ''), nullif($8, ''))`,
			tx.EmpresaID(), t.id, t.numero, hjson, res.EstadoHTTP, res.DuracionMS, respuesta, res.Error)
		b.Queue(`update webhook_entregas set estado = $3, proximo_intento_en = null, tomada_hasta = null where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), t.id, estado)
		return tx.SendBatch(ctx, b).Close()
	})
}
