package recurso

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/valid"
)

func placeholder(n int) string { return "$" + strconv.Itoa(n) }

// Row is one record as output.
type Row = map[string]any

// rowExpr is the jsonb of a row: its columns minus the hidden ones, plus the
// computed keys.
func (res *Resource) rowExpr() string {
	var b strings.Builder
	b.WriteString("(to_jsonb(t) - 'busqueda'")
	for _, h := range res.Hidden {
		b.WriteString(" - '" + h + "'")
	}
	b.WriteString(")")
	if len(res.Computed) > 0 {
		keys := make([]string, 0, len(res.Computed))
		for k := range res.Computed {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString(" || jsonb_build_object(")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("'" + k + "', " + res.Computed[k])
		}
		b.WriteString(")")
	}
	return b.String()
}

// visible is the predicate of the rows the caller may see.
func (res *Resource) visible(c *Call, a *Args) string {
	if res.Scope != nil {
		return res.Scope(c, a) + " and not t.eliminado"
	}
	if res.Tenant {
		return "t.empresa_id = " + a.Add(c.Tx.EmpresaID()) + " and not t.eliminado"
	}
	return "not t.eliminado"
}

// decodeRow decodes a row as json.Decoder with UseNumber would (numbers
// keep their scale, "1500.00", and 64-bit ids stay exact), without its
// reflection (httpx.DecodeRow).
func decodeRow(raw []byte) (Row, error) {
	row, err := httpx.DecodeRow(raw)
	if err != nil {
		return nil, fmt.Errorf("recurso: decode row: %w", err)
	}
	return row, nil
}

// decodeValue is decodeRow for any JSON value.
func decodeValue(raw []byte) (any, error) {
	v, err := httpx.DecodeValue(raw)
	if err != nil {
		return nil, fmt.Errorf("recurso: decode: %w", err)
	}
	return v, nil
}

func scanRow(r pgx.CollectableRow) (Row, error) {
	var raw []byte
	if err := r.Scan(&raw); err != nil {
		return nil, err
	}
	return decodeRow(raw)
}

func rowID(row Row) int64 {
	switch v := row["id"].(type) {
	case json.Number:
		n, _ := v.Int64()
		return n
	case int64:
		return v
	}
	return 0
}

// pending is one queued decoration: a relation, an aggregate or a detail.
type pending struct {
	kind string // rel, agg, det
	name string
	fk   string
	zero any
}

// queueDecorations queues the relations, aggregates and (detail) details
// of the rows ids. A relation's ids come from fks (the loaded rows' foreign
// keys) or, when fks is nil, from the record ids[0] itself by a subquery,
// so that they can travel in the same pipeline as the record's own query.
func (res *Resource) queueDecorations(b *pgx.Batch, ids []int64, fks func(fk string) []int64, detail bool) []pending {
	var order []pending
	for _, rel := range res.Relations {
		parts := make([]string, len(rel.Cols))
		for i, col := range rel.Cols {
			parts[i] = "'" + col + "', x." + col
		}
		sql := `select x.id, jsonb_build_object(` + strings.Join(parts, ", ") + `) from ` + rel.Table + ` x where x.id = `
		if fks != nil {
			b.Queue(sql+`any($1)`, fks(rel.FK))
		} else {
			b.Queue(sql+`(select t.`+rel.FK+` from `+res.Table+` t where t.id = $1)`, ids[0])
		}
		order = append(order, pending{kind: "rel", name: rel.Name, fk: rel.FK})
	}
	for _, ag := range res.Aggregates {
		if ag.DetailOnly && !detail {
			continue
		}
		b.Queue(ag.SQL, ids)
		order = append(order, pending{kind: "agg", name: ag.Name, zero: ag.Zero})
	}
	if detail {
		for _, d := range res.Details {
			b.Queue(d.SQL, ids[0])
			order = append(order, pending{kind: "det", name: d.Name})
		}
	}
	return order
}

// readDecorations reads the results of queueDecorations into rows.
func (res *Resource) readDecorations(br pgx.BatchResults, rows []Row, order []pending) error {
	for _, p := range order {
		if p.kind == "det" {
			var raw []byte
			if err := br.QueryRow().Scan(&raw); err != nil {
				return fmt.Errorf("recurso: %s.%s: %w", res.Name, p.name, err)
			}
			v, err := decodeValue(raw)
			if err != nil {
				return err
			}
			if v == nil {
				v = []any{}
			}
			if len(rows) > 0 {
				rows[0][p.name] = v
			}
			continue
		}
		found := map[int64]any{}
		dbRows, _ := br.Query()
		for dbRows.Next() {
			var id int64
			var raw []byte
			if err := dbRows.Scan(&id, &raw); err != nil {
				dbRows.Close()
				return fmt.Errorf("recurso: %s.%s: %w", res.Name, p.name, err)
			}
			v, err := decodeValue(raw)
			if err != nil {
				dbRows.Close()
				return err
			}
			found[id] = v
		}
		if err := dbRows.Err(); err != nil {
			return fmt.Errorf("recurso: %s.%s: %w", res.Name, p.name, err)
		}
		for _, r := range rows {
			switch p.kind {
			case "rel":
				r[p.name] = nil
				if n, ok := r[p.fk].(json.Number); ok {
					if v, err := n.Int64(); err == nil {
						if obj, ok := found[v]; ok {
							r[p.name] = obj
						}
					}
				}
			case "agg":
				if v, ok := found[rowID(r)]; ok {
					r[p.name] = v
				} else {
					r[p.name] = p.zero
				}
			}
		}
	}
	return nil
}

// sendFinal sends a read's last batch: on a transaction, SendFinalBatch
// (the commit may travel with it).
func sendFinal(ctx context.Context, q db.Querier, b *pgx.Batch) pgx.BatchResults {
	if tx, ok := q.(*db.Tx); ok {
		return tx.SendFinalBatch(ctx, b)
	}
	return q.SendBatch(ctx, b)
}

// decorate loads relations and aggregates for a page of rows in one
// pipelined round trip (with the commit, when it is the read's last).
func (res *Resource) decorate(c *Call, q db.Querier, rows []Row, detail bool) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = rowID(r)
	}
	fks := func(fk string) []int64 {
		var out []int64
		for _, r := range rows {
			if n, ok := r[fk].(json.Number); ok {
				if v, err := n.Int64(); err == nil {
					out = append(out, v)
				}
			}
		}
		return out
	}
	b := &pgx.Batch{}
	order := res.queueDecorations(b, ids, fks, detail)
	if len(order) == 0 {
		return nil
	}
	br := sendFinal(c.Context(), q, b)
	defer br.Close()
	if err := res.readDecorations(br, rows, order); err != nil {
		return err
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("recurso: %s: %w", res.Name, err)
	}
	return nil
}

// find loads one visible record with its relations (and details): the
// record's query, its relations (by subquery on the record's foreign
// keys), aggregates and details travel in one pipeline, with the
// transaction's BEGIN in front when it is the first, and the commit behind
// when nothing follows (handler.Show).
func (res *Resource) find(c *Call, id int64, detail bool) (Row, error) {
	a := &Args{}
	where := res.visible(c, a)
	sql := `select ` + res.rowExpr() + ` from ` + res.Table + ` t where ` + where + ` and t.id = ` + a.Add(id)
	b := &pgx.Batch{}
	b.Queue(sql, a.Values()...)
	order := res.queueDecorations(b, []int64{id}, nil, detail)
	br := sendFinal(c.Context(), c.Tx, b)
	defer br.Close()
	rows, _ := br.Query()
	list, err := pgx.CollectRows(rows, scanRow)
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: find: %w", res.Name, err)
	}
	if err := res.readDecorations(br, list, order); err != nil {
		return nil, err
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("recurso: %s: find: %w", res.Name, err)
	}
	if len(list) == 0 {
		return nil, apperr.NewNotFound(res.Messages.NotFound)
	}
	return list[0], nil
}

// query is the page of GET /api/<name> for the shared list handler: the
// filters are read before the transaction opens, and $1 is the company
// (handler.Query) for tenant resources.
func (res *Resource) query(r *http.Request, p auth.Principal) (handler.Query[Row], error) {
	var none handler.Query[Row]
	allowed := map[string]string{"id": "t.id", "creado_en": "t.creado_en", "actualizado_en": "t.actualizado_en"}
	for _, s := range res.Sorts {
		allowed[s] = "t." + s
	}
	order, err := httpx.SortQuery(r, allowed, "t.id")
	if err != nil {
		return none, err
	}
	a := &Args{}
	global := res.Scope != nil || !res.Tenant
	var conds []string
	switch {
	case res.Scope != nil:
		conds = []string{res.Scope(&Call{Principal: p}, a) + " and not t.eliminado"}
	case res.Tenant:
		a.Add(nil) // $1: the transaction's company, bound by handler.List
		conds = []string{"t.empresa_id = $1 and not t.eliminado"}
	default:
		conds = []string{"not t.eliminado"}
	}
	activos, err := httpx.BoolQuery(r, "activos")
	if err != nil {
		return none, err
	}
	if activos != nil {
		conds = append(conds, "t.activo = "+a.Add(*activos))
	}
	if res.Search {
		if s := httpx.SearchQuery(r); s != nil {
			conds = append(conds, "t.busqueda like f_unaccent(lower("+a.Add(*s)+"))")
		}
	}
	q := r.URL.Query()
	in := valid.NewInput(nil)
	for _, f := range res.Filters {
		v := strings.TrimSpace(q.Get(f.Param))
		if v == "" {
			continue
		}
		col := f.Column
		if col == "" {
			col = "t." + f.Param
		}
		switch f.Kind {
		case Integer, Ref:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				in.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser un número entero.")
				continue
			}
			if msg := f.fueraDeRango(n); msg != "" {
				in.Fail(f.Param, msg)
				continue
			}
			if f.Where != "" {
				conds = append(conds, fmt.Sprintf(f.Where, a.Add(n)))
				continue
			}
			conds = append(conds, col+" = "+a.Add(n))
		case Boolean:
			bv, err := httpx.BoolQuery(r, f.Param)
			if err != nil {
				return none, err
			}
			conds = append(conds, col+" = "+a.Add(*bv))
		default:
			if len(f.Values) > 0 && !contains(f.Values, v) {
				in.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser uno de: "+strings.Join(f.Values, ", ")+".")
				continue
			}
			conds = append(conds, col+" = "+a.Add(v))
		}
	}
	if err := in.Err(); err != nil {
		return none, err
	}
	args := a.Values()
	if !global {
		args = args[1:]
	}
	return handler.Query[Row]{
		Cols: res.rowExpr(), From: `from ` + res.Table + ` t where ` + strings.Join(conds, " and "),
		Order: order + ", t.id", Args: args, Global: global, Scan: scanRow, Late: true,
		Load: func(ctx context.Context, tx *db.Tx, rows []Row) error {
			return res.decorate(&Call{Ctx: ctx, Principal: p, Tx: tx}, tx, rows, false)
		},
	}, nil
}

// fueraDeRango is the Spanish message of an Integer filter value outside
// MinValue..MaxValue, or "".
func (f Filter) fueraDeRango(n int64) string {
	campo := "El campo " + strings.ReplaceAll(f.Param, "_", " ")
	if lo, err := strconv.ParseInt(f.MinValue, 10, 64); err == nil && n < lo {
		return campo + " debe ser al menos " + f.MinValue + "."
	}
	if hi, err := strconv.ParseInt(f.MaxValue, 10, 64); err == nil && n > hi {
		return campo + " no debe ser mayor que " + f.MaxValue + "."
	}
	return ""
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
