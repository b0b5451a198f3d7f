package usuarios

import (
	"context"
	"fmt"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// Nobody grants a permission it does not hold: every place where
// permissions are handed out (a role's permission set, a user's roles)
// checks the new grant against the caller's own permissions in the company.
// An Administrador holds them all and is never refused.

// forbidGrant refuses a grant of permissions the caller lacks.
func forbidGrant(lacks []string) error {
	if len(lacks) == 0 {
		return nil
	}
	return apperr.NewForbidden("No puede otorgar permisos que usted no tiene: " + strings.Join(lacks, ", ") + ".")
}

// checkGrant refuses assigning roles that carry permissions the caller lacks.
func checkGrant(ctx context.Context, tx *db.Tx, p auth.Principal, roleIDs []int64) error {
	if len(roleIDs) == 0 {
		return nil
	}
	perms, err := PermisosDeRoles(ctx, tx, roleIDs)
	if err != nil {
		return err
	}
	return forbidGrant(p.Lacks(perms))
}

// checkSuperior refuses changing or deleting another user who holds
// permissions the caller lacks: setting that user's password, or its
// roles, would hand the caller those permissions.
func checkSuperior(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) error {
	if id == p.UsuarioID {
		return nil
	}
	perms, err := PermisosDe(ctx, tx, id)
	if err != nil {
		return err
	}
	if len(p.Lacks(perms)) > 0 {
		return apperr.NewForbidden("No puede modificar ni eliminar a un usuario que tiene permisos que usted no tiene.")
	}
	return nil
}

// newRoles returns the role ids of next that the user does not hold yet.
func newRoles(cur Usuario, next []int64) []int64 {
	held := make(map[int64]bool, len(cur.Roles))
	for _, r := range cur.Roles {
		held[r.ID] = true
	}
	var out []int64
	for _, id := range next {
		if !held[id] {
			out = append(out, id)
		}
	}
	return out
}

// checkCredenciales refuses setting another user's password or e-mail
// unless the caller covers that user everywhere: an account is one login for
// every company it belongs to, so whoever sets its password acts with its
// roles in all of them (an Administrador of company 1 would become
// Administrador of company 2 through a user of company 1 who is one there),
// and with its platform-administrator flag. app_cubre_usuario compares, in
// every company of the target, its permissions with the caller's there.
func checkCredenciales(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) error {
	if id == p.UsuarioID {
		return nil
	}
	var cubre bool
	if err := tx.QueryRow(ctx, `select app_cubre_usuario($1)`, id).Scan(&cubre); err != nil {
		return fmt.Errorf("usuarios: credenciales: %w", err)
	}
	if !cubre {
		return apperr.NewForbidden("No puede cambiar la contraseña ni el correo de un usuario que tiene, en alguna de sus empresas, permisos que usted no tiene.")
	}
	return nil
}
