// Package idempotencia implements the Idempotency-Key header of creating
// requests: the same key with the same body replays the first response
// without doing anything again; the same key with another body is a 422.
// Bodies are compared as JSON (key order and white space do not matter).
// Keys are scoped per company and user, as per-account keys in payment APIs
// (two users may use the same key value without colliding), and kept at
// least 24 hours.
package idempotencia

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
)

// Header is the request header carrying the key.
const Header = "Idempotency-Key"

// Stored is a response kept for a key.
type Stored struct {
	Status int
	Body   []byte
}

// Key reads and checks the header; "" means the request has none.
func Key(r *http.Request) (string, error) {
	k := strings.TrimSpace(r.Header.Get(Header))
	if k == "" {
		return "", nil
	}
	if len(k) > 255 {
		return "", apperr.NewBadRequest("El encabezado Idempotency-Key admite como máximo 255 caracteres.")
	}
	return k, nil
}

// Huella is the fingerprint of a request body: the SHA-256 of its canonical
// JSON (objects with sorted keys, no insignificant white space, numbers as
// written), so {"a":1,"b":2} and { "b":2, "a":1 } are the same request. A
// body that is not JSON is fingerprinted as its trimmed bytes.
func Huella(body []byte) []byte {
	sum := sha256.Sum256(canonical(body))
	return sum[:]
}

func canonical(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return bytes.TrimSpace(body)
	}
	// encoding/json writes map keys sorted; json.Number keeps each number's
	// text, so 1 and 1.0 stay different requests, as they may mean.
	out, err := json.Marshal(v)
	if err != nil {
		return bytes.TrimSpace(body)
	}
	return out
}

// Begin serializes the requests of one key (a transaction-scoped advisory
// lock, so a concurrent duplicate waits for the first to commit) and returns
// the stored response when the key was already used with the same body.
func Begin(ctx context.Context, tx *db.Tx, key, ruta string, huella []byte) (*Stored, error) {
	empresaID := tx.EmpresaID()
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%s", empresaID, tx.UsuarioID(), key)
	if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock($1)`, int64(h.Sum64())); err != nil {
		return nil, fmt.Errorf("idempotencia: lock: %w", err)
	}
	var (
		prevRuta   string
		prevHuella []byte
		s          Stored
	)
	err := tx.QueryRow(ctx, `select ruta, huella, estado_http, respuesta from claves_idempotencia
		where empresa_id = $1 and usuario_id = $2 and clave = $3 and creado_en > now() - interval '24 hours'`, empresaID, tx.UsuarioID(), key).
		Scan(&prevRuta, &prevHuella, &s.Status, &s.Body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("idempotencia: read: %w", err)
	}
	if prevRuta != ruta || !bytes.Equal(prevHuella, huella) {
		msg := "La clave de idempotencia ya se usó con otra solicitud."
		return nil, &httpx.Error{Kind: apperr.Invalid, Message: msg, Fields: map[string][]string{Header: {msg}}}
	}
	return &s, nil
}

// SaveAtCommit keeps the response of the key's first request, in the same
// transaction as the work it answers: the insert is the transaction's
// last write and travels with its COMMIT (db.Tx.ExecAtCommit), and a
// value the commit takes (db.Marcador: a sale's number) is put in place of
// its token in the stored body, as in the answer. Keys older than 24
// hours are replaced.
func SaveAtCommit(tx *db.Tx, key, ruta string, huella []byte, s Stored) {
	respuesta, args := "$7", []any{tx.EmpresaID(), tx.UsuarioID(), key, ruta, huella, s.Status, s.Body}
	if tx.Marcado() {
		args[6] = string(s.Body)
		respuesta, args = tx.Resuelto("$7::text", args)
		respuesta = "convert_to(" + respuesta + ", 'UTF8')"
	}
	tx.ExecAtCommit(`insert into claves_idempotencia (empresa_id, usuario_id, clave, ruta, huella, estado_http, respuesta)
		values ($1, $2, $3, $4, $5, $6, `+respuesta+`)
		on conflict (empresa_id, usuario_id, clave) do update set ruta = excluded.ruta, huella = excluded.huella,
		  estado_http = excluded.estado_http, respuesta = excluded.respuesta, creado_en = now()`, args...)
}

// Replay writes a stored response, marked as a replay.
func Replay(w http.ResponseWriter, s *Stored) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Idempotent-Replayed", "true")
	w.WriteHeader(s.Status)
	_, _ = w.Write(s.Body)
}
