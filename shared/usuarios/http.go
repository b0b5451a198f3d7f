package usuarios

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/valid"
)

// Service serves the usuarios group: users, roles and the permission catalog.
type Service struct {
	DB         *db.DB
	BcryptCost int
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	updateUsuario := handler.Action(s.DB, "Usuario actualizado correctamente.", s.decodeUsuario(false), siCoincide(bloqueoUsuario, Buscar, Actualizar))
	updateRol := handler.Action(s.DB, "Rol actualizado correctamente.", decodeRol(false), siCoincide(bloqueoRol, BuscarRol, ActualizarRol))
	return lambdahttp.Handlers{
		"usuarios.index":   handler.List(s.DB, listaUsuarios),
		"usuarios.store":   handler.Create(s.DB, "Usuario creado correctamente.", s.decodeUsuario(true), Crear),
		"usuarios.show":    handler.Show(s.DB, porID(Buscar)),
		"usuarios.update":  updateUsuario,
		"usuarios.patch":   updateUsuario,
		"usuarios.destroy": s.eliminar("Usuario eliminado correctamente.", siCoincide(bloqueoUsuario, Buscar, sinCuerpo(Eliminar))),
		"roles.index":      handler.List(s.DB, listaRoles),
		"roles.store":      handler.Create(s.DB, "Rol creado correctamente.", decodeRol(true), CrearRol),
		"roles.show":       handler.Show(s.DB, porID(BuscarRol)),
		"roles.update":     updateRol,
		"roles.patch":      updateRol,
		"roles.destroy":    s.eliminar("Rol eliminado correctamente.", siCoincide(bloqueoRol, BuscarRol, sinCuerpo(EliminarRol))),
		"permisos.index":   handler.List(s.DB, listaPermisos),
	}
}

// porID adapts a lookup by id alone (what a user or a role is does not
// depend on who asks) to handler.Show.
func porID[T any](buscar func(context.Context, *db.Tx, int64) (T, error)) handler.FindFunc[T] {
	return func(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (T, error) {
		return buscar(ctx, tx, id)
	}
}

// eliminar answers DELETE /{id}: 200 with msg alone.
func (s *Service) eliminar(msg string, eliminar handler.ActionFunc[struct{}, *struct{}]) httpx.HandlerFunc {
	return handler.Action(s.DB, msg, handler.NoBody, eliminar)
}

// sinCuerpo adapts a delete to the action shape (no body, no data).
func sinCuerpo(eliminar func(context.Context, *db.Tx, auth.Principal, int64) error) handler.ActionFunc[struct{}, *struct{}] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (*struct{}, error) {
		return nil, eliminar(ctx, tx, p, id)
	}
}

// The row an If-Match write of a user (its membership in the tenant) or a
// role locks before comparing versions; $1 is the tenant, $2 the id.
const (
	bloqueoUsuario = `select 1 from membresias where empresa_id = $1 and usuario_id = $2 for update`
	bloqueoRol     = `select 1 from roles where empresa_id = $1 and id = $2 for update`
)

// siCoincide runs do only while the record is still the version the
// request's If-Match header names (its GET's ETag, or *), else 412 and
// nothing changes; the row is locked first, so of concurrent writers
// holding one version exactly one wins. Without the header (or in v2,
// whose representation carries links) nothing is compared.
func siCoincide[T, In, Out any](bloqueo string, buscar func(context.Context, *db.Tx, int64) (T, error), do handler.ActionFunc[In, Out]) handler.ActionFunc[In, Out] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, in In) (Out, error) {
		if httpx.IfMatch(ctx) != "" && lambdahttp.Version(ctx) != routes.V2 {
			var zero Out
			if _, err := tx.Exec(ctx, bloqueo, tx.EmpresaID(), id); err != nil {
				return zero, fmt.Errorf("usuarios: if-match: lock: %w", err)
			}
			actual, err := buscar(ctx, tx, id)
			if err != nil {
				return zero, err
			}
			if err := httpx.CheckIfMatch(ctx, actual); err != nil {
				return zero, err
			}
		}
		return do(ctx, tx, p, id, in)
	}
}

// decodeUsuario validates a user body; a new password is hashed here,
// before the transaction, so no connection is held during bcrypt.
func (s *Service) decodeUsuario(creating bool) handler.DecodeFunc[DatosUsuario] {
	return func(in *valid.Input) (DatosUsuario, error) {
		var x DatosUsuario
		// A field sent on update must hold a value, as in the declared
		// resources: a blank or null nombre, email or password is a 422, not
		// a 200 that changed nothing.
		if v, ok := in.String("nombre", valid.Str{Required: creating || in.Has("nombre"), Max: 255}); ok {
			x.Nombre = &v
		}
		if v, ok := in.String("apellidos", valid.Str{Max: 255}); ok {
			x.Apellidos = &v
		} else if in.IsNull("apellidos") {
			x.LimpiarApellidos = true
		}
		if v, ok := in.String("email", valid.Str{Required: creating || in.Has("email"), Max: 255, Email: true}); ok {
			v = strings.ToLower(v)
			x.Email = &v
		}
		var password *string
		if v, ok := in.String("password", valid.Str{Required: creating || in.Has("password"), NoTrim: true}); ok {
			if err := auth.CheckPolicy(v); err != nil {
				in.Fail("password", err.Error())
			} else {
				password = &v
			}
		}
		if v, ok := in.Int("cargo_id", valid.Int{Min: valid.Min(1)}); ok {
			x.CargoID = &v
		} else if in.IsNull("cargo_id") {
			x.LimpiarCargo = true
		}
		x.Activo = optionalActivo(in)
		if items, ok := in.List("roles", false); ok {
			x.RolesEnviados = true
			for i, raw := range items {
				var n int64
				var slug string
				if err := json.Unmarshal(raw, &n); err == nil && n > 0 {
					x.Roles = append(x.Roles, RolClave{ID: n})
				} else if err := json.Unmarshal(raw, &slug); err == nil && strings.TrimSpace(slug) != "" {
					x.Roles = append(x.Roles, RolClave{Slug: strings.TrimSpace(slug)})
				} else {
					in.Fail("roles."+strconv.Itoa(i), "Cada rol debe ser un id o un slug de rol.")
				}
			}
		} else if in.IsNull("roles") {
			x.RolesEnviados = true
		}
		if err := in.Err(); err != nil {
			return x, err
		}
		if password != nil {
			hash, err := auth.HashPassword(*password, s.BcryptCost)
			if err != nil {
				return x, err
			}
			x.Hash = &hash
		}
		return x, nil
	}
}

// optionalActivo reads activo when sent; null is refused as the declared
// resources refuse it (a boolean has no "cleared" value).
func optionalActivo(in *valid.Input) *bool {
	if in.IsNull("activo") {
		in.Fail("activo", "El campo activo debe ser verdadero o falso.")
		return nil
	}
	return in.OptionalBool("activo")
}

var slugRe = regexp.MustCompile(`^[a-z0-9]+([_-][a-z0-9]+)*$`)

// decodeRol validates a role body; permission names are canonicalised
// (aliases accepted).
func decodeRol(creating bool) handler.DecodeFunc[DatosRol] {
	return func(in *valid.Input) (DatosRol, error) {
		var x DatosRol
		if v, ok := in.String("nombre", valid.Str{Required: creating || in.Has("nombre"), Max: 255}); ok {
			x.Nombre = &v
		}
		if v, ok := in.String("slug", valid.Str{Required: !creating && in.Has("slug"), Max: 100}); ok {
			v = strings.ToLower(v)
			if !slugRe.MatchString(v) {
				in.Fail("slug", "El campo slug solo admite letras minúsculas, números, guiones y guiones bajos.")
			} else {
				x.Slug = &v
			}
		}
		if creating && x.Slug == nil && x.Nombre != nil && !in.Failed("slug") {
			if v := Slugify(*x.Nombre); v == "" {
				in.Fail("slug", "No se pudo derivar un slug del nombre; envíe el campo slug.")
			} else {
				x.Slug = &v
			}
		}
		if v, ok := in.String("descripcion", valid.Str{Max: 1000}); ok {
			x.Descripcion = &v
		} else if in.IsNull("descripcion") {
			x.LimpiarDescripcion = true
		}
		x.Activo = optionalActivo(in)
		if items, ok := in.List("permisos", false); ok {
			x.PermisosEnviados = true
			seen := map[string]bool{}
			for i, raw := range items {
				name := strings.Trim(strings.TrimSpace(string(raw)), `"`)
				slug, ok := auth.Canonical(name)
				if !ok || !strings.HasPrefix(strings.TrimSpace(string(raw)), `"`) {
					in.Fail("permisos."+strconv.Itoa(i), "El permiso "+name+" no existe.")
					continue
				}
				if !seen[slug] {
					seen[slug] = true
					x.Permisos = append(x.Permisos, slug)
				}
			}
		} else if in.IsNull("permisos") {
			x.PermisosEnviados = true
		}
		return x, in.Err()
	}
}

// tenantList is the query of a tenant list with $1 the tenant, $2 the
// search pattern and $3 the activos filter.
func tenantList[T any](r *http.Request, p auth.Principal, sorts map[string]string, def, cols, from string,
	scan pgx.RowToFunc[T], load func(ctx context.Context, tx *db.Tx, rows []T) error) (handler.Query[T], error) {
	f := httpx.NewFilters(r)
	activos := f.Bool("activos")
	order, err := f.Sort(sorts, def)
	if err != nil {
		return handler.Query[T]{}, err
	}
	return handler.Query[T]{Cols: cols, From: from, Order: order + ", " + def,
		Args: []any{httpx.SearchQuery(r), activos}, Scan: scan, Load: load}, nil
}

var usuarioSorts = map[string]string{"id": "u.id", "nombre": "u.nombre", "email": "u.email", "creado_en": "u.creado_en"}

func listaUsuarios(r *http.Request, p auth.Principal) (handler.Query[Usuario], error) {
	return tenantList(r, p, usuarioSorts, "u.id", usuarioCols, `from usuarios u
		join membresias m on m.usuario_id = u.id and m.empresa_id = $1 and not m.eliminado
		where not u.eliminado
		  and ($2::text is null or u.busqueda like f_unaccent(lower($2)))
		  and ($3::boolean is null or (u.activo and m.activo) = $3)`, scanUsuario, loadRelations)
}

var rolSorts = map[string]string{"id": "r.id", "nombre": "r.nombre", "slug": "r.slug", "creado_en": "r.creado_en"}

func listaRoles(r *http.Request, p auth.Principal) (handler.Query[Rol], error) {
	return tenantList(r, p, rolSorts, "r.id", rolCols, `from roles r where r.empresa_id = $1 and not r.eliminado
		and ($2::text is null or r.nombre ilike $2 or r.slug ilike $2)
		and ($3::boolean is null or r.activo = $3)`, scanRol, loadRolRelations)
}

var permisoSorts = map[string]string{"slug": "slug", "modulo": "modulo", "accion": "accion"}

func listaPermisos(r *http.Request, _ auth.Principal) (handler.Query[auth.Permission], error) {
	f := httpx.NewFilters(r)
	modulo := f.Text("modulo")
	order, err := f.Sort(permisoSorts, "slug")
	if err != nil {
		return handler.Query[auth.Permission]{}, err
	}
	return handler.Query[auth.Permission]{Cols: "slug, modulo, accion, descripcion",
		From: "from permisos where $1::text is null or modulo = $1", Order: order + ", slug",
		Global: true, Args: []any{modulo}, Scan: pgx.RowToStructByPos[auth.Permission]}, nil
}

// Grupo is the "usuarios" function group (functions/usuarios/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB, BcryptCost: d.Cfg.BcryptCost}).Handlers()
}
