package organizacion

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/usuarios"
)

func subdominio(s string) (string, string, bool) { return crformat.NormalizeSubdominio(s) }

// Empresa is a company. A user sees the companies it belongs to; it may
// change or delete only the one it is acting in (X-Empresa-Id), and the
// creator of a company becomes its Administrador.
var Empresa = &recurso.Resource{
	Name: "empresas", Table: "empresas", Search: true,
	Fields: recurso.Campos([]recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "razon_social", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "nit_ruc", Kind: recurso.Text, Required: true, Max: 50, Unique: recurso.UniqueGlobal,
			UniqueMsg: "Ya existe una empresa con ese NIT/RUC."},
		{Name: "regimen_tributario_id", Kind: recurso.Ref, Required: true, RefTable: "regimenes_tributarios",
			RefMsg: "El régimen tributario seleccionado no existe."},
		{Name: "email", Kind: recurso.Text, Max: 255, Email: true},
		{Name: "telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("telefono")},
	}, recurso.Direccion("pais", "provincia", "ciudad"), []recurso.Field{
		{Name: "sitio_web", Kind: recurso.Text, Max: 255, URL: true},
		{Name: "subdominio", Kind: recurso.Text, Max: 63, Normalize: subdominio, Unique: recurso.UniqueGlobal,
			UniqueMsg: "Ya existe una empresa con ese subdominio."},
		{Name: "activo", Kind: recurso.Boolean},
	}),
	Scope: func(c *recurso.Call, a *recurso.Args) string {
		return "t.id in (select app_empresas_del_usuario())"
	},
	Sorts: []string{"nombre", "razon_social", "nit_ruc"},
	Relations: []recurso.Relation{
		{Name: "regimen_tributario", FK: "regimen_tributario_id", Table: "regimenes_tributarios", Cols: []string{"id", "nombre", "codigo"}},
	},
	Aggregates: []recurso.Aggregate{
		{Name: "sucursales_count", Zero: 0, SQL: `select id, valor from empresas_conteo($1, 'sucursales')`},
		{Name: "usuarios_count", Zero: 0, SQL: `select id, valor from empresas_conteo($1, 'usuarios')`},
		{Name: "productos_count", Zero: 0, SQL: `select id, valor from empresas_conteo($1, 'productos')`},
	},
	Details: []recurso.Detail{
		{Name: "sucursales", SQL: `select coalesce(jsonb_agg(to_jsonb(s) - 'busqueda' order by s.id), '[]'::jsonb)
			from sucursales s where s.empresa_id = $1 and not s.eliminado`},
		{Name: "usuarios", SQL: `select coalesce(jsonb_agg(jsonb_build_object('id', u.id, 'nombre', u.nombre, 'apellidos', u.apellidos,
			'email', u.email, 'activo', u.activo) order by u.id), '[]'::jsonb)
			from usuarios u join membresias m on m.usuario_id = u.id and m.empresa_id = $1 and not m.eliminado where not u.eliminado`},
		{Name: "configuraciones", SQL: `select coalesce(jsonb_agg(jsonb_build_object('clave', c.clave, 'valor', c.valor,
			'descripcion', c.descripcion) order by c.clave), '[]'::jsonb) from configuraciones c where c.empresa_id = $1 and not c.eliminado`},
	},
	Messages: recurso.Messages{NotFound: msgEmpresaNoEncontrada, Created: "Empresa creada correctamente.",
		Updated: "Empresa actualizada correctamente.", Deleted: "Empresa eliminada correctamente."},
	// Showing a company reads its branches, users (with their e-mails) and
	// settings: the caller must hold empresas.leer in that company, not
	// only in the one it acts in (a guest member without it there was shown
	// them), and the rest of the transaction acts there. Already acting
	// there (the company of X-Empresa-Id, whose permission the route guard
	// checked, or the one just created or changed) costs nothing.
	BeforeRead: func(c *recurso.Call) error {
		if c.ID == c.Tx.EmpresaID() {
			return nil
		}
		return actInCompany(c.Context(), c.Tx, c.Principal, c.ID, "empresas.leer")
	},
	BeforeSave: func(c *recurso.Call, vals map[string]any) error {
		if c.ID != 0 {
			return actInCompany(c.Context(), c.Tx, c.Principal, c.ID, "empresas.actualizar")
		}
		return nil
	},
	BeforeDelete: func(c *recurso.Call) error {
		return actInCompany(c.Context(), c.Tx, c.Principal, c.ID, "empresas.eliminar")
	},
	Insert: insertEmpresa,
}

const msgEmpresaNoEncontrada = "Empresa no encontrada."

// actInCompany makes company id the tenant of the rest of the transaction,
// so that row-level security admits the change, after checking that the
// caller may do perm there: the permission counts in the company changed,
// not in the one the caller happens to act in (X-Empresa-Id). A company the
// caller does not belong to is 404, one where it lacks perm 403. Acting in
// id itself costs nothing: the route guard has checked perm there.
func actInCompany(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, perm string) error {
	if id == p.EmpresaID {
		return nil
	}
	var member, allowed bool
	err := tx.QueryRow(ctx, `select member, allowed,
			case when member and allowed then set_config('app.empresa_id', $1::bigint::text, true) end
		from (select $1::bigint in (select app_empresas_del_usuario()) as member,
			$2::text = any(array(select app_permisos_en($1))) as allowed) x`, id, perm).Scan(&member, &allowed, new(*string))
	if err != nil {
		return fmt.Errorf("empresa: act in %d: %w", id, err)
	}
	if !member {
		return apperr.NewNotFound(msgEmpresaNoEncontrada)
	}
	if !allowed {
		return apperr.NewForbidden("No tiene permiso para realizar esta acción en esa empresa.")
	}
	tx.ActuarEn(id)
	return nil
}

// insertEmpresa creates the company, its predefined roles and default
// settings, and makes the caller its Administrador, in the request's
// transaction. The new company becomes the transaction's tenant first, so
// row-level security admits its rows.
func insertEmpresa(c *recurso.Call, vals map[string]any) (int64, error) {
	ctx := c.Context()
	var id int64
	if err := c.Tx.QueryRow(ctx, `select nextval('empresas_id_seq')`).Scan(&id); err != nil {
		return 0, err
	}
	if _, err := c.Tx.Exec(ctx, `select set_config('app.empresa_id', $1, true)`, strconv.FormatInt(id, 10)); err != nil {
		return 0, err
	}
	c.Tx.ActuarEn(id)
	cols, args := []string{"id"}, []any{id}
	// vals holds only declared fields (validated), never arbitrary keys.
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cols = append(cols, k)
		args = append(args, vals[k])
	}
	ph := make([]string, len(cols))
	for i := range cols {
		ph[i] = "$" + strconv.Itoa(i+1)
	}
	if _, err := c.Tx.Exec(ctx, `insert into empresas (`+strings.Join(cols, ", ")+`) values (`+strings.Join(ph, ", ")+`)`, args...); err != nil {
		return 0, err
	}
	if err := usuarios.EnsurePredefinedRoles(ctx, c.Tx, id); err != nil {
		return 0, err
	}
	for _, s := range seed.DefaultSettings {
		if _, err := c.Tx.Exec(ctx, `insert into configuraciones (empresa_id, clave, valor, descripcion) values ($1, $2, $3::jsonb, $4)`,
			id, s[0], s[1], s[2]); err != nil {
			return 0, fmt.Errorf("empresa: settings: %w", err)
		}
	}
	if _, err := c.Tx.Exec(ctx, `select empresa_crear_membresia($1, $2)`, id, c.Principal.UsuarioID); err != nil {
		return 0, fmt.Errorf("empresa: membership: %w", err)
	}
	return id, nil
}

// Empresas returns the handlers of the empresas group. Update and delete of
// a company other than the active one first check membership and the
// permission in that company, so that a caller without them gets 404 or 403
// before its body is validated; the BeforeSave and BeforeDelete hooks check
// again inside the transaction that writes.
func Empresas(deps *plataforma.Deps) lambdahttp.Handlers {
	d := deps.DB
	hs := recurso.Handlers(Empresa, d)
	for name, perm := range map[string]string{"empresas.update": "empresas.actualizar",
		"empresas.patch": "empresas.actualizar", "empresas.destroy": "empresas.eliminar"} {
		next := hs[name]
		hs[name] = func(w http.ResponseWriter, r *http.Request) error {
			id, err := httpx.PathID(r)
			if err != nil {
				return err
			}
			p := auth.FromRequest(r)
			if id != p.EmpresaID {
				err := d.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
					return actInCompany(r.Context(), tx, p, id, perm)
				})
				if err != nil {
					return err
				}
			}
			return next(w, r)
		}
	}
	return hs
}
