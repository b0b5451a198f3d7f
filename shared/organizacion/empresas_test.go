package organizacion_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// regimen returns the id of a tax regime from the catalog.
func (s *stack) regimen(t *testing.T) int {
	t.Helper()
	r := s.Get("/api/regimenes-tributarios", s.admin1)
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data") < 1 {
		t.Fatalf("regimenes: %d %s", r.Status, r.Raw)
	}
	return int(testenv.Num(r.JSON, "data.0.id"))
}

func empresaBody(regimen int, nit string) map[string]any {
	return map[string]any{"nombre": "Nueva Empresa", "razon_social": "Nueva Empresa Sociedad Anónima",
		"nit_ruc": nit, "regimen_tributario_id": regimen}
}

func TestEmpresaCreateMakesTheCreatorItsAdministrador(t *testing.T) {
	s := newStack(t)
	reg := s.regimen(t)
	body := map[string]any{
		"nombre": "Ferretería El Clavo", "razon_social": "Ferretería El Clavo Sociedad Anónima", "nit_ruc": "3101999001",
		"regimen_tributario_id": reg, "email": "Ventas@ElClavo.CR", "telefono": "+506 2222-3333",
		"direccion": "Avenida 2, calles 1 y 3", "pais": "Costa Rica", "provincia": "Heredia", "ciudad": "Barva",
		"codigo_postal": "40201", "sitio_web": "https://elclavo.cr", "subdominio": "  ElClavo  ", "activo": true,
	}
	r := s.req(http.MethodPost, "/api/empresas", s.admin1, body)
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Empresa creada correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	for path, want := range map[string]any{
		"data.nombre": "Ferretería El Clavo", "data.nit_ruc": "3101999001", "data.email": "ventas@elclavo.cr",
		"data.telefono": "22223333", "data.subdominio": "elclavo", "data.sitio_web": "https://elclavo.cr",
		"data.ciudad": "Barva", "data.codigo_postal": "40201", "data.activo": true, "data.eliminado": false,
		"data.regimen_tributario.id": float64(reg), "data.usuarios.0.email": testenv.Admin1,
		"data.sucursales_count": float64(0), "data.usuarios_count": float64(1), "data.productos_count": float64(0),
	} {
		if got := testenv.Get(r.JSON, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	for _, k := range []string{"regimen_tributario.nombre", "regimen_tributario.codigo", "creado_en", "actualizado_en"} {
		if testenv.Str(r.JSON, "data."+k) == "" {
			t.Errorf("data.%s missing: %s", k, r.Raw)
		}
	}
	if testenv.Len(r.JSON, "data.sucursales") != 0 || testenv.Len(r.JSON, "data.usuarios") != 1 {
		t.Errorf("detail lists: %s", r.Raw)
	}
	if strings.Contains(string(r.Raw), "busqueda") {
		t.Errorf("internal column leaked: %s", r.Raw)
	}
	// Default settings.
	var claves []string
	for i := 0; i < testenv.Len(r.JSON, "data.configuraciones"); i++ {
		claves = append(claves, testenv.Str(r.JSON, fmt.Sprintf("data.configuraciones.%d.clave", i)))
	}
	if got := strings.Join(claves, ","); got != "inventario.descontar_stock_automatico,inventario.permitir_stock_negativo,moneda" {
		t.Errorf("configuraciones: %s", got)
	}

	t.Run("the creator lists it with its own company", func(t *testing.T) {
		r := s.Get("/api/empresas", s.admin1)
		if r.Status != 200 || testenv.Num(r.JSON, "total") != 2 || !slices.Contains(testenv.IDs(r), id) || !slices.Contains(testenv.IDs(r), 1) {
			t.Fatalf("list: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("the creator is Administrador of it with every permission", func(t *testing.T) {
		me := s.req(http.MethodGet, "/api/me", s.admin1, nil, "X-Empresa-Id", fmt.Sprint(id))
		if me.Status != 200 || testenv.Str(me.JSON, "roles.0.slug") != "administrador" || testenv.Len(me.JSON, "roles") != 1 {
			t.Fatalf("me in the new company: %d %s", me.Status, me.Raw)
		}
		if n := testenv.Len(me.JSON, "permisos"); n != 92 {
			t.Errorf("permisos in the new company: %d", n)
		}
		if testenv.Num(me.JSON, "empresa_actual.id") != float64(id) {
			t.Errorf("empresa_actual: %s", me.Raw)
		}
	})
	t.Run("its subdominio names it as the tenant, in any case", func(t *testing.T) {
		me := s.req(http.MethodGet, "/api/me", s.admin1, nil, "X-Empresa-Subdominio", "ELCLAVO")
		if me.Status != 200 || testenv.Num(me.JSON, "empresa_actual.id") != float64(id) {
			t.Errorf("me by subdominio: %d %s", me.Status, me.Raw)
		}
	})
	t.Run("the new company has the seven predefined roles", func(t *testing.T) {
		r := s.req(http.MethodGet, "/api/roles?per_page=100", s.admin1, nil, "X-Empresa-Id", fmt.Sprint(id))
		slugs := testenv.Strs(r, "slug")
		sort.Strings(slugs)
		if got := strings.Join(slugs, ","); got != "administrador,bodeguero,comprador,contador,gerente,usuario,vendedor" {
			t.Errorf("roles: %d %s", r.Status, got)
		}
	})
	t.Run("a non-member does not see it", func(t *testing.T) {
		if r := s.Get(fmt.Sprintf("/api/empresas/%d", id), s.admin2); r.Status != 404 || testenv.Str(r.JSON, "message") != "Empresa no encontrada." {
			t.Errorf("show by a non-member: %d %s", r.Status, r.Raw)
		}
		if r := s.Get("/api/empresas", s.admin2); slices.Contains(testenv.IDs(r), id) || testenv.Num(r.JSON, "total") != 1 {
			t.Errorf("list of a non-member: %s", r.Raw)
		}
	})
}

func TestEmpresaCreateValidation(t *testing.T) {
	s := newStack(t)
	reg := s.regimen(t)
	valid := empresaBody(reg, "3101888001")
	with := func(k string, v any) map[string]any { return testenv.With(valid, k, v) }
	withNull := func(k string) map[string]any { return testenv.With(valid, k, nil) }
	cases := []invalid{
		{"nombre is required", "POST", "nombre", "El campo nombre es obligatorio.", with("nombre", testenv.Absent)},
		{"nombre may not be blank", "POST", "nombre", "El campo nombre es obligatorio.", with("nombre", "   ")},
		{"nombre may not be null", "POST", "nombre", "El campo nombre es obligatorio.", withNull("nombre")},
		{"nombre max 255", "POST", "nombre", "no debe ser mayor que 255 caracteres", with("nombre", strings.Repeat("ñ", 256))},
		{"nombre must be text", "POST", "nombre", "debe ser una cadena de texto", with("nombre", 12)},
		{"razon_social is required", "POST", "razon_social", "El campo razon social es obligatorio.", with("razon_social", testenv.Absent)},
		{"razon_social max 255", "POST", "razon_social", "255", with("razon_social", strings.Repeat("a", 256))},
		{"nit_ruc is required", "POST", "nit_ruc", "El campo nit ruc es obligatorio.", with("nit_ruc", testenv.Absent)},
		{"nit_ruc max 50", "POST", "nit_ruc", "50", with("nit_ruc", strings.Repeat("1", 51))},
		{"nit_ruc of a company of the caller", "POST", "nit_ruc", "Ya existe una empresa con ese NIT/RUC.", with("nit_ruc", demoNit1)},
		{"nit_ruc of a company the caller does not belong to", "POST", "nit_ruc", "Ya existe una empresa con ese NIT/RUC.", with("nit_ruc", demoNit2)},
		{"regimen_tributario_id is required", "POST", "regimen_tributario_id", "es obligatorio", with("regimen_tributario_id", testenv.Absent)},
		{"regimen_tributario_id must exist", "POST", "regimen_tributario_id", "El régimen tributario seleccionado no existe.", with("regimen_tributario_id", 999999)},
		{"regimen_tributario_id must be an integer", "POST", "regimen_tributario_id", "debe ser un número entero", with("regimen_tributario_id", "uno")},
		{"email must be valid", "POST", "email", "correo electrónico válida", with("email", "no-es-correo")},
		{"email max 255", "POST", "email", "255", with("email", strings.Repeat("a", 250)+"@x.com")},
		{"telefono must be a Costa Rican number", "POST", "telefono", "telefono", with("telefono", "12345")},
		{"sitio_web must be a URL", "POST", "sitio_web", "URL válida", with("sitio_web", "no es url")},
		{"sitio_web must be http(s)", "POST", "sitio_web", "URL válida", with("sitio_web", "ftp://elclavo.cr")},
		{"sitio_web max 255", "POST", "sitio_web", "255", with("sitio_web", "https://"+strings.Repeat("a", 250)+".cr")},
		{"direccion max 500", "POST", "direccion", "500", with("direccion", strings.Repeat("a", 501))},
		{"subdominio with an underscore", "POST", "subdominio", "El subdominio debe tener", with("subdominio", "mi_empresa")},
		{"subdominio starting with a dash", "POST", "subdominio", "El subdominio debe tener", with("subdominio", "-clavo")},
		{"subdominio with a space", "POST", "subdominio", "El subdominio debe tener", with("subdominio", "el clavo")},
		{"subdominio with an accent", "POST", "subdominio", "El subdominio debe tener", with("subdominio", "ñandu")},
		{"subdominio longer than a DNS label", "POST", "subdominio", "", with("subdominio", strings.Repeat("a", 64))},
		{"subdominio reserved", "POST", "subdominio", "El subdominio www está reservado.", with("subdominio", "www")},
		{"subdominio reserved in upper case", "POST", "subdominio", "El subdominio api está reservado.", with("subdominio", "API")},
		{"subdominio of a company of the caller", "POST", "subdominio", "Ya existe una empresa con ese subdominio.", with("subdominio", "demo")},
		{"subdominio of another company, other case", "POST", "subdominio", "Ya existe una empresa con ese subdominio.", with("subdominio", "Demo2")},
		{"activo may not be null", "POST", "activo", "debe ser verdadero o falso", withNull("activo")},
		{"activo must be a boolean", "POST", "activo", "debe ser verdadero o falso", with("activo", "quizás")},
	}
	s.checkInvalid(t, "/api/empresas", "", cases)
	t.Run("every missing field is reported at once", func(t *testing.T) {
		t.Parallel()
		r := s.req(http.MethodPost, "/api/empresas", s.admin1, map[string]any{})
		if got := strings.Join(errorKeys(r), ","); r.Status != 422 || got != "nit_ruc,nombre,razon_social,regimen_tributario_id" {
			t.Errorf("empty body: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("a non-object body is a 400", func(t *testing.T) {
		t.Parallel()
		if r := s.req(http.MethodPost, "/api/empresas", s.admin1, `[1]`); r.Status != 400 {
			t.Errorf("array body: %d %s", r.Status, r.Raw)
		}
	})
	t.Cleanup(func() {
		// Nothing refused was half-written (no company, role or setting).
		if r := s.Get("/api/empresas?per_page=100", s.admin1); testenv.Num(r.JSON, "total") != 1 {
			t.Errorf("a refused company was stored: %s", r.Raw)
		}
	})
}

func TestEmpresaUpdateIsPartial(t *testing.T) {
	s := newStack(t)
	path := "/api/empresas/1"
	regs := s.Get("/api/regimenes-tributarios?sort=id&order=desc", s.admin1)
	otroRegimen := testenv.Num(regs.JSON, "data.0.id")
	if otroRegimen == testenv.Num(s.Get(path, s.admin1).JSON, "data.regimen_tributario_id") {
		t.Fatalf("need a second regimen: %s", regs.Raw)
	}
	steps := []update{
		{"PUT with one field keeps the others", "PUT", map[string]any{"telefono": "8888-7777"},
			map[string]any{"telefono": "88887777", "nombre": "Demo S.A.", "nit_ruc": demoNit1, "subdominio": "demo"}},
		{"PATCH with one field keeps the others", "PATCH", map[string]any{"nombre": "Demo Renombrada"},
			map[string]any{"nombre": "Demo Renombrada", "telefono": "88887777", "razon_social": "Demo Sociedad Anónima"}},
		{"its own nit_ruc is not a duplicate", "PUT", map[string]any{"nit_ruc": demoNit1}, map[string]any{"nit_ruc": demoNit1}},
		{"its own subdominio is not a duplicate", "PATCH", map[string]any{"subdominio": "DEMO"}, map[string]any{"subdominio": "demo"}},
		{"a new subdominio is lower-cased", "PATCH", map[string]any{"subdominio": "Demo-Uno"}, map[string]any{"subdominio": "demo-uno"}},
		{"null clears optional fields", "PATCH", map[string]any{"telefono": nil, "email": nil, "subdominio": nil, "sitio_web": nil},
			map[string]any{"telefono": nil, "email": nil, "subdominio": nil, "sitio_web": nil, "nombre": "Demo Renombrada"}},
		{"blank clears optional text", "PUT", map[string]any{"provincia": "  "}, map[string]any{"provincia": nil, "pais": "Costa Rica"}},
		{"the regimen can change and is nested", "PATCH", map[string]any{"regimen_tributario_id": otroRegimen},
			map[string]any{"regimen_tributario_id": otroRegimen, "regimen_tributario.id": otroRegimen, "nit_ruc": demoNit1}},
		{"an empty body changes nothing", "PATCH", map[string]any{}, map[string]any{"nombre": "Demo Renombrada", "nit_ruc": demoNit1}},
	}
	s.applyUpdates(t, path, "Empresa actualizada correctamente.", steps)
	if r := s.Get(path, s.admin1); testenv.Str(r.JSON, "data.nombre") != "Demo Renombrada" || testenv.Get(r.JSON, "data.email") != nil ||
		testenv.Len(r.JSON, "data.sucursales") != 1 || testenv.Len(r.JSON, "data.configuraciones") != 3 {
		t.Errorf("show after updates: %s", r.Raw)
	}

	refused := []struct {
		name, field, msg string
		body             map[string]any
	}{
		{"nit_ruc of another company", "nit_ruc", "Ya existe una empresa con ese NIT/RUC.", map[string]any{"nit_ruc": demoNit2}},
		{"subdominio of another company", "subdominio", "Ya existe una empresa con ese subdominio.", map[string]any{"subdominio": "DEMO2"}},
		{"reserved subdominio", "subdominio", "reservado", map[string]any{"subdominio": "admin"}},
		{"invalid subdominio", "subdominio", "El subdominio debe tener", map[string]any{"subdominio": "demo.cr"}},
		{"required field set to null", "nombre", "El campo nombre es obligatorio.", map[string]any{"nombre": nil}},
		{"required field set to blank", "razon_social", "es obligatorio", map[string]any{"razon_social": ""}},
		{"required reference set to null", "regimen_tributario_id", "es obligatorio", map[string]any{"regimen_tributario_id": nil}},
		{"unknown regimen", "regimen_tributario_id", "El régimen tributario seleccionado no existe.", map[string]any{"regimen_tributario_id": 424242}},
		{"only the sent field is validated", "email", "correo", map[string]any{"email": "x"}},
		{"invalid sitio_web", "sitio_web", "URL", map[string]any{"sitio_web": "javascript:alert(1)"}},
	}
	for _, c := range refused {
		for _, m := range []string{"PUT", "PATCH"} {
			t.Run(m+" "+c.name, func(t *testing.T) {
				expect422(t, s.req(m, path, s.admin1, c.body), c.field, c.msg)
			})
		}
	}
	if r := s.Get(path, s.admin1); testenv.Str(r.JSON, "data.nit_ruc") != demoNit1 || testenv.Str(r.JSON, "data.nombre") != "Demo Renombrada" {
		t.Errorf("a refused update changed the company: %s", r.Raw)
	}
}

// A company's update and delete are checked in that company, not in the
// one the caller acts in: the creator of a company administers it from
// anywhere; a member without the permission there gets 403; a company the
// caller does not belong to does not exist for it (404).
func TestEmpresaChangesAreCheckedInTheTargetCompany(t *testing.T) {
	s := newStack(t)
	reg := s.regimen(t)
	otra := s.create(t, "/api/empresas", s.admin1, empresaBody(reg, "3101777001"))
	otraPath := fmt.Sprintf("/api/empresas/%d", otra)
	acting := []string{"X-Empresa-Id", fmt.Sprint(otra)}
	invalid := map[string]any{"nombre": nil, "nit_ruc": demoNit2, "email": "x"}
	// admin@demo.cr is also a plain "usuario" member of Demo Dos (no empresas
	// permission there), and a company created by admin@demo2.cr is foreign.
	s.Exec(`insert into membresias (empresa_id, usuario_id) select 2, id from usuarios where email = $1`, testenv.Admin1)
	s.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
		select 2, u.id, r.id from usuarios u, roles r where u.email = $1 and r.empresa_id = 2 and r.slug = 'usuario'`, testenv.Admin1)
	ajena := s.create(t, "/api/empresas", s.admin2, empresaBody(reg, "3101777002"), "X-Empresa-Id", "2")
	ajenaPath := fmt.Sprintf("/api/empresas/%d", ajena)

	cases := []struct {
		name, method, path string
		hdr                []string
		status             int
		body               any // default: a valid change
	}{
		{"update a company it administers while acting in another", "PUT", otraPath, nil, 200, nil},
		{"patch a company it administers while acting in another", "PATCH", otraPath, nil, 200, nil},
		{"update a member company where it lacks empresas.actualizar", "PUT", "/api/empresas/2", nil, 403, nil},
		{"patch a member company where it lacks empresas.actualizar", "PATCH", "/api/empresas/2", nil, 403, nil},
		{"delete a member company where it lacks empresas.eliminar", "DELETE", "/api/empresas/2", nil, 403, nil},
		// The detail carries the company's members (e-mails) and settings:
		// read in company 2 with X-Empresa-Id it is a 403, and acting in
		// company 1 must not get round that.
		{"show a member company where it lacks empresas.leer", "GET", "/api/empresas/2", nil, 403, nil},
		{"show a member company where it lacks empresas.leer, acting there", "GET", "/api/empresas/2", []string{"X-Empresa-Id", "2"}, 403, nil},
		{"show a company it administers while acting in another", "GET", otraPath, nil, 200, nil},
		{"update a company of which the user is not a member", "PUT", ajenaPath, nil, 404, nil},
		{"delete a company of which the user is not a member", "DELETE", ajenaPath, nil, 404, nil},
		{"show a company of which the user is not a member", "GET", ajenaPath, nil, 404, nil},
		{"show an unknown company", "GET", "/api/empresas/999999", nil, 404, nil},
		{"update an unknown company", "PATCH", "/api/empresas/999999", nil, 404, nil},
		{"act in a company of which the user is not a member", "GET", ajenaPath, []string{"X-Empresa-Id", fmt.Sprint(ajena)}, 403, nil},
		// 403 and 404 come before validation: the body is not looked at.
		{"invalid update of a member company where it lacks the permission", "PATCH", "/api/empresas/2", nil, 403, invalid},
		{"invalid update of a company of which the user is not a member", "PUT", ajenaPath, nil, 404, invalid},
		{"invalid update of a company it administers", "PATCH", otraPath, nil, 422, invalid},
		{"update the active company named by X-Empresa-Id", "PATCH", otraPath, acting, 200, nil},
		{"update company 1, which it administers, while acting in the new one", "PATCH", "/api/empresas/1", acting, 200, map[string]any{"nombre": "Demo S.A."}},
		{"update company 2 while acting in the new one", "PATCH", "/api/empresas/2", acting, 403, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if body == nil {
				body = map[string]any{"nombre": "Cambiada"}
			}
			r := s.req(c.method, c.path, s.admin1, body, c.hdr...)
			if r.Status != c.status || (r.Status != 200 && testenv.Str(r.JSON, "message") == "") {
				t.Errorf("%s %s: %d %s", c.method, c.path, r.Status, r.Raw)
			}
		})
	}
	if r := s.Get("/api/empresas/2", s.admin2); testenv.Str(r.JSON, "data.nombre") != "Demo Dos S.A." {
		t.Errorf("company 2 changed by a member without the permission: %s", r.Raw)
	}
	if r := s.Get(ajenaPath, s.admin2); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") == "Cambiada" {
		t.Errorf("a foreign company changed: %s", r.Raw)
	}
	if r := s.Get(otraPath, s.admin1); testenv.Str(r.JSON, "data.nombre") != "Cambiada" {
		t.Errorf("the administered company was not updated: %s", r.Raw)
	}

	// The permission is the target's even when the active company lacks it:
	// a vendedor of company 1 who administers the new company.
	vend := s.UserWith(t, s.admin1, "vende@demo.cr", "ventas.leer")
	s.Exec(`insert into membresias (empresa_id, usuario_id) select $1::bigint, id from usuarios where email = 'vende@demo.cr'`, otra)
	s.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
		select $1::bigint, u.id, r.id from usuarios u, roles r where u.email = 'vende@demo.cr' and r.empresa_id = $1::bigint and r.slug = 'administrador'`, otra)
	if r := s.req("PATCH", otraPath, vend, map[string]any{"telefono": "2222-3333"}); r.Status != 200 {
		t.Errorf("administrator of the target lacking the permission where it acts: %d %s", r.Status, r.Raw)
	}
	for _, p := range []string{"/api/empresas/1", "/api/empresas/01", "/api/empresas/+1"} {
		if r := s.req("PATCH", p, vend, map[string]any{"nombre": "Robada"}); r.Status != 403 && r.Status != 404 {
			t.Errorf("vendedor updating its own company as %s: %d %s", p, r.Status, r.Raw)
		}
	}
	if r := s.Get("/api/empresas/1", s.admin1); testenv.Str(r.JSON, "data.nombre") == "Robada" {
		t.Errorf("a vendedor renamed its company")
	}

	t.Run("delete a company it administers while acting in another", func(t *testing.T) {
		tercera := s.create(t, "/api/empresas", s.admin1, empresaBody(reg, "3101777003"))
		r := s.req(http.MethodDelete, fmt.Sprintf("/api/empresas/%d", tercera), s.admin1, nil)
		if r.Status != 200 {
			t.Fatalf("delete: %d %s", r.Status, r.Raw)
		}
		if r := s.Get(fmt.Sprintf("/api/empresas/%d", tercera), s.admin1); r.Status != 404 {
			t.Errorf("show after delete: %d", r.Status)
		}
	})

	t.Run("delete the active company is soft", func(t *testing.T) {
		r := s.req(http.MethodDelete, otraPath, s.admin1, nil, acting...)
		if r.Status != 200 || testenv.Str(r.JSON, "message") != "Empresa eliminada correctamente." {
			t.Fatalf("delete: %d %s", r.Status, r.Raw)
		}
		if r := s.Get(otraPath, s.admin1); r.Status != 404 {
			t.Errorf("show after delete: %d %s", r.Status, r.Raw)
		}
		if r := s.Get("/api/empresas", s.admin1); slices.Contains(testenv.IDs(r), otra) || testenv.Num(r.JSON, "total") != 2 {
			t.Errorf("list after delete (companies 1 and 2 remain): %s", r.Raw)
		}
		if tag := s.Exec(`update empresas set nombre = nombre where id = $1 and eliminado and not activo`, otra); tag.RowsAffected() != 1 {
			t.Errorf("company row was not soft-deleted (activo false, eliminado true)")
		}
		if r := s.req(http.MethodGet, "/api/me", s.admin1, nil, acting...); r.Status == 200 {
			t.Errorf("acting in a deleted company: %d %s", r.Status, r.Raw)
		}
		// A deleted company keeps its nit_ruc (the row is never removed, and
		// the unique index covers it), so it cannot be reused: 422, not 500.
		r = s.req(http.MethodPost, "/api/empresas", s.admin1, empresaBody(reg, "3101777001"))
		expect422(t, r, "nit_ruc", "Ya existe una empresa con ese NIT/RUC.")
	})
}

// A user who belongs to two companies lists both with their counts and sees
// the detail of each, while acting in one.
func TestEmpresaMemberOfTwoCompanies(t *testing.T) {
	s := newStack(t)
	// admin@demo.cr joins Demo Dos as Administrador.
	s.Exec(`insert into membresias (empresa_id, usuario_id) select 2, id from usuarios where email = $1`, testenv.Admin1)
	s.Exec(`insert into usuario_roles (empresa_id, usuario_id, rol_id)
		select 2, u.id, r.id from usuarios u, roles r where u.email = $1 and r.empresa_id = 2 and r.slug = 'administrador'`, testenv.Admin1)
	s.producto(2)
	s.producto(2)
	s.Exec(`insert into sucursales (empresa_id, nombre) values (2, 'Sucursal Norte'), (2, 'Sucursal Borrada')`)
	s.Exec(`update sucursales set eliminado = true, activo = false where nombre = 'Sucursal Borrada'`)

	r := s.Get("/api/empresas?sort=id", s.admin1)
	if r.Status != 200 || testenv.Num(r.JSON, "total") != 2 {
		t.Fatalf("list of a member of two companies: %d %s", r.Status, r.Raw)
	}
	for path, want := range map[string]float64{
		"data.0.id": 1, "data.0.sucursales_count": 1, "data.0.usuarios_count": 1, "data.0.productos_count": 0,
		"data.1.id": 2, "data.1.sucursales_count": 2, "data.1.usuarios_count": 2, "data.1.productos_count": 2,
		"data.1.regimen_tributario.id": testenv.Num(r.JSON, "data.1.regimen_tributario_id"),
	} {
		if got := testenv.Num(r.JSON, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	// The detail of company 2, shown while acting in company 1, carries
	// company 2's branches, members and settings.
	r = s.Get("/api/empresas/2", s.admin1)
	if r.Status != 200 || testenv.Len(r.JSON, "data.sucursales") != 2 || testenv.Len(r.JSON, "data.usuarios") != 2 ||
		testenv.Len(r.JSON, "data.configuraciones") != 3 || testenv.Num(r.JSON, "data.sucursales.0.empresa_id") != 2 {
		t.Errorf("detail of the other company: %d %s", r.Status, r.Raw)
	}
	if strings.Contains(string(r.Raw), "Sucursal Borrada") || strings.Contains(string(r.Raw), "password") {
		t.Errorf("detail shows a deleted branch or a password: %s", r.Raw)
	}
	// Company 2's own administrator still sees only its company.
	if r := s.Get("/api/empresas", s.admin2); testenv.Num(r.JSON, "total") != 1 || !slices.Contains(testenv.IDs(r), 2) {
		t.Errorf("admin2 list: %s", r.Raw)
	}
	// As its Administrador, it changes company 2 with or without naming it
	// in X-Empresa-Id: the permission is checked in company 2.
	if r := s.req(http.MethodPatch, "/api/empresas/2", s.admin1, map[string]any{"ciudad": "Cartago"}); r.Status != 200 ||
		testenv.Str(r.JSON, "data.ciudad") != "Cartago" {
		t.Errorf("patch without X-Empresa-Id: %d %s", r.Status, r.Raw)
	}
	if r := s.req(http.MethodPatch, "/api/empresas/2", s.admin1, map[string]any{"ciudad": "Heredia"}, "X-Empresa-Id", "2"); r.Status != 200 ||
		testenv.Str(r.JSON, "data.ciudad") != "Heredia" {
		t.Errorf("patch with X-Empresa-Id: %d %s", r.Status, r.Raw)
	}
	if r := s.Get("/api/empresas/1", s.admin1); testenv.Str(r.JSON, "data.ciudad") == "Heredia" {
		t.Errorf("the change reached the active company: %s", r.Raw)
	}
}

func TestEmpresaListSearchFiltersSortAndPages(t *testing.T) {
	s := newStack(t)
	reg := s.regimen(t)
	mk := func(nombre, razon, nit, email string) int {
		b := empresaBody(reg, nit)
		b["nombre"], b["razon_social"], b["email"] = nombre, razon, email
		return s.create(t, "/api/empresas", s.admin1, b)
	}
	jose := mk("Panadería José", "Panificadora Central Limitada", "3102555001", "pan@jose.cr")
	mk("Zapatería Ñandú", "Calzado Fino S.R.L.", "3102555002", "contacto@calzado.cr")
	inactiva := mk("Visión Óptica", "Visión Clara Sociedad Anónima", "3102555003", "info@optica.cr")
	if r := s.req(http.MethodPatch, fmt.Sprintf("/api/empresas/%d", inactiva), s.admin1, map[string]any{"activo": false},
		"X-Empresa-Id", fmt.Sprint(inactiva)); r.Status != 200 || testenv.Get(r.JSON, "data.activo") != false {
		t.Fatalf("deactivate: %d %s", r.Status, r.Raw)
	}

	cases := []listCase{ // first: checked when set
		{"default lists every membership", "", 4, "Demo S.A."},
		{"search is accent-insensitive", "search=jose", 1, "Panadería José"},
		{"search is case-insensitive", "search=" + url.QueryEscape("JOSÉ"), 1, "Panadería José"},
		{"search by razon_social", "search=panificadora", 1, "Panadería José"},
		{"search by nit_ruc", "search=3102555002", 1, "Zapatería Ñandú"},
		{"search by email", "search=" + url.QueryEscape("info@optica"), 1, "Visión Óptica"},
		{"search with ñ", "search=nandu", 1, "Zapatería Ñandú"},
		{"search matches a common part", "search=sociedad", 2, "Demo S.A."},
		{"search of LIKE wildcards is literal", "search=%25", 0, ""},
		{"search of another company's name finds nothing", "search=" + url.QueryEscape("Demo Dos"), 0, ""},
		{"activos=1", "activos=1", 3, ""},
		{"activos=0", "activos=0", 1, "Visión Óptica"},
		{"activos=false with search", "activos=false&search=vision", 1, "Visión Óptica"},
		{"sort by nombre desc", "sort=nombre&order=desc", 4, "Zapatería Ñandú"},
		{"sort by nit_ruc asc", "sort=nit_ruc", 4, "Demo S.A."},
		{"sort by razon_social", "sort=razon_social&order=asc", 4, "Calzado Fino S.R.L."},
		{"page 2 of size 3", "per_page=3&page=2&sort=id", 4, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := s.Get("/api/empresas?"+c.query, s.admin1)
			if r.Status != 200 || int(testenv.Num(r.JSON, "total")) != c.total {
				t.Fatalf("%s: %d %s", c.query, r.Status, r.Raw)
			}
			if c.first != "" {
				first := testenv.Str(r.JSON, "data.0.nombre")
				if c.name == "sort by razon_social" {
					first = testenv.Str(r.JSON, "data.0.razon_social")
				}
				if first != c.first {
					t.Errorf("first row %q, want %q", first, c.first)
				}
			}
		})
	}
	t.Run("page shape", func(t *testing.T) {
		t.Parallel()
		r := s.Get("/api/empresas?per_page=3&page=2&sort=id", s.admin1)
		if testenv.Len(r.JSON, "data") != 1 || testenv.Num(r.JSON, "current_page") != 2 || testenv.Num(r.JSON, "per_page") != 3 ||
			testenv.Num(r.JSON, "last_page") != 2 || testenv.Num(r.JSON, "from") != 4 || testenv.Num(r.JSON, "to") != 4 {
			t.Errorf("page 2: %s", r.Raw)
		}
		if r := s.Get("/api/empresas", s.admin1); testenv.Num(r.JSON, "per_page") != 15 || testenv.Num(r.JSON, "current_page") != 1 {
			t.Errorf("default page: %s", r.Raw)
		}
		if r := s.Get("/api/empresas?per_page=2&page=9", s.admin1); r.Status != 200 || testenv.Len(r.JSON, "data") != 0 || testenv.Num(r.JSON, "total") != 4 {
			t.Errorf("page past the end: %s", r.Raw)
		}
		if r := s.Get("/api/empresas?search=jose", s.admin1); testenv.IDs(r)[0] != jose || testenv.Num(r.JSON, "data.0.usuarios_count") != 1 {
			t.Errorf("search row: %s", r.Raw)
		}
	})
	s.checkRefused(t, "/api/empresas", "per_page=0", "per_page=101", "per_page=x", "page=0", "page=-1", "sort=email", "sort=busqueda",
		"sort=nombre%20desc", "order=up", "activos=quizas")
}
