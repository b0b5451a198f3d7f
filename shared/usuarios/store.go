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

// loadRelations fills empresa, cargo and the roles held in the tenant for
// every user, in one pipelined round trip whatever the number of users.
func loadRelations(ctx context.Context, tx *db.Tx, us []Usuario) error {
	q, empresaID := tx, tx.EmpresaID()
	if len(us) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(us))
	var empresas, cargos []int64
	for _, u := range us {
		ids = append(ids, u.ID)
		empresas = append(empresas, u.EmpresaID)
		if u.CargoID != nil {
			cargos = append(cargos, *u.CargoID)
		}
	}
	b := &pgx.Batch{}
	b.Queue(`select id, nombre, razon_social, nit_ruc, subdominio from empresas where id = any($1)`, empresas)
	b.Queue(`select id, nombre from cargos where id = any($1)`, cargos)
	b.Queue(`select ur.usuario_id, r.id, r.nombre, r.slug, r.descripcion
		from usuario_roles ur join roles r on r.empresa_id = ur.empresa_id and r.id = ur.rol_id and not r.eliminado
		where ur.empresa_id = $1 and ur.usuario_id = any($2) order by r.id`, empresaID, ids)
	br := q.SendBatch(ctx, b)
	defer br.Close()

	rows, _ := br.Query()
	emps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (EmpresaRef, error) {
		var e EmpresaRef
		return e, r.Scan(&e.ID, &e.Nombre, &e.RazonSocial, &e.NitRuc, &e.Subdominio)
	})
	if err != nil {
		return fmt.Errorf("usuarios: empresas: %w", err)
	}
	rows, _ = br.Query()
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (CargoRef, error) {
		var c CargoRef
		return c, r.Scan(&c.ID, &c.Nombre)
	})
	if err != nil {
		return fmt.Errorf("usuarios: cargos: %w", err)
	}
	type userRole struct {
		usuario int64
		rol     RolRef
	}
	rows, _ = br.Query()
	urs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (userRole, error) {
		var x userRole
		return x, r.Scan(&x.usuario, &x.rol.ID, &x.rol.Nombre, &x.rol.Slug, &x.rol.Descripcion)
	})
	if err != nil {
		return fmt.Errorf("usuarios: roles: %w", err)
	}
	empByID := map[int64]*EmpresaRef{}
	for i := range emps {
		empByID[emps[i].ID] = &emps[i]
	}
	cargoByID := map[int64]*CargoRef{}
	for i := range cs {
		cargoByID[cs[i].ID] = &cs[i]
	}
	idx := map[int64]int{}
	for i := range us {
		idx[us[i].ID] = i
		us[i].Empresa = empByID[us[i].EmpresaID]
		if us[i].CargoID != nil {
			us[i].Cargo = cargoByID[*us[i].CargoID]
		}
	}
	for _, x := range urs {
		i := idx[x.usuario]
		us[i].Roles = append(us[i].Roles, x.rol)
	}
	return nil
}

// Find loads one user visible in the transaction's tenant (a member of it),
// with relations. found is false when there is none.
func Find(ctx context.Context, tx *db.Tx, id int64) (Usuario, bool, error) {
	q, empresaID := tx, tx.EmpresaID()
	rows, err := q.Query(ctx, `select `+usuarioCols+` from usuarios u
		join membresias m on m.usuario_id = u.id and m.empresa_id = $1 and not m.eliminado
		where u.id = $2 and not u.eliminado`, empresaID, id)
	if err != nil {
		return Usuario{}, false, fmt.Errorf("usuarios: find: %w", err)
	}
	us, err := pgx.CollectRows(rows, scanUsuario)
	if err != nil {
		return Usuario{}, false, fmt.Errorf("usuarios: find: %w", err)
	}
	if len(us) == 0 {
		return Usuario{}, false, nil
	}
	if err := loadRelations(ctx, tx, us); err != nil {
		return Usuario{}, false, err
	}
	return us[0], true, nil
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

// PermisosDe lists the permission slugs a user holds in the transaction's
// tenant.
func PermisosDe(ctx context.Context, tx *db.Tx, usuarioID int64) ([]string, error) {
	q, empresaID := tx, tx.EmpresaID()
	rows, err := q.Query(ctx, `select distinct p.slug from usuario_roles ur
		join roles r on r.empresa_id = ur.empresa_id and r.id = ur.rol_id and r.activo and not r.eliminado
		join rol_permisos rp on rp.empresa_id = r.empresa_id and rp.rol_id = r.id
		join permisos p on p.id = rp.permiso_id
		where ur.empresa_id = $1 and ur.usuario_id = $2 order by p.slug`, empresaID, usuarioID)
	if err != nil {
		return nil, fmt.Errorf("usuarios: permisos: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if out == nil {
		out = []string{}
	}
	return out, err
}
