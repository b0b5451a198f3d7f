package catalogo

import (
	"net/http"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/recurso"
)

// refuseInUse refuses to delete a row that live rows of another table still
// reference (a product whose category vanished could not be listed with it).
func refuseInUse(table, fk, field, msg string) func(c *recurso.Call) error {
	return func(c *recurso.Call) error {
		var used bool
		err := c.Tx.QueryRow(c.Context(), `select exists (select 1 from `+table+` where `+fk+` = $1 and not eliminado)`, c.ID).Scan(&used)
		if err != nil {
			return err
		}
		if used {
			return &httpx.Error{Status: http.StatusUnprocessableEntity, Message: msg, Fields: map[string][]string{field: {msg}}}
		}
		return nil
	}
}
