package recurso

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

func label(name string) string { return strings.ReplaceAll(name, "_", " ") }

// Values reads the body against the fields. creating applies Required and
// Default; updating reads only what was sent (partial validation).
func (res *Resource) values(in *valid.Input, raw map[string]json.RawMessage, creating bool) map[string]any {
	vals := map[string]any{}
	for _, f := range res.Fields {
		if !in.Has(f.Name) {
			if creating {
				if f.Required {
					in.Required(f.Name)
				} else if f.Default != nil {
					vals[f.Name] = f.Default
				}
			}
			continue
		}
		if !creating && f.Immutable {
			in.Fail(f.Name, "El campo "+label(f.Name)+" no se puede modificar.")
			continue
		}
		if in.IsNull(f.Name) {
			if f.Required {
				in.Required(f.Name)
			} else if f.Kind == Boolean {
				in.Fail(f.Name, "El campo "+label(f.Name)+" debe ser verdadero o falso.")
			} else {
				vals[f.Name] = f.Default // nil, or back to the default (NOT NULL columns)
			}
			continue
		}
		switch f.Kind {
		case Text:
			s, ok := in.String(f.Name, valid.Str{Required: f.Required, Max: f.Max, Email: f.Email, URL: f.URL})
			if !ok {
				if !in.Failed(f.Name) {
					vals[f.Name] = f.Default // blank optional text clears it (or restores the default)
				}
				continue
			}
			if f.Email {
				s = strings.ToLower(s)
			}
			if len(f.Values) > 0 && !contains(f.Values, s) {
				in.Fail(f.Name, "El campo "+label(f.Name)+" debe ser uno de: "+strings.Join(f.Values, ", ")+".")
				continue
			}
			if f.Normalize != nil {
				n, msg, ok := f.Normalize(s)
				if !ok {
					in.Fail(f.Name, msg)
					continue
				}
				s = n
			}
			vals[f.Name] = s
		case Integer, Ref:
			rule := valid.Int{}
			if f.Kind == Ref {
				rule.Min = valid.Min(1)
			}
			if f.MinValue != "" {
				n, _ := strconv.ParseInt(f.MinValue, 10, 64)
				rule.Min = &n
			}
			if f.MaxValue != "" {
				n, _ := strconv.ParseInt(f.MaxValue, 10, 64)
				rule.Max = &n
			}
			if n, ok := in.Int(f.Name, rule); ok {
				vals[f.Name] = n
			}
		case Decimal:
			scale := f.Scale
			if scale == 0 {
				scale = 2
			}
			rule := valid.Dec{Required: f.Required, Scale: scale, Negative: f.MinValue == ""}
			if f.MinValue != "" {
				rule.Min = valid.D(f.MinValue)
			}
			if f.MaxValue != "" {
				rule.Max = valid.D(f.MaxValue)
			}
			if d, ok := in.Decimal(f.Name, rule); ok {
				vals[f.Name] = db.Numeric(d)
			}
		case Boolean:
			if b, ok := in.Bool(f.Name, f.Required); ok {
				vals[f.Name] = b
			}
		case Date:
			s, ok := in.String(f.Name, valid.Str{Required: f.Required})
			if !ok {
				continue
			}
			d, ok := valid.ParseDate(s, nil)
			if !ok {
				in.Fail(f.Name, valid.DateMessage(f.Name))
				continue
			}
			vals[f.Name] = d
		}
	}
	return vals
}

func (res *Resource) field(name string) *Field {
	for i := range res.Fields {
		if res.Fields[i].Name == name {
			return &res.Fields[i]
		}
	}
	return nil
}

// checkRefsAndUniques verifies, in one pipelined round trip, that referenced
// rows exist (in the tenant where they are tenant-owned) and that unique
// values are free.
func (res *Resource) checkRefsAndUniques(c *Call, vals map[string]any) error {
	b := &pgx.Batch{}
	var checks []func(bool)
	for _, f := range res.Fields {
		v, ok := vals[f.Name]
		if !ok || v == nil {
			continue
		}
		f := f
		if f.Kind == Ref && f.RefTable != "" {
			sql := `select exists (select 1 from ` + f.RefTable + ` x where x.id = $1 and not x.eliminado`
			args := []any{v}
			if f.RefTenant {
				// Held until COMMIT, the key-share lock makes a delete of the
				// referenced row (which locks it first) wait for this write,
				// or this check wait for that delete and see it.
				sql += ` and x.empresa_id = $2 for key share`
				args = append(args, c.Tx.EmpresaID())
			}
			b.Queue(sql+`)`, args...)
			checks = append(checks, func(exists bool) {
				if !exists {
					msg := f.RefMsg
					if msg == "" {
						msg = "El valor seleccionado en " + label(f.Name) + " no existe."
					}
					c.In.Fail(f.Name, msg)
				}
			})
		}
		if f.Unique != NotUnique {
			col, param := "x."+f.Name, "$1"
			if f.CaseInsensitive {
				col, param = "lower(x."+f.Name+")", "lower($1)"
			}
			sql := `select exists (select 1 from ` + res.Table + ` x where ` + col + ` = ` + param + ` and not x.eliminado and x.id <> $2`
			args := []any{v, c.ID}
			if f.Unique == UniquePerTenant {
				sql += ` and x.empresa_id = $3`
				args = append(args, c.Tx.EmpresaID())
			}
			// A global rule on a table under row-level security can only see
			// the caller's rows here; the unique index catches the others and
			// uniqueField maps its violation to the same 422.
			b.Queue(sql+`)`, args...)
			checks = append(checks, func(taken bool) {
				if taken {
					msg := f.UniqueMsg
					if msg == "" {
						msg = "El valor del campo " + label(f.Name) + " ya está registrado."
					}
					c.In.Fail(f.Name, msg)
				}
			})
		}
	}
	if len(checks) == 0 {
		return nil
	}
	br := c.Tx.SendBatch(c.Context(), b)
	defer br.Close()
	for _, check := range checks {
		var v bool
		if err := br.QueryRow().Scan(&v); err != nil {
			return fmt.Errorf("recurso: %s: checks: %w", res.Name, err)
		}
		check(v)
	}
	return nil
}

// columns returns the writable columns present in vals, in field order.
func (res *Resource) columns(vals map[string]any) ([]string, []any) {
	var cols []string
	var args []any
	for _, f := range res.Fields {
		if v, ok := vals[f.Name]; ok {
			cols = append(cols, f.Name)
			args = append(args, v)
		}
	}
	return cols, args
}

func (res *Resource) insert(c *Call, vals map[string]any) (int64, error) {
	if res.Insert != nil {
		return res.Insert(c, vals)
	}
	cols, args := res.columns(vals)
	if res.Tenant {
		cols = append(cols, "empresa_id")
		args = append(args, c.Tx.EmpresaID())
	}
	ph := make([]string, len(cols))
	for i := range cols {
		ph[i] = placeholder(i + 1)
	}
	var id int64
	err := c.Tx.QueryRow(c.Context(), `insert into `+res.Table+` (`+strings.Join(cols, ", ")+`) values (`+strings.Join(ph, ", ")+`) returning id`, args...).Scan(&id)
	return id, err
}

func (res *Resource) update(c *Call, vals map[string]any) error {
	cols, args := res.columns(vals)
	if len(cols) == 0 {
		return nil
	}
	a := &Args{list: args}
	sets := make([]string, len(cols))
	for i, col := range cols {
		sets[i] = col + " = " + placeholder(i+1)
	}
	where := "t.id = " + a.Add(c.ID)
	if res.Tenant {
		where += " and t.empresa_id = " + a.Add(c.Tx.EmpresaID())
	}
	_, err := c.Tx.Exec(c.Context(), `update `+res.Table+` t set `+strings.Join(sets, ", ")+` where `+where, a.Values()...)
	return err
}

// uniqueField maps a unique-violation (a race the pre-check lost) to its field.
func (res *Resource) uniqueField(err error) (string, string, bool) {
	constraint, ok := db.IsUniqueViolation(err)
	if !ok {
		return "", "", false
	}
	for _, f := range res.Fields {
		if f.Unique != NotUnique && strings.Contains(constraint, f.Name) {
			msg := f.UniqueMsg
			if msg == "" {
				msg = "El valor del campo " + label(f.Name) + " ya está registrado."
			}
			return f.Name, msg, true
		}
	}
	return "", "", false
}

// save validates and writes a create (c.ID == 0) or an update.
func (res *Resource) save(c *Call, raw map[string]json.RawMessage) error {
	creating := c.ID == 0
	vals := res.values(c.In, raw, creating)
	if res.Validate != nil && len(res.Fields) > 0 {
		res.Validate(c, vals)
	}
	if err := c.In.Err(); err != nil {
		return err
	}
	if err := res.checkRefsAndUniques(c, vals); err != nil {
		return err
	}
	if err := c.In.Err(); err != nil {
		return err
	}
	if res.BeforeSave != nil {
		if err := res.BeforeSave(c, vals); err != nil {
			return err
		}
	}
	if err := c.In.Err(); err != nil {
		return err
	}
	var err error
	if creating {
		c.ID, err = res.insert(c, vals)
	} else {
		err = res.update(c, vals)
	}
	if err != nil {
		if field, msg, ok := res.uniqueField(err); ok {
			e := apperr.InvalidField(field, msg)
			e.Err = err // the transaction is aborted (Importar stops there)
			return e
		}
		return fmt.Errorf("recurso: %s: write: %w", res.Name, err)
	}
	if res.AfterSave != nil {
		return res.AfterSave(c, vals)
	}
	return nil
}
