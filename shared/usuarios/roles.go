package usuarios

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
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
func loadRolRelations(ctx context.Context, q db.Querier, empresaID int64, rs []Rol) error {
	if len(rs) == 0 {
		return nil
	}
	ids := make([]int64, len(rs))
	idx := map[int64]int{}
	for i, x := range rs {
		ids[i] = x.ID
		idx[x.ID] = i
	}
	b := &pgx.Batch{}
	b.Queue(`select rp.rol_id, p.slug from rol_permisos rp join permisos p on p.id = rp.permiso_id
		where rp.empresa_id = $1 and rp.rol_id = any($2) order by p.slug`, empresaID, ids)
	b.Queue(`select ur.rol_id, count(*) from usuario_roles ur
		join usuarios u on u.id = ur.usuario_id and not u.eliminado
		where ur.empresa_id = $1 and ur.rol_id = any($2) group by ur.rol_id`, empresaID, ids)
	br := q.SendBatch(ctx, b)
	defer br.Close()
	rows, _ := br.Query()
	for rows.Next() {
		var id int64
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			rows.Close()
			return err
		}
		rs[idx[id]].Permisos = append(rs[idx[id]].Permisos, slug)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("roles: permisos: %w", err)
	}
	rows, _ = br.Query()
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			rows.Close()
			return err
		}
		rs[idx[id]].UsuariosCount = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("roles: counts: %w", err)
	}
	return nil
}

func findRol(ctx context.Context, q db.Querier, empresaID, id int64) (Rol, bool, error) {
	rows, err := q.Query(ctx, `select `+rolCols+` from roles r where r.empresa_id = $1 and r.id = $2 and not r.eliminado`, empresaID, id)
	if err != nil {
		return Rol{}, false, fmt.Errorf("roles: find: %w", err)
	}
	rs, err := pgx.CollectRows(rows, scanRol)
	if err != nil || len(rs) == 0 {
		return Rol{}, false, err
	}
	if err := loadRolRelations(ctx, q, empresaID, rs); err != nil {
		return Rol{}, false, err
	}
	return rs[0], true, nil
}

var rolSorts = map[string]string{"id": "r.id", "nombre": "r.nombre", "slug": "r.slug", "creado_en": "r.creado_en"}

func (s *Service) rolesIndex(w http.ResponseWriter, r *http.Request) error {
	return serveList(s, w, r, list[Rol]{
		sorts: rolSorts, def: "r.id", cols: rolCols, scan: scanRol, load: loadRolRelations,
		from: `from roles r where r.empresa_id = $1 and not r.eliminado
		and ($2::text is null or r.nombre ilike $2 or r.slug ilike $2)
		and ($3::boolean is null or r.activo = $3)`,
	})
}

func (s *Service) rolesShow(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	var x Rol
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		var found bool
		x, found, err = findRol(r.Context(), tx, p.EmpresaID, id)
		if err == nil && !found {
			err = httpx.NotFound("Rol no encontrado.")
		}
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", x)
}

var slugRe = regexp.MustCompile(`^[a-z0-9]+([_-][a-z0-9]+)*$`)

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

type rolInput struct {
	nombre, slug, descripcion *string
	clearDescripcion          bool
	activo                    *bool
	permisos                  []string
	permisosSent              bool
}

func readRol(in *httpx.Input, creating bool) rolInput {
	var x rolInput
	if v, ok := in.String("nombre", httpx.Str{Required: creating, Max: 255}); ok {
		x.nombre = &v
	}
	if v, ok := in.String("slug", httpx.Str{Max: 100}); ok {
		v = strings.ToLower(v)
		if !slugRe.MatchString(v) {
			in.Fail("slug", "El campo slug solo admite letras minúsculas, números, guiones y guiones bajos.")
		} else {
			x.slug = &v
		}
	}
	if creating && x.slug == nil && x.nombre != nil && !in.Failed("slug") {
		v := Slugify(*x.nombre)
		if v == "" {
			in.Fail("slug", "No se pudo derivar un slug del nombre; envíe el campo slug.")
		} else {
			x.slug = &v
		}
	}
	if v, ok := in.String("descripcion", httpx.Str{Max: 1000}); ok {
		x.descripcion = &v
	} else if in.IsNull("descripcion") {
		x.clearDescripcion = true
	}
	if v, ok := in.Bool("activo", false); ok {
		x.activo = &v
	}
	if items, ok := in.List("permisos", false); ok {
		x.permisosSent = true
		seen := map[string]bool{}
		for i, raw := range items {
			key := "permisos." + strconv.Itoa(i)
			name := strings.Trim(strings.TrimSpace(string(raw)), `"`)
			slug, ok := auth.Canonical(name)
			if !ok || !strings.HasPrefix(strings.TrimSpace(string(raw)), `"`) {
				in.Fail(key, "El permiso "+name+" no existe.")
				continue
			}
			if !seen[slug] {
				seen[slug] = true
				x.permisos = append(x.permisos, slug)
			}
		}
	} else if in.IsNull("permisos") {
		x.permisosSent = true
	}
	return x
}

const msgSlugTomado = "Ya existe un rol con ese slug en esta empresa."

func (s *Service) rolesStore(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	x := readRol(in, true)
	if err := in.Err(); err != nil {
		return err
	}
	if err := forbidGrant(p.Lacks(x.permisos)); err != nil {
		return err
	}
	var out Rol
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		activo := true
		if x.activo != nil {
			activo = *x.activo
		}
		var id int64
		err := tx.QueryRow(ctx, `insert into roles (empresa_id, nombre, slug, descripcion, activo)
			values ($1, $2, $3, $4, $5) returning id`, p.EmpresaID, *x.nombre, *x.slug, x.descripcion, activo).Scan(&id)
		if err != nil {
			if _, ok := db.IsUniqueViolation(err); ok {
				return httpx.InvalidField("slug", msgSlugTomado)
			}
			return fmt.Errorf("roles: insert: %w", err)
		}
		if _, err := tx.Exec(ctx, `insert into rol_permisos (empresa_id, rol_id, permiso_id)
			select $1, $2, id from permisos where slug = any($3)`, p.EmpresaID, id, x.permisos); err != nil {
			return fmt.Errorf("roles: permisos: %w", err)
		}
		out, _, err = findRol(ctx, tx, p.EmpresaID, id)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.Created(w, "Rol creado correctamente.", out)
}

func (s *Service) rolesUpdate(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	x := readRol(in, false)
	if err := in.Err(); err != nil {
		return err
	}
	var out Rol
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		cur, found, err := findRol(ctx, tx, p.EmpresaID, id)
		if err != nil {
			return err
		}
		if !found {
			return httpx.NotFound("Rol no encontrado.")
		}
		if cur.Predefinido && x.slug != nil && *x.slug != cur.Slug {
			in.Fail("slug", "El slug de un rol predefinido no se puede cambiar.")
		}
		if cur.Slug == "administrador" && x.permisosSent {
			in.Fail("permisos", "El rol Administrador siempre tiene todos los permisos.")
		}
		if cur.Slug == "administrador" && x.activo != nil && !*x.activo {
			in.Fail("activo", "El rol Administrador no se puede desactivar.")
		}
		if err := in.Err(); err != nil {
			return err
		}
		// Adding permissions to a role grants them to its holders, and so
		// does reactivating a role: only what the caller holds itself.
		if x.permisosSent {
			if err := forbidGrant(p.Lacks(added(cur.Permisos, x.permisos))); err != nil {
				return err
			}
		}
		if x.activo != nil && *x.activo && !cur.Activo {
			final := cur.Permisos
			if x.permisosSent {
				final = x.permisos
			}
			if err := forbidGrant(p.Lacks(final)); err != nil {
				return err
			}
		}
		b := &pgx.Batch{}
		b.Queue(`update roles set nombre = coalesce($3, nombre), slug = coalesce($4, slug),
			descripcion = case when $5 then null else coalesce($6, descripcion) end,
			activo = coalesce($7, activo)
			where empresa_id = $1 and id = $2`, p.EmpresaID, id, x.nombre, x.slug, x.clearDescripcion, x.descripcion, x.activo)
		if x.permisosSent {
			b.Queue(`delete from rol_permisos where empresa_id = $1 and rol_id = $2`, p.EmpresaID, id)
			b.Queue(`insert into rol_permisos (empresa_id, rol_id, permiso_id) select $1, $2, id from permisos where slug = any($3)`, p.EmpresaID, id, x.permisos)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			if _, ok := db.IsUniqueViolation(err); ok {
				return httpx.InvalidField("slug", msgSlugTomado)
			}
			return fmt.Errorf("roles: update: %w", err)
		}
		out, _, err = findRol(ctx, tx, p.EmpresaID, id)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "Rol actualizado correctamente.", out)
}

func (s *Service) rolesDestroy(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		ctx := r.Context()
		var predefinido bool
		err := tx.QueryRow(ctx, `select predefinido from roles where empresa_id = $1 and id = $2 and not eliminado`, p.EmpresaID, id).Scan(&predefinido)
		if err == pgx.ErrNoRows {
			return httpx.NotFound("Rol no encontrado.")
		}
		if err != nil {
			return fmt.Errorf("roles: find: %w", err)
		}
		if predefinido {
			msg := "Los roles predefinidos no se pueden eliminar."
			return &httpx.Error{Kind: apperr.Invalid, Message: msg, Fields: map[string][]string{"rol": {msg}}}
		}
		b := &pgx.Batch{}
		b.Queue(`delete from usuario_roles where empresa_id = $1 and rol_id = $2`, p.EmpresaID, id)
		b.Queue(`delete from rol_permisos where empresa_id = $1 and rol_id = $2`, p.EmpresaID, id)
		b.Queue(`update roles set activo = false, eliminado = true where empresa_id = $1 and id = $2`, p.EmpresaID, id)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("roles: delete: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return httpx.OKMessage(w, "Rol eliminado correctamente.")
}

func (s *Service) permisosIndex(w http.ResponseWriter, r *http.Request) error {
	page, err := httpx.ParsePage(r)
	if err != nil {
		return err
	}
	var modulo *string
	if v := strings.TrimSpace(r.URL.Query().Get("modulo")); v != "" {
		modulo = &v
	}
	var out httpx.Page[auth.Permission]
	err = s.DB.WithTx(r.Context(), auth.FromRequest(r).Scope(), func(tx *db.Tx) error {
		ps, total, err := db.Page(r.Context(), tx, "slug, modulo, accion, descripcion",
			"from permisos where $1::text is null or modulo = $1", "slug",
			[]any{modulo}, page.PerPage, page.Offset(), pgx.RowToStructByPos[auth.Permission])
		if err != nil {
			return fmt.Errorf("permisos: list: %w", err)
		}
		out = httpx.NewPage(page, ps, total)
		return nil
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// EnsurePredefinedRoles creates (or completes) the predefined roles of a
// company with their permission sets. Idempotent: used by the seed and when a
// company is created. Permission sets of existing predefined roles are only
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
