// Package usuarios is the users, roles and permissions domain: the CRUD of
// /api/usuarios and /api/roles, the permission catalog, the predefined roles
// of a company, and the user object that login and /api/me return.
package usuarios

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
)

// EmpresaRef is the nested company of a user.
type EmpresaRef struct {
	ID          int64   `json:"id"`
	Nombre      string  `json:"nombre"`
	RazonSocial string  `json:"razon_social"`
	NitRuc      string  `json:"nit_ruc"`
	Subdominio  *string `json:"subdominio"`
}

// CargoRef is the nested position of a user.
type CargoRef struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
}

// RolRef is a role as nested in a user.
type RolRef struct {
	ID          int64   `json:"id"`
	Nombre      string  `json:"nombre"`
	Slug        string  `json:"slug"`
	Descripcion *string `json:"descripcion"`
}

// Usuario is the user object of the API. Password hashes never leave the
// store: the struct has no field for them.
type Usuario struct {
	ID            int64       `json:"id"`
	Nombre        string      `json:"nombre"`
	Apellidos     *string     `json:"apellidos"`
	Email         string      `json:"email"`
	EmpresaID     int64       `json:"empresa_id"`
	CargoID       *int64      `json:"cargo_id"`
	Activo        bool        `json:"activo"`
	CreadoEn      time.Time   `json:"creado_en"`
	ActualizadoEn time.Time   `json:"actualizado_en"`
	Empresa       *EmpresaRef `json:"empresa"`
	Cargo         *CargoRef   `json:"cargo"`
	Roles         []RolRef    `json:"roles"`
	Permisos      []string    `json:"permisos,omitempty"`
}

// usuarioCols reads a user through its membership m in the tenant: a guest
// member deactivated in this company shows activo false here and nowhere else.
const usuarioCols = `u.id, u.nombre, u.apellidos, u.email, u.empresa_id, u.cargo_id, u.activo and m.activo, u.creado_en, u.actualizado_en`

func scanUsuario(row pgx.CollectableRow) (Usuario, error) {
	var u Usuario
	err := row.Scan(&u.ID, &u.Nombre, &u.Apellidos, &u.Email, &u.EmpresaID, &u.CargoID, &u.Activo, &u.CreadoEn, &u.ActualizadoEn)
	u.Roles = []RolRef{}
	return u, err
}

// Quien names the users a queued read is about, as SQL: an expression of
// type bigint[] and its arguments. PorID names users by their ids; the
// login names DeLaSesion, whose id Go does not know yet when it queues
// the reads (its lookup sets it earlier in the same pipeline).
type Quien struct {
	ids  string
	args []any
}

// PorID names users by id.
func PorID(ids ...int64) Quien { return Quien{"$1::bigint[]", []any{ids}} }

// DeLaSesion is the user app.usuario_id names: the login sets it, with
// app.empresa_id, from its lookup by e-mail in the statement before the
// reads (transaction-local settings, which row-level security reads too).
var DeLaSesion = Quien{"array[app_usuario_id()]", nil}

// relaciones are the company, position and roles in the tenant of users,
// read by three statements that need no earlier answer: they find the
// companies and positions through the users themselves, so they travel in
// the same round trip as the users' row when the ids are known (Find) or
// named by the session (login).
type relaciones struct {
	emps   []EmpresaRef
	cargos []CargoRef
	roles  []rolDeUsuario
}

type rolDeUsuario struct {
	usuario int64
	rol     RolRef
}

func (r *relaciones) queue(b *pgx.Batch, q Quien) {
	b.Queue(`select id, nombre, razon_social, nit_ruc, subdominio from empresas
		where id in (select empresa_id from usuarios where id = any(`+q.ids+`))`, q.args...).
		Query(collect(&r.emps, "empresas", func(row pgx.CollectableRow) (e EmpresaRef, err error) {
			return e, row.Scan(&e.ID, &e.Nombre, &e.RazonSocial, &e.NitRuc, &e.Subdominio)
		}))
	b.Queue(`select id, nombre from cargos
		where id in (select cargo_id from usuarios where id = any(`+q.ids+`))`, q.args...).
		Query(collect(&r.cargos, "cargos", func(row pgx.CollectableRow) (c CargoRef, err error) {
			return c, row.Scan(&c.ID, &c.Nombre)
		}))
	b.Queue(`select ur.usuario_id, r.id, r.nombre, r.slug, r.descripcion
		from usuario_roles ur join roles r on r.empresa_id = ur.empresa_id and r.id = ur.rol_id and not r.eliminado
		where ur.empresa_id = app_empresa_id() and ur.usuario_id = any(`+q.ids+`) order by r.id`, q.args...).
		Query(collect(&r.roles, "roles", func(row pgx.CollectableRow) (x rolDeUsuario, err error) {
			return x, row.Scan(&x.usuario, &x.rol.ID, &x.rol.Nombre, &x.rol.Slug, &x.rol.Descripcion)
		}))
}

// fill sets the relations read on every user.
func (r *relaciones) fill(us []Usuario) {
	empByID := map[int64]*EmpresaRef{}
	for i := range r.emps {
		empByID[r.emps[i].ID] = &r.emps[i]
	}
	cargoByID := map[int64]*CargoRef{}
	for i := range r.cargos {
		cargoByID[r.cargos[i].ID] = &r.cargos[i]
	}
	idx := map[int64]int{}
	for i := range us {
		idx[us[i].ID] = i
		us[i].Empresa = empByID[us[i].EmpresaID]
		if us[i].CargoID != nil {
			us[i].Cargo = cargoByID[*us[i].CargoID]
		}
	}
	for _, x := range r.roles {
		if i, ok := idx[x.usuario]; ok {
			us[i].Roles = append(us[i].Roles, x.rol)
		}
	}
}

// collect is a batch callback that collects a statement's rows into dst.
func collect[T any](dst *[]T, what string, scan pgx.RowToFunc[T]) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		out, err := pgx.CollectRows(rows, scan)
		if err != nil {
			return fmt.Errorf("usuarios: %s: %w", what, err)
		}
		*dst = out
		return nil
	}
}

// loadRelations fills empresa, cargo and the roles held in the tenant for
// every user, in one pipelined round trip whatever the number of users.
func loadRelations(ctx context.Context, tx *db.Tx, us []Usuario) error {
	if len(us) == 0 {
		return nil
	}
	ids := make([]int64, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	var r relaciones
	b := &pgx.Batch{}
	r.queue(b, PorID(ids...))
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	r.fill(us)
	return nil
}

// Lectura is Find queued on a batch (QueueFind): the user's row and its
// relations, four statements in the batch's round trip. Its answer is
// ready once the batch's results were closed without error.
type Lectura struct {
	us     []Usuario
	rel    relaciones
	filled bool
}

// QueueFind queues on b the reads of Find for the user q names (one user),
// in the tenant of the transaction's settings: app_empresa_id(), the value
// row-level security reads (Tx.EmpresaID() in a db.Tx), which the login
// sets in the same pipeline.
func QueueFind(b *pgx.Batch, q Quien) *Lectura {
	l := &Lectura{}
	b.Queue(`select `+usuarioCols+` from usuarios u
		join membresias m on m.usuario_id = u.id and m.empresa_id = app_empresa_id() and not m.eliminado
		where u.id = any(`+q.ids+`) and not u.eliminado`, q.args...).
		Query(collect(&l.us, "find", scanUsuario))
	l.rel.queue(b, q)
	return l
}

// Usuario is the user read, with relations; found is false when the tenant
// has no such member.
func (l *Lectura) Usuario() (u Usuario, found bool) {
	if len(l.us) == 0 {
		return Usuario{}, false
	}
	if !l.filled {
		l.filled = true
		l.rel.fill(l.us)
	}
	return l.us[0], true
}

// Find loads one user visible in the transaction's tenant (a member of it),
// with relations, in one round trip. found is false when there is none.
func Find(ctx context.Context, tx *db.Tx, id int64) (Usuario, bool, error) {
	b := &pgx.Batch{}
	l := QueueFind(b, PorID(id))
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Usuario{}, false, err
	}
	u, found := l.Usuario()
	return u, found, nil
}

// PermisosDeRoles lists the permission slugs the given roles of a company
// carry, active or not (a deactivated role may be reactivated later).
func PermisosDeRoles(ctx context.Context, tx *db.Tx, roleIDs []int64) ([]string, error) {
	q, empresaID := tx, tx.EmpresaID()
	if len(roleIDs) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `select distinct p.slug from rol_permisos rp join permisos p on p.id = rp.permiso_id
		where rp.empresa_id = $1 and rp.rol_id = any($2) order by p.slug`, empresaID, roleIDs)
	if err != nil {
		return nil, fmt.Errorf("usuarios: permisos de roles: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// QueuePermisos queues on b the read of the permission slugs the user q
// names (one user) holds in the tenant of the transaction's settings; the
// slice is filled (never nil) once the batch's results were closed.
func QueuePermisos(b *pgx.Batch, q Quien) *[]string {
	out := &[]string{}
	b.Queue(`select distinct p.slug from usuario_roles ur
		join roles r on r.empresa_id = ur.empresa_id and r.id = ur.rol_id and r.activo and not r.eliminado
		join rol_permisos rp on rp.empresa_id = r.empresa_id and rp.rol_id = r.id
		join permisos p on p.id = rp.permiso_id
		where ur.empresa_id = app_empresa_id() and ur.usuario_id = any(`+q.ids+`) order by p.slug`, q.args...).
		Query(func(rows pgx.Rows) error {
			slugs, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return fmt.Errorf("usuarios: permisos: %w", err)
			}
			if slugs != nil {
				*out = slugs
			}
			return nil
		})
	return out
}

// PermisosDe lists the permission slugs a user holds in the transaction's
// tenant.
func PermisosDe(ctx context.Context, tx *db.Tx, usuarioID int64) ([]string, error) {
	b := &pgx.Batch{}
	out := QueuePermisos(b, PorID(usuarioID))
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	return *out, nil
}
