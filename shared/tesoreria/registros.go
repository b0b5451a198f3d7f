package tesoreria

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// uno reads the JSON of one record of the tenant: sql takes the company as
// $1 and the id as $2 and returns one jsonb column. No row is a NotFound
// with msg; que names the record in other errors.
func uno(ctx context.Context, tx *db.Tx, sql string, id int64, que, msg string) (json.RawMessage, error) {
	raw, found, err := db.Uno(ctx, tx, fmt.Sprintf("tesoreria: %s %d", que, id), pgx.RowTo[[]byte], nil, sql, tx.EmpresaID(), id)
	return raw, apperr.NotFoundUnless(found, err, msg)
}

// existe is nil when the tenant has the live record id in tabla (one of
// this package's tables, never input), a NotFound with msg when not; que
// names the record in other errors.
func existe(ctx context.Context, tx *db.Tx, tabla string, id int64, que, msg string) error {
	var ok bool
	if err := tx.QueryRow(ctx, `select exists (select 1 from `+tabla+` where empresa_id = $1 and id = $2 and not eliminado)`,
		tx.EmpresaID(), id).Scan(&ok); err != nil {
		return fmt.Errorf("tesoreria: %s %d: %w", que, id, err)
	}
	if !ok {
		return apperr.NewNotFound(msg)
	}
	return nil
}

// comunes are the fields every treasury record body (bank account, cash box,
// budget) carries with the same rules: a description (an explicit null
// empties it) and the active flag; nil fields were not sent.
type comunes struct {
	Descripcion        *string
	Activo             *bool
	limpiarDescripcion bool
}

// activo is the flag a new record takes: active unless sent false.
func (c comunes) activo() bool { return c.Activo == nil || *c.Activo }

// seleccionada reports under campo a record the body names (la que) that
// its read (err, activo) found missing from the tenant or inactive; another
// error of the read is returned.
func seleccionada(in *valid.Input, campo, que string, err error, activo bool) error {
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		in.Fail(campo, "La "+que+" seleccionada no existe en esta empresa.")
	case err != nil:
		return fmt.Errorf("tesoreria: %s: %w", que, err)
	case !activo:
		in.Fail(campo, "La "+que+" seleccionada está inactiva.")
	}
	return nil
}
