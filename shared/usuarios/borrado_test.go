package usuarios_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Of two deletes of one user (or role) racing, the first to commit answers
// 200 and the other 404, as a later delete does; up to four of six
// concurrent DELETEs of a user answered 200. Made deterministic by an owner
// transaction that soft-deletes the row and holds its lock meanwhile.
func TestADeleteRacingAnotherDeleteOfTheSameUserOrRoleAnswers404(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	u := e.Create(t, admin, "/api/usuarios", newUser("efimera@demo.cr"))
	rol := e.Create(t, admin, "/api/roles", map[string]any{"nombre": "Efímero", "permisos": []string{"productos.leer"}})
	for _, c := range []struct{ name, sql, like, path string }{
		{"usuario", `update membresias set activo = false, eliminado = true where empresa_id = 1 and usuario_id = $1`, "%update membresias%", "/api/usuarios/"},
		{"rol", `update roles set activo = false, eliminado = true where id = $1`, "%update roles%", "/api/roles/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := u
			if c.name == "rol" {
				id = rol
			}
			r := e.WhileLocked(t, c.sql, []any{id}, c.like,
				func() testenv.Resp { return e.Call(admin, http.MethodDelete, fmt.Sprint(c.path, id), nil) })
			if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("DELETE racing a committed delete: %d %s, want 404", r.Status, r.Raw)
			}
		})
	}
}
