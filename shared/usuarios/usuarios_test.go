package usuarios_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

func newUser(email string, roles ...any) map[string]any {
	return map[string]any{"nombre": "Ana", "apellidos": "Mora Solís", "email": email, "password": "Segura123!", "roles": roles}
}

func TestCreateUserWithRolesAndLogin(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser("ana@demo.cr", "vendedor")})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if testenv.Str(r.JSON, "data.roles.0.slug") != "vendedor" || testenv.Num(r.JSON, "data.empresa_id") != 1 {
		t.Errorf("created user: %s", r.Raw)
	}
	if strings.Contains(string(r.Raw), "password") || strings.Contains(string(r.Raw), "$2a$") {
		t.Errorf("response leaks the password: %s", r.Raw)
	}
	// The new user logs in and holds exactly the vendedor permissions.
	tok := e.Login("ana@demo.cr", "Segura123!")
	me := e.Get("/api/me", tok)
	perms := fmt.Sprint(me.JSON["permisos"])
	if !strings.Contains(perms, "ventas.crear") || strings.Contains(perms, "usuarios.leer") {
		t.Errorf("vendedor permisos: %s", perms)
	}
	if r := e.Get("/api/usuarios", tok); r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("vendedor listing users: %d %s", r.Status, r.Raw)
	}
	list := e.Get("/api/usuarios", admin)
	if strings.Contains(string(list.Raw), "password") || strings.Contains(string(list.Raw), "$2a$") {
		t.Errorf("list leaks passwords: %s", list.Raw)
	}
}

func TestCreateUserValidation(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	with := func(k string, v any) map[string]any {
		u := newUser("nuevo@demo.cr", "usuario")
		if v == nil {
			delete(u, k)
		} else {
			u[k] = v
		}
		return u
	}
	cases := []testenv.Invalid{
		{"nombre is required", with("nombre", nil), "nombre"},
		{"nombre max 255", with("nombre", strings.Repeat("a", 256)), "nombre"},
		{"email must be valid", with("email", "no-es-correo"), "email"},
		{"email is taken globally", with("email", testenv.Admin2), "email"},
		{"password needs a symbol", with("password", "Segura1234"), "password"},
		{"password needs upper case", with("password", "segura123!"), "password"},
		{"password needs 8 characters", with("password", "Se1!"), "password"},
		{"password needs a digit", with("password", "Segura!!!"), "password"},
		{"unknown role slug", with("roles", []any{"usuario", "no-existe"}), "roles.1"},
		{"role of another company", with("roles", []any{9999}), "roles.0"},
		{"unknown cargo", with("cargo_id", 9999), "cargo_id"},
		{"cargo_id of the wrong type", with("cargo_id", "uno"), "cargo_id"},
		{"roles of the wrong type", with("roles", "vendedor"), "roles"},
	}
	e.ExpectInvalid(t, admin, "POST", "/api/usuarios", cases)
	// Nothing was half-written.
	if r := e.Get("/api/usuarios?search=nuevo@demo.cr", admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("a refused user was stored: %s", r.Raw)
	}
}

func TestUpdateUser(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	id := testenv.Num(e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser("luis@demo.cr", "usuario")}).JSON, "data.id")
	userTok := e.Login("luis@demo.cr", "Segura123!")
	path := fmt.Sprintf("/api/usuarios/%d", int(id))

	r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"nombre": "Luis"}})
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Luis" || testenv.Str(r.JSON, "data.email") != "luis@demo.cr" {
		t.Fatalf("partial update: %d %s", r.Status, r.Raw)
	}
	r = e.Do(testenv.Req{Method: "PUT", Path: path, Token: admin, Body: map[string]any{"roles": []string{"bodeguero", "comprador"}}})
	if r.Status != 200 || testenv.Len(r.JSON, "data.roles") != 2 {
		t.Fatalf("roles update: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"password": "debil"}}); r.Status != 422 || len(r.FieldErrors("password")) < 1 {
		t.Errorf("weak password accepted: %d %s", r.Status, r.Raw)
	}
	// A new password ends the user's sessions.
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"password": "Nueva123!"}}); r.Status != 200 {
		t.Fatalf("password change: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/me", userTok); r.Status != 401 {
		t.Errorf("old session after password change: %d", r.Status)
	}
	userTok = e.Login("luis@demo.cr", "Nueva123!")
	// Deactivation ends them too, and the user can no longer log in.
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"activo": false}}); r.Status != 200 {
		t.Fatalf("deactivate: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/me", userTok); r.Status != 401 {
		t.Errorf("session of a deactivated user: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": "luis@demo.cr", "password": "Nueva123!"}}); r.Status != 403 {
		t.Errorf("login of a deactivated user: %d %s", r.Status, r.Raw)
	}
	// An administrator cannot lock itself out.
	meID := int(testenv.Num(e.Get("/api/me", admin).JSON, "id"))
	if r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/usuarios/%d", meID), Token: admin, Body: map[string]any{"activo": false}}); r.Status != 422 {
		t.Errorf("self-deactivation: %d %s", r.Status, r.Raw)
	}
}

func TestDeleteUserIsSoft(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	id := int(testenv.Num(e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser("borrar@demo.cr")}).JSON, "data.id"))
	path := fmt.Sprintf("/api/usuarios/%d", id)
	if r := e.Do(testenv.Req{Method: "DELETE", Path: path, Token: admin}); r.Status != 200 || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, admin); r.Status != 404 {
		t.Errorf("show after delete: %d", r.Status)
	}
	if r := e.Get("/api/usuarios?search=borrar", admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("list after delete: %s", r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": "borrar@demo.cr", "password": "Segura123!"}}); r.Status != 401 {
		t.Errorf("login after delete: %d", r.Status)
	}
	// The row is still there, flagged.
	if tag := e.Exec(`update usuarios set nombre = nombre where id = $1 and eliminado and not activo`, id); tag.RowsAffected() != 1 {
		t.Errorf("row was not soft-deleted")
	}
	meID := int(testenv.Num(e.Get("/api/me", admin).JSON, "id"))
	if r := e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("/api/usuarios/%d", meID), Token: admin}); r.Status != 422 {
		t.Errorf("self-delete: %d %s", r.Status, r.Raw)
	}
}

func TestDeletedUsersEmailCanBeReusedAndOnlyTheNewAccountLogsIn(t *testing.T) {
	e := testenv.NewParallel(t)
	admin, admin2 := e.Admin(1), e.Admin(2)
	viejo := newUser("reusar@demo.cr")
	viejo["password"] = "Vieja123!"
	oldID := int(testenv.Num(e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/usuarios", viejo).JSON, "data.id"))
	oldTok := e.Login("reusar@demo.cr", "Vieja123!")
	e.Must(t, http.StatusOK, admin, http.MethodDelete, fmt.Sprintf("/api/usuarios/%d", oldID), nil)

	// Another company may take the address (it is one login across the
	// service), typed in another case.
	nuevo := newUser("Reusar@Demo.cr")
	nuevo["password"] = "Nueva123!"
	newID := int(testenv.Num(e.Must(t, http.StatusCreated, admin2, http.MethodPost, "/api/usuarios", nuevo).JSON, "data.id"))
	if newID == oldID {
		t.Fatalf("the deleted account was revived (id %d)", newID)
	}
	tok := e.Login("reusar@demo.cr", "Nueva123!")
	if me := e.Get("/api/me", tok); int(testenv.Num(me.JSON, "id")) != newID || testenv.Num(me.JSON, "empresa_id") != 2 {
		t.Errorf("login with the reused e-mail reached another account: %s", me.Raw)
	}
	// The deleted account stays out: its password, its old session.
	if r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/login",
		Body: map[string]string{"email": "reusar@demo.cr", "password": "Vieja123!"}}); r.Status != http.StatusUnauthorized {
		t.Errorf("login with the deleted account's password: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/me", oldTok); r.Status != http.StatusUnauthorized {
		t.Errorf("deleted account's token: %d %s", r.Status, r.Raw)
	}
	// The address is unique again among live accounts: creating it or
	// moving another user onto it is a 422, in either company.
	testenv.Expect422(t, e.Call(admin, http.MethodPost, "/api/usuarios", newUser("reusar@demo.cr")), "email")
	otro := int(testenv.Num(e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/usuarios", newUser("otro.reusar@demo.cr")).JSON, "data.id"))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, fmt.Sprintf("/api/usuarios/%d", otro), map[string]any{"email": "REUSAR@demo.cr"}), "email")
	var vivos, todos int
	testenv.Scan(t, e, `select count(*) filter (where not eliminado), count(*) from usuarios where lower(email) = 'reusar@demo.cr'`, nil, &vivos, &todos)
	if vivos != 1 || todos != 2 {
		t.Errorf("rows with the e-mail: %d live of %d, want 1 of 2", vivos, todos)
	}
}

// Users and roles are struct rows: an export that matches nothing takes
// its header from their fields, the same header an export with rows has
// (nested objects as "empresa.nombre", lists left out).
func TestAnExportOfUsersOrRolesWithNoRowsStillHasItsHeader(t *testing.T) {
	e := testenv.NewParallel(t, testenv.Limite("exports", 100, time.Hour))
	admin := e.Admin(1)
	for _, path := range []string{"/api/usuarios", "/api/roles"} {
		t.Run(path, func(t *testing.T) {
			full := e.Get(path+"?formato=csv", admin)
			empty := e.Get(path+"?formato=csv&search=ningunoasi", admin)
			if full.Status != http.StatusOK || empty.Status != http.StatusOK {
				t.Fatalf("exports: %d, %d %.300s", full.Status, empty.Status, empty.Raw)
			}
			want := testenv.CSVRows(t, bytes.TrimPrefix(full.Raw, []byte("\ufeff")))[0]
			if !slices.Contains(want, "id") || (path == "/api/usuarios" && !slices.Contains(want, "empresa.nombre")) {
				t.Fatalf("header with rows: %q", want)
			}
			if got := testenv.CSVRows(t, bytes.TrimPrefix(empty.Raw, []byte("\ufeff"))); len(got) != 1 || !slices.Equal(got[0], want) {
				t.Fatalf("empty CSV: %q, want only %q", got, want)
			}
			r := e.Get(path+"?formato=excel&search=ningunoasi", admin)
			if _, rows := testenv.XLSX(t, r.Raw, "Datos"); len(rows) != 1 || !slices.Equal(rows[0], want) {
				t.Fatalf("empty workbook: %q, want only %q", rows, want)
			}
		})
	}
}

func TestAnotherCompanyCannotSeeChangeOrDeleteUsers(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	id := int(testenv.Num(e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin1, Body: newUser("privado@demo.cr")}).JSON, "data.id"))
	path := fmt.Sprintf("/api/usuarios/%d", id)
	if r := e.Get("/api/usuarios?per_page=100", admin2); strings.Contains(string(r.Raw), "demo.cr\"") && strings.Contains(string(r.Raw), "privado@demo.cr") {
		t.Errorf("company 2 lists company 1's user: %s", r.Raw)
	}
	if r := e.Get("/api/usuarios?per_page=100", admin2); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company 2 should see only its admin: %s", r.Raw)
	}
	for _, c := range []testenv.Req{
		{Method: "GET", Path: path},
		{Method: "PUT", Path: path, Body: map[string]any{"nombre": "Hackeado"}},
		{Method: "PATCH", Path: path, Body: map[string]any{"roles": []string{"administrador"}}},
		{Method: "DELETE", Path: path},
	} {
		c.Token = admin2
		if r := e.Do(c); r.Status != 404 {
			t.Errorf("%s by company 2: %d %s", c.Method, r.Status, r.Raw)
		}
	}
	if r := e.Get(path, admin1); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Ana" {
		t.Errorf("user changed by company 2: %d %s", r.Status, r.Raw)
	}
	// Naming company 1 explicitly does not help company 2's admin.
	if r := e.Do(testenv.Req{Method: "GET", Path: path, Token: admin2, Headers: map[string]string{"X-Empresa-Id": "1"}}); r.Status != 403 {
		t.Errorf("X-Empresa-Id of a foreign company: %d", r.Status)
	}
}

func TestUserListPaginationSearchAndFilters(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	for i := 0; i < 3; i++ {
		u := newUser(fmt.Sprintf("lista%d@demo.cr", i))
		u["nombre"] = fmt.Sprintf("José %d", i)
		if i == 2 {
			u["activo"] = false
		}
		e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: u})
	}
	r := e.Get("/api/usuarios", admin)
	if testenv.Num(r.JSON, "per_page") != 15 || testenv.Num(r.JSON, "total") != 4 || testenv.Num(r.JSON, "current_page") != 1 || testenv.Num(r.JSON, "last_page") != 1 {
		t.Errorf("default page: %s", r.Raw)
	}
	r = e.Get("/api/usuarios?per_page=2&page=2", admin)
	if testenv.Len(r.JSON, "data") != 2 || testenv.Num(r.JSON, "last_page") != 2 || testenv.Num(r.JSON, "from") != 3 {
		t.Errorf("page 2 of 2: %s", r.Raw)
	}
	for _, bad := range []string{"per_page=101", "per_page=0", "per_page=x", "page=0", "sort=password_hash", "order=up", "activos=quizas"} {
		if r := e.Get("/api/usuarios?"+bad, admin); r.Status != 422 {
			t.Errorf("%s: %d %s", bad, r.Status, r.Raw)
		}
	}
	for _, q := range []string{"JOSÉ", "jose", "Jos"} {
		if r := e.Get("/api/usuarios?search="+url.QueryEscape(q), admin); testenv.Num(r.JSON, "total") != 3 {
			t.Errorf("search %q: %s", q, r.Raw)
		}
	}
	if r := e.Get("/api/usuarios?activos=0", admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("activos=0: %s", r.Raw)
	}
	if r := e.Get("/api/usuarios?sort=email&order=desc&per_page=1", admin); testenv.Str(r.JSON, "data.0.email") != "lista2@demo.cr" {
		t.Errorf("sort: %s", r.Raw)
	}
}

func TestUserListRoundTripsDoNotGrowWithPageSize(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	for i := 0; i < 12; i++ {
		e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser(fmt.Sprintf("rt%d@demo.cr", i), "vendedor", "bodeguero")})
	}
	count := func(path string) int64 {
		before := e.Queries.Load()
		if r := e.Get(path, admin); r.Status != 200 {
			t.Fatalf("%s: %d", path, r.Status)
		}
		return e.Queries.Load() - before
	}
	small, large := count("/api/usuarios?per_page=2"), count("/api/usuarios?per_page=100")
	if small != large {
		t.Errorf("round trips: per_page=2 -> %d, per_page=100 -> %d", small, large)
	}
	t.Logf("round trips per list request (authorizer included): %d", large)
}

func TestRolesCRUD(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	r := e.Get("/api/roles", admin)
	if testenv.Num(r.JSON, "total") != 7 {
		t.Fatalf("predefined roles: %s", r.Raw)
	}
	// Both permission naming schemes are accepted and stored canonically.
	r = e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: admin, Body: map[string]any{
		"nombre": "Jefe de Bodega", "descripcion": "Supervisa", "permisos": []string{"ver-usuarios", "editar-categorias-producto", "inventario.crear"}}})
	if r.Status != 201 || testenv.Str(r.JSON, "data.slug") != "jefe-de-bodega" {
		t.Fatalf("create role: %d %s", r.Status, r.Raw)
	}
	if got := fmt.Sprint(testenv.Get(r.JSON, "data.permisos")); got != "[categorias_producto.actualizar inventario.crear usuarios.leer]" {
		t.Errorf("permisos stored as %s", got)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	path := fmt.Sprintf("/api/roles/%d", id)
	for name, c := range map[string]struct {
		body  map[string]any
		field string
	}{
		"unknown permission":    {map[string]any{"nombre": "X", "permisos": []string{"productos.leer", "nada.leer"}}, "permisos.1"},
		"duplicate slug":        {map[string]any{"nombre": "Jefe de bodega"}, "slug"},
		"nombre required":       {map[string]any{"descripcion": "x"}, "nombre"},
		"permission not string": {map[string]any{"nombre": "Y", "permisos": []any{12}}, "permisos.0"},
	} {
		if r := e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: admin, Body: c.body}); r.Status != 422 || len(r.FieldErrors(c.field)) < 1 {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	// A user holding the role by its alias-granted permission can list users.
	e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin, Body: newUser("jefe@demo.cr", "jefe-de-bodega")})
	jefe := e.Login("jefe@demo.cr", "Segura123!")
	if r := e.Get("/api/usuarios", jefe); r.Status != 200 {
		t.Errorf("ver-usuarios holder listing users: %d", r.Status)
	}
	// permisos.index needs roles.leer OR usuarios.leer: one suffices.
	if r := e.Get("/api/permisos?per_page=100", jefe); r.Status != 200 || testenv.Num(r.JSON, "total") != 92 {
		t.Errorf("permission catalog: %d %s", r.Status, r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"permisos": []string{"productos.leer"}}}); r.Status != 200 || testenv.Len(r.JSON, "data.permisos") != 1 {
		t.Fatalf("update role: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/usuarios", jefe); r.Status != 403 {
		t.Errorf("after losing usuarios.leer: %d", r.Status)
	}
	if r := e.Do(testenv.Req{Method: "DELETE", Path: path, Token: admin}); r.Status != 200 {
		t.Fatalf("delete role: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, admin); r.Status != 404 {
		t.Errorf("show deleted role: %d", r.Status)
	}
}

func TestPredefinedRolesAreProtected(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	roles := e.Get("/api/roles?per_page=100", admin)
	ids := map[string]int{}
	for i := 0; i < testenv.Len(roles.JSON, "data"); i++ {
		ids[testenv.Str(roles.JSON, fmt.Sprintf("data.%d.slug", i))] = int(testenv.Num(roles.JSON, fmt.Sprintf("data.%d.id", i)))
	}
	for _, slug := range []string{"administrador", "gerente", "contador", "vendedor", "comprador", "bodeguero", "usuario"} {
		r := e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("/api/roles/%d", ids[slug]), Token: admin})
		if r.Status != 422 || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("delete %s: %d %s", slug, r.Status, r.Raw)
		}
	}
	if r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/roles/%d", ids["administrador"]), Token: admin,
		Body: map[string]any{"permisos": []string{"productos.leer"}}}); r.Status != 422 {
		t.Errorf("trimming administrador: %d %s", r.Status, r.Raw)
	}
}

func TestAnotherCompanyCannotSeeChangeOrDeleteRoles(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	id := int(testenv.Num(e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: admin1, Body: map[string]any{"nombre": "Auditor"}}).JSON, "data.id"))
	path := fmt.Sprintf("/api/roles/%d", id)
	if r := e.Get("/api/roles?search=auditor", admin2); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 lists company 1's role: %s", r.Raw)
	}
	for _, c := range []testenv.Req{{Method: "GET", Path: path}, {Method: "PUT", Path: path, Body: map[string]any{"nombre": "X"}}, {Method: "DELETE", Path: path}} {
		c.Token = admin2
		if r := e.Do(c); r.Status != 404 {
			t.Errorf("%s by company 2: %d %s", c.Method, r.Status, r.Raw)
		}
	}
	// Company 2 cannot grant company 1's role to its users either.
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin2, Body: newUser("x@demo2.cr", id)})
	if r.Status != 422 || len(r.FieldErrors("roles.0")) < 1 {
		t.Errorf("foreign role granted: %d %s", r.Status, r.Raw)
	}
}

// A field sent on update must hold a value, as in the declared resources:
// blank or null is a 422 under the field, and nothing changes (it was a 200
// that silently kept the old value).
func TestBlankOrNullFieldsOnUpdateAreRefused(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	u := e.Must(t, http.StatusCreated, admin, "POST", "/api/usuarios", newUser("vacio@demo.cr", "vendedor"))
	user := fmt.Sprintf("/api/usuarios/%.0f", testenv.Num(u.JSON, "data.id"))
	r := e.Must(t, http.StatusCreated, admin, "POST", "/api/roles", map[string]any{"nombre": "Vacío", "permisos": []string{"clientes.leer"}})
	rol := fmt.Sprintf("/api/roles/%.0f", testenv.Num(r.JSON, "data.id"))
	e.ExpectRefused(t, admin, []testenv.Rechazo{
		{"user blank nombre", "PATCH", user, map[string]any{"nombre": "  "}, "nombre", "obligatorio"},
		{"user null nombre", "PUT", user, map[string]any{"nombre": nil}, "nombre", "obligatorio"},
		{"user blank email", "PATCH", user, map[string]any{"email": ""}, "email", "obligatorio"},
		{"user null email", "PATCH", user, map[string]any{"email": nil}, "email", "obligatorio"},
		{"user blank password", "PATCH", user, map[string]any{"password": ""}, "password", "obligatorio"},
		{"user null activo", "PATCH", user, map[string]any{"activo": nil}, "activo", "verdadero o falso"},
		{"role blank nombre", "PATCH", rol, map[string]any{"nombre": ""}, "nombre", "obligatorio"},
		{"role null nombre", "PUT", rol, map[string]any{"nombre": nil}, "nombre", "obligatorio"},
		{"role blank slug", "PATCH", rol, map[string]any{"slug": " "}, "slug", "obligatorio"},
		{"role null activo", "PATCH", rol, map[string]any{"activo": nil}, "activo", "verdadero o falso"},
	})
	if got := testenv.Str(e.Get(user, admin).JSON, "data.email"); got != "vacio@demo.cr" {
		t.Errorf("email changed to %q", got)
	}
	e.Login("vacio@demo.cr", "Segura123!")
	// The permission catalog's modulo filter with NUL or invalid UTF-8
	// matches nothing (it answered 500).
	for _, q := range []string{"%00", "%ff", "clientes%00"} {
		if r := e.Get("/api/permisos?modulo="+q, admin); r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("modulo=%s: %d %s", q, r.Status, r.Raw)
		}
	}
}

// Users and roles honour If-Match as the declared resources do: the ETag of
// the record's GET lets the write through, a stale one is a 412 and nothing
// changes.
func TestIfMatchOnUsersAndRoles(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	u := e.Must(t, http.StatusCreated, admin, "POST", "/api/usuarios", newUser("version@demo.cr", "vendedor"))
	r := e.Must(t, http.StatusCreated, admin, "POST", "/api/roles", map[string]any{"nombre": "Versionado", "permisos": []string{"clientes.leer"}})
	for _, item := range []string{fmt.Sprintf("/api/usuarios/%.0f", testenv.Num(u.JSON, "data.id")), fmt.Sprintf("/api/roles/%.0f", testenv.Num(r.JSON, "data.id"))} {
		t.Run(item, func(t *testing.T) {
			write := func(method, ifMatch string, body any) testenv.Resp {
				return e.Do(testenv.Req{Method: method, Path: item, Token: admin, Body: body, Headers: map[string]string{"If-Match": ifMatch}})
			}
			leida := e.Get(item, admin).Header.Get("ETag")
			if r := write(http.MethodPatch, leida, map[string]any{"nombre": "Primera"}); r.Status != http.StatusOK {
				t.Fatalf("current ETag: %d %s", r.Status, r.Raw)
			}
			if r := write(http.MethodPatch, leida, map[string]any{"nombre": "Segunda"}); r.Status != http.StatusPreconditionFailed || testenv.Str(r.JSON, "message") == "" {
				t.Fatalf("stale ETag: %d %s", r.Status, r.Raw)
			}
			if r := write(http.MethodDelete, leida, nil); r.Status != http.StatusPreconditionFailed {
				t.Fatalf("stale ETag on delete: %d %s", r.Status, r.Raw)
			}
			if got := testenv.Str(e.Get(item, admin).JSON, "data.nombre"); got != "Primera" {
				t.Errorf("nombre %q after a refused write", got)
			}
			if r := write(http.MethodDelete, e.Get(item, admin).Header.Get("ETag"), nil); r.Status != http.StatusOK {
				t.Errorf("delete with the current ETag: %d %s", r.Status, r.Raw)
			}
		})
	}
}
