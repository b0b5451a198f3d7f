package usuarios_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// gestorEnv gives company 1 a "gestor" who may create and edit roles and
// users but holds few business permissions, the position from which the
// escalations of issue 9 were tried.
type gestorEnv struct {
	e        *testenv.Env
	admin    string
	gestor   string
	gestorID float64
	rolID    float64
}

var gestorPermisos = []any{"roles.crear", "roles.leer", "roles.actualizar", "usuarios.crear", "usuarios.leer", "usuarios.actualizar", "usuarios.eliminar", "ventas.leer"}

func newGestorEnv(t *testing.T) gestorEnv {
	t.Helper()
	e := testenv.NewParallel(t)
	g := gestorEnv{e: e, admin: e.Admin(1)}
	r := e.Must(t, http.StatusCreated, g.admin, "POST", "/api/roles", map[string]any{"nombre": "Gestor", "permisos": gestorPermisos})
	g.rolID = testenv.Num(r.JSON, "data.id")
	r = e.Must(t, http.StatusCreated, g.admin, "POST", "/api/usuarios", newUser("gestor@demo.cr", "gestor"))
	g.gestorID = testenv.Num(r.JSON, "data.id")
	g.gestor = e.Login("gestor@demo.cr", "Segura123!")
	return g
}

func (g gestorEnv) permisos(t *testing.T, token string) string {
	t.Helper()
	return fmt.Sprint(g.e.Get("/api/me", token).JSON["permisos"])
}

func TestGrantsBeyondOwnPermissionsAreRefused(t *testing.T) {
	g := newGestorEnv(t)
	e := g.e
	all := e.Get("/api/permisos?per_page=100", g.admin)
	var every []any
	for _, p := range all.JSON["data"].([]any) {
		every = append(every, p.(map[string]any)["slug"])
	}
	adminID := testenv.Num(e.Get("/api/me", g.admin).JSON, "id")
	cases := []struct {
		name string
		req  testenv.Req
	}{
		{"adding a permission it lacks to its own role",
			testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/roles/%.0f", g.rolID), Body: map[string]any{"permisos": append(append([]any{}, gestorPermisos...), "empresas.eliminar")}}},
		{"adding a permission it lacks by its alias name",
			testenv.Req{Method: "PUT", Path: fmt.Sprintf("/api/roles/%.0f", g.rolID), Body: map[string]any{"permisos": append(append([]any{}, gestorPermisos...), "ver-productos")}}},
		{"creating an all-permission role",
			testenv.Req{Method: "POST", Path: "/api/roles", Body: map[string]any{"nombre": "Todo", "permisos": every}}},
		{"giving itself the administrador role",
			testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/usuarios/%.0f", g.gestorID), Body: map[string]any{"roles": []any{"gestor", "administrador"}}}},
		{"creating an Administrador account with a password it chose",
			testenv.Req{Method: "POST", Path: "/api/usuarios", Body: newUser("titere@demo.cr", "administrador")}},
		{"creating a user with a predefined role it does not cover",
			testenv.Req{Method: "POST", Path: "/api/usuarios", Body: newUser("titere@demo.cr", "vendedor")}},
		{"setting the password of an Administrador",
			testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/usuarios/%.0f", adminID), Body: map[string]any{"password": "Tomada123!"}}},
		{"deleting an Administrador",
			testenv.Req{Method: "DELETE", Path: fmt.Sprintf("/api/usuarios/%.0f", adminID)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.Token = g.gestor
			r := e.Do(c.req)
			if r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" || r.JSON["success"] != false {
				t.Fatalf("want 403 with a message, got %d %s", r.Status, r.Raw)
			}
		})
	}
	// Nothing changed: the gestor's permissions, the roles, the users.
	if p := g.permisos(t, g.gestor); strings.Contains(p, "empresas.eliminar") || strings.Contains(p, "productos.leer") {
		t.Errorf("gestor gained permissions: %s", p)
	}
	if n := testenv.Num(e.Get("/api/usuarios?search=titere", g.admin).JSON, "total"); n != 0 {
		t.Errorf("a refused user was created: %v", n)
	}
	if n := testenv.Num(e.Get("/api/roles?search=Todo", g.admin).JSON, "total"); n != 0 {
		t.Errorf("a refused role was created: %v", n)
	}
	e.Login(testenv.Admin1, testenv.DemoPassword) // the administrator's password is unchanged
	if r := e.Get("/api/me", g.admin); r.Status != http.StatusOK {
		t.Errorf("administrator lost access: %d", r.Status)
	}
}

func TestUserWithOnlyUsuariosActualizarCannotChangeOwnRoles(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	r := e.Must(t, http.StatusCreated, admin, "POST", "/api/roles", map[string]any{"nombre": "Editor", "permisos": []any{"usuarios.actualizar", "usuarios.leer"}})
	r = e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser("editor@demo.cr", "editor")})
	id := testenv.Num(r.JSON, "data.id")
	tok := e.Login("editor@demo.cr", "Segura123!")
	for _, roles := range [][]any{{"administrador"}, {"editor", "administrador"}, {}, {"usuario"}} {
		r = e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/usuarios/%.0f", id), Token: tok, Body: map[string]any{"roles": roles}})
		if r.Status != http.StatusForbidden {
			t.Errorf("roles %v on itself: want 403, got %d %s", roles, r.Status, r.Raw)
		}
	}
	// Sending the roles it already holds (a whole-object PUT) is no change.
	r = e.Do(testenv.Req{Method: "PUT", Path: fmt.Sprintf("/api/usuarios/%.0f", id), Token: tok, Body: map[string]any{"nombre": "Edi", "roles": []any{"editor"}}})
	if r.Status != http.StatusOK {
		t.Errorf("same roles on itself: %d %s", r.Status, r.Raw)
	}
	if p := fmt.Sprint(e.Get("/api/me", tok).JSON["roles"]); strings.Contains(p, "administrador") {
		t.Errorf("editor became administrador: %s", p)
	}
}

func TestGrantsWithinOwnPermissionsAreAllowed(t *testing.T) {
	g := newGestorEnv(t)
	e := g.e
	// A role with a subset of the gestor's own permissions (alias names too).
	r := e.Must(t, http.StatusCreated, g.gestor, "POST", "/api/roles", map[string]any{"nombre": "Lector", "permisos": []any{"ver-ventas", "usuarios.leer"}})
	lector := testenv.Num(r.JSON, "data.id")
	// Editing it within its own permissions, and removing permissions.
	r = e.Must(t, http.StatusOK, g.gestor, "PATCH", fmt.Sprintf("/api/roles/%.0f", lector), map[string]any{"permisos": []any{"ventas.leer", "roles.leer"}})
	// A user with that role, then another role it covers.
	r = e.Must(t, http.StatusCreated, g.gestor, "POST", "/api/usuarios", newUser("lectora@demo.cr", "lector"))
	uid := testenv.Num(r.JSON, "data.id")
	r = e.Must(t, http.StatusOK, g.gestor, "PATCH", fmt.Sprintf("/api/usuarios/%.0f", uid), map[string]any{"roles": []any{"lector", "gestor"}})
	// An Administrador holds everything and is unaffected.
	r = e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/usuarios/%.0f", uid), Token: g.admin, Body: map[string]any{"roles": []any{"administrador"}}})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.roles.0.slug") != "administrador" {
		t.Fatalf("administrador granting administrador: %d %s", r.Status, r.Raw)
	}
	r = e.Must(t, http.StatusCreated, g.admin, "POST", "/api/roles", map[string]any{"nombre": "Casi todo", "permisos": []any{"empresas.eliminar", "nomina.crear"}})
}

func TestReactivatingARoleIsAGrant(t *testing.T) {
	g := newGestorEnv(t)
	e := g.e
	r := e.Must(t, http.StatusCreated, g.admin, "POST", "/api/roles", map[string]any{"nombre": "Poderoso", "permisos": []any{"empresas.eliminar"}, "activo": false})
	id := testenv.Num(r.JSON, "data.id")
	r = e.Must(t, http.StatusForbidden, g.gestor, "PATCH", fmt.Sprintf("/api/roles/%.0f", id), map[string]any{"activo": true})
	if testenv.Get(e.Get(fmt.Sprintf("/api/roles/%.0f", id), g.admin).JSON, "data.activo") != false {
		t.Error("the role was reactivated")
	}
}

// A user of company 1 who is also a member of company 2: company 2 may
// remove it from company 2 only.
func TestGuestCompanyRemovesOnlyItsMembership(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	r := e.Must(t, http.StatusCreated, admin1, "POST", "/api/usuarios", newUser("viajera@demo.cr", "usuario"))
	id := testenv.Num(r.JSON, "data.id")
	e.Exec(`insert into membresias (empresa_id, usuario_id) values (2, $1)`, int64(id))
	e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select 2, $1, id from roles where empresa_id = 2 and slug = 'usuario'`, int64(id))
	tok := e.Login("viajera@demo.cr", "Segura123!")
	in2 := map[string]string{"X-Empresa-Id": "2"}
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: in2}); r.Status != http.StatusOK {
		t.Fatalf("guest acting in 2: %d %s", r.Status, r.Raw)
	}
	path := fmt.Sprintf("/api/usuarios/%.0f", id)

	// Deactivating in company 2 closes company 2's door only.
	r = e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin2, Body: map[string]any{"activo": false}})
	if r.Status != http.StatusOK || testenv.Get(r.JSON, "data.activo") != false {
		t.Fatalf("deactivate in guest company: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: in2}); r.Status != http.StatusForbidden {
		t.Errorf("deactivated guest still acts in 2: %d", r.Status)
	}
	if r := e.Get("/api/me", tok); r.Status != http.StatusOK {
		t.Errorf("deactivation in 2 logged the user out of its home company: %d %s", r.Status, r.Raw)
	}
	if got := testenv.Get(e.Get(path, admin1).JSON, "data.activo"); got != true {
		t.Errorf("home company sees activo %v", got)
	}
	r = e.Must(t, http.StatusOK, admin2, "PATCH", path, map[string]any{"activo": true})
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: in2}); r.Status != http.StatusOK {
		t.Errorf("reactivated guest cannot act in 2: %d", r.Status)
	}

	// Deleting in company 2 removes the membership and revokes nothing.
	r = e.Must(t, http.StatusOK, admin2, "DELETE", path, nil)
	if r := e.Get("/api/me", tok); r.Status != http.StatusOK {
		t.Errorf("deletion in 2 revoked the token used in the home company: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: in2}); r.Status != http.StatusForbidden {
		t.Errorf("removed guest still acts in 2: %d", r.Status)
	}
	if r := e.Get(path, admin2); r.Status != http.StatusNotFound {
		t.Errorf("company 2 still sees the user: %d", r.Status)
	}
	if r := e.Get(path, admin1); r.Status != http.StatusOK || testenv.Get(r.JSON, "data.activo") != true {
		t.Errorf("home company lost the user: %d %s", r.Status, r.Raw)
	}

	// The home company deactivates the account itself: every session ends.
	r = e.Must(t, http.StatusOK, admin1, "PATCH", path, map[string]any{"activo": false})
	if r := e.Get("/api/me", tok); r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
		t.Errorf("deactivated account still works: %d", r.Status)
	}
}

// An account is one login for every company it belongs to: setting the
// password or e-mail of a user of company 1 who is Administrador of company
// 2 (or a platform administrator) would hand company 1's administrator that
// user's powers elsewhere. Only personal data that grants nothing stays
// editable, and a caller who covers the user everywhere may still do it.
func TestCredentialsOfAUserWithPowersElsewhereAreNotTakenOver(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1 := e.Admin(1)
	member := func(email, rol2 string) string {
		r := e.Must(t, http.StatusCreated, admin1, "POST", "/api/usuarios", newUser(email, "usuario"))
		id := int64(testenv.Num(r.JSON, "data.id"))
		if rol2 != "" {
			e.Exec(`insert into membresias (empresa_id, usuario_id) values (2, $1)`, id)
			e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select 2, $1, id from roles where empresa_id = 2 and slug = $2`, id, rol2)
		}
		return fmt.Sprintf("/api/usuarios/%d", id)
	}
	adminEn2 := member("admin-en-2@demo.cr", "administrador")
	vendedorEn2 := member("vendedor-en-2@demo.cr", "vendedor")
	plataforma := member("plataforma@demo.cr", "")
	e.Exec(`update usuarios set administrador_plataforma = true where email = 'plataforma@demo.cr'`)
	local := member("local@demo.cr", "")
	cases := []struct {
		name, path string
		body       map[string]any
		want       int
	}{
		{"password of company 2's Administrador", adminEn2, map[string]any{"password": "Tomada123!"}, http.StatusForbidden},
		{"e-mail of company 2's Administrador", adminEn2, map[string]any{"email": "mia@demo.cr"}, http.StatusForbidden},
		{"password of a seller of company 2", vendedorEn2, map[string]any{"password": "Tomada123!"}, http.StatusForbidden},
		{"password of a platform administrator", plataforma, map[string]any{"password": "Tomada123!"}, http.StatusForbidden},
		{"the name of company 2's Administrador", adminEn2, map[string]any{"nombre": "Renombrada"}, http.StatusOK},
		{"the same e-mail of company 2's Administrador, other case", adminEn2, map[string]any{"email": "ADMIN-EN-2@demo.cr"}, http.StatusOK},
		{"password of a user of company 1 only", local, map[string]any{"password": "Cambiada123!"}, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Call(admin1, http.MethodPatch, c.path, c.body)
			if r.Status != c.want || (c.want == http.StatusForbidden && testenv.Str(r.JSON, "message") == "") {
				t.Fatalf("%d, want %d: %s", r.Status, c.want, r.Raw)
			}
		})
	}
	// Nothing changed: the old passwords still log in.
	e.Login("admin-en-2@demo.cr", "Segura123!")
	e.Login("vendedor-en-2@demo.cr", "Segura123!")
	e.Login("plataforma@demo.cr", "Segura123!")
	// An Administrador of both companies covers them: allowed.
	e.Exec(`insert into membresias (empresa_id, usuario_id) select 2, id from usuarios where email = $1`, testenv.Admin1)
	e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id) select 2, u.id, r.id from usuarios u, roles r
		where u.email = $1 and r.empresa_id = 2 and r.slug = 'administrador'`, testenv.Admin1)
	e.Must(t, http.StatusOK, admin1, http.MethodPatch, adminEn2, map[string]any{"password": "Cambiada123!"})
	e.Login("admin-en-2@demo.cr", "Cambiada123!")
}
