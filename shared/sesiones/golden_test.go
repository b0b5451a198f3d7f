package sesiones_test

import (
	"flag"
	"net/http"
	"regexp"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

var goldenToken = regexp.MustCompile(`"token":"\d+\|[A-Za-z0-9_-]+"`)

// Login's and /api/me's bodies, byte for byte as sent (the user object
// with its company, position and roles, the permissions, the refusals):
// the round-trip work of issue 17 moved their reads ahead of the password
// check and into one pipeline, and must not change them. The token is
// random and masked, as the timestamps and trace ids are.
func TestGoldenLoginAndMeBodies(t *testing.T) {
	e := testenv.NewParallel(t)
	e.Exec(`insert into usuarios (empresa_id, nombre, email, password_hash, activo)
		select 1, 'Inactivo', 'inactivo@demo.cr', password_hash, false from usuarios where email = 'admin@demo.cr'`)
	e.Exec(`insert into usuarios (empresa_id, nombre, email, password_hash, activo)
		select 1, 'Sin Acceso', 'sin.acceso@demo.cr', password_hash, true from usuarios where email = 'admin@demo.cr'`)
	e.Exec(`update membresias set eliminado = true where usuario_id = (select id from usuarios where email = 'sin.acceso@demo.cr')`)
	// Member of company 2 too, as a vendedor there.
	e.Exec(`insert into membresias (empresa_id, usuario_id) select 2, id from usuarios where email = 'admin@demo.cr'`)
	e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
		select 2, u.id, r.id from usuarios u, roles r where u.email = 'admin@demo.cr' and r.empresa_id = 2 and r.slug = 'vendedor'`)
	login := func(email, password string) testenv.Resp {
		r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/login", Body: map[string]string{"email": email, "password": password}})
		r.Raw = goldenToken.ReplaceAll(r.Raw, []byte(`"token":"<token>"`))
		return r
	}
	testenv.Golden(t, "login", login("ADMIN@demo.cr", testenv.DemoPassword), *update)
	testenv.Golden(t, "login_401", login(testenv.Admin1, "Incorrecta1!"), *update)
	testenv.Golden(t, "login_401_desconocido", login("nadie@demo.cr", "Incorrecta1!"), *update)
	testenv.Golden(t, "login_403_inactivo", login("inactivo@demo.cr", testenv.DemoPassword), *update)
	testenv.Golden(t, "login_403_sin_acceso", login("sin.acceso@demo.cr", testenv.DemoPassword), *update)
	for range 5 {
		login(testenv.Admin2, "Incorrecta1!")
	}
	testenv.Golden(t, "login_429", login(testenv.Admin2, testenv.DemoPassword), *update)

	tok := e.Admin(1)
	testenv.Golden(t, "me", e.Get("/api/me", tok), *update)
	testenv.Golden(t, "me_empresa_2", e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/me", Token: tok,
		Headers: map[string]string{"X-Empresa-Id": "2"}}), *update)
}
