package handler

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/erpcr/erp/shared/db"
)

// Anidado is a key of a list's JSON row that a subquery fills (a nested
// object, a list), which the shape of an empty export cannot take from a
// record of NULLs (the subquery finds nothing there): Valor is what it is
// in a row, an expression over Tabla ("sucursales x", its alias the one
// the subquery's object uses) or over none (`'[]'::jsonb`).
type Anidado struct {
	Clave, Valor, Tabla string
}

// Forma is the Query.Vacia of a list whose rows PostgreSQL builds as jsonb
// (cols, the Query's Cols, over the tables "tabla alias" its From names):
// the same expression evaluated over records of NULLs, so the shape has
// every key a row has, and jsonb orders them as it orders a row's; the
// anidados replace the keys a subquery fills with their value as it is in
// a row (a nested object's keys, so it is flattened to "objeto.campo" as a
// present one is). The SQL is built once, from declarations, never input.
func Forma(cols string, tablas []string, anidados ...Anidado) func(context.Context, *db.Tx) (json.RawMessage, error) {
	from := make([]string, 0, len(tablas)+len(anidados))
	claves := make([]string, 0, len(anidados))
	for _, t := range tablas {
		from = append(from, nulos(t))
	}
	for _, a := range anidados {
		claves = append(claves, fmt.Sprintf("'%s', %s", a.Clave, a.Valor))
		if a.Tabla != "" {
			from = append(from, nulos(a.Tabla))
		}
	}
	sort.Strings(claves)
	expr := `(` + cols + `)`
	if len(claves) > 0 {
		expr += ` || jsonb_build_object(` + strings.Join(claves, ", ") + `)`
	}
	sql := `select (` + expr + `)::text from ` + strings.Join(from, ", ")
	return func(ctx context.Context, tx *db.Tx) (json.RawMessage, error) {
		var row []byte
		if err := tx.QueryRow(ctx, sql).Scan(&row); err != nil {
			return nil, fmt.Errorf("handler: shape of %s: %w", tablas[0], err)
		}
		return row, nil
	}
}

// nulos is "tabla alias" as a record of NULLs of the table's row type.
func nulos(tablaAlias string) string {
	tabla, alias, _ := strings.Cut(tablaAlias, " ")
	return `json_populate_record(null::` + tabla + `, '{}') ` + alias
}
