// Package compras is the purchasing domain: purchase orders (órdenes de
// compra) from draft to receipt, the inventory entries their receipts make
// (through shared/inventario, in the receipt's transaction), and the
// payables (cuentas por pagar) a fully received order leaves, with their
// payments.
//
// Every request costs a constant number of database round trips whatever
// the number of lines or the page size: lines are written with one unnest
// statement, references are checked with one query per table, and the
// views (an order with its supplier, lines, payments and inventory entries;
// a payable with its payments) are built as JSON by PostgreSQL in one query.
package compras

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/idempotencia"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// Service serves the compras group: purchase orders and payables.
type Service struct {
	DB *db.DB
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"ordenes-compra.index":    s.index,
		"ordenes-compra.store":    s.store,
		"ordenes-compra.show":     s.show,
		"ordenes-compra.update":   s.update,
		"ordenes-compra.patch":    s.update,
		"ordenes-compra.destroy":  s.destroy,
		"ordenes-compra.aprobar":  s.aprobar,
		"ordenes-compra.recibir":  s.recibir,
		"ordenes-compra.cancelar": s.cancelar,
		"cuentas-por-pagar.index": s.cuentasIndex,
		"cuentas-por-pagar.show":  s.cuentasShow,
		"cuentas-por-pagar.pagos": s.pagar,
	}
}

// States of a purchase order (SPEC.md "States and transitions").
const (
	Borrador  = "borrador"
	Pendiente = "pendiente"
	Aprobada  = "aprobada"
	Recibida  = "recibida"
	Cancelada = "cancelada"
)

// Estados lists the states of a purchase order.
var Estados = []string{Borrador, Pendiente, Aprobada, Recibida, Cancelada}

// States of a payable.
var estadosCuenta = []string{"pendiente", "pagada", "anulada"}

// hoy is "today" for due dates and overdue payables: the calendar date in
// Costa Rica (UTC-6 all year), not the server's or the session's.
const hoy = `(now() at time zone 'America/Costa_Rica')::date`

func label(key string) string { return strings.ReplaceAll(key, "_", " ") }

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// args collects positional SQL arguments.
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

var (
	cien = decimal.NewFromInt(100)
	// Column limits: numeric(16,3) quantities, numeric(18,2) money,
	// numeric(18,4) unit costs.
	limiteCantidad = decimal.New(1, 13)
	limiteMonto    = decimal.New(1, 16)
	limiteCosto    = decimal.New(1, 14)
	// limiteOrden bounds a line's and an order's subtotal, so that taxes
	// (at most 100%) and totals still fit numeric(18,2).
	limiteOrden = decimal.New(1, 15)
)

// scanJSON scans a one-column jsonb row.
func scanJSON(r pgx.CollectableRow) (json.RawMessage, error) {
	var b []byte
	err := r.Scan(&b)
	return b, err
}

// envelope encodes {success, message, data} exactly as httpx writes it, so
// that an Idempotency-Key replay returns the very same bytes.
func envelope(msg string, data any) ([]byte, error) {
	return httpx.EncodeJSON(httpx.Envelope{Success: true, Message: msg, Data: data})
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// create runs a creating operation in one transaction and answers 201. With
// an Idempotency-Key header, the same key and body replay the first answer
// without doing anything again (a double-clicked order or payment is
// recorded once); the key is kept in the same transaction as the work.
func (s *Service) create(w http.ResponseWriter, r *http.Request, in *httpx.Input,
	fn func(ctx context.Context, tx *db.Tx) (msg string, data json.RawMessage, err error)) error {
	p := auth.FromRequest(r)
	key, err := idempotencia.Key(r)
	if err != nil {
		return err
	}
	ruta := r.Method + " " + r.URL.Path
	huella := idempotencia.Huella(in.Body())
	var (
		body   []byte
		replay *idempotencia.Stored
	)
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		if key != "" {
			st, err := idempotencia.Begin(ctx, tx, key, ruta, huella)
			if err != nil || st != nil {
				replay = st
				return err
			}
		}
		msg, data, err := fn(ctx, tx)
		if err != nil {
			return err
		}
		if body, err = envelope(msg, data); err != nil {
			return err
		}
		if key == "" {
			return nil
		}
		return idempotencia.Save(ctx, tx, key, ruta, huella, idempotencia.Stored{Status: http.StatusCreated, Body: body})
	})
	if err != nil {
		return err
	}
	if replay != nil {
		idempotencia.Replay(w, replay)
		return nil
	}
	writeBody(w, http.StatusCreated, body)
	return nil
}
