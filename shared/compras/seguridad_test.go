package compras_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestAnotherCompanyCannotReachOrdersOrPayables(t *testing.T) {
	e := testenv.NewParallel(t)
	f1, f2 := setup(t, e, 1), setup(t, e, 2)
	orders := map[string]int64{}
	for _, estado := range []string{"borrador", "pendiente", "aprobada", "recibida"} {
		orders[estado] = f1.create(f1.orden())
		f1.to(orders[estado], estado)
	}
	cuenta := int64(testenv.Num(f1.do(http.MethodGet, ordenPath(orders["recibida"]), nil).JSON, "data.cuenta_por_pagar.id"))
	theirs := f2.create(f2.orden())

	// Lists: company 2 sees only its own, whatever the filters say.
	for _, q := range []string{"", "?empresa_id=1", "?search=OC-000001", "?proveedor_id=" + itoa(f1.proveedor), "?per_page=100"} {
		r := f2.do(http.MethodGet, "/api/ordenes-compra"+q, nil)
		if got := testenv.IDs64(r); r.Status != http.StatusOK || slices.Contains(got, orders["borrador"]) || slices.Contains(got, orders["recibida"]) {
			t.Errorf("company 2 lists company 1's orders with %q: %s", q, r.Raw)
		}
		r = f2.do(http.MethodGet, "/api/cuentas-por-pagar"+q, nil)
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("company 2 lists company 1's payables with %q: %s", q, r.Raw)
		}
	}
	if got := testenv.IDs64(f2.do(http.MethodGet, "/api/ordenes-compra", nil)); len(got) != 1 || got[0] != theirs {
		t.Errorf("company 2's own list: %v", got)
	}
	// Every operation on company 1's records is a 404 for company 2, even with a valid body.
	for estado, id := range orders {
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, ordenPath(id), nil},
			{http.MethodPut, ordenPath(id), map[string]any{"observaciones": "hackeada"}},
			{http.MethodPatch, ordenPath(id), map[string]any{"estado": "pendiente"}},
			{http.MethodDelete, ordenPath(id), nil},
			{http.MethodPost, ordenPath(id, "aprobar"), nil},
			{http.MethodPost, ordenPath(id, "recibir"), map[string]any{"almacen_id": f2.almacen}},
			{http.MethodPost, ordenPath(id, "cancelar"), nil},
		} {
			if r := f2.do(c.method, c.path, c.body); r.Status != http.StatusNotFound {
				t.Errorf("%s %s (%s) by company 2: %d %s", c.method, c.path, estado, r.Status, r.Raw)
			}
		}
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, cuentaPath(cuenta), nil},
		{http.MethodPost, cuentaPath(cuenta, "pagos"), map[string]any{"monto": 1, "fecha": "2026-04-01", "forma_pago_id": 1}},
	} {
		if r := f2.do(c.method, c.path, c.body); r.Status != http.StatusNotFound {
			t.Errorf("%s %s by company 2: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	// Nothing changed for company 1.
	for estado, id := range orders {
		r := f1.do(http.MethodGet, ordenPath(id), nil)
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != estado || testenv.Get(r.JSON, "data.observaciones") != nil {
			t.Errorf("company 1's %s order after company 2's attempts: %d %s", estado, r.Status, r.Raw)
		}
	}
	if r := f1.do(http.MethodGet, cuentaPath(cuenta), nil); testenv.Len(r.JSON, "data.pagos") != 0 {
		t.Errorf("company 2 paid company 1's payable: %s", r.Raw)
	}
	// Company 1's references are not company 2's.
	testenv.Expect422(t, f2.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f2.orden(), "proveedor_id", f1.proveedor)), "proveedor_id")
	testenv.Expect422(t, f2.do(http.MethodPost, "/api/ordenes-compra", f2.orden(linea(f1.productos[0], 1, 1))), "detalles.0.producto_id")
	testenv.Expect422(t, f2.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f2.orden(), "almacen_id", f1.almacen)), "almacen_id")
	f2.to(theirs, "aprobada")
	testenv.Expect422(t, f2.do(http.MethodPost, ordenPath(theirs, "recibir"), map[string]any{"almacen_id": f1.almacen}), "almacen_id")
	// Naming company 1 in the header does not help company 2's administrator.
	r := e.Do(testenv.Req{Method: http.MethodGet, Path: ordenPath(orders["borrador"]), Token: f2.tok, Headers: map[string]string{"X-Empresa-Id": "1"}})
	if r.Status != http.StatusForbidden {
		t.Errorf("X-Empresa-Id of a foreign company: %d %s", r.Status, r.Raw)
	}
	// And company 1 cannot reach company 2's order either.
	if r := f1.do(http.MethodGet, ordenPath(theirs), nil); r.Status != http.StatusNotFound {
		t.Errorf("company 1 showing company 2's order: %d", r.Status)
	}
}

func TestPermissionsOfTheComprasModule(t *testing.T) {
	e, f := nuevo(t)
	tokens := map[string]string{
		"ninguno":    e.UserWith(t, f.tok, "ninguno", "productos.leer", "inventario.crear", "proveedores.actualizar"),
		"leer":       e.UserWith(t, f.tok, "leer", "compras.leer"),
		"crear":      e.UserWith(t, f.tok, "crear", "compras.crear"),
		"actualizar": e.UserWith(t, f.tok, "actualizar", "compras.actualizar"),
		"eliminar":   e.UserWith(t, f.tok, "eliminar", "compras.eliminar"),
	}
	// The Comprador role holds crear/leer/actualizar of compras.
	if r := e.Call(f.tok, http.MethodPost, "/api/usuarios", map[string]any{"nombre": "Compra", "email": "comprador@demo.cr",
		"password": "Segura123!", "roles": []string{"comprador"}}); r.Status != http.StatusCreated {
		t.Fatalf("comprador: %d %s", r.Status, r.Raw)
	}
	tokens["comprador"] = e.Login("comprador@demo.cr", "Segura123!")

	type op struct {
		name   string
		need   string // the permission action
		status int    // on success
		req    func() (string, string, any)
	}
	fresh := func(estado string) int64 {
		id := f.create(f.orden())
		f.to(id, estado)
		return id
	}
	_, cuenta := f.recibida(f.proveedor, 1000)
	ops := []op{
		{"list", "leer", 200, func() (string, string, any) { return http.MethodGet, "/api/ordenes-compra", nil }},
		{"show", "leer", 200, func() (string, string, any) { return http.MethodGet, ordenPath(fresh("borrador")), nil }},
		{"create", "crear", 201, func() (string, string, any) { return http.MethodPost, "/api/ordenes-compra", f.orden() }},
		{"put", "actualizar", 200, func() (string, string, any) {
			return http.MethodPut, ordenPath(fresh("borrador")), map[string]any{"observaciones": "x"}
		}},
		{"patch", "actualizar", 200, func() (string, string, any) {
			return http.MethodPatch, ordenPath(fresh("borrador")), map[string]any{"estado": "pendiente"}
		}},
		{"delete", "eliminar", 200, func() (string, string, any) { return http.MethodDelete, ordenPath(fresh("borrador")), nil }},
		{"aprobar", "actualizar", 200, func() (string, string, any) { return http.MethodPost, ordenPath(fresh("pendiente"), "aprobar"), nil }},
		{"recibir", "actualizar", 200, func() (string, string, any) {
			return http.MethodPost, ordenPath(fresh("aprobada"), "recibir"), map[string]any{"almacen_id": f.almacen}
		}},
		{"cancelar", "actualizar", 200, func() (string, string, any) { return http.MethodPost, ordenPath(fresh("borrador"), "cancelar"), nil }},
		{"payables list", "leer", 200, func() (string, string, any) { return http.MethodGet, "/api/cuentas-por-pagar", nil }},
		{"payable show", "leer", 200, func() (string, string, any) { return http.MethodGet, cuentaPath(cuenta), nil }},
		{"payment", "actualizar", 201, func() (string, string, any) {
			return http.MethodPost, cuentaPath(cuenta, "pagos"), map[string]any{"monto": 1, "fecha": "2026-04-01", "forma_pago_id": 1}
		}},
	}
	for holder, tok := range tokens {
		for _, o := range ops {
			allowed := holder == o.need || holder == "comprador" && o.need != "eliminar"
			method, path, body := o.req()
			r := e.Call(tok, method, path, body)
			want := http.StatusForbidden
			if allowed {
				want = o.status
			}
			if r.Status != want {
				t.Errorf("%s by %s: %d, want %d: %s", o.name, holder, r.Status, want, r.Raw)
			}
			if want == http.StatusForbidden && testenv.Str(r.JSON, "message") == "" {
				t.Errorf("403 without message: %s", r.Raw)
			}
		}
	}
	// Without a token: 401.
	for _, path := range []string{"/api/ordenes-compra", "/api/cuentas-por-pagar"} {
		if r := e.Do(testenv.Req{Method: http.MethodGet, Path: path}); r.Status != http.StatusUnauthorized {
			t.Errorf("anonymous %s: %d %s", path, r.Status, r.Raw)
		}
	}
}
