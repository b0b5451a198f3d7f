package catalogo

import (
	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/recurso"
)

// refuseInUse refuses to delete a row that live rows of another table of the
// tenant still reference (a product whose category vanished could not be
// listed with it).
func refuseInUse(table, fk, field, msg string) func(c *recurso.Call) error {
	return refuseInUseSQL(`select exists (select 1 from `+table+` where `+fk+` = $1 and not eliminado)`, field, msg)
}

// refuseInUseSQL refuses the delete when query, given the row's id as $1,
// answers true.
func refuseInUseSQL(query, field, msg string) func(c *recurso.Call) error {
	return func(c *recurso.Call) error {
		var used bool
		if err := c.Tx.QueryRow(c.Context(), query, c.ID).Scan(&used); err != nil {
			return err
		}
		if used {
			return &httpx.Error{Kind: apperr.Invalid, Message: msg, Fields: map[string][]string{field: {msg}}}
		}
		return nil
	}
}
