// Package documentos assigns document numbers (FAC-00000001, OC-000001,
// ...) from per-company counters updated in the document's own transaction:
// concurrent documents get distinct consecutive numbers, and a rolled-back
// document gives its number back, so there are no gaps.
package documentos

import (
	"context"
	"fmt"
	"strconv"

	"github.com/erpcr/erp/shared/db"
)

// Siguiente increments the company's counter named clave and returns the new
// value. The row lock it takes is held until the transaction ends, which is
// what serializes concurrent documents of the same series.
func Siguiente(ctx context.Context, tx *db.Tx, clave string) (int64, error) {
	var n int64
	err := tx.QueryRow(ctx, `insert into contadores (empresa_id, clave, valor) values ($1, $2, 1)
		on conflict (empresa_id, clave) do update set valor = contadores.valor + 1, actualizado_en = now()
		returning valor`, tx.EmpresaID(), clave).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("documentos: counter %s: %w", clave, err)
	}
	return n, nil
}

// NumeroCTE is Siguiente and Numero in SQL: a common table expression
// named numero whose one row has the column numero, the company's next
// number of the series clave formatted as Numero(clave, n, width). empresa
// and clave are the statement's placeholders ("$1", "$7"); the series'
// name is its prefix. A document inserted by the same statement (insert
// ... values (..., (select numero from numero), ...)) takes the counter's
// row lock only when it is written, so its caller can take the lock as late
// as its transaction allows instead of a round trip before the insert.
func NumeroCTE(empresa, clave string, width int) string {
	w := strconv.Itoa(width)
	return `numero as (insert into contadores (empresa_id, clave, valor) values (` + empresa + `, ` + clave + `::text, 1)
		on conflict (empresa_id, clave) do update set valor = contadores.valor + 1, actualizado_en = now()
		returning ` + clave + `::text || '-' || lpad(valor::text, greatest(` + w + `, length(valor::text)), '0') as numero)`
}

// Numero formats prefix-NNNN with width digits ("FAC", 7, 8 -> "FAC-00000007").
func Numero(prefix string, n int64, width int) string {
	return fmt.Sprintf("%s-%0*d", prefix, width, n)
}
