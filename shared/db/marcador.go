package db

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Marcador is a text value a transaction learns only in its commit's
// round trip: a document number taken from its counter there, so that the
// counter's row lock is held for the commit and nothing before it. Until
// then Token, a random string nothing else contains, stands for it in what
// the transaction writes and what Go encodes (the document's row, its
// answer, its event's payload). The statement that takes the value in the
// commit's round trip stores it with Guardar, and
//   - the commit's later statements replace the token by it in the JSON
//     they write (Resuelto),
//   - WithTx's caller replaces it in the answer it encoded (Resolver).
type Marcador struct {
	// Token is 20 lowercase hex digits (80 random bits): it fits a
	// document number's column, and no number, user text or other token
	// can be it by chance.
	Token string
	// Valor is the value, once the commit's statement that takes it ran.
	Valor  string
	fijado bool
	// n numbers the markers of a transaction (from 1).
	n int
}

// Marcador returns a new marker of the transaction.
func (t *Tx) Marcador() (*Marcador, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("db: marcador: %w", err)
	}
	m := &Marcador{Token: hex.EncodeToString(b[:]), n: len(t.marcadores) + 1}
	t.marcadores = append(t.marcadores, m)
	return m, nil
}

// ajuste is the transaction-local setting that carries the value to the
// statements after the one that took it. It is named by the marker's
// number, not its token: a statement's text must not change from one
// request to the next, or it would be prepared again each time (a round
// trip of its own in a pipeline) and push the others out of the cache.
func (m *Marcador) ajuste() string { return "erp.marcador_" + strconv.Itoa(m.n) }

// Guardar is the SQL of a select-list item that stores expr (a text
// expression of the statement that takes the value) for the statements
// after it and returns it, scanned by Fijar.
func (m *Marcador) Guardar(expr string) string {
	return "set_config('" + m.ajuste() + "', " + expr + ", true)"
}

// Fijar records the value the commit's statement returned (Guardar).
func (m *Marcador) Fijar(v string) { m.Valor, m.fijado = v, true }

// Resuelto is the SQL text expression json (a text expression holding
// JSON, such as "$3::text", of a statement whose arguments are args) with
// every marker of the transaction replaced by its value as a JSON string:
// what Go would have encoded had it known the value. The tokens are
// arguments appended to args (the statement's text stays the same).
// Without markers it is json and args unchanged.
func (t *Tx) Resuelto(json string, args []any) (string, []any) {
	for _, m := range t.marcadores {
		args = append(args, `"`+m.Token+`"`)
		json = "replace(" + json + ", $" + strconv.Itoa(len(args)) + "::text, to_json(current_setting('" + m.ajuste() + "'))::text)"
	}
	return json, args
}

// Marcado reports whether the transaction has markers to resolve.
func (t *Tx) Marcado() bool { return len(t.marcadores) > 0 }

// Resolver replaces in b (JSON Go encoded while the transaction ran) every
// marker of the transaction by its value; it fails for a marker whose
// value the commit did not take (the answer would show a token).
func (t *Tx) Resolver(b []byte) ([]byte, error) {
	for _, m := range t.marcadores {
		if !m.fijado {
			return nil, fmt.Errorf("db: marcador %s sin valor tras el commit", m.Token)
		}
		v, err := json.Marshal(m.Valor)
		if err != nil {
			return nil, fmt.Errorf("db: marcador: %w", err)
		}
		b = bytes.ReplaceAll(b, []byte(`"`+m.Token+`"`), v)
	}
	return b, nil
}

// QueueAtCommit is ExecAtCommit for the statements of b, with their
// callbacks (QueuedQuery's Query, QueryRow or Exec): they travel in the
// commit's round trip, in order, after what was deferred before them, and
// a callback's error (or a statement's) fails the commit, rolled back,
// and is what WithTx returns (wrapped).
func (t *Tx) QueueAtCommit(b *pgx.Batch) {
	t.atCommit = append(t.atCommit, b.QueuedQueries...)
}

// intentoKey is the context key of Intento.
type intentoKey struct{}

// ConIntento is ctx for the n-th (0-based) run of a transaction a caller
// runs again when PostgreSQL aborts it as a deadlock victim, a
// serialization failure or a plan gone stale (Reintentable).
func ConIntento(ctx context.Context, n, de int) context.Context {
	return context.WithValue(ctx, intentoKey{}, [2]int{n, de})
}

// UltimoIntento reports whether ctx is the last run its caller allows (or
// not a retried run at all): a domain function that plans optimistically
// (PlanVencido) plays safe then and locks what it reads.
func UltimoIntento(ctx context.Context) bool {
	v, ok := ctx.Value(intentoKey{}).([2]int)
	return !ok || v[0] >= v[1]-1
}

// PlanVencido is the SQLSTATE database code raises when what a
// transaction planned from an unlocked read no longer holds once it
// locks the rows (a batch's stock was taken by another sale meanwhile):
// nothing of it may commit, and the whole transaction is run again on a
// fresh read (Reintentable).
const PlanVencido = "ZS001"

// Reintentable reports whether err aborted a transaction that may simply
// run again: a deadlock victim (40P01), a serialization failure (40001)
// or a plan gone stale (PlanVencido).
func Reintentable(err error) bool {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return false
	}
	switch pg.Code {
	case "40P01", "40001", PlanVencido:
		return true
	}
	return false
}
