package organizacion_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestSucursalCRUD(t *testing.T) {
	s := newStack(t)
	r := s.req(http.MethodPost, "/api/sucursales", s.admin1, map[string]any{
		"nombre": "Sucursal Liberia", "codigo": "LIB-01", "telefono": "2666-1234", "email": "Liberia@Demo.CR",
		"direccion": "Frente al parque", "provincia": "Guanacaste", "canton": "Liberia", "distrito": "Liberia",
		"codigo_postal": "50101", "empresa_id": 2, // ignored: the tenant is always used
	})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Sucursal creada correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	path := fmt.Sprintf("/api/sucursales/%d", id)
	for k, want := range map[string]any{
		"empresa_id": float64(1), "nombre": "Sucursal Liberia", "codigo": "LIB-01", "telefono": "26661234",
		"email": "liberia@demo.cr", "canton": "Liberia", "codigo_postal": "50101", "es_principal": false, "activo": true,
		"eliminado": false, "almacenes_count": float64(0), "empresa.id": float64(1), "empresa.nombre": "Demo S.A.",
		"empresa.razon_social": "Demo Sociedad Anónima",
	} {
		if got := testenv.Get(r.JSON, "data."+k); got != want {
			t.Errorf("data.%s = %v, want %v", k, got, want)
		}
	}
	if testenv.Len(r.JSON, "data.almacenes") != 0 || strings.Contains(string(r.Raw), "busqueda") {
		t.Errorf("detail: %s", r.Raw)
	}

	// The seeded principal branch shows its warehouse and count.
	central := s.principalID(t, "/api/sucursales", s.admin1)
	if r := s.Get(fmt.Sprintf("/api/sucursales/%d", central), s.admin1); r.Status != 200 || testenv.Num(r.JSON, "data.almacenes_count") != 1 ||
		testenv.Str(r.JSON, "data.almacenes.0.nombre") != "Almacén Principal" || testenv.Str(r.JSON, "data.nombre") != "Sucursal Central" {
		t.Errorf("show central: %d %s", r.Status, r.Raw)
	}

	steps := []update{
		{"PUT is partial", "PUT", map[string]any{"nombre": "Sucursal Liberia Centro"},
			map[string]any{"nombre": "Sucursal Liberia Centro", "codigo": "LIB-01", "telefono": "26661234", "provincia": "Guanacaste"}},
		{"PATCH is partial", "PATCH", map[string]any{"provincia": "Alajuela"},
			map[string]any{"provincia": "Alajuela", "nombre": "Sucursal Liberia Centro"}},
		{"null clears optional fields", "PATCH", map[string]any{"codigo": nil, "email": nil, "telefono": nil},
			map[string]any{"codigo": nil, "email": nil, "telefono": nil, "direccion": "Frente al parque"}},
		{"blank clears optional text", "PUT", map[string]any{"direccion": ""}, map[string]any{"direccion": nil}},
		{"empresa_id cannot be changed", "PATCH", map[string]any{"empresa_id": 2}, map[string]any{"empresa_id": float64(1)}},
		{"deactivate", "PATCH", map[string]any{"activo": false}, map[string]any{"activo": false}},
	}
	s.applyUpdates(t, path, "Sucursal actualizada correctamente.", steps)
	s.deleteSoftly(t, "sucursales", id, 1, "Sucursal eliminada correctamente.", "Sucursal no encontrada.")
	if r := s.Get("/api/empresas/1", s.admin1); testenv.Num(r.JSON, "data.sucursales_count") != 1 || testenv.Len(r.JSON, "data.sucursales") != 1 {
		t.Errorf("company counts a deleted branch: %s", r.Raw)
	}
}

func TestSucursalValidation(t *testing.T) {
	s := newStack(t)
	central := fmt.Sprintf("/api/sucursales/%d", s.principalID(t, "/api/sucursales", s.admin1))
	with := func(k string, v any) map[string]any {
		b := map[string]any{"nombre": "Sucursal Nueva"}
		b[k] = v
		return b
	}
	cases := []invalid{
		{"nombre is required", "POST", "nombre", "El campo nombre es obligatorio.", map[string]any{"codigo": "X"}},
		{"nombre may not be blank", "POST", "nombre", "El campo nombre es obligatorio.", with("nombre", " ")},
		{"nombre may not be null", "POST", "nombre", "El campo nombre es obligatorio.", with("nombre", nil)},
		{"nombre max 255", "POST", "nombre", "no debe ser mayor que 255 caracteres", with("nombre", strings.Repeat("x", 256))},
		{"nombre must be text", "POST", "nombre", "cadena de texto", with("nombre", true)},
		{"codigo max 50", "POST", "codigo", "50", with("codigo", strings.Repeat("x", 51))},
		{"telefono must be a Costa Rican number", "POST", "telefono", "telefono", with("telefono", "1234-5678")},
		{"email must be valid", "POST", "email", "correo electrónico válida", with("email", "sucursal@")},
		{"direccion max 500", "POST", "direccion", "500", with("direccion", strings.Repeat("x", 501))},
		{"provincia max 100", "POST", "provincia", "100", with("provincia", strings.Repeat("x", 101))},
		{"canton max 100", "POST", "canton", "100", with("canton", strings.Repeat("x", 101))},
		{"distrito max 100", "POST", "distrito", "100", with("distrito", strings.Repeat("x", 101))},
		{"codigo_postal max 20", "POST", "codigo_postal", "20", with("codigo_postal", strings.Repeat("1", 21))},
		{"es_principal must be a boolean", "POST", "es_principal", "debe ser verdadero o falso", with("es_principal", "quizás")},
		{"es_principal may not be null", "POST", "es_principal", "debe ser verdadero o falso", with("es_principal", nil)},
		{"activo must be a boolean", "POST", "activo", "debe ser verdadero o falso", with("activo", 7)},
		{"update: nombre may not be null", "PATCH", "nombre", "El campo nombre es obligatorio.", map[string]any{"nombre": nil}},
		{"update: nombre may not be blank", "PUT", "nombre", "El campo nombre es obligatorio.", map[string]any{"nombre": ""}},
		{"update: only the sent field is validated", "PUT", "email", "correo", map[string]any{"email": "no"}},
		{"update: es_principal may not be null", "PATCH", "es_principal", "verdadero o falso", map[string]any{"es_principal": nil}},
	}
	s.checkInvalid(t, "/api/sucursales", central, cases)
	t.Cleanup(func() {
		r := s.Get("/api/sucursales", s.admin1)
		if testenv.Num(r.JSON, "total") != 1 || testenv.Str(r.JSON, "data.0.nombre") != "Sucursal Central" || testenv.Get(r.JSON, "data.0.es_principal") != true {
			t.Errorf("a refused request changed the branches: %s", r.Raw)
		}
	})
}

func TestSucursalPrincipalIsUniqueAndCannotBeDeleted(t *testing.T) {
	s := newStack(t)
	principalRules(t, s, "/api/sucursales", map[string]any{"nombre": "Sucursal Escazú"},
		"No se puede eliminar la sucursal principal. Marque otra sucursal como principal primero.")
}

// principalRules checks "at most one principal per company" and "the
// principal cannot be deleted" on a branch or warehouse list path; body is a
// valid create body of company 1.
func principalRules(t *testing.T, s *stack, base string, body map[string]any, deleteMsg string) {
	t.Helper()
	item := func(id int) string { return fmt.Sprintf("%s/%d", base, id) }
	principal := func(id int) any { return testenv.Get(s.Get(item(id), s.admin1).JSON, "data.es_principal") }
	old := s.principalID(t, base, s.admin1)
	other2 := s.principalID(t, base, s.admin2)

	// A refused create does not unmark the current principal.
	bad := map[string]any{"es_principal": true, "nombre": ""}
	if r := s.req(http.MethodPost, base, s.admin1, bad); r.Status != 422 || principal(old) != true {
		t.Fatalf("refused create: %d %s; old principal: %v", r.Status, r.Raw, principal(old))
	}

	// Creating a principal unmarks the old one.
	b := map[string]any{"es_principal": true}
	for k, v := range body {
		b[k] = v
	}
	r := s.req(http.MethodPost, base, s.admin1, b)
	if r.Status != 201 || testenv.Get(r.JSON, "data.es_principal") != true {
		t.Fatalf("create principal: %d %s", r.Status, r.Raw)
	}
	nuevo := int(testenv.Num(r.JSON, "data.id"))
	if got := principal(old); got != false {
		t.Errorf("old principal still es_principal=%v", got)
	}
	if got := s.principalID(t, base, s.admin1); got != nuevo {
		t.Errorf("principal is %d, want %d", got, nuevo)
	}
	if got := s.principalID(t, base, s.admin2); got != other2 {
		t.Errorf("company 2's principal changed: %d, want %d", got, other2)
	}

	// The principal cannot be deleted.
	r = s.req(http.MethodDelete, item(nuevo), s.admin1, nil)
	expect422(t, r, "es_principal", deleteMsg)
	if testenv.Str(r.JSON, "message") != deleteMsg {
		t.Errorf("message: %s", r.Raw)
	}
	if got := principal(nuevo); got != true {
		t.Errorf("refused delete changed the principal: %v", got)
	}

	// Marking the old one again switches back, via PUT and PATCH alike.
	for _, m := range []string{"PATCH", "PUT"} {
		r := s.req(m, item(old), s.admin1, map[string]any{"es_principal": true})
		if r.Status != 200 || testenv.Get(r.JSON, "data.es_principal") != true {
			t.Fatalf("%s es_principal: %d %s", m, r.Status, r.Raw)
		}
		if got := principal(nuevo); got != false {
			t.Errorf("after %s the other one is still principal: %v", m, got)
		}
		if r := s.Get(base+"?es_principal=true", s.admin1); testenv.Num(r.JSON, "total") != 1 {
			t.Errorf("principals after %s: %s", m, r.Raw)
		}
	}
	// Updating the principal with es_principal false stays allowed, and
	// other fields leave the flag alone.
	if r := s.req(http.MethodPatch, item(nuevo), s.admin1, map[string]any{"nombre": "Renombrada"}); r.Status != 200 || principal(old) != true {
		t.Errorf("unrelated update: %d %s", r.Status, r.Raw)
	}
	// The former principal can now be deleted.
	if r := s.req(http.MethodDelete, item(nuevo), s.admin1, nil); r.Status != 200 {
		t.Errorf("delete a non-principal: %d %s", r.Status, r.Raw)
	}
	// A deleted row does not count as principal: a new principal can be created.
	if r := s.req(http.MethodPost, base, s.admin1, b); r.Status != 201 || principal(old) != false {
		t.Errorf("new principal after delete: %d %s", r.Status, r.Raw)
	}
}

func TestSucursalListFiltersSearchSortAndPages(t *testing.T) {
	s := newStack(t)
	jose := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal San José", "codigo": "SJ-02", "email": "sanjose@demo.cr"})
	s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Alajuela", "codigo": "AL-01", "activo": false})
	s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Tienda Ñ", "codigo": "ZZ-09", "email": "tienda@bodegas.cr"})
	s.create(t, "/api/sucursales", s.admin2, map[string]any{"nombre": "Sucursal José de Demo Dos", "codigo": "SJ-02"})
	cases := []listCase{
		{"default", "", 4, "Sucursal Central"},
		{"search is accent-insensitive", "search=jose", 1, "Sucursal San José"},
		{"search is case-insensitive", "search=" + url.QueryEscape("SAN JOSÉ"), 1, "Sucursal San José"},
		{"search by codigo", "search=al-01", 1, "Sucursal Alajuela"},
		{"search by email", "search=bodegas", 1, "Tienda Ñ"},
		{"search by ñ without accent", "search=tienda%20n", 1, "Tienda Ñ"},
		{"activos=1", "activos=1", 3, "Sucursal Central"},
		{"activos=0", "activos=0", 1, "Sucursal Alajuela"},
		{"es_principal=1", "es_principal=1", 1, "Sucursal Central"},
		{"es_principal=0", "es_principal=0", 3, "Sucursal San José"},
		{"es_principal and activos", "es_principal=false&activos=true", 2, "Sucursal San José"},
		{"empresa_id of the tenant", "empresa_id=1", 4, "Sucursal Central"},
		{"empresa_id of another company", "empresa_id=2", 0, ""},
		{"sort by nombre desc", "sort=nombre&order=desc", 4, "Tienda Ñ"},
		{"sort by codigo", "sort=codigo&order=asc", 4, "Sucursal Alajuela"},
		{"sort by id desc", "sort=id&order=desc", 4, "Tienda Ñ"},
		{"page 2", "per_page=3&page=2", 4, "Tienda Ñ"},
	}
	s.checkList(t, "/api/sucursales", cases)
	s.checkFirstRow(t, "rows carry the nested company and the count", "/api/sucursales?search=jose", map[string]any{
		"id": float64(jose), "empresa.nombre": "Demo S.A.", "almacenes_count": 0.0, "almacenes": nil})
	s.checkRefused(t, "/api/sucursales", "es_principal=quizas", "activos=x", "empresa_id=uno", "sort=telefono", "order=arriba", "per_page=0", "per_page=101", "page=0")
}

func TestSucursalAlmacenesCount(t *testing.T) {
	s := newStack(t)
	suc := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Con Bodegas"})
	var alms []int
	for i := 0; i < 3; i++ {
		alms = append(alms, s.create(t, "/api/almacenes", s.admin1, map[string]any{"sucursal_id": suc, "nombre": fmt.Sprintf("Bodega %d", i)}))
	}
	if r := s.req(http.MethodDelete, fmt.Sprintf("/api/almacenes/%d", alms[0]), s.admin1, nil); r.Status != 200 {
		t.Fatalf("delete warehouse: %d %s", r.Status, r.Raw)
	}
	r := s.Get(fmt.Sprintf("/api/sucursales/%d", suc), s.admin1)
	if testenv.Num(r.JSON, "data.almacenes_count") != 2 || testenv.Len(r.JSON, "data.almacenes") != 2 ||
		testenv.Num(r.JSON, "data.almacenes.0.id") != float64(alms[1]) {
		t.Errorf("show: %s", r.Raw)
	}
	r = s.Get("/api/sucursales?sort=id", s.admin1)
	if testenv.Num(r.JSON, "data.0.almacenes_count") != 1 || testenv.Num(r.JSON, "data.1.almacenes_count") != 2 {
		t.Errorf("list counts: %s", r.Raw)
	}
	if r := s.Get("/api/empresas", s.admin1); testenv.Num(r.JSON, "data.0.sucursales_count") != 2 {
		t.Errorf("company sucursales_count: %s", r.Raw)
	}
}
