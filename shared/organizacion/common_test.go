package organizacion_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// resource describes one of the three resources for the tests that apply to
// all of them.
type resource struct {
	module, path string
	// body is a valid create body for company 1.
	body func(t *testing.T, s *stack) map[string]any
	// change is a valid update body.
	change map[string]any
}

var nits atomic.Int64

var resources = []resource{
	{"empresas", "/api/empresas", func(t *testing.T, s *stack) map[string]any {
		return empresaBody(s.regimen(t), fmt.Sprintf("3101%06d", nits.Add(1)))
	}, map[string]any{"nombre": "Cambiada"}},
	{"sucursales", "/api/sucursales", func(t *testing.T, s *stack) map[string]any {
		return map[string]any{"nombre": "Sucursal " + t.Name()}
	}, map[string]any{"nombre": "Cambiada"}},
	{"almacenes", "/api/almacenes", func(t *testing.T, s *stack) map[string]any {
		return map[string]any{"nombre": "Almacén " + t.Name(), "sucursal_id": s.principalID(t, "/api/sucursales", s.admin1)}
	}, map[string]any{"nombre": "Cambiada"}},
}

// A role without the module gets 403 on every operation; a read-only role
// reads but cannot write.
func TestPermissionsPerModule(t *testing.T) {
	s := newStack(t)
	ninguno := s.UserWith(t, s.admin1, "sinmodulo@demo.cr", "productos.leer", "clientes.leer")
	lector := s.UserWith(t, s.admin1, "lector@demo.cr", "empresas.leer", "sucursales.leer", "almacenes.leer")
	creador := s.UserWith(t, s.admin1, "creador@demo.cr", "sucursales.crear", "almacenes.crear", "almacenes.actualizar", "almacenes.eliminar")
	for _, res := range resources {
		// A record of company 1 to aim at (company 1 itself for empresas).
		id := 1
		if res.module != "empresas" {
			id = s.create(t, res.path, s.admin1, res.body(t, s))
		}
		item := fmt.Sprintf("%s/%d", res.path, id)
		ops := []struct {
			method, path, accion string
			body                 any
		}{
			{"GET", res.path, "leer", nil},
			{"GET", item, "leer", nil},
			{"POST", res.path, "crear", res.body(t, s)},
			{"PUT", item, "actualizar", res.change},
			{"PATCH", item, "actualizar", res.change},
			{"DELETE", item, "eliminar", nil},
		}
		for _, op := range ops {
			t.Run(fmt.Sprintf("%s %s without the module", op.method, op.path), func(t *testing.T) {
				r := s.req(op.method, op.path, ninguno, op.body)
				if r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" {
					t.Errorf("%d %s", r.Status, r.Raw)
				}
			})
			t.Run(fmt.Sprintf("%s %s with %s.leer only", op.method, op.path, res.module), func(t *testing.T) {
				want := http.StatusForbidden
				if op.accion == "leer" {
					want = http.StatusOK
				}
				if r := s.req(op.method, op.path, lector, op.body); r.Status != want {
					t.Errorf("%d, want %d: %s", r.Status, want, r.Raw)
				}
			})
		}
	}
	// Holding only the write permissions does not grant reading.
	t.Run("create without leer", func(t *testing.T) {
		r := s.req(http.MethodPost, "/api/sucursales", creador, map[string]any{"nombre": "Sucursal del Creador"})
		if r.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.Status, r.Raw)
		}
		if r := s.Get("/api/sucursales", creador); r.Status != http.StatusForbidden {
			t.Errorf("list without sucursales.leer: %d", r.Status)
		}
		if r := s.req(http.MethodDelete, fmt.Sprintf("/api/sucursales/%d", int(testenv.Num(r.JSON, "data.id"))), creador, nil); r.Status != http.StatusForbidden {
			t.Errorf("delete without sucursales.eliminar: %d", r.Status)
		}
	})
	// Data was not changed by the refused calls.
	if r := s.Get("/api/empresas/1", s.admin1); testenv.Str(r.JSON, "data.nombre") != "Demo S.A." {
		t.Errorf("company changed by a refused call: %s", r.Raw)
	}
	if r := s.Get("/api/empresas", s.admin1); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company created by a refused call: %s", r.Raw)
	}
}

// Company 2 cannot list, show, update or delete company 1's branches and
// warehouses (404), and naming company 1 does not help (403).
func TestTenantIsolation(t *testing.T) {
	s := newStack(t)
	msgs := map[string]string{"sucursales": "Sucursal no encontrada.", "almacenes": "Almacén no encontrado.", "empresas": "Empresa no encontrada."}
	for _, res := range resources {
		t.Run(res.module, func(t *testing.T) {
			id := 1
			if res.module != "empresas" {
				id = s.create(t, res.path, s.admin1, res.body(t, s))
			}
			item := fmt.Sprintf("%s/%d", res.path, id)
			if r := s.Get(res.path+"?per_page=100", s.admin2); r.Status != 200 || slices.Contains(testenv.IDs(r), id) {
				t.Errorf("company 2 lists company 1's record: %s", r.Raw)
			}
			if r := s.Get(res.path+"?per_page=100&search=Demo", s.admin2); strings.Contains(string(r.Raw), `"empresa_id":1`) || strings.Contains(string(r.Raw), `"nombre":"Demo S.A."`) {
				t.Errorf("company 2 finds company 1's data: %s", r.Raw)
			}
			for _, m := range []string{"GET", "PUT", "PATCH", "DELETE"} {
				r := s.req(m, item, s.admin2, res.change)
				if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") != msgs[res.module] {
					t.Errorf("%s %s by company 2: %d %s", m, item, r.Status, r.Raw)
				}
			}
			if r := s.req(http.MethodGet, item, s.admin2, nil, "X-Empresa-Id", "1"); r.Status != http.StatusForbidden {
				t.Errorf("company 2 naming company 1: %d %s", r.Status, r.Raw)
			}
			r := s.Get(item, s.admin1)
			if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") == "Cambiada" {
				t.Errorf("record changed by company 2: %d %s", r.Status, r.Raw)
			}
		})
	}
	// And the other way round: company 2's seeded rows are invisible to company 1.
	for _, path := range []string{"/api/sucursales", "/api/almacenes"} {
		own := s.principalID(t, path, s.admin2)
		if r := s.Get(fmt.Sprintf("%s/%d", path, own), s.admin1); r.Status != 404 {
			t.Errorf("company 1 shows company 2's %s: %d", path, r.Status)
		}
	}
}

// Every list and show loads relations and counts in a constant number of
// round trips whatever the page size or the number of related rows.
func TestRoundTripsDoNotGrowWithPageSize(t *testing.T) {
	s := newStack(t)
	// 14 more companies of admin1, 14 more branches with a warehouse each,
	// and stock in every warehouse.
	s.Exec(`with e as (
			insert into empresas (nombre, razon_social, nit_ruc, regimen_tributario_id)
			select 'Empresa ' || g, 'Empresa ' || g || ' S.A.', '3101' || lpad(g::text, 6, '0'), (select min(id) from regimenes_tributarios)
			from generate_series(100, 113) g returning id)
		insert into membresias (empresa_id, usuario_id) select e.id, u.id from e, usuarios u where u.email = $1`, testenv.Admin1)
	// A role with empresas.leer there (showing a company needs it in that
	// company), and 16 branches in Empresa 101.
	s.Exec(`with r as (insert into roles (empresa_id, nombre, slug) select id, 'Lector', 'lector' from empresas
			where nombre like 'Empresa 1__' returning empresa_id, id),
		p as (insert into rol_permisos (empresa_id, rol_id, permiso_id) select r.empresa_id, r.id, p.id from r, permisos p
			where p.slug = 'empresas.leer')
		insert into usuario_roles (empresa_id, usuario_id, rol_id) select r.empresa_id, u.id, r.id from r, usuarios u where u.email = $1`, testenv.Admin1)
	s.Exec(`insert into sucursales (empresa_id, nombre) select e.id, 'Sucursal ' || g from empresas e, generate_series(1, 16) g where e.nombre = 'Empresa 101'`)
	s.Exec(`insert into sucursales (empresa_id, nombre) select 1, 'Sucursal ' || g from generate_series(1, 14) g`)
	s.Exec(`insert into almacenes (empresa_id, sucursal_id, nombre) select 1, s.id, 'Almacén de ' || s.nombre from sucursales s where s.empresa_id = 1 and not s.es_principal`)
	s.Exec(`insert into sucursales (empresa_id, nombre) values (1, 'Sucursal Vacía')`)
	s.producto(1)
	s.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
		select 1, a.id, (select min(id) from productos where empresa_id = 1), 2, 3 from almacenes a where a.empresa_id = 1`)

	for _, path := range []string{"/api/empresas", "/api/sucursales", "/api/almacenes"} {
		t.Run(path, func(t *testing.T) {
			if r := s.Get(path+"?per_page=100", s.admin1); testenv.Len(r.JSON, "data") < 15 {
				t.Fatalf("fixture too small: %s", r.Raw)
			}
			small := s.RoundTrips(t, path+"?per_page=10", s.admin1)
			large := s.RoundTrips(t, path+"?per_page=100", s.admin1)
			filtered := s.RoundTrips(t, path+"?per_page=100&search=a&activos=1&sort=nombre&order=desc", s.admin1)
			if small != large || large != filtered {
				t.Errorf("round trips: per_page=10 -> %d, per_page=100 -> %d, filtered -> %d", small, large, filtered)
			}
			t.Logf("%s: %d round trips per list (authorizer included)", path, large)
		})
	}
	t.Run("show", func(t *testing.T) {
		first := func(path string) string {
			r := s.Get(path, s.admin1)
			if testenv.Len(r.JSON, "data") < 1 {
				t.Fatalf("%s: %s", path, r.Raw)
			}
			return fmt.Sprintf("%s/%d", strings.SplitN(path, "?", 2)[0], testenv.IDs(r)[0])
		}
		cases := []struct{ few, many string }{
			// A company without branches vs one with 16 (neither the active
			// one); a branch without warehouses vs one with one; a warehouse
			// with stock vs another.
			{first("/api/empresas?search=empresa%20100"), first("/api/empresas?search=empresa%20101")},
			{first("/api/sucursales?search=vac"), first("/api/sucursales?es_principal=1")},
			{first("/api/almacenes?es_principal=1"), first("/api/almacenes?es_principal=0")},
		}
		for _, c := range cases {
			few, many := s.RoundTrips(t, c.few, s.admin1), s.RoundTrips(t, c.many, s.admin1)
			if few != many {
				t.Errorf("show round trips: %s -> %d, %s -> %d", c.few, few, c.many, many)
			}
			t.Logf("show %s: %d round trips", c.many, many)
		}
	})
}

// Concurrent requests that each mark a new principal all succeed, and the
// company ends with exactly one principal (no 500 from the partial unique
// index when two transactions switch at the same time).
func TestConcurrentPrincipalSwitch(t *testing.T) {
	s := newStack(t)
	suc := s.principalID(t, "/api/sucursales", s.admin1)
	for _, c := range []struct {
		path string
		body func(i int) map[string]any
	}{
		{"/api/sucursales", func(i int) map[string]any {
			return map[string]any{"nombre": fmt.Sprintf("Sucursal %d", i), "es_principal": true}
		}},
		{"/api/almacenes", func(i int) map[string]any {
			return map[string]any{"nombre": fmt.Sprintf("Almacén %d", i), "sucursal_id": suc, "es_principal": true}
		}},
	} {
		t.Run(c.path, func(t *testing.T) {
			const n = 8
			status := make(chan string, n)
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					r := s.req(http.MethodPost, c.path, s.admin1, c.body(i))
					status <- fmt.Sprintf("%d %s", r.Status, r.Raw)
				}(i)
			}
			wg.Wait()
			close(status)
			for st := range status {
				if !strings.HasPrefix(st, "201 ") {
					t.Errorf("concurrent create: %s", st)
				}
			}
			if r := s.Get(c.path+"?es_principal=1", s.admin1); testenv.Num(r.JSON, "total") != 1 {
				t.Errorf("principals after concurrent switches: %s", r.Raw)
			}
		})
	}
}

// Input PostgreSQL cannot store or compare is refused or matches nothing,
// never a 500; malformed ids are 404; unknown and read-only keys are ignored.
func TestHostileInput(t *testing.T) {
	s := newStack(t)
	for _, res := range resources {
		res := res
		t.Run(res.module, func(t *testing.T) {
			t.Parallel()
			for _, q := range []string{"search=%00", "search=%ff", "search=a%00b", "search=%25%5F%5C"} {
				if r := s.Get(res.path+"?"+q, s.admin1); r.Status != 200 || testenv.Num(r.JSON, "total") != 0 {
					t.Errorf("%s: %d %s", q, r.Status, r.Raw)
				}
			}
			for _, id := range []string{"abc", "0", "-1", "1.5", "99999999999999999999", "999999"} {
				if r := s.Get(res.path+"/"+id, s.admin1); r.Status != 404 || testenv.Str(r.JSON, "message") == "" {
					t.Errorf("show %s: %d %s", id, r.Status, r.Raw)
				}
			}
			body := res.body(t, s)
			body["nombre"] = "Con\u0000nulo"
			expect422(t, s.req(http.MethodPost, res.path, s.admin1, body), "nombre", "El campo nombre contiene caracteres no válidos.")
			if r := s.req(http.MethodPost, res.path, s.admin1, `{"nombre": "x"`); r.Status != 400 || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("malformed JSON: %d %s", r.Status, r.Raw)
			}
		})
	}
	t.Run("read-only keys are ignored", func(t *testing.T) {
		t.Parallel()
		id := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Protegida"})
		path := fmt.Sprintf("/api/sucursales/%d", id)
		r := s.req(http.MethodPatch, path, s.admin1, map[string]any{"id": 777, "eliminado": true, "empresa_id": 2,
			"creado_en": "2000-01-01T00:00:00Z", "almacenes_count": 99, "desconocido": "x"})
		if r.Status != 200 || testenv.Num(r.JSON, "data.id") != float64(id) || testenv.Get(r.JSON, "data.eliminado") != false ||
			testenv.Num(r.JSON, "data.empresa_id") != 1 || strings.HasPrefix(testenv.Str(r.JSON, "data.creado_en"), "2000") ||
			testenv.Num(r.JSON, "data.almacenes_count") != 0 || testenv.Get(r.JSON, "data.desconocido") != nil {
			t.Errorf("read-only keys: %d %s", r.Status, r.Raw)
		}
		if r := s.Get(path, s.admin1); r.Status != 200 {
			t.Errorf("eliminado in the body deleted the branch: %d", r.Status)
		}
	})
}

// Concurrent creations of companies with the same nit_ruc or subdominio:
// exactly one wins, the others get the 422 of the field (the unique index
// decides, since the caller cannot see the winner before it commits).
func TestConcurrentEmpresaUniqueness(t *testing.T) {
	s := newStack(t)
	reg := s.regimen(t)
	for _, c := range []struct{ field, value string }{{"nit_ruc", "3101424242"}, {"subdominio", "carrera"}} {
		t.Run(c.field, func(t *testing.T) {
			const n = 6
			results := make(chan testenv.Resp, n)
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					b := empresaBody(reg, fmt.Sprintf("3101%06d", 500000+i+n*len(c.field)))
					b[c.field] = c.value
					results <- s.req(http.MethodPost, "/api/empresas", s.admin1, b)
				}(i)
			}
			wg.Wait()
			close(results)
			created := 0
			for r := range results {
				switch {
				case r.Status == 201:
					created++
				case r.Status != 422 || len(r.FieldErrors(c.field)) != 1:
					t.Errorf("concurrent create: %d %s", r.Status, r.Raw)
				}
			}
			if created != 1 {
				t.Errorf("%d companies created with the same %s", created, c.field)
			}
		})
	}
}
