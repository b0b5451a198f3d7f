// Package documentos assigns document numbers (FAC-00000001, OC-000001,
// ...) from per-company counters updated in the document's own transaction:
// concurrent documents get distinct consecutive numbers, and a rolled-back
// document gives its number back, so there are no gaps.
package documentos

import (
	"context"
	"fmt"

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

// Numero formats prefix-NNNN with width digits ("FAC", 7, 8 -> "FAC-00000007").
func Numero(prefix string, n int64, width int) string {
	return fmt.Sprintf("%s-%0*d", prefix, width, n)
}
