package recurso

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the five operations of res keyed by the route names the
// route table's crud() declares (index, store, show, update, patch, destroy);
// read-only resources get index and show.
func Handlers(res *Resource, d *db.DB) lambdahttp.Handlers {
	h := &handler{res: res, db: d}
	hs := lambdahttp.Handlers{
		res.Name + ".index": h.index,
		res.Name + ".show":  h.show,
	}
	if !res.ReadOnly {
		hs[res.Name+".store"] = h.store
		hs[res.Name+".update"] = h.update
		hs[res.Name+".patch"] = h.update
		hs[res.Name+".destroy"] = h.destroy
	}
	return hs
}

type handler struct {
	res *Resource
	db  *db.DB
}

// run opens the request's transaction, scoped to the principal's tenant.
func (h *handler) run(r *http.Request, fn func(c *Call) error) error {
	p, _ := auth.FromContext(r.Context())
	return h.db.WithTx(r.Context(), db.Scope{EmpresaID: p.EmpresaID, UsuarioID: p.UsuarioID}, func(tx *db.Tx) error {
		return fn(&Call{R: r, Principal: p, Tx: tx})
	})
}

func (h *handler) index(w http.ResponseWriter, r *http.Request) error {
	var out httpx.Page[Row]
	err := h.run(r, func(c *Call) (err error) {
		out, err = h.res.list(c)
		return err
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (h *handler) show(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	var row Row
	err = h.run(r, func(c *Call) error {
		c.ID = id
		if err := h.beforeRead(c); err != nil {
			return err
		}
		row, err = h.res.find(c, id, true)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", row)
}

func (h *handler) beforeRead(c *Call) error {
	if h.res.BeforeRead != nil {
		return h.res.BeforeRead(c)
	}
	return nil
}

// body reads the request as an Input and the raw fields (for decimals).
func body(r *http.Request) (*valid.Input, map[string]json.RawMessage, error) {
	in, err := httpx.ReadInput(r)
	if err != nil {
		return nil, nil, err
	}
	return in, in.Raw(), nil
}

func (h *handler) store(w http.ResponseWriter, r *http.Request) error {
	in, raw, err := body(r)
	if err != nil {
		return err
	}
	var row Row
	err = h.run(r, func(c *Call) error {
		c.In = in
		if err := h.res.save(c, raw); err != nil {
			return err
		}
		if err := h.beforeRead(c); err != nil {
			return err
		}
		row, err = h.res.find(c, c.ID, true)
		if err != nil {
			return fmt.Errorf("recurso: %s: reload: %w", h.res.Name, err)
		}
		if h.res.AfterCreate != nil {
			return h.res.AfterCreate(c, row)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return httpx.Created(w, h.res.Messages.Created, row)
}

func (h *handler) update(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	in, raw, err := body(r)
	if err != nil {
		return err
	}
	var row Row
	err = h.run(r, func(c *Call) error {
		c.In, c.ID = in, id
		cur, err := h.res.find(c, id, false)
		if err != nil {
			return err
		}
		c.Current = cur
		if err := h.res.save(c, raw); err != nil {
			return err
		}
		if err := h.beforeRead(c); err != nil {
			return err
		}
		row, err = h.res.find(c, id, true)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, h.res.Messages.Updated, row)
}

func (h *handler) destroy(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	err = h.run(r, func(c *Call) error {
		c.ID = id
		cur, err := h.res.find(c, id, false)
		if err != nil {
			return err
		}
		c.Current = cur
		if h.res.BeforeDelete != nil {
			if err := h.res.BeforeDelete(c); err != nil {
				return err
			}
		}
		a := &Args{}
		where := "t.id = " + a.Add(id)
		if h.res.Tenant {
			where += " and t.empresa_id = " + a.Add(c.Principal.EmpresaID)
		}
		_, err = c.Tx.Exec(c.Context(), `update `+h.res.Table+` t set activo = false, eliminado = true where `+where, a.Values()...)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OKMessage(w, h.res.Messages.Deleted)
}
