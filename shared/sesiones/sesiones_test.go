package sesiones_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/testenv"
)

func TestLoginReturnsUserTokenAndPermissions(t *testing.T) {
	e := testenv.NewParallel(t)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": "ADMIN@demo.cr", "password": testenv.DemoPassword}})
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	if r.JSON["success"] != true || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("envelope: %s", r.Raw)
	}
	if tok := testenv.Str(r.JSON, "data.token"); !regexp.MustCompile(`^\d+\|[A-Za-z0-9_-]{40}$`).MatchString(tok) {
		t.Errorf("token %q is not <id>|<random>", tok)
	}
	if got := testenv.Str(r.JSON, "data.usuario.email"); got != testenv.Admin1 {
		t.Errorf("usuario.email = %q", got)
	}
	if got := testenv.Str(r.JSON, "data.usuario.empresa.nombre"); got != "Demo S.A." {
		t.Errorf("usuario.empresa.nombre = %q", got)
	}
	if got := testenv.Str(r.JSON, "data.usuario.roles.0.slug"); got != "administrador" {
		t.Errorf("usuario.roles.0.slug = %q", got)
	}
	if n := testenv.Len(r.JSON, "data.permisos"); n != 92 {
		t.Errorf("administrador has %d permisos, want 92", n)
	}
	if strings.Contains(string(r.Raw), "password") || strings.Contains(string(r.Raw), "$2a$") {
		t.Errorf("login response leaks the password hash: %s", r.Raw)
	}
}

func TestLoginRefusals(t *testing.T) {
	e := testenv.NewParallel(t)
	e.Exec(`insert into usuarios (empresa_id, nombre, email, password_hash, activo)
		select 1, 'Inactivo', 'inactivo@demo.cr', password_hash, false from usuarios where email = 'admin@demo.cr'`)
	cases := []struct {
		name      string
		body      any
		status    int
		errorsKey string
	}{
		{"wrong password is 401 with errors.email", map[string]string{"email": testenv.Admin1, "password": "Incorrecta1!"}, 401, "email"},
		{"unknown e-mail is the same 401", map[string]string{"email": "nadie@demo.cr", "password": "Incorrecta1!"}, 401, "email"},
		{"missing e-mail is 422", map[string]string{"password": "secreto"}, 422, "email"},
		{"malformed e-mail is 422", map[string]string{"email": "no-es-correo", "password": "secreto"}, 422, "email"},
		{"short password is 422", map[string]string{"email": testenv.Admin1, "password": "12345"}, 422, "password"},
		{"password of the wrong type is 422", map[string]any{"email": testenv.Admin1, "password": 123456}, 422, "password"},
		{"inactive user is 403", map[string]string{"email": "inactivo@demo.cr", "password": testenv.DemoPassword}, 403, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: c.body})
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if testenv.Str(r.JSON, "message") == "" || r.JSON["success"] != false || testenv.Str(r.JSON, "trace_id") == "" {
				t.Errorf("envelope: %s", r.Raw)
			}
			if c.errorsKey != "" && len(r.FieldErrors(c.errorsKey)) < 1 {
				t.Errorf("no errors.%s: %s", c.errorsKey, r.Raw)
			}
		})
	}
}

func TestLoginLimiterCountsFailuresNotLogins(t *testing.T) {
	t.Parallel()
	login := func(e *testenv.Env, email, password string) testenv.Resp {
		return e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: map[string]string{"email": email, "password": password}})
	}
	fail := func(t *testing.T, e *testenv.Env, email string, n int) {
		t.Helper()
		for i := 1; i <= n; i++ {
			if r := login(e, email, "Incorrecta1!"); r.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d of %s: %d %s", i, email, r.Status, r.Raw)
			}
		}
	}
	locked := func(t *testing.T, r testenv.Resp) {
		t.Helper()
		retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != http.StatusTooManyRequests || err != nil || retry < 1 || retry > 15*60 || testenv.Str(r.JSON, "message") == "" {
			t.Fatalf("want 429 with Retry-After in (0, 900], got %d Retry-After=%q %s", r.Status, r.Header.Get("Retry-After"), r.Raw)
		}
	}
	cases := []struct {
		name string
		run  func(t *testing.T, e *testenv.Env)
	}{
		{"six successful logins in a row are all allowed", func(t *testing.T, e *testenv.Env) {
			for i := 1; i <= 6; i++ {
				if r := login(e, testenv.Admin1, testenv.DemoPassword); r.Status != http.StatusOK {
					t.Fatalf("login %d: %d %s", i, r.Status, r.Raw)
				}
			}
		}},
		{"five failures lock the e-mail, even for the right password", func(t *testing.T, e *testenv.Env) {
			fail(t, e, testenv.Admin2, 5)
			locked(t, login(e, testenv.Admin2, "Incorrecta1!"))
			locked(t, login(e, testenv.Admin2, testenv.DemoPassword))
			// Another e-mail from the same address is not affected.
			e.Login(testenv.Admin1, testenv.DemoPassword)
		}},
		{"the e-mail is counted case-insensitively", func(t *testing.T, e *testenv.Env) {
			fail(t, e, "ADMIN@demo2.cr", 3)
			fail(t, e, "Admin@Demo2.CR", 2)
			locked(t, login(e, testenv.Admin2, testenv.DemoPassword))
		}},
		{"a successful login clears the e-mail's failures", func(t *testing.T, e *testenv.Env) {
			fail(t, e, testenv.Admin2, 4)
			e.Login(testenv.Admin2, testenv.DemoPassword)
			fail(t, e, testenv.Admin2, 4)
			e.Login(testenv.Admin2, testenv.DemoPassword)
		}},
		{"failures older than the window do not count", func(t *testing.T, e *testenv.Env) {
			e.Exec(`insert into fallos_login (email, direccion, creado_en)
				select $1, '127.0.0.1', now() - interval '16 minutes' from generate_series(1, 10)`, testenv.Admin2)
			e.Login(testenv.Admin2, testenv.DemoPassword)
		}},
		{"the lock lifts when the oldest counted failure leaves the window", func(t *testing.T, e *testenv.Env) {
			e.Exec(`insert into fallos_login (email, direccion, creado_en)
				select $1, '127.0.0.1', now() - interval '14 minutes 50 seconds' from generate_series(1, 5)`, testenv.Admin2)
			r := login(e, testenv.Admin2, testenv.DemoPassword)
			locked(t, r)
			if retry, _ := strconv.Atoi(r.Header.Get("Retry-After")); retry > 11 {
				t.Errorf("Retry-After %d, want about 10 s", retry)
			}
		}},
		{"fifty failures from one address stop password spraying", func(t *testing.T, e *testenv.Env) {
			e.Exec(`insert into fallos_login (email, direccion)
				select 'victima' || g || '@demo.cr', '127.0.0.1' from generate_series(1, 49) g`)
			fail(t, e, "otra@demo.cr", 1)
			locked(t, login(e, "nueva@demo.cr", "Incorrecta1!"))
			locked(t, login(e, testenv.Admin1, testenv.DemoPassword))
		}},
		{"concurrent guesses get exactly five tries", func(t *testing.T, e *testenv.Env) {
			var wg sync.WaitGroup
			statuses := make(chan int, 20)
			for i := 0; i < 20; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses <- login(e, testenv.Admin2, "Incorrecta1!").Status
				}()
			}
			wg.Wait()
			close(statuses)
			count := map[int]int{}
			for s := range statuses {
				count[s]++
			}
			if count[http.StatusUnauthorized] != 5 || count[http.StatusTooManyRequests] != 15 {
				t.Errorf("statuses: %v", count)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, testenv.New(t))
		})
	}
}

func TestLogoutRevokesOnlyThePresentedToken(t *testing.T) {
	e := testenv.NewParallel(t)
	a := e.Admin(1)
	b := e.Admin(1)
	if r := e.Do(testenv.Req{Method: "POST", Path: "/api/logout", Token: a}); r.Status != 200 || r.JSON["success"] != true {
		t.Fatalf("logout: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/me", a); r.Status != http.StatusUnauthorized || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("revoked token: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/me", b); r.Status != http.StatusOK {
		t.Errorf("other token of the same user: %d %s", r.Status, r.Raw)
	}
}

func TestMeAndUserDescribeTheAuthenticatedUser(t *testing.T) {
	e := testenv.NewParallel(t)
	tok := e.Admin(1)
	for _, path := range []string{"/api/me", "/api/user"} {
		r := e.Get(path, tok)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", path, r.Status, r.Raw)
		}
		for _, k := range []string{"id", "nombre", "apellidos", "email", "empresa", "cargo", "roles", "permisos"} {
			if _, ok := r.JSON[k]; !ok {
				t.Errorf("%s: missing %s in %s", path, k, r.Raw)
			}
		}
		if testenv.Str(r.JSON, "cargo.nombre") != "Administrador General" || testenv.Len(r.JSON, "permisos") != 92 {
			t.Errorf("%s: %s", path, r.Raw)
		}
	}
}

func TestRegisterDoesNotExist(t *testing.T) {
	e := testenv.NewParallel(t)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/register", Body: map[string]string{"email": "x@y.cr", "password": "Secreto1!"}})
	if r.Status != 404 || !strings.Contains(testenv.Str(r.JSON, "message"), "registro") {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
}

func TestProtectedRoutesRefuseBadTokensWith401(t *testing.T) {
	e := testenv.NewParallel(t)
	good := e.Admin(1)
	expired := e.Admin(1)
	e.Exec(`update tokens_acceso set expira_en = now() - interval '1 second' where id = $1`, strings.Split(expired, "|")[0])
	revoked := e.Admin(1)
	e.Do(testenv.Req{Method: "POST", Path: "/api/logout", Token: revoked})
	id, _, _ := strings.Cut(good, "|")
	cases := []struct{ name, header string }{
		{"missing", ""},
		{"not bearer", "Basic " + good},
		{"malformed", "Bearer abc"},
		{"unknown id", "Bearer 999999|" + strings.Repeat("x", 40)},
		{"wrong secret", "Bearer " + id + "|" + strings.Repeat("y", 40)},
		{"expired", "Bearer " + expired},
		{"revoked", "Bearer " + revoked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Headers: map[string]string{"Authorization": c.header}})
			if r.Status != http.StatusUnauthorized {
				t.Fatalf("status %d: %s", r.Status, r.Raw)
			}
			if msg := testenv.Str(r.JSON, "message"); msg == "" || r.JSON["success"] != false {
				t.Errorf("body %s", r.Raw)
			}
		})
	}
}

func TestTenantResolution(t *testing.T) {
	e := testenv.NewParallel(t, func(c *config.Config) { c.TenantBaseDomain = "erp.test" })
	tok := e.Admin(1)
	cases := []struct {
		name    string
		headers map[string]string
		status  int
		empresa float64
	}{
		{"home company when no tenant is named", nil, 200, 1},
		{"own company by id", map[string]string{"X-Empresa-Id": "1"}, 200, 1},
		{"another company by id is 403", map[string]string{"X-Empresa-Id": "2"}, 403, 0},
		{"unknown company is 404", map[string]string{"X-Empresa-Id": "999"}, 404, 0},
		{"malformed id is 400", map[string]string{"X-Empresa-Id": "abc"}, 400, 0},
		{"own subdomain header", map[string]string{"X-Empresa-Subdominio": "demo"}, 200, 1},
		{"another subdomain header is 403", map[string]string{"X-Empresa-Subdominio": "demo2"}, 403, 0},
		{"unknown subdomain header is 404", map[string]string{"X-Empresa-Subdominio": "nadie"}, 404, 0},
		{"host subdomain of the base domain", map[string]string{"Host": "demo2.erp.test"}, 403, 0},
		{"www is not a tenant", map[string]string{"Host": "www.erp.test"}, 200, 1},
		{"X-Empresa-Id wins over the host", map[string]string{"Host": "demo2.erp.test", "X-Empresa-Id": "1"}, 200, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: c.headers})
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if c.status == 200 && testenv.Num(r.JSON, "empresa_actual.id") != c.empresa {
				t.Errorf("empresa_actual %s", r.Raw)
			}
			if c.status != 200 && testenv.Str(r.JSON, "message") == "" {
				t.Errorf("no message: %s", r.Raw)
			}
		})
	}
}

func TestMemberOfTwoCompaniesActsWithThatCompanysRoles(t *testing.T) {
	e := testenv.NewParallel(t)
	e.Exec(`insert into membresias (empresa_id, usuario_id) select 2, id from usuarios where email = 'admin@demo.cr'`)
	e.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
		select 2, u.id, r.id from usuarios u, roles r where u.email = 'admin@demo.cr' and r.empresa_id = 2 and r.slug = 'vendedor'`)
	tok := e.Admin(1)
	r := e.Do(testenv.Req{Method: "GET", Path: "/api/me", Token: tok, Headers: map[string]string{"X-Empresa-Id": "2"}})
	if r.Status != 200 || testenv.Num(r.JSON, "empresa_actual.id") != 2 || testenv.Str(r.JSON, "roles.0.slug") != "vendedor" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	// As a vendedor of company 2 it may not list company 2's users ...
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"X-Empresa-Id": "2"}}); r.Status != 403 {
		t.Errorf("vendedor listing users: %d %s", r.Status, r.Raw)
	}
	// ... while as Administrador of company 1 it still may.
	if r := e.Do(testenv.Req{Method: "GET", Path: "/api/usuarios", Token: tok, Headers: map[string]string{"X-Empresa-Id": "1"}}); r.Status != 200 {
		t.Errorf("admin listing users: %d %s", r.Status, r.Raw)
	}
}
