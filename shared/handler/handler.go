// Package handler is the one skeleton of the API's hand-written handlers.
// A handler here reads the principal, parses the path id and the body, runs
// a domain function in one transaction bound to the caller's tenant, and
// writes the envelope; the domain function's typed errors (package apperr)
// become statuses in httpx.WriteError. Domain packages therefore hold only
// their rules and SQL (ARCHITECTURE.md), and no handler re-implements the
// skeleton.
//
//	"ventas.show":    handler.Show(d, ventas.Find),
//	"ventas.estado":  handler.Action(d, "Venta actualizada.", decodeEstado, ventas.CambiarEstado),
//	"ventas.index":   handler.List(d, listaVentas),
package handler

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/idempotencia"
	"github.com/erpcr/erp/shared/valid"
)

// FindFunc loads one record of the transaction's tenant, or returns an
// apperr NotFound error.
type FindFunc[T any] func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (T, error)

// ActionFunc changes one record of the transaction's tenant with the
// decoded input and returns what the response shows.
type ActionFunc[In, Out any] func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, in In) (Out, error)

// CreateFunc creates a record of the transaction's tenant and returns what
// the response shows.
type CreateFunc[In, Out any] func(ctx context.Context, tx *db.Tx, p auth.Principal, in In) (Out, error)

// DecodeFunc validates a request body (read once by the handler) into In;
// validation failures are returned as apperr Invalid errors (in.Err()).
type DecodeFunc[In any] func(in *valid.Input) (In, error)

// NoBody decodes nothing: for actions without a body.
func NoBody(*valid.Input) (struct{}, error) { return struct{}{}, nil }

// decodeBody reads the body once and decodes it.
func decodeBody[In any](r *http.Request, decode DecodeFunc[In]) (In, *valid.Input, error) {
	var zero In
	in, err := httpx.ReadInput(r)
	if err != nil {
		return zero, nil, err
	}
	v, err := decode(in)
	return v, in, err
}

// body is decodeBody as a parse function of runWith.
func body[In any](decode DecodeFunc[In]) func(*http.Request) (In, error) {
	return func(r *http.Request) (In, error) {
		in, _, err := decodeBody(r, decode)
		return in, err
	}
}

// intentos is how many times run runs a transaction at most.
const intentos = 3

// run runs fn in one transaction scoped to the request's principal. A
// transaction PostgreSQL aborted as a deadlock victim, a serialization
// failure or a plan gone stale (db.Reintentable) is run again (up to 3
// times): nothing of it committed, and domain functions have no effect
// outside the database (stock rows are locked by concurrent sales,
// receipts and transfers). fn's context tells the last run
// (db.UltimoIntento), where an optimistic domain function locks instead.
func run(d *db.DB, r *http.Request, fn func(ctx context.Context, tx *db.Tx, p auth.Principal) error) error {
	p := auth.FromRequest(r)
	var err error
	for i := range intentos {
		ctx := db.ConIntento(r.Context(), i, intentos)
		err = d.WithTx(ctx, p.Scope(), func(tx *db.Tx) error { return fn(ctx, tx, p) })
		if !db.Reintentable(err) {
			return err
		}
	}
	return err
}

// runFor is run for a domain function with a result: the result of the
// attempt that committed.
func runFor[T any](d *db.DB, r *http.Request, fn func(ctx context.Context, tx *db.Tx, p auth.Principal) (T, error)) (T, error) {
	var out T
	err := run(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) (err error) {
		out, err = fn(ctx, tx, p)
		return err
	})
	return out, err
}

// runWith reads the request with parse (before the transaction opens: a bad
// input costs no round trip), then runs fn with what it read.
func runWith[In, Out any](d *db.DB, r *http.Request, parse func(*http.Request) (In, error), fn func(ctx context.Context, tx *db.Tx, p auth.Principal, in In) (Out, error)) (Out, error) {
	in, err := parse(r)
	if err != nil {
		var zero Out
		return zero, err
	}
	return runFor(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) (Out, error) { return fn(ctx, tx, p, in) })
}

// Show answers GET /{id}: 200 {success, data}.
func Show[T any](d *db.DB, find FindFunc[T]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := httpx.PathID(r)
		if err != nil {
			return err
		}
		out, err := runFor(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) (T, error) {
			tx.CommitWithFinalBatch() // nothing follows the read
			return find(ctx, tx, p, id)
		})
		if err != nil {
			return err
		}
		return httpx.OK(w, "", out)
	}
}

// ReadFunc reads what the tenant has one of (its settings, its statistics
// for the query q).
type ReadFunc[Q, T any] func(ctx context.Context, tx *db.Tx, p auth.Principal, q Q) (T, error)

// NoQuery parses nothing: for reads without filters.
func NoQuery(*http.Request) (struct{}, error) { return struct{}{}, nil }

// Get answers GET of a resource without an id (/hacienda/configuracion,
// /hacienda/estadisticas): the query is parsed before the transaction
// opens (a bad filter costs no round trip), then 200 {success, data}.
func Get[Q, T any](d *db.DB, parse func(*http.Request) (Q, error), read ReadFunc[Q, T]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		out, err := runWith(d, r, parse, read)
		if err != nil {
			return err
		}
		if e, ok := any(out).(Escritor); ok {
			return e.Escribir(w)
		}
		return httpx.OK(w, "", out)
	}
}

// Escritor is a read's result that writes its own answer, after the
// transaction committed: a file download (a report as PDF, Excel or CSV,
// with its Content-Type and Content-Disposition) or a body encoded ahead
// (a cached report). Get hands it the ResponseWriter instead of writing
// the {success, data} envelope.
type Escritor interface {
	Escribir(w http.ResponseWriter) error
}

// Put answers PUT of a resource without an id (the tenant's settings):
// 200 {success, message, data}.
func Put[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], do CreateFunc[In, Out]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		out, err := runWith(d, r, body(decode), do)
		if err != nil {
			return err
		}
		if isNil(any(out)) {
			return httpx.OKMessage(w, msg)
		}
		return httpx.OK(w, msg, out)
	}
}

// Action answers a change of one record (PUT/PATCH /{id}, POST
// /{id}/<action>, DELETE /{id}): 200 {success, message, data}; with a nil
// result only {success, message}.
func Action[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], do ActionFunc[In, Out]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := httpx.PathID(r)
		if err != nil {
			return err
		}
		in, _, err := decodeBody(r, decode)
		if err != nil {
			return err
		}
		out, err := runFor(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) (Out, error) {
			return do(ctx, tx, p, id, in)
		})
		if err != nil {
			return err
		}
		if m, ok := any(out).(conMensaje); ok {
			msg2, data, _ := m.mensaje()
			return httpx.OK(w, msg2, data)
		}
		if isNil(any(out)) {
			return httpx.OKMessage(w, msg)
		}
		return httpx.OK(w, msg, out)
	}
}

// Create answers POST: 201 {success, message, data}. With an
// Idempotency-Key header the key is locked first (a concurrent duplicate
// waits), a key already used with the same body replays the first answer
// without doing anything (Idempotent-Replayed: true), a key used with
// another body or route is a 422, and the answer is stored in the same
// transaction as the work it answers.
func Create[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], create CreateFunc[In, Out]) httpx.HandlerFunc {
	return creating(d, msg, decode, false, true, func(ctx context.Context, tx *db.Tx, p auth.Principal, _ int64, in In) (Out, error) {
		return create(ctx, tx, p, in)
	})
}

// CreateUnder is Create for a record created under another one, named by
// the path's {id} (POST /cuentas-por-cobrar/{id}/pagos).
func CreateUnder[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], create ActionFunc[In, Out]) httpx.HandlerFunc {
	return creating(d, msg, decode, true, true, create)
}

// CreateSecret is Create for an answer that carries a secret shown once (a
// webhook's signing secret): it is never stored for Idempotency-Key
// replays, so the header is ignored.
func CreateSecret[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], create CreateFunc[In, Out]) httpx.HandlerFunc {
	return creating(d, msg, decode, false, false, func(ctx context.Context, tx *db.Tx, p auth.Principal, _ int64, in In) (Out, error) {
		return create(ctx, tx, p, in)
	})
}

func creating[In, Out any](d *db.DB, msg string, decode DecodeFunc[In], conID, idempotente bool, create ActionFunc[In, Out]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var id int64
		if conID {
			var err error
			if id, err = httpx.PathID(r); err != nil {
				return err
			}
		}
		key, err := idempotencia.Key(r)
		if err != nil {
			return err
		}
		if !idempotente {
			key = ""
		}
		in, input, err := decodeBody(r, decode)
		if err != nil {
			return err
		}
		ruta := r.Method + " " + r.URL.Path
		huella := idempotencia.Huella(input.Body())
		var (
			replay *idempotencia.Stored
			out    []byte
			status int
			last   *db.Tx
		)
		err = run(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) error {
			last = tx
			if key != "" {
				stored, err := idempotencia.Begin(ctx, tx, key, ruta, huella)
				if err != nil || stored != nil {
					replay = stored
					return err
				}
			}
			data, err := create(ctx, tx, p, id, in)
			if err != nil {
				return err
			}
			env := httpx.Envelope{Success: true, Message: msg, Data: data}
			status = http.StatusCreated
			if m, ok := any(data).(conMensaje); ok {
				var st int
				if env.Message, env.Data, st = m.mensaje(); st != 0 {
					status = st
				}
			}
			if out, err = httpx.EncodeJSON(env); err != nil {
				return fmt.Errorf("handler: encode: %w", err)
			}
			if key == "" {
				return nil
			}
			idempotencia.SaveAtCommit(tx, key, ruta, huella, idempotencia.Stored{Status: status, Body: out})
			return nil
		})
		if err != nil {
			return err
		}
		if replay != nil {
			idempotencia.Replay(w, replay)
			return nil
		}
		// Values the commit took (a sale's number) replace their tokens.
		if out, err = last.Resolver(out); err != nil {
			return err
		}
		httpx.WriteBody(w, status, out)
		return nil
	}
}

// Query is one page of a list: "from ... where ..." with its arguments, the
// columns and order (from whitelists, never user input), how a row is
// scanned, and how the relations of the whole page are loaded (one query
// per relation, so a page costs the same round trips whatever its size).
//
// $1 is always the transaction's company (tx.EmpresaID()), so the explicit
// "empresa_id = $1" filter and the row-level-security setting come from one
// place and cannot disagree; Args are $2 onwards. A list of global rows (no
// company column) sets Global and numbers its Args from $1.
type Query[T any] struct {
	Cols, From, Order string
	Args              []any
	Global            bool
	Scan              pgx.RowToFunc[T]
	Load              func(ctx context.Context, tx *db.Tx, rows []T) error
	// Check, when set, runs first in the transaction: a list nested under a
	// record (/webhooks/{id}/entregas) answers 404 for a record the tenant
	// does not have, instead of an empty page.
	Check func(ctx context.Context, tx *db.Tx) error
	// Late computes Cols only for the page's rows (db.PageLate): From
	// must name its table t, and Cols and Order may only use t (and Join).
	Late bool
	// Join, for Late, is joined to the page's rows for Cols ("left join
	// (...) a0 on a0.id = t.id").
	Join string
	// Vacia, when set, is a row of the list's shape (every key, no value):
	// an export that selects no rows takes its header from it. Struct rows
	// need none (exportar.Vacia reads their fields); raw JSON rows do.
	Vacia func(ctx context.Context, tx *db.Tx) (T, error)
}

// page runs q's Check, then its count and page (db.Page or, for Late,
// db.PageLate) with the company as $1 unless Global, then its Load. With
// no Load after them, the count and page are the transaction's last batch
// (the commit travels with them when the handler allowed it).
func (q Query[T]) page(ctx context.Context, tx *db.Tx, limit, offset int) ([]T, int, error) {
	if q.Check != nil {
		if err := q.Check(ctx, tx); err != nil {
			return nil, 0, err
		}
	}
	args := q.Args
	if !q.Global {
		args = append([]any{tx.EmpresaID()}, q.Args...)
	}
	var dq db.Querier = tx
	if q.Load == nil {
		dq = db.Final(tx)
	}
	var rows []T
	var total int
	var err error
	if q.Late {
		rows, total, err = db.PageLate(ctx, dq, q.Cols, q.Join, q.From, q.Order, args, limit, offset, q.Scan)
	} else {
		rows, total, err = db.Page(ctx, dq, q.Cols, q.From, q.Order, args, limit, offset, q.Scan)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("handler: page: %w", err)
	}
	if q.Load != nil {
		if err := q.Load(ctx, tx, rows); err != nil {
			return nil, 0, err
		}
	}
	return rows, total, nil
}

// QueryFunc reads a list's filters from the request (invalid ones are an
// apperr Invalid error) and returns its query.
type QueryFunc[T any] func(r *http.Request, p auth.Principal) (Query[T], error)

// List answers GET /: {data, current_page, per_page, total, last_page,
// from, to}, the count and the page pipelined in one round trip.
func List[T any](d *db.DB, query QueryFunc[T]) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		// Every bad parameter is one 422, all at once: the ones every list
		// shares (formato, page, per_page, activos, unreadable pairs) and
		// the list's own filters and sort.
		errs := apperr.Campos{}
		formato, err := formatoLista(r)
		errs.Juntar(err)
		page, err := httpx.ParsePage(r)
		if formato == "" {
			errs.Juntar(err)
		}
		httpx.ListParams(r, errs)
		q, err := query(r, auth.FromRequest(r))
		if e, ok := apperr.As(err); err != nil && (!ok || e.Kind != apperr.Invalid) && len(errs) == 0 {
			return err
		}
		errs.Juntar(err)
		if err := errs.Err(); err != nil {
			return err
		}
		if formato != "" {
			return exportarLista(d, w, r, q, formato)
		}
		var out httpx.Page[T]
		err = run(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) error {
			tx.CommitWithFinalBatch() // nothing follows the page and its relations
			rows, total, err := q.page(ctx, tx, page.PerPage, page.Offset())
			if err != nil {
				return err
			}
			out = httpx.NewPage(page, rows, total)
			return nil
		})
		if err != nil {
			return err
		}
		httpx.WriteJSON(w, http.StatusOK, out)
		return nil
	}
}

// Respuesta is a result whose message depends on what happened (a partial
// or a complete receipt, a movement created and processed): Action and
// Create answer with its Mensaje instead of the fixed one, and with Estado
// when set (a create that found the record already there answers 200).
type Respuesta[T any] struct {
	Mensaje string
	Datos   T
	Estado  int
}

type conMensaje interface{ mensaje() (string, any, int) }

func (r Respuesta[T]) mensaje() (string, any, int) { return r.Mensaje, r.Datos, r.Estado }

// isNil reports whether v is nil, a nil pointer, map or slice, or the empty
// struct: an action whose answer is only a message.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	if _, ok := v.(struct{}); ok {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// formatoLista reads ?formato=: "" for the JSON page, or a file format.
func formatoLista(r *http.Request) (string, error) {
	f := strings.TrimSpace(r.URL.Query().Get("formato"))
	switch {
	case f == "" || f == "json":
		return "", nil
	case slices.Contains(exportar.Formatos, f):
		return f, nil
	}
	return "", apperr.InvalidField("formato", "El campo formato debe ser uno de: json, csv, excel.")
}

// exportarLista answers a list as a file with every row its filters select
// (not a page), in one query plus its relations: CSV or Excel, as an
// attachment named after the resource and the day.
func exportarLista[T any](d *db.DB, w http.ResponseWriter, r *http.Request, q Query[T], formato string) error {
	var rows []T
	vacia, conForma := exportar.Vacia[T]()
	err := run(d, r, func(ctx context.Context, tx *db.Tx, p auth.Principal) error {
		var total int
		var err error
		if rows, total, err = q.page(ctx, tx, exportar.MaxFilas, 0); err != nil {
			return err
		}
		if total > exportar.MaxFilas {
			return apperr.InvalidField("formato", fmt.Sprintf("La exportación tendría %d filas; el máximo es %d. Filtre la lista.", total, exportar.MaxFilas))
		}
		if len(rows) == 0 && q.Vacia != nil {
			// One more round trip, only for a file with no rows.
			vacia, err = q.Vacia(ctx, tx)
			conForma = err == nil
		}
		return err
	})
	if err != nil {
		return err
	}
	tabla, err := exportar.Aplanar(rows)
	if err != nil {
		return err
	}
	if len(rows) == 0 && conForma {
		// No rows, so no columns from them: the header still tells the
		// reader what the list holds (a file with only a BOM is no table).
		if tabla.Columnas, err = exportar.Encabezado(vacia); err != nil {
			return err
		}
	}
	nombre := path.Base(strings.TrimSuffix(r.URL.Path, "/")) + "-" + time.Now().UTC().Format("20060102")
	if err := EscribirTabla(w, tabla, formato, nombre, "Datos"); err != nil {
		return fmt.Errorf("handler: export %s: %w", formato, err)
	}
	return nil
}

// EscribirTabla answers a table as a file attachment: CSV for formato
// "csv", else an Excel book with one sheet named hoja; nombre is the file
// name without its extension.
func EscribirTabla(w http.ResponseWriter, tabla exportar.Tabla, formato, nombre, hoja string) error {
	var buf bytes.Buffer
	a := exportar.Archivo{Nombre: nombre + ".xlsx", ContentType: exportar.MediaExcel}
	var err error
	if formato == "csv" {
		a.Nombre, a.ContentType = nombre+".csv", exportar.MediaCSV
		err = exportar.CSV(&buf, tabla)
	} else {
		err = exportar.Excel(&buf, hoja, tabla)
	}
	if err != nil {
		return err
	}
	a.Datos = buf.Bytes()
	return a.Escribir(w)
}
