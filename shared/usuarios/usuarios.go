package usuarios

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// Service serves the usuarios group: users, roles and the permission catalog.
type Service struct {
	DB         *db.DB
	BcryptCost int
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"usuarios.index":   s.index,
		"usuarios.store":   s.store,
		"usuarios.show":    s.show,
		"usuarios.update":  s.update,
		"usuarios.patch":   s.update,
		"usuarios.destroy": s.destroy,
		"roles.index":      s.rolesIndex,
		"roles.store":      s.rolesStore,
		"roles.show":       s.rolesShow,
		"roles.update":     s.rolesUpdate,
		"roles.patch":      s.rolesUpdate,
		"roles.destroy":    s.rolesDestroy,
		"permisos.index":   s.permisosIndex,
	}
}

var usuarioSorts = map[string]string{"id": "u.id", "nombre": "u.nombre", "email": "u.email", "creado_en": "u.creado_en"}

func (s *Service) index(w http.ResponseWriter, r *http.Request) error {
	return serveList(s, w, r, list[Usuario]{
		sorts: usuarioSorts, def: "u.id", cols: usuarioCols, scan: scanUsuario, load: loadRelations,
		from: `from usuarios u
		join membresias m on m.usuario_id = u.id and m.empresa_id = $1 and not m.eliminado
		where not u.eliminado
		  and ($2::text is null or u.busqueda like f_unaccent(lower($2)))
		  and ($3::boolean is null or (u.activo and m.activo) = $3)`,
	})
}

func (s *Service) show(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	var u Usuario
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		var found bool
		u, found, err = Find(r.Context(), tx, p.EmpresaID, id)
		if err != nil {
			return err
		}
		if !found {
			return httpx.NotFound("Usuario no encontrado.")
		}
		return nil
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", u)
}

// usuarioInput is a validated create/update body; nil pointers were not sent.
type usuarioInput struct {
	nombre, apellidos, email, password *string
	clearApellidos                     bool
	cargoID                            *int64
	clearCargo                         bool
	activo                             *bool
	roles                              []rolKey
	rolesSent                          bool
}

type rolKey struct {
	id   int64
	slug string
}

func readUsuario(in *httpx.Input, creating bool) usuarioInput {
	var x usuarioInput
	if v, ok := in.String("nombre", httpx.Str{Required: creating, Max: 255}); ok {
		x.nombre = &v
	}
	if v, ok := in.String("apellidos", httpx.Str{Max: 255}); ok {
		x.apellidos = &v
	} else if in.IsNull("apellidos") {
		x.clearApellidos = true
	}
	if v, ok := in.String("email", httpx.Str{Required: creating, Max: 255, Email: true}); ok {
		v = strings.ToLower(v)
		x.email = &v
	}
	if v, ok := in.String("password", httpx.Str{Required: creating, NoTrim: true}); ok {
		if err := auth.CheckPolicy(v); err != nil {
			in.Fail("password", err.Error())
		} else {
			x.password = &v
		}
	}
	if v, ok := in.Int("cargo_id", httpx.Int{Min: httpx.Min(1)}); ok {
		x.cargoID = &v
	} else if in.IsNull("cargo_id") {
		x.clearCargo = true
	}
	if v, ok := in.Bool("activo", false); ok {
		x.activo = &v
	}
	if items, ok := in.List("roles", false); ok {
		x.rolesSent = true
		for i, raw := range items {
			key := "roles." + strconv.Itoa(i)
			var n int64
			var s string
			if err := json.Unmarshal(raw, &n); err == nil && n > 0 {
				x.roles = append(x.roles, rolKey{id: n})
			} else if err := json.Unmarshal(raw, &s); err == nil && strings.TrimSpace(s) != "" {
				x.roles = append(x.roles, rolKey{slug: strings.TrimSpace(s)})
			} else {
				in.Fail(key, "Cada rol debe ser un id o un slug de rol.")
			}
		}
	} else if in.IsNull("roles") {
		x.rolesSent = true
	}
	return x
}

// resolveRoles maps ids/slugs to role ids of the tenant; unknown ones fail
// under roles.N.
func resolveRoles(ctx context.Context, q db.Querier, empresaID int64, keys []rolKey, in *httpx.Input) ([]int64, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var ids []int64
	var slugs []string
	for _, k := range keys {
		if k.id > 0 {
			ids = append(ids, k.id)
		} else {
			slugs = append(slugs, k.slug)
		}
	}
	rows, err := q.Query(ctx, `select id, slug from roles where empresa_id = $1 and not eliminado and (id = any($2) or slug = any($3))`,
		empresaID, ids, slugs)
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
		id := k.id
		if id > 0 && !byID[id] {
			in.Fail("roles."+strconv.Itoa(i), "El rol seleccionado no existe en esta empresa.")
			continue
		}
		if id == 0 {
			var ok bool
			if id, ok = bySlug[k.slug]; !ok {
				in.Fail("roles."+strconv.Itoa(i), "El rol "+k.slug+" no existe en esta empresa.")
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

func cargoExists(ctx context.Context, q db.Querier, empresaID, cargoID int64) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, `select exists (select 1 from cargos where empresa_id = $1 and id = $2 and not eliminado)`, empresaID, cargoID).Scan(&ok)
	return ok, err
}

const msgEmailTomado = "El correo electrónico ya está registrado."

func (s *Service) store(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	x := readUsuario(in, true)
	if err := in.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(*x.password, s.BcryptCost)
	if err != nil {
		return err
	}
	var u Usuario
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		if x.cargoID != nil {
			ok, err := cargoExists(ctx, tx, p.EmpresaID, *x.cargoID)
			if err != nil {
				return err
			}
			if !ok {
				in.Fail("cargo_id", "El cargo seleccionado no existe.")
			}
		}
		roleIDs, err := resolveRoles(ctx, tx, p.EmpresaID, x.roles, in)
		if err != nil {
			return err
		}
		if err := checkGrant(ctx, tx, p, roleIDs); err != nil {
			return err
		}
		var taken bool
		if err := tx.QueryRow(ctx, `select exists (select 1 from auth_buscar_login($1))`, *x.email).Scan(&taken); err != nil {
			return err
		}
		if taken {
			in.Fail("email", msgEmailTomado)
		}
		if err := in.Err(); err != nil {
			return err
		}
		activo := true
		if x.activo != nil {
			activo = *x.activo
		}
		var id int64
		err = tx.QueryRow(ctx, `insert into usuarios (empresa_id, cargo_id, nombre, apellidos, email, password_hash, activo)
			values ($1, $2, $3, $4, $5, $6, $7) returning id`,
			p.EmpresaID, x.cargoID, *x.nombre, x.apellidos, *x.email, hash, activo).Scan(&id)
		if err != nil {
			if _, ok := db.IsUniqueViolation(err); ok {
				return httpx.InvalidField("email", msgEmailTomado)
			}
			return fmt.Errorf("usuarios: insert: %w", err)
		}
		b := &pgx.Batch{}
		b.Queue(`insert into membresias (empresa_id, usuario_id) values ($1, $2)`, p.EmpresaID, id)
		b.Queue(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select $1, $2, unnest($3::bigint[])`, p.EmpresaID, id, roleIDs)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("usuarios: membership: %w", err)
		}
		var found bool
		u, found, err = Find(ctx, tx, p.EmpresaID, id)
		if err == nil && !found {
			err = fmt.Errorf("usuarios: created user %d not visible", id)
		}
		return err
	})
	if err != nil {
		return err
	}
	return httpx.Created(w, "Usuario creado correctamente.", u)
}

func (s *Service) update(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	x := readUsuario(in, false)
	if err := in.Err(); err != nil {
		return err
	}
	var hash *string
	if x.password != nil {
		h, err := auth.HashPassword(*x.password, s.BcryptCost)
		if err != nil {
			return err
		}
		hash = &h
	}
	var u Usuario
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		cur, found, err := Find(ctx, tx, p.EmpresaID, id)
		if err != nil {
			return err
		}
		if !found {
			return httpx.NotFound("Usuario no encontrado.")
		}
		personal := x.nombre != nil || x.apellidos != nil || x.clearApellidos || x.email != nil ||
			x.password != nil || x.cargoID != nil || x.clearCargo
		// A guest member's account belongs to its home company: another
		// tenant may change only the roles it grants and whether the user
		// may act in it (activo, on the membership).
		guest := cur.EmpresaID != p.EmpresaID
		if personal && guest {
			return httpx.Forbidden("Solo la empresa de origen del usuario puede modificar sus datos personales.")
		}
		if err := checkSuperior(ctx, tx, p, id); err != nil {
			return err
		}
		if id == p.UsuarioID && x.activo != nil && !*x.activo {
			in.Fail("activo", "No puede desactivar su propio usuario.")
		}
		if x.cargoID != nil {
			ok, err := cargoExists(ctx, tx, p.EmpresaID, *x.cargoID)
			if err != nil {
				return err
			}
			if !ok {
				in.Fail("cargo_id", "El cargo seleccionado no existe.")
			}
		}
		roleIDs, err := resolveRoles(ctx, tx, p.EmpresaID, x.roles, in)
		if err != nil {
			return err
		}
		if x.rolesSent && in.Err() == nil {
			added := newRoles(cur, roleIDs)
			if id == p.UsuarioID && (len(added) > 0 || len(roleIDs) != len(cur.Roles)) {
				return httpx.Forbidden("No puede cambiar sus propios roles; pídalo a otro administrador de la empresa.")
			}
			if err := checkGrant(ctx, tx, p, added); err != nil {
				return err
			}
		}
		if x.email != nil && !strings.EqualFold(*x.email, cur.Email) {
			var taken bool
			if err := tx.QueryRow(ctx, `select exists (select 1 from auth_buscar_login($1))`, *x.email).Scan(&taken); err != nil {
				return err
			}
			if taken {
				in.Fail("email", msgEmailTomado)
			}
		}
		if err := in.Err(); err != nil {
			return err
		}
		b := &pgx.Batch{}
		if personal || (x.activo != nil && !guest) {
			b.Queue(`update usuarios set
				nombre = coalesce($2, nombre),
				apellidos = case when $3 then null else coalesce($4, apellidos) end,
				email = coalesce($5, email),
				password_hash = coalesce($6, password_hash),
				cargo_id = case when $7 then null else coalesce($8, cargo_id) end,
				activo = coalesce($9, activo)
				where id = $1`,
				id, x.nombre, x.clearApellidos, x.apellidos, x.email, hash, x.clearCargo, x.cargoID, x.activo)
		}
		if x.activo != nil && guest {
			// Only this company's door: the account and its sessions elsewhere
			// are the home company's business.
			b.Queue(`update membresias set activo = $3, actualizado_en = now() where empresa_id = $1 and usuario_id = $2`,
				p.EmpresaID, id, *x.activo)
		}
		if x.rolesSent {
			b.Queue(`delete from usuario_roles where empresa_id = $1 and usuario_id = $2`, p.EmpresaID, id)
			b.Queue(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select $1, $2, unnest($3::bigint[])`, p.EmpresaID, id, roleIDs)
		}
		// A new password or a deactivation of the account ends the user's
		// other sessions.
		if hash != nil || (x.activo != nil && !*x.activo && !guest) {
			b.Queue(`select auth_revocar_tokens_usuario($1, $2)`, id, p.TokenID)
		}
		if b.Len() > 0 {
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				if _, ok := db.IsUniqueViolation(err); ok {
					return httpx.InvalidField("email", msgEmailTomado)
				}
				return fmt.Errorf("usuarios: update: %w", err)
			}
		}
		u, _, err = Find(ctx, tx, p.EmpresaID, id)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "Usuario actualizado correctamente.", u)
}

func (s *Service) destroy(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	if id == p.UsuarioID {
		return &httpx.Error{Kind: apperr.Invalid, Message: "No puede eliminar su propio usuario.",
			Fields: map[string][]string{"id": {"No puede eliminar su propio usuario."}}}
	}
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		cur, found, err := Find(ctx, tx, p.EmpresaID, id)
		if err != nil {
			return err
		}
		if !found {
			return httpx.NotFound("Usuario no encontrado.")
		}
		if err := checkSuperior(ctx, tx, p, id); err != nil {
			return err
		}
		b := &pgx.Batch{}
		home := cur.EmpresaID == p.EmpresaID
		if home {
			// Deleting the account ends every session; revoke first, while
			// the membership the function checks still exists.
			b.Queue(`select auth_revocar_tokens_usuario($1, null)`, id)
		}
		// A guest company removes only its own membership: the account, and
		// the sessions it uses in other companies, stay.
		b.Queue(`delete from usuario_roles where empresa_id = $1 and usuario_id = $2`, p.EmpresaID, id)
		b.Queue(`update membresias set activo = false, eliminado = true, actualizado_en = now() where empresa_id = $1 and usuario_id = $2`, p.EmpresaID, id)
		if home {
			b.Queue(`update usuarios set activo = false, eliminado = true where id = $1`, id)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("usuarios: delete: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return httpx.OKMessage(w, "Usuario eliminado correctamente.")
}
