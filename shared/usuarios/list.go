package usuarios

import (
	"context"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
)

// list describes a tenant list of this package: its FROM/WHERE (with $1 the
// tenant, $2 the search pattern, $3 the activos filter), columns, sort
// whitelist and the loader of its relations.
type list[T any] struct {
	sorts map[string]string
	def   string
	cols  string
	from  string
	scan  pgx.RowToFunc[T]
	load  func(ctx context.Context, q db.Querier, empresaID int64, rows []T) error
}

// serveList answers a paginated list in a constant number of round trips.
func serveList[T any](s *Service, w http.ResponseWriter, r *http.Request, l list[T]) error {
	p := auth.FromRequest(r)
	page, err := httpx.ParsePage(r)
	if err != nil {
		return err
	}
	activos, err := httpx.BoolQuery(r, "activos")
	if err != nil {
		return err
	}
	order, err := httpx.SortQuery(r, l.sorts, l.def)
	if err != nil {
		return err
	}
	var out httpx.Page[T]
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		rows, total, err := db.Page(r.Context(), tx, l.cols, l.from, order+", "+l.def,
			[]any{p.EmpresaID, httpx.SearchQuery(r), activos}, page.PerPage, page.Offset(), l.scan)
		if err != nil {
			return fmt.Errorf("usuarios: list: %w", err)
		}
		if err := l.load(r.Context(), tx, p.EmpresaID, rows); err != nil {
			return err
		}
		out = httpx.NewPage(page, rows, total)
		return nil
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
