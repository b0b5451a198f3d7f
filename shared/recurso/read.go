package recurso

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
)

func placeholder(n int) string { return "$" + strconv.Itoa(n) }

// Row is one record as output.
type Row = map[string]any

// rowExpr is the JSON of a row: all its columns, as json, not jsonb —
// row_to_json writes the text as it goes, where to_jsonb builds a sorted
// tree first, which for a page of products cost PostgreSQL about twice
// as much. The hidden columns (busqueda always) are left out and the
// computed keys added by the scanner (shape.omit, extras), as the
// canonical rewriting of the row puts its keys in order anyway. Both
// print every column type the resources use (numbers, text, booleans,
// dates and timestamps) alike.
const rowExpr = "row_to_json(t)"

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
// reflection (httpx.DecodeRow): the write paths' hooks read records as maps.
func decodeRow(raw []byte) (Row, error) {
	row, err := httpx.DecodeRow(raw)
	if err != nil {
		return nil, fmt.Errorf("recurso: decode row: %w", err)
	}
	return row, nil
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

// scratches are the buffers rows are rewritten in (httpx.AppendCanonical
// needs room for an object's members before it sorts them).
var scratches = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// jsonValue is a json or jsonb value as PostgreSQL sent it (text; in
// binary, json is the text too and jsonb a version byte then the text);
// nil for NULL.
func jsonValue(src []byte, fd pgconn.FieldDescription) ([]byte, error) {
	if src == nil || fd.Format != pgx.BinaryFormatCode || fd.DataTypeOID != pgtype.JSONBOID {
		return src, nil
	}
	if len(src) == 0 || src[0] != 1 {
		return nil, fmt.Errorf("recurso: jsonb version %v", src[:min(1, len(src))])
	}
	return src[1:], nil
}

// The page's rows, as the SQL of its columns reads them all at once
// (db.PageLate's common table expression; find and recargar name theirs
// the same): an aggregate receives their ids as $1.
const pageIDs = `array(select pagina.id from pagina)`

// shape is how a resource's rows are read in one statement over its page
// (pagina t): the row's own jsonb (rowExpr) and, beside it, one jsonb column
// per relation (by its foreign key), aggregate (joined, computed once for
// the whole page; NULL when it has nothing for the row) and, for a show,
// detail (whose $1 is the id's placeholder). PostgreSQL builds each piece
// as JSON; Go puts them into the row's object as the API writes it
// (httpx.AppendCanonicalObject), which costs PostgreSQL less than merging
// them itself. A list then costs one statement for its rows whatever the
// page size and the number of relations.
type shape struct {
	cols, join string
	omit       []string
	extras     []extra
}

// extra is a column beside the row: its key, what NULL stands for, and
// whether a JSON null does too (a detail: an empty list).
type extra struct {
	name    string
	null    []byte
	nullToo bool
}

// shapes holds the shapes built (a declaration does not change).
var shapes sync.Map // shapeKey -> *shape

type shapeKey struct {
	res     *Resource
	detail  bool
	idParam string
}

// shape returns the statement's shape for a list (detail false, idParam
// "") or a show.
func (res *Resource) shape(detail bool, idParam string) *shape {
	k := shapeKey{res, detail, idParam}
	if sh, ok := shapes.Load(k); ok {
		return sh.(*shape)
	}
	sh := &shape{omit: append([]string{"busqueda"}, res.Hidden...)}
	cols := []string{rowExpr}
	var join strings.Builder
	// Computed keys replace columns of the same name, and relations and
	// aggregates replace both (later members win).
	for _, k := range slices.Sorted(maps.Keys(res.Computed)) {
		cols = append(cols, "to_jsonb("+res.Computed[k]+")")
		sh.extras = append(sh.extras, extra{name: k, null: []byte("null")})
	}
	for _, rel := range res.Relations {
		obj := make([]string, len(rel.Cols))
		for i, col := range rel.Cols {
			obj[i] = "'" + col + "', x." + col
		}
		cols = append(cols, "(select jsonb_build_object("+strings.Join(obj, ", ")+") from "+rel.Table+" x where x.id = t."+rel.FK+")")
		sh.extras = append(sh.extras, extra{name: rel.Name, null: []byte("null")})
	}
	for i, ag := range res.Aggregates {
		if ag.DetailOnly && !detail {
			continue
		}
		a := "a" + strconv.Itoa(i)
		join.WriteString(" left join (" + withParam(ag.SQL, pageIDs) + ") " + a + "(id, v) on " + a + ".id = t.id")
		cols = append(cols, "case when "+a+".id is null then null else coalesce("+a+".v, 'null'::jsonb) end")
		zero, err := httpx.EncodeJSON(ag.Zero)
		if err != nil {
			panic(fmt.Sprintf("recurso: %s.%s: zero %#v: %v", res.Name, ag.Name, ag.Zero, err))
		}
		sh.extras = append(sh.extras, extra{name: ag.Name, null: bytes.TrimSpace(zero)})
	}
	if detail {
		for _, d := range res.Details {
			cols = append(cols, "("+withParam(d.SQL, idParam)+")")
			sh.extras = append(sh.extras, extra{name: d.Name, null: []byte("[]"), nullToo: true})
		}
	}
	sh.cols, sh.join = strings.Join(cols, ", "), join.String()
	shapes.Store(k, sh)
	return sh
}

// scanner reads rows of the shape into the bytes the API writes for them.
func (sh *shape) scanner() pgx.RowToFunc[httpx.Raw] {
	// The omitted keys first: a computed key of the same name puts it back.
	members := make([]httpx.Member, len(sh.omit)+len(sh.extras))
	for i, k := range sh.omit {
		members[i] = httpx.Member{Key: k, Omit: true}
	}
	extras := members[len(sh.omit):]
	return func(r pgx.CollectableRow) (httpx.Raw, error) {
		vals, fds := r.RawValues(), r.FieldDescriptions()
		if len(vals) != 1+len(sh.extras) {
			return nil, fmt.Errorf("recurso: %d columns, want %d", len(vals), 1+len(sh.extras))
		}
		row, err := jsonValue(vals[0], fds[0])
		if err != nil {
			return nil, err
		}
		for i, x := range sh.extras {
			v, err := jsonValue(vals[1+i], fds[1+i])
			if err != nil {
				return nil, err
			}
			if v == nil || (x.nullToo && string(v) == "null") {
				v = x.null
			}
			extras[i] = httpx.Member{Key: x.name, Value: v}
		}
		bp := scratches.Get().(*[]byte)
		defer scratches.Put(bp)
		b, err := httpx.AppendCanonicalObject((*bp)[:0], row, members)
		if err != nil {
			return nil, fmt.Errorf("recurso: row: %w", err)
		}
		*bp = b[:0]
		return httpx.Raw(append(make([]byte, 0, len(b)), b...)), nil
	}
}

// withParam replaces the placeholder $1 (not $10, $11...) of a
// declaration's SQL with expr.
func withParam(sql, expr string) string {
	var b strings.Builder
	for {
		i := strings.Index(sql, "$1")
		if i < 0 {
			b.WriteString(sql)
			return b.String()
		}
		b.WriteString(sql[:i])
		if j := i + 2; j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
			b.WriteString("$1")
		} else {
			b.WriteString(expr)
		}
		sql = sql[i+2:]
	}
}

// find loads one visible record as the API shows it, its relations,
// aggregates (and details) built in the same statement, with the
// transaction's BEGIN in front when it is the first, and the commit behind
// when nothing follows (handler.Show): one round trip.
func (res *Resource) find(c *Call, id int64, detail bool) (httpx.Raw, error) {
	a := &Args{}
	where := res.visible(c, a)
	idParam := a.Add(id)
	sh := res.shape(detail, idParam)
	sql := `with pagina as (select t.* from ` + res.Table + ` t where ` + where + ` and t.id = ` + idParam + `) select ` +
		sh.cols + ` from pagina t` + sh.join
	b := &pgx.Batch{}
	b.Queue(sql, a.Values()...)
	br := c.Tx.SendFinalBatch(c.Context(), b)
	defer br.Close()
	rows, _ := br.Query()
	list, err := pgx.CollectRows(rows, sh.scanner())
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: find: %w", res.Name, err)
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("recurso: %s: find: %w", res.Name, err)
	}
	if len(list) == 0 {
		return nil, apperr.NewNotFound(res.Messages.NotFound)
	}
	return list[0], nil
}

// findRow is find as a map, for the hooks of the write paths.
func (res *Resource) findRow(c *Call, id int64, detail bool) (Row, error) {
	raw, err := res.find(c, id, detail)
	if err != nil {
		return nil, err
	}
	return decodeRow(raw)
}

// query is the page of GET /api/<name> for the shared list handler: the
// filters are read before the transaction opens, and $1 is the company
// (handler.Query) for tenant resources.
func (res *Resource) query(r *http.Request, p auth.Principal) (handler.Query[httpx.Raw], error) {
	var none handler.Query[httpx.Raw]
	allowed := map[string]string{"id": "t.id", "creado_en": "t.creado_en", "actualizado_en": "t.actualizado_en"}
	for _, s := range res.Sorts {
		allowed[s] = "t." + s
	}
	// A bad sort is reported with the bad filters (apperr.Campos.Juntar).
	order, sortErr := httpx.SortQuery(r, allowed, "t.id")
	if sortErr != nil && !apperr.Is(sortErr, apperr.Invalid) {
		return none, sortErr
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
	// A bad activos is reported by handler.List with the other parameters
	// (httpx.ListParams).
	if activos, _ := httpx.BoolQuery(r, "activos"); activos != nil {
		conds = append(conds, "t.activo = "+a.Add(*activos))
	}
	if res.Search {
		if s := httpx.SearchQuery(r); s != nil {
			conds = append(conds, "t.busqueda like f_unaccent(lower("+a.Add(*s)+"))")
		}
	}
	q := r.URL.Query()
	bad := apperr.Campos{}
	bad.Juntar(sortErr)
	for _, f := range res.Filters {
		v := httpx.QueryText(q.Get(f.Param))
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
				bad.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser un número entero.")
				continue
			}
			if f.Kind == Ref && n < 1 {
				bad.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser un número entero positivo.")
				continue
			}
			if msg := f.fueraDeRango(n); msg != "" {
				bad.Fail(f.Param, msg)
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
				bad.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser verdadero o falso.")
				continue
			}
			conds = append(conds, col+" = "+a.Add(*bv))
		default:
			if len(f.Values) > 0 && !contains(f.Values, v) {
				bad.Fail(f.Param, "El campo "+strings.ReplaceAll(f.Param, "_", " ")+" debe ser uno de: "+strings.Join(f.Values, ", ")+".")
				continue
			}
			conds = append(conds, col+" = "+a.Add(v))
		}
	}
	if err := bad.Err(); err != nil {
		return none, err
	}
	args := a.Values()
	if !global {
		args = args[1:]
	}
	sh := res.shape(false, "")
	return handler.Query[httpx.Raw]{
		Cols: sh.cols, Join: sh.join, From: `from ` + res.Table + ` t where ` + strings.Join(conds, " and "),
		Order: order + ", t.id", Args: args, Global: global, Scan: sh.scanner(), Late: true, Vacia: res.vacia(sh),
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
