// Package eventos is the domain-event outbox: a change writes its event in
// its own transaction (so an event exists if and only if the change
// committed), and a later delivery stage fans events out to webhooks.
package eventos

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// Event types (SPEC.md "Events").
const (
	VentaCreada    = "VentaCreadaEvent"
	ClienteCreado  = "ClienteCreadoEvent"
	PagoRecibido   = "PagoRecibidoEvent"
	FacturaEmitida = "FacturaEmitidaEvent"
	InventarioBajo = "InventarioBajoEvent"
	// PlanillaPagada: a payroll marked paid (issue 15; shared/nomina).
	PlanillaPagada = "PlanillaPagadaEvent"
)

// Tipos lists the known event types.
var Tipos = []string{VentaCreada, ClienteCreado, PagoRecibido, FacturaEmitida, InventarioBajo, PlanillaPagada}

// Registrar writes an event of the transaction's tenant into the outbox, in
// that transaction. payload is the resource as the API shows it.
func Registrar(ctx context.Context, tx *db.Tx, tipo string, payload any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("eventos: %s payload: %w", tipo, err)
	}
	if _, err := tx.Exec(ctx, insertar, tx.EmpresaID(), tipo, raw); err != nil {
		return fmt.Errorf("eventos: %s: %w", tipo, err)
	}
	return nil
}

// RegistrarAlConfirmar is Registrar for an event that is its transaction's
// last write: the insert travels with the COMMIT (db.Tx.ExecAtCommit)
// instead of a round trip of its own, and a failure fails the commit. The
// markers of the transaction (db.Marcador) are resolved in the payload.
func RegistrarAlConfirmar(tx *db.Tx, tipo string, payload any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("eventos: %s payload: %w", tipo, err)
	}
	if tx.Marcado() {
		// A value the commit takes (a sale's number) replaces its token:
		// the payload is what Go would have encoded with it.
		payload, args := tx.Resuelto("$3::text", []any{tx.EmpresaID(), tipo, string(raw)})
		tx.ExecAtCommit(`insert into eventos (empresa_id, tipo, payload) values ($1, $2, `+payload+`::jsonb)`, args...)
		return nil
	}
	tx.ExecAtCommit(insertar, tx.EmpresaID(), tipo, raw)
	return nil
}

const insertar = `insert into eventos (empresa_id, tipo, payload) values ($1, $2, $3::jsonb)`

// Evento is an outbox row as the API shows it.
type Evento struct {
	ID         string          `json:"id"`
	Secuencia  int64           `json:"secuencia"`
	EmpresaID  int64           `json:"empresa_id"`
	Tipo       string          `json:"tipo"`
	OcurridoEn string          `json:"ocurrido_en"`
	Payload    json.RawMessage `json:"payload"`
}

// Consultas are the query parameters of GET /api/eventos (the OpenAPI
// document).
var Consultas = map[string][]esquema.Campo{
	"eventos.index": {{Nombre: "tipo", Tipo: esquema.Texto, Descripcion: "Solo los eventos de este tipo (VentaCreadaEvent...)."},
		esquema.Orden(sorts)},
}

// Handlers serves GET /api/eventos (Administrador): the tenant's events,
// newest first, filtered by tipo.
func Handlers(d *db.DB) lambdahttp.Handlers {
	return lambdahttp.Handlers{"eventos.index": handler.List(d, lista)}
}

var sorts = map[string]string{"secuencia": "secuencia", "ocurrido_en": "ocurrido_en", "tipo": "tipo"}

func lista(r *http.Request, _ auth.Principal) (handler.Query[Evento], error) {
	// A NUL or invalid UTF-8 in ?tipo= becomes U+FFFD (matching nothing)
	// instead of a PostgreSQL error (a 500).
	f := httpx.NewFilters(r)
	tipo := f.Text("tipo")
	order, err := f.SortNewest(sorts, "secuencia")
	if err != nil {
		return handler.Query[Evento]{}, err
	}
	return handler.Query[Evento]{
		Cols:  `id::text, secuencia, empresa_id, tipo, to_char(ocurrido_en at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), payload`,
		From:  `from eventos where empresa_id = $1 and ($2::text is null or tipo = $2)`,
		Order: order + ", secuencia desc", Args: []any{tipo}, Scan: pgx.RowToStructByPos[Evento],
	}, nil
}
