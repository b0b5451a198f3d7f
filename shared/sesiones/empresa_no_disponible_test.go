package sesiones_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/testenv"
)

// A company that is deleted (DELETE /api/empresas/{id}: activo false,
// eliminado true) or inactive strands nobody in 404s: a user with no other
// active company can no longer log in and its tokens stop on the next request
// (403, as an inactive user), while a user who also belongs to an active
// company logs in and acts there by default.
func TestUsersOfADeletedOrInactiveCompany(t *testing.T) {
	const multi = "multi@demo.cr"
	borrar := func(e *testenv.Env, admin string) {
		e.Must(t, 200, admin, "DELETE", "/api/empresas/1", nil)
	}
	desactivar := func(e *testenv.Env, _ string) {
		e.Exec(`update empresas set activo = false where id = 1`)
	}
	cases := []struct {
		name    string
		quitar  func(e *testenv.Env, admin string)
		email   string
		status  int     // login, and the old token's /api/me without a tenant
		empresa float64 // empresa_actual.id when it may still act
	}{
		{"sole company deleted: no login, old token refused", borrar, testenv.Admin1, 403, 0},
		{"sole company inactive: no login, old token refused", desactivar, testenv.Admin1, 403, 0},
		{"home company deleted: acts in its other company", borrar, multi, 200, 2},
		{"home company inactive: acts in its other company", desactivar, multi, 200, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := testenv.NewParallel(t)
			// multi@demo.cr: home company 1 (administrador), also a vendedor of 2.
			e.Exec(`insert into usuarios (empresa_id, nombre, email, password_hash, activo)
				select 1, 'Multi', $1, password_hash, true from usuarios where email = 'admin@demo.cr'`, multi)
			e.Exec(`insert into membresias (empresa_id, usuario_id) select x, id from usuarios, unnest(array[1, 2]) x where email = $1`, multi)
			e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
				select r.empresa_id, u.id, r.id from usuarios u, roles r
				where u.email = $1 and ((r.empresa_id = 1 and r.slug = 'administrador') or (r.empresa_id = 2 and r.slug = 'vendedor'))`, multi)
			viejo := e.Login(c.email, testenv.DemoPassword)
			c.quitar(e, e.Admin(1))

			// The login's refusal is the inactive user's: 403, a message,
			// no token; the right password forgets failures, so repeating
			// it never reaches the limiter's 429.
			for i := 0; i < 7; i++ {
				r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": c.email, "password": testenv.DemoPassword}})
				if r.Status != c.status {
					t.Fatalf("login #%d: %d, want %d: %s", i+1, r.Status, c.status, r.Raw)
				}
				if c.status == 403 && (testenv.Str(r.JSON, "message") != auth.MsgSinEmpresa || testenv.Str(r.JSON, "data.token") != "") {
					t.Fatalf("login refusal: %s", r.Raw)
				}
				if c.status == 200 && testenv.Num(r.JSON, "data.usuario.roles.0.id") == 0 {
					t.Fatalf("login: no roles in its active company: %s", r.Raw)
				}
			}
			if r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": c.email, "password": "Incorrecta1!"}}); r.Status != 401 {
				t.Errorf("wrong password: %d, want the usual 401: %s", r.Status, r.Raw)
			}

			// The token issued before the company went away.
			r := e.Get("/api/me", viejo)
			if r.Status != c.status {
				t.Fatalf("old token /api/me: %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if c.status == 403 {
				if testenv.Str(r.JSON, "message") != auth.MsgSinEmpresa {
					t.Errorf("old token message: %s", r.Raw)
				}
			} else if testenv.Num(r.JSON, "empresa_actual.id") != c.empresa || testenv.Str(r.JSON, "roles.0.slug") != "vendedor" {
				t.Errorf("old token acts in: %s", r.Raw)
			}
			// Naming the company explicitly: a member learns it is not
			// available (403), never a 404 as if it did not exist.
			for _, path := range []string{"/api/me", "/api/usuarios"} {
				r := e.Do(testenv.Req{Method: "GET", Path: path, Token: viejo, Headers: map[string]string{"X-Empresa-Id": "1"}})
				if r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" {
					t.Errorf("%s in company 1: %d %s", path, r.Status, r.Raw)
				}
			}
			if c.status == 200 {
				r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: viejo, Headers: map[string]string{"X-Empresa-Id": "2"}})
				if r.Status != 200 || testenv.Num(r.JSON, "empresa_actual.id") != 2 {
					t.Errorf("in company 2: %d %s", r.Status, r.Raw)
				}
			}
		})
	}
}
