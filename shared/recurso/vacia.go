package recurso

import (
	"context"
	"fmt"
	"strings"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
)

// vacia is the list's row shape for an export that selects no rows: the
// table's columns (a record of NULLs, so every column the rows' JSON has)
// with the shape's extras as they are when empty, a relation as its
// columns, so the header is the one an export with rows would start with.
func (res *Resource) vacia(sh *shape) func(ctx context.Context, tx *db.Tx) (httpx.Raw, error) {
	return func(ctx context.Context, tx *db.Tx) (httpx.Raw, error) {
		var row []byte
		// Table is a declaration, never user input.
		if err := tx.QueryRow(ctx, `select row_to_json(t)::text from json_populate_record(null::`+res.Table+`, '{}') t`).Scan(&row); err != nil {
			return nil, fmt.Errorf("recurso: %s: shape: %w", res.Name, err)
		}
		members := make([]httpx.Member, 0, len(sh.omit)+len(sh.extras))
		for _, k := range sh.omit {
			members = append(members, httpx.Member{Key: k, Omit: true})
		}
		for _, x := range sh.extras {
			members = append(members, httpx.Member{Key: x.name, Value: res.vacio(x)})
		}
		out, err := httpx.AppendCanonicalObject(nil, row, members)
		if err != nil {
			return nil, fmt.Errorf("recurso: %s: shape: %w", res.Name, err)
		}
		return httpx.Raw(out), nil
	}
}

// vacio is an extra's value in the empty shape: a relation's object with
// its columns, so it is flattened to "relacion.columna" as a present one is.
func (res *Resource) vacio(x extra) []byte {
	for _, rel := range res.Relations {
		if rel.Name == x.name {
			return []byte(`{"` + strings.Join(rel.Cols, `":null,"`) + `":null}`)
		}
	}
	return x.null
}
