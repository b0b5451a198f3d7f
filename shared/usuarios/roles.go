package usuarios

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// Rol is a role of the tenant with its permission slugs.
type Rol struct {
	ID            int64     `json:"id"`
	EmpresaID     int64     `json:"empresa_id"`
	Nombre        string    `json:"nombre"`
	Slug          string    `json:"slug"`
	Descripcion   *string   `json:"descripcion"`
	Predefinido   bool      `json:"predefinido"`
	Activo        bool      `json:"activo"`
	CreadoEn      time.Time `json:"creado_en"`
	ActualizadoEn time.Time `json:"actualizado_en"`
	Permisos      []string  `json:"permisos"`
	UsuariosCount int       `json:"usuarios_count"`
}

const rolCols = `r.id, r.empresa_id, r.nombre, r.slug, r.descripcion, r.predefinido, r.activo, r.creado_en, r.actualizado_en`

func scanRol(row pgx.CollectableRow) (Rol, error) {
	var x Rol
	err := row.Scan(&x.ID, &x.EmpresaID, &x.Nombre, &x.Slug, &x.Descripcion, &x.Predefinido, &x.Activo, &x.CreadoEn, &x.ActualizadoEn)
	x.Permisos = []string{}
	return x, err
}

// loadRolRelations fills permissions and user counts in one round trip.
func loadRolRelations(ctx context.Context, tx *db.Tx, rs []Rol) error {
	q, empresaID := tx, tx.EmpresaID()
	if len(rs) == 0 {
		return nil
	}
	ids := make([]int64, len(rs))
	idx := map[int64]int{}
	for i, x := range rs {
		ids[i] = x.ID
		idx[x.ID] = i
	}
	type permiso struct {
		RolID int64
		Slug  string
	}
	type usuarios struct {
		RolID int64
		N     int
	}
	var carga db.Carga
	permisos := db.Leer(&carga, "roles: permisos", pgx.RowToStructByPos[permiso], `select rp.rol_id, p.slug
		from rol_permisos rp join permisos p on p.id = rp.permiso_id
		where rp.empresa_id = $1 and rp.rol_id = any($2) order by p.slug`, empresaID, ids)
	cuentas := db.Leer(&carga, "roles: counts", pgx.RowToStructByPos[usuarios], `select ur.rol_id, count(*) from usuario_roles ur
		join usuarios u on u.id = ur.usuario_id and not u.eliminado
		where ur.empresa_id = $1 and ur.rol_id = any($2) group by ur.rol_id`, empresaID, ids)
	if err := carga.Enviar(ctx, q); err != nil {
		return err
	}
	for _, p := range *permisos {
		rs[idx[p.RolID]].Permisos = append(rs[idx[p.RolID]].Permisos, p.Slug)
	}
	for _, c := range *cuentas {
		rs[idx[c.RolID]].UsuariosCount = c.N
	}
	return nil
}

// BuscarRol loads a role of the transaction's tenant with its permissions
// and user count, or returns an apperr NotFound.
func BuscarRol(ctx context.Context, tx *db.Tx, id int64) (Rol, error) {
	rows, err := tx.Query(ctx, `select `+rolCols+` from roles r where r.empresa_id = $1 and r.id = $2 and not r.eliminado`, tx.EmpresaID(), id)
	if err != nil {
		return Rol{}, fmt.Errorf("roles: find: %w", err)
	}
	rs, err := pgx.CollectRows(rows, scanRol)
	if err != nil {
		return Rol{}, fmt.Errorf("roles: find: %w", err)
	}
	if len(rs) == 0 {
		return Rol{}, apperr.NewNotFound("Rol no encontrado.")
	}
	if err := loadRolRelations(ctx, tx, rs); err != nil {
		return Rol{}, err
	}
	return rs[0], nil
}

// DatosRol is a validated create/update body of a role.
type DatosRol struct {
	Nombre, Slug, Descripcion *string
	LimpiarDescripcion        bool
	Activo                    *bool
	Permisos                  []string
	PermisosEnviados          bool
}

// CrearRol creates a role with permissions the caller holds.
func CrearRol(ctx context.Context, tx *db.Tx, p auth.Principal, x DatosRol) (Rol, error) {
	if err := forbidGrant(p.Lacks(x.Permisos)); err != nil {
		return Rol{}, err
	}
	activo := true
	if x.Activo != nil {
		activo = *x.Activo
	}
	var id int64
	err := tx.QueryRow(ctx, `insert into roles (empresa_id, nombre, slug, descripcion, activo)
		values ($1, $2, $3, $4, $5) returning id`, tx.EmpresaID(), *x.Nombre, *x.Slug, x.Descripcion, activo).Scan(&id)
	if err != nil {
		return Rol{}, tomado(err, "slug", msgSlugTomado, "roles: insert")
	}
	if _, err := tx.Exec(ctx, `insert into rol_permisos (empresa_id, rol_id, permiso_id)
		select $1, $2, id from permisos where slug = any($3)`, tx.EmpresaID(), id, x.Permisos); err != nil {
		return Rol{}, fmt.Errorf("roles: permisos: %w", err)
	}
	return BuscarRol(ctx, tx, id)
}

// ActualizarRol changes a role. Adding permissions grants them to its
// holders, and so does reactivating it: only what the caller holds.
func ActualizarRol(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x DatosRol) (Rol, error) {
	cur, err := BuscarRol(ctx, tx, id)
	if err != nil {
		return Rol{}, err
	}
	c := apperr.Campos{}
	if cur.Predefinido && x.Slug != nil && *x.Slug != cur.Slug {
		c.Fail("slug", "El slug de un rol predefinido no se puede cambiar.")
	}
	if cur.Slug == "administrador" && x.PermisosEnviados {
		c.Fail("permisos", "El rol Administrador siempre tiene todos los permisos.")
	}
	if cur.Slug == "administrador" && x.Activo != nil && !*x.Activo {
		c.Fail("activo", "El rol Administrador no se puede desactivar.")
	}
	if err := c.Err(); err != nil {
		return Rol{}, err
	}
	if x.PermisosEnviados {
		if err := forbidGrant(p.Lacks(added(cur.Permisos, x.Permisos))); err != nil {
			return Rol{}, err
		}
	}
	if x.Activo != nil && *x.Activo && !cur.Activo {
		final := cur.Permisos
		if x.PermisosEnviados {
			final = x.Permisos
		}
		if err := forbidGrant(p.Lacks(final)); err != nil {
			return Rol{}, err
		}
	}
	b := &pgx.Batch{}
	b.Queue(`update roles set nombre = coalesce($3, nombre), slug = coalesce($4, slug),
		descripcion = case when $5 then null else coalesce($6, descripcion) end,
		activo = coalesce($7, activo)
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, x.Nombre, x.Slug, x.LimpiarDescripcion, x.Descripcion, x.Activo)
	if x.PermisosEnviados {
		b.Queue(`delete from rol_permisos where empresa_id = $1 and rol_id = $2`, tx.EmpresaID(), id)
		b.Queue(`insert into rol_permisos (empresa_id, rol_id, permiso_id) select $1, $2, id from permisos where slug = any($3)`, tx.EmpresaID(), id, x.Permisos)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Rol{}, tomado(err, "slug", msgSlugTomado, "roles: update")
	}
	return BuscarRol(ctx, tx, id)
}

// EliminarRol soft-deletes a role that is not predefined, unassigning it.
func EliminarRol(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) error {
	var predefinido bool
	err := tx.QueryRow(ctx, `select predefinido from roles where empresa_id = $1 and id = $2 and not eliminado`, tx.EmpresaID(), id).Scan(&predefinido)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.NewNotFound("Rol no encontrado.")
	}
	if err != nil {
		return fmt.Errorf("roles: find: %w", err)
	}
	if predefinido {
		msg := "Los roles predefinidos no se pueden eliminar."
		return &apperr.Error{Kind: apperr.Invalid, Message: msg, Fields: map[string][]string{"rol": {msg}}}
	}
	b := &pgx.Batch{}
	b.Queue(`delete from usuario_roles where empresa_id = $1 and rol_id = $2`, tx.EmpresaID(), id)
	b.Queue(`delete from rol_permisos where empresa_id = $1 and rol_id = $2`, tx.EmpresaID(), id)
	b.Queue(`update roles set activo = false, eliminado = true where empresa_id = $1 and id = $2 and not eliminado`, tx.EmpresaID(), id)
	return borrarEnLote(ctx, tx, b, b.Len()-1, "Rol no encontrado.", "roles: delete")
}

// added returns the slugs of next that are not in cur.
func added(cur, next []string) []string {
	held := make(map[string]bool, len(cur))
	for _, s := range cur {
		held[s] = true
	}
	var out []string
	for _, s := range next {
		if !held[s] {
			out = append(out, s)
		}
	}
	return out
}

// Slugify turns a role name into a slug ("Jefe de Bodega" -> "jefe-de-bodega").
func Slugify(s string) string {
	repl := strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ü", "u", "ñ", "n")
	s = repl.Replace(strings.ToLower(strings.TrimSpace(s)))
	var b strings.Builder
	dash := false
	for _, c := range s {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

const msgSlugTomado = "Ya existe un rol con ese slug en esta empresa."

// EnsurePredefinedRoles creates (or completes) the predefined roles of a
// company with their permission sets. Idempotent: used by the seed and when a
// company is created. The company is a parameter because the seed runs this
// as the owner, outside any tenant transaction. Permission sets of existing predefined roles are only
// added to, never trimmed, so a company's own additions survive.
func EnsurePredefinedRoles(ctx context.Context, q db.Querier, empresaID int64) error {
	b := &pgx.Batch{}
	for _, role := range auth.PredefinedRoles() {
		b.Queue(`insert into roles (empresa_id, nombre, slug, descripcion, predefinido)
			values ($1, $2, $3, $4, true)
			on conflict (empresa_id, slug) where not eliminado do update set predefinido = true
			where not roles.predefinido`,
			empresaID, role.Nombre, role.Slug, role.Descripcion)
		b.Queue(`insert into rol_permisos (empresa_id, rol_id, permiso_id)
			select $1, r.id, p.id from roles r join permisos p on p.slug = any($3)
			where r.empresa_id = $1 and r.slug = $2 and not r.eliminado
			on conflict do nothing`, empresaID, role.Slug, role.Permisos)
	}
	if err := q.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("roles: predefined for empresa %d: %w", empresaID, err)
	}
	return nil
}
