package programados

import (
	"context"
	"fmt"
	"strings"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/reportes"
	"github.com/erpcr/erp/shared/routes"
)

// A schedule is only as visible as its report: the permissions needed to
// schedule, see, change or run a report type are the ones of the type's
// own route in the route table (any one suffices), so a user never
// schedules (nor reads the runs of) a report the API would refuse them.

// PermisosTipo are the permissions of a report type's route; ok is false
// for a type without a route (nobody may schedule it).
func PermisosTipo(clave string) (perms []string, ok bool) {
	t, found := reportes.Buscar(clave)
	if !found {
		return nil, false
	}
	ruta, _, _ := strings.Cut(t.Ruta, "?")
	for _, r := range routes.All() {
		if r.Key() == ruta {
			return r.Permissions, true
		}
	}
	return nil, false
}

// puede reports whether permisos allow the type.
func puede(permisos []string, clave string) bool {
	perms, ok := PermisosTipo(clave)
	if !ok {
		return false
	}
	return auth.Principal{Permisos: permisos}.Can(perms...)
}

// TiposLegibles are the registered types a principal may schedule.
func TiposLegibles(p auth.Principal) []string {
	var out []string
	for _, t := range reportes.Tipos() {
		if puede(p.Permisos, t.Clave) {
			out = append(out, t.Clave)
		}
	}
	return out
}

// permisosDe are a user's permissions in the transaction's company now,
// as the authorizer computes them, or nil when the user may no longer act
// there (inactive or deleted user, membership or company).
func permisosDe(ctx context.Context, tx *db.Tx, usuarioID int64) ([]string, error) {
	var perms []string
	err := tx.QueryRow(ctx, `select case when exists (
			select 1 from membresias m join usuarios u on u.id = m.usuario_id join empresas e on e.id = m.empresa_id
			where m.empresa_id = $1 and m.usuario_id = $2 and m.activo and not m.eliminado
			  and u.activo and not u.eliminado and e.activo and not e.eliminado)
		then coalesce((select array_agg(distinct p.slug::text)
			from usuario_roles ur
			join roles r on r.empresa_id = ur.empresa_id and r.id = ur.rol_id and r.activo and not r.eliminado
			join rol_permisos rp on rp.empresa_id = r.empresa_id and rp.rol_id = r.id
			join permisos p on p.id = rp.permiso_id
			where ur.empresa_id = $1 and ur.usuario_id = $2), '{}') end`, tx.EmpresaID(), usuarioID).Scan(&perms)
	if err != nil {
		return nil, fmt.Errorf("programados: permisos del usuario %d: %w", usuarioID, err)
	}
	return perms, nil
}
