package usuarios

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// DatosUsuario is a validated create/update body; nil pointers were not sent.
// Hash is the bcrypt hash of a new password, computed before the
// transaction (bcrypt is slow; a connection is not held for it).
type DatosUsuario struct {
	Nombre, Apellidos, Email *string
	Hash                     *string
	LimpiarApellidos         bool
	CargoID                  *int64
	LimpiarCargo             bool
	Activo                   *bool
	Roles                    []RolClave
	RolesEnviados            bool
}

// RolClave names a role by id or by slug.
type RolClave struct {
	ID   int64
	Slug string
}

const (
	msgNoEncontrado = "Usuario no encontrado."
	msgEmailTomado  = "El correo electrónico ya está registrado."
)

// Buscar is Find for the handlers: a user of the transaction's tenant, or
// an apperr NotFound.
func Buscar(ctx context.Context, tx *db.Tx, id int64) (Usuario, error) {
	u, found, err := Find(ctx, tx, id)
	return u, apperr.NotFoundUnless(found, err, msgNoEncontrado)
}

// resolveRoles maps ids/slugs to role ids of the tenant; unknown ones fail
// under roles.N.
func resolveRoles(ctx context.Context, tx *db.Tx, keys []RolClave, c apperr.Campos) ([]int64, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var ids []int64
	var slugs []string
	for _, k := range keys {
		if k.ID > 0 {
			ids = append(ids, k.ID)
		} else {
			slugs = append(slugs, k.Slug)
		}
	}
	rows, err := tx.Query(ctx, `select id, slug from roles where empresa_id = $1 and not eliminado and (id = any($2) or slug = any($3))`,
		tx.EmpresaID(), ids, slugs)
	if err != nil {
		return nil, fmt.Errorf("usuarios: roles: %w", err)
	}
	byID := map[int64]bool{}
	bySlug := map[string]int64{}
	for rows.Next() {
		var id int64
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			rows.Close()
			return nil, err
		}
		byID[id] = true
		bySlug[slug] = id
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var out []int64
	for i, k := range keys {
		id := k.ID
		if id > 0 && !byID[id] {
			c.Fail("roles."+strconv.Itoa(i), "El rol seleccionado no existe en esta empresa.")
			continue
		}
		if id == 0 {
			var ok bool
			if id, ok = bySlug[k.Slug]; !ok {
				c.Fail("roles."+strconv.Itoa(i), "El rol "+k.Slug+" no existe en esta empresa.")
				continue
			}
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// checkCargo fails cargo_id when the position is not the tenant's.
func checkCargo(ctx context.Context, tx *db.Tx, cargoID *int64, c apperr.Campos) error {
	if cargoID == nil {
		return nil
	}
	var ok bool
	if err := tx.QueryRow(ctx, `select exists (select 1 from cargos where empresa_id = $1 and id = $2 and not eliminado)`,
		tx.EmpresaID(), *cargoID).Scan(&ok); err != nil {
		return fmt.Errorf("usuarios: cargo: %w", err)
	}
	if !ok {
		c.Fail("cargo_id", "El cargo seleccionado no existe.")
	}
	return nil
}

// checkEmail fails email when another account already uses it.
func checkEmail(ctx context.Context, tx *db.Tx, email string, c apperr.Campos) error {
	var taken bool
	if err := tx.QueryRow(ctx, `select exists (select 1 from auth_buscar_login($1))`, email).Scan(&taken); err != nil {
		return fmt.Errorf("usuarios: email: %w", err)
	}
	if taken {
		c.Fail("email", msgEmailTomado)
	}
	return nil
}

// Crear creates a user of the tenant (its home company) with a membership
// and the roles given — only roles whose permissions the caller holds.
func Crear(ctx context.Context, tx *db.Tx, p auth.Principal, x DatosUsuario) (Usuario, error) {
	c := apperr.Campos{}
	if err := checkCargo(ctx, tx, x.CargoID, c); err != nil {
		return Usuario{}, err
	}
	roleIDs, err := resolveRoles(ctx, tx, x.Roles, c)
	if err != nil {
		return Usuario{}, err
	}
	if err := checkGrant(ctx, tx, p, roleIDs); err != nil {
		return Usuario{}, err
	}
	if err := checkEmail(ctx, tx, *x.Email, c); err != nil {
		return Usuario{}, err
	}
	if err := c.Err(); err != nil {
		return Usuario{}, err
	}
	activo := true
	if x.Activo != nil {
		activo = *x.Activo
	}
	var id int64
	err = tx.QueryRow(ctx, `insert into usuarios (empresa_id, cargo_id, nombre, apellidos, email, password_hash, activo)
		values ($1, $2, $3, $4, $5, $6, $7) returning id`,
		tx.EmpresaID(), x.CargoID, *x.Nombre, x.Apellidos, *x.Email, *x.Hash, activo).Scan(&id)
	if err != nil {
		return Usuario{}, tomado(err, "email", msgEmailTomado, "usuarios: insert")
	}
	b := &pgx.Batch{}
	b.Queue(`insert into membresias (empresa_id, usuario_id) values ($1, $2)`, tx.EmpresaID(), id)
	b.Queue(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select $1, $2, unnest($3::bigint[])`, tx.EmpresaID(), id, roleIDs)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Usuario{}, fmt.Errorf("usuarios: membership: %w", err)
	}
	u, found, err := Find(ctx, tx, id)
	if err == nil && !found {
		err = fmt.Errorf("usuarios: created user %d not visible", id)
	}
	return u, err
}

// Actualizar changes a user of the tenant. A guest member's account belongs
// to its home company: another company may change only the roles it grants
// and whether the user may act in it (activo, on the membership).
func Actualizar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x DatosUsuario) (Usuario, error) {
	cur, err := Buscar(ctx, tx, id)
	if err != nil {
		return Usuario{}, err
	}
	personal := x.Nombre != nil || x.Apellidos != nil || x.LimpiarApellidos || x.Email != nil ||
		x.Hash != nil || x.CargoID != nil || x.LimpiarCargo
	guest := cur.EmpresaID != tx.EmpresaID()
	if personal && guest {
		return Usuario{}, apperr.NewForbidden("Solo la empresa de origen del usuario puede modificar sus datos personales.")
	}
	if err := checkSuperior(ctx, tx, p, id); err != nil {
		return Usuario{}, err
	}
	if x.Hash != nil || (x.Email != nil && !strings.EqualFold(*x.Email, cur.Email)) {
		if err := checkCredenciales(ctx, tx, p, id); err != nil {
			return Usuario{}, err
		}
	}
	c := apperr.Campos{}
	if id == p.UsuarioID && x.Activo != nil && !*x.Activo {
		c.Fail("activo", "No puede desactivar su propio usuario.")
	}
	if err := checkCargo(ctx, tx, x.CargoID, c); err != nil {
		return Usuario{}, err
	}
	roleIDs, err := resolveRoles(ctx, tx, x.Roles, c)
	if err != nil {
		return Usuario{}, err
	}
	if x.RolesEnviados && len(c) == 0 {
		added := newRoles(cur, roleIDs)
		if id == p.UsuarioID && (len(added) > 0 || len(roleIDs) != len(cur.Roles)) {
			return Usuario{}, apperr.NewForbidden("No puede cambiar sus propios roles; pídalo a otro administrador de la empresa.")
		}
		if err := checkGrant(ctx, tx, p, added); err != nil {
			return Usuario{}, err
		}
	}
	if x.Email != nil && !strings.EqualFold(*x.Email, cur.Email) {
		if err := checkEmail(ctx, tx, *x.Email, c); err != nil {
			return Usuario{}, err
		}
	}
	if err := c.Err(); err != nil {
		return Usuario{}, err
	}
	b := &pgx.Batch{}
	if personal || (x.Activo != nil && !guest) {
		b.Queue(`update usuarios set
			nombre = coalesce($2, nombre),
			apellidos = case when $3 then null else coalesce($4, apellidos) end,
			email = coalesce($5, email),
			password_hash = coalesce($6, password_hash),
			cargo_id = case when $7 then null else coalesce($8, cargo_id) end,
			activo = coalesce($9, activo)
			where id = $1`,
			id, x.Nombre, x.LimpiarApellidos, x.Apellidos, x.Email, x.Hash, x.LimpiarCargo, x.CargoID, x.Activo)
	}
	if x.Activo != nil && guest {
		// Only this company's door: the account and its sessions elsewhere
		// are the home company's business.
		b.Queue(`update membresias set activo = $3, actualizado_en = now() where empresa_id = $1 and usuario_id = $2`,
			tx.EmpresaID(), id, *x.Activo)
	}
	if x.RolesEnviados {
		b.Queue(`delete from usuario_roles where empresa_id = $1 and usuario_id = $2`, tx.EmpresaID(), id)
		b.Queue(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select $1, $2, unnest($3::bigint[])`, tx.EmpresaID(), id, roleIDs)
	}
	// A new password or a deactivation of the account ends the user's
	// other sessions.
	if x.Hash != nil || (x.Activo != nil && !*x.Activo && !guest) {
		b.Queue(`select auth_revocar_tokens_usuario($1, $2)`, id, p.TokenID)
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return Usuario{}, tomado(err, "email", msgEmailTomado, "usuarios: update")
		}
	}
	return Buscar(ctx, tx, id)
}

// Eliminar deletes a user in the tenant: the home company deletes the
// account (every session ends); a guest company removes only its
// membership, revoking nothing elsewhere.
func Eliminar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) error {
	if id == p.UsuarioID {
		return &apperr.Error{Kind: apperr.Invalid, Message: "No puede eliminar su propio usuario.",
			Fields: map[string][]string{"id": {"No puede eliminar su propio usuario."}}}
	}
	cur, err := Buscar(ctx, tx, id)
	if err != nil {
		return err
	}
	if err := checkSuperior(ctx, tx, p, id); err != nil {
		return err
	}
	b := &pgx.Batch{}
	home := cur.EmpresaID == tx.EmpresaID()
	if home {
		// Revoke first, while the membership the function checks exists.
		b.Queue(`select auth_revocar_tokens_usuario($1, null)`, id)
	}
	b.Queue(`delete from usuario_roles where empresa_id = $1 and usuario_id = $2`, tx.EmpresaID(), id)
	// not eliminado: of concurrent deletes the first commits and the others,
	// re-reading the membership after its lock, change nothing and answer
	// 404 as a later delete does (all of them answered 200).
	membresia := b.Len()
	b.Queue(`update membresias set activo = false, eliminado = true, actualizado_en = now() where empresa_id = $1 and usuario_id = $2 and not eliminado`, tx.EmpresaID(), id)
	if home {
		b.Queue(`update usuarios set activo = false, eliminado = true where id = $1`, id)
	}
	return borrarEnLote(ctx, tx, b, membresia, msgNoEncontrado, "usuarios: delete")
}

// borrarEnLote sends b and returns a NotFound with msg when its statement
// number clave (the soft delete guarded by not eliminado) changed no row:
// a concurrent delete committed first. The transaction is then rolled back.
func borrarEnLote(ctx context.Context, tx *db.Tx, b *pgx.Batch, clave int, msg, que string) error {
	br := tx.SendBatch(ctx, b)
	var borradas int64
	for i := range b.Len() {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return fmt.Errorf("%s: %w", que, err)
		}
		if i == clave {
			borradas = tag.RowsAffected()
		}
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("%s: %w", que, err)
	}
	if borradas == 0 {
		return apperr.NewNotFound(msg)
	}
	return nil
}

// tomado is err as a 422 with msg under campo when it is a unique violation
// (an e-mail or a slug another row holds), else err wrapped with que.
func tomado(err error, campo, msg, que string) error {
	if _, ok := db.IsUniqueViolation(err); ok {
		return apperr.InvalidField(campo, msg)
	}
	return fmt.Errorf("%s: %w", que, err)
}
