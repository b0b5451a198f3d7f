package recurso

import (
	"context"
	"fmt"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the five operations of res keyed by the route names the
// route table's crud() declares (index, store, show, update, patch, destroy);
// read-only resources get index and show. They run on the shared handler
// layer, like the hand-written groups: one transaction per request bound to
// the tenant, typed errors, Idempotency-Key on store, deadlock retry.
func Handlers(res *Resource, d *db.DB) lambdahttp.Handlers {
	hs := lambdahttp.Handlers{
		res.Name + ".index": handler.List(d, res.query),
		res.Name + ".show":  handler.Show(d, res.mostrar),
	}
	if !res.ReadOnly {
		update := handler.Action(d, res.Messages.Updated, cuerpo, res.actualizar)
		hs[res.Name+".store"] = handler.Create(d, res.Messages.Created, cuerpo, res.crear)
		hs[res.Name+".update"] = update
		hs[res.Name+".patch"] = update
		hs[res.Name+".destroy"] = handler.Action(d, res.Messages.Deleted, handler.NoBody, res.eliminar)
	}
	return hs
}

// cuerpo hands the body to save, which validates it field by field against
// the declaration inside the transaction (uniqueness, references).
func cuerpo(in *valid.Input) (*valid.Input, error) { return in, nil }

func (res *Resource) beforeRead(c *Call) error {
	if res.BeforeRead != nil {
		return res.BeforeRead(c)
	}
	return nil
}

func (res *Resource) mostrar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (httpx.Raw, error) {
	c := &Call{Ctx: ctx, Principal: p, Tx: tx, ID: id}
	if err := res.beforeRead(c); err != nil {
		return nil, err
	}
	return res.find(c, id, true)
}

func (res *Resource) crear(ctx context.Context, tx *db.Tx, p auth.Principal, in *valid.Input) (Row, error) {
	c := &Call{Ctx: ctx, Principal: p, Tx: tx, In: in}
	if err := res.save(c, in.Raw()); err != nil {
		return nil, err
	}
	if err := res.beforeRead(c); err != nil {
		return nil, err
	}
	row, err := res.findRow(c, c.ID, true)
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: reload: %w", res.Name, err)
	}
	if res.AfterCreate != nil {
		if err := res.AfterCreate(c, row); err != nil {
			return nil, err
		}
	}
	return row, nil
}

func (res *Resource) actualizar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, in *valid.Input) (httpx.Raw, error) {
	c := &Call{Ctx: ctx, Principal: p, Tx: tx, In: in, ID: id}
	if err := res.actual(c, id); err != nil {
		return nil, err
	}
	if err := res.save(c, in.Raw()); err != nil {
		return nil, err
	}
	if err := res.beforeRead(c); err != nil {
		return nil, err
	}
	return res.find(c, id, true)
}

// actual loads the record as it is now (c.Current, for the hooks) and
// refuses the write (412) when If-Match names another version of it.
func (res *Resource) actual(c *Call, id int64) error {
	cur, err := res.findRow(c, id, false)
	if err != nil {
		return err
	}
	c.Current = cur
	return res.ifMatch(c)
}

// destroy soft-deletes the record (activo = false, eliminado = true); the
// answer is only the message.
func (res *Resource) eliminar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	c := &Call{Ctx: ctx, Principal: p, Tx: tx, ID: id}
	// The row is locked before it is read, so the record the hooks judge
	// (principal, in use) is the one deleted: a write committed meanwhile (a
	// switch of the principal, a product or bus referencing the row, whose
	// foreign key holds it, another delete) is waited for and then seen.
	lock := &Args{}
	lockWhere := "t.id = " + lock.Add(id)
	if res.Tenant {
		lockWhere += " and t.empresa_id = " + lock.Add(tx.EmpresaID())
	}
	if _, err := tx.Exec(ctx, `select 1 from `+res.Table+` t where `+lockWhere+` for update`, lock.Values()...); err != nil {
		return nil, fmt.Errorf("recurso: %s: lock: %w", res.Name, err)
	}
	if err := res.actual(c, id); err != nil {
		return nil, err
	}
	if res.BeforeDelete != nil {
		if err := res.BeforeDelete(c); err != nil {
			return nil, err
		}
	}
	a := &Args{}
	where := "t.id = " + a.Add(id)
	if res.Tenant {
		where += " and t.empresa_id = " + a.Add(tx.EmpresaID())
	}
	// not eliminado: of concurrent deletes of one record the first commits
	// and the others, re-reading the row after its lock, change nothing and
	// answer 404 as a later delete does (all of them answered 200).
	tag, err := tx.Exec(ctx, `update `+res.Table+` t set activo = false, eliminado = true where `+where+` and not t.eliminado`, a.Values()...)
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: delete: %w", res.Name, err)
	}
	if tag.RowsAffected() == 0 {
		return nil, apperr.NewNotFound(res.Messages.NotFound)
	}
	return nil, nil
}

// ifMatch refuses (412) an update or delete whose If-Match header names
// another version of the record than the one a GET of it answers now: a
// client that read the record, and sends its ETag back, does not overwrite
// what someone changed since. The row is locked first, so the version
// compared is the one written. Only with the header (it costs two round
// trips); a v2 request is not compared (its representation carries links
// this layer does not write).
func (res *Resource) ifMatch(c *Call) error {
	if httpx.IfMatch(c.Ctx) == "" || lambdahttp.Version(c.Ctx) == routes.V2 {
		return nil
	}
	if err := res.beforeRead(c); err != nil {
		return err
	}
	if _, err := c.Tx.Exec(c.Context(), `select 1 from `+res.Table+` where id = $1 for update`, c.ID); err != nil {
		return fmt.Errorf("recurso: %s: lock: %w", res.Name, err)
	}
	raw, err := res.find(c, c.ID, true)
	if err != nil {
		return err
	}
	return httpx.CheckIfMatch(c.Ctx, raw)
}
