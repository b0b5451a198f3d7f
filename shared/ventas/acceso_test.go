package ventas_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestAnotherCompanyCannotSeeOrChangeSalesOrReceivables(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "5", "100", "", "")
	cliente := f.Cliente(1, "101110111", 30)
	r := f.venderOK(testenv.With(venta(linea(a, 1, 100)), "cliente_id", cliente, "almacen_id", f.Almacen))
	venta1 := id(r)
	cxc1 := cuentaDe(r)
	admin2 := f.E.Admin(2)
	// Lists: company 2 sees none of company 1's rows, even asking with empresa_id=1.
	for _, q := range []string{"/api/ventas", "/api/ventas?empresa_id=1", "/api/cuentas-por-cobrar", "/api/cuentas-por-cobrar?cliente_id=" + itoa(cliente)} {
		if l := f.E.Get(q, admin2); l.Status != http.StatusOK || testenv.Num(l.JSON, "total") != 0 {
			t.Errorf("company 2 %s: %d %s", q, l.Status, l.Raw)
		}
	}
	// Item operations: 404.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, path("ventas", venta1), nil},
		{http.MethodPut, path("ventas", venta1), map[string]any{"estado": "anulada"}},
		{http.MethodPatch, path("ventas", venta1), map[string]any{"observaciones": "x"}},
		{http.MethodDelete, path("ventas", venta1), nil},
		{http.MethodGet, path("cuentas-por-cobrar", cxc1), nil},
		{http.MethodPost, path("cuentas-por-cobrar", cxc1, "/pagos"), map[string]any{"monto": 1}},
	} {
		if s := f.E.Call(admin2, c.method, c.path, c.body); s.Status != http.StatusNotFound {
			t.Errorf("company 2 %s %s: %d %s", c.method, c.path, s.Status, s.Raw)
		}
	}
	// Company 1's data is untouched.
	s := f.E.Get(path("ventas", venta1), f.Admin)
	if testenv.Str(s.JSON, "data.estado") != "pendiente" || testenv.Get(s.JSON, "data.observaciones") != nil ||
		f.Existencias(f.Almacen, a) != "4.000" || f.Int(`select count(*) from pagos`) != 0 {
		t.Errorf("company 1's sale changed: %s", s.Raw)
	}
	// Company 2 cannot sell company 1's products, customers, branches or warehouses.
	p2 := f.Producto(testenv.Prod{Empresa: 2, Codigo: "B"})
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{venta(linea(a, 1, 1)), "detalles.0.producto_id"},
		{testenv.With(venta(linea(p2, 1, 1)), "cliente_id", cliente), "cliente_id"},
		{testenv.With(venta(linea(p2, 1, 1)), "sucursal_id", f.Sucursal), "sucursal_id"},
		{testenv.With(venta(linea(p2, 1, 1)), "almacen_id", f.Almacen), "almacen_id"},
	} {
		testenv.Expect422(t, f.E.Call(admin2, http.MethodPost, "/api/ventas", c.body), c.field)
	}
}

func TestPermissionsOfTheVentasModule(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	cliente := f.Cliente(1, "101110111", 30)
	r := f.venderOK(testenv.With(venta(linea(p, 1, 100)), "cliente_id", cliente))
	v := id(r)
	cxc := cuentaDe(r)
	ops := []struct {
		name, method, path string
		body               any
		perm               string
	}{
		{"index", http.MethodGet, "/api/ventas", nil, "ventas.leer"},
		{"show", http.MethodGet, path("ventas", v), nil, "ventas.leer"},
		{"store", http.MethodPost, "/api/ventas", venta(linea(p, 1, 1)), "ventas.crear"},
		{"update", http.MethodPut, path("ventas", v), map[string]any{"observaciones": "x"}, "ventas.actualizar"},
		{"patch", http.MethodPatch, path("ventas", v), map[string]any{"observaciones": "y"}, "ventas.actualizar"},
		{"cxc index", http.MethodGet, "/api/cuentas-por-cobrar", nil, "ventas.leer"},
		{"cxc show", http.MethodGet, path("cuentas-por-cobrar", cxc), nil, "ventas.leer"},
		{"pagos", http.MethodPost, path("cuentas-por-cobrar", cxc, "/pagos"), map[string]any{"monto": 1}, "ventas.actualizar"},
		{"destroy", http.MethodDelete, path("ventas", v), nil, "ventas.eliminar"},
	}
	// Without the module: 403 everywhere, nothing changes.
	none := f.E.UserWith(f.T, f.Admin, "sinventas", "clientes.leer", "productos.leer")
	for _, op := range ops {
		if r := f.E.Call(none, op.method, op.path, op.body); r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("%s without ventas: %d %s", op.name, r.Status, r.Raw)
		}
	}
	// Read-only: reads pass, writes are 403.
	reader := f.E.UserWith(f.T, f.Admin, "lector", "ventas.leer")
	for _, op := range ops {
		r := f.E.Call(reader, op.method, op.path, op.body)
		if op.perm == "ventas.leer" && r.Status != http.StatusOK {
			t.Errorf("%s as reader: %d %s", op.name, r.Status, r.Raw)
		}
		if op.perm != "ventas.leer" && r.Status != http.StatusForbidden {
			t.Errorf("%s as reader: %d %s", op.name, r.Status, r.Raw)
		}
	}
	// Each write permission opens exactly its operation.
	for i, op := range ops {
		if op.perm == "ventas.leer" {
			continue
		}
		tok := f.E.UserWith(f.T, f.Admin, "escritor"+itoa(int64(i)), op.perm)
		if r := f.E.Call(tok, op.method, op.path, op.body); r.Status >= 300 {
			t.Errorf("%s with %s: %d %s", op.name, op.perm, r.Status, r.Raw)
		}
	}
	// No token: 401.
	if r := f.E.Get("/api/ventas", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.Status)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
