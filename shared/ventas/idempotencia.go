package ventas

import (
	"context"
	"net/http"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/idempotencia"
)

// idempotente runs a creating request in one transaction and answers 201
// {success, message, data}. With an Idempotency-Key header, the key is
// locked first (a concurrent duplicate waits), a key already used with the
// same body replays the first answer without doing anything, a key used
// with another body (or on another route) is a 422, and the new answer is
// stored in the same transaction as the work it answers.
func (s *Service) idempotente(w http.ResponseWriter, r *http.Request, p auth.Principal, ruta string, body []byte, msg string,
	create func(ctx context.Context, tx *db.Tx) (any, error)) error {
	key, err := idempotencia.Key(r)
	if err != nil {
		return err
	}
	huella := idempotencia.Huella(body)
	var (
		replay *idempotencia.Stored
		out    []byte
	)
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		if key != "" {
			stored, err := idempotencia.Begin(ctx, tx, key, ruta, huella)
			if err != nil || stored != nil {
				replay = stored
				return err
			}
		}
		data, err := create(ctx, tx)
		if err != nil {
			return err
		}
		if out, err = httpx.EncodeJSON(httpx.Envelope{Success: true, Message: msg, Data: data}); err != nil {
			return err
		}
		if key != "" {
			return idempotencia.Save(ctx, tx, key, ruta, huella, idempotencia.Stored{Status: http.StatusCreated, Body: out})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if replay != nil {
		idempotencia.Replay(w, replay)
		return nil
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusCreated)
	_, _ = w.Write(out)
	return nil
}
