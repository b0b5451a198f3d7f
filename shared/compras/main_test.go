package compras_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Top-level tests run in parallel, each on its own environment (its own
// database); the subtests of one environment run one after another.

// fixture is a company's purchasing set-up: a supplier, products (the first
// half taxed with IVA 13% through their tax type, the rest without a tax
// type), the principal warehouse and the administrator's token.
type fixture struct {
	e         *testenv.Env
	empresa   int
	tok       string
	proveedor int64
	productos []int64
	almacen   int64
}

// query runs SQL as the owner and returns the first column of every row.
func query(t testing.TB, e *testenv.Env, sql string, args ...any) []int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, sql, args...)
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	return out
}

// text runs SQL as the owner and returns the first column of the first row as text.
func text(t testing.TB, e *testenv.Env, sql string, args ...any) string {
	t.Helper()
	return testenv.Scalar[string](t, e, sql, args...)
}

// newProveedor inserts a supplier of the company with dias_credito.
func newProveedor(t testing.TB, e *testenv.Env, empresa, dias int) int64 {
	t.Helper()
	n := len(query(t, e, `select id from proveedores`)) + 1
	return query(t, e, `insert into proveedores (empresa_id, nombre, nit_ruc, dias_credito) values ($1, $2, $3, $4) returning id`,
		empresa, fmt.Sprintf("Proveedor %d", n), fmt.Sprintf("NIT-%d", n), dias)[0]
}

// newProductos inserts n products of the company; the first `gravados` carry
// the IVA 13% tax type.
func newProductos(t testing.TB, e *testenv.Env, empresa, n, gravados int) []int64 {
	t.Helper()
	return query(t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo, precio_compra, precio_venta)
		select $1::bigint, c.id, u.id, case when g <= $3 then ti.id end, 'Producto ' || g, 'E' || $1::bigint || '-' || g || '-' || $4::int, 'producto', 100, 150
		from generate_series(1, $2) g, categorias_producto c, unidades_medida u, tipos_impuesto ti
		where c.empresa_id = $1 and u.codigo = 'Unid' and ti.codigo = '01' and ti.codigo_tarifa_iva = '08'
		order by g returning id`, empresa, n, gravados, len(query(t, e, `select id from productos`)))
}

func setup(t testing.TB, e *testenv.Env, empresa int) *fixture {
	t.Helper()
	f := &fixture{e: e, empresa: empresa, tok: e.Admin(empresa)}
	f.proveedor = newProveedor(t, e, empresa, 30)
	f.productos = newProductos(t, e, empresa, 4, 2)
	f.almacen = query(t, e, `select id from almacenes where empresa_id = $1 and es_principal`, empresa)[0]
	return f
}

func call(e *testenv.Env, tok, method, path string, body any) testenv.Resp {
	e.T.Helper()
	return e.Do(testenv.Req{Method: method, Path: path, Token: tok, Body: body})
}

func (f *fixture) do(method, path string, body any) testenv.Resp {
	f.e.T.Helper()
	return call(f.e, f.tok, method, path, body)
}

// linea is a line body.
func linea(producto int64, cantidad, precio any, kv ...any) map[string]any {
	l := map[string]any{"producto_id": producto, "cantidad": cantidad, "precio_unitario": precio}
	for i := 0; i+1 < len(kv); i += 2 {
		l[kv[i].(string)] = kv[i+1]
	}
	return l
}

// orden is a valid create body in borrador (estado is required) with the
// given lines (one line of the third product when none).
func (f *fixture) orden(lineas ...map[string]any) map[string]any {
	if len(lineas) == 0 {
		lineas = []map[string]any{linea(f.productos[2], 2, 100)}
	}
	return map[string]any{"proveedor_id": f.proveedor, "fecha_orden": "2026-03-10", "estado": "borrador", "detalles": lineas}
}

// with copies body and sets (or, with nil, removes) key/value pairs.
func with(body map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

// create POSTs an order and returns its id, failing otherwise.
func (f *fixture) create(body map[string]any) int64 {
	f.e.T.Helper()
	r := f.do(http.MethodPost, "/api/ordenes-compra", body)
	if r.Status != http.StatusCreated {
		f.e.T.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	return int64(testenv.Num(r.JSON, "data.id"))
}

func ordenPath(id int64, action ...string) string {
	p := fmt.Sprintf("/api/ordenes-compra/%d", id)
	if len(action) > 0 {
		p += "/" + action[0]
	}
	return p
}

func cuentaPath(id int64, action ...string) string {
	p := fmt.Sprintf("/api/cuentas-por-pagar/%d", id)
	if len(action) > 0 {
		p += "/" + action[0]
	}
	return p
}

// to moves an order to a state through the API (borrador -> ... ).
func (f *fixture) to(id int64, estado string) {
	f.e.T.Helper()
	steps := map[string][]func() testenv.Resp{
		"borrador": nil,
		"pendiente": {func() testenv.Resp {
			return f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": "pendiente"})
		}},
		"aprobada": {
			func() testenv.Resp {
				return f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": "pendiente"})
			},
			func() testenv.Resp { return f.do(http.MethodPost, ordenPath(id, "aprobar"), nil) },
		},
		"recibida": {
			func() testenv.Resp {
				return f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": "pendiente"})
			},
			func() testenv.Resp { return f.do(http.MethodPost, ordenPath(id, "aprobar"), nil) },
			func() testenv.Resp {
				return f.do(http.MethodPost, ordenPath(id, "recibir"), map[string]any{"almacen_id": f.almacen})
			},
		},
		"cancelada": {func() testenv.Resp { return f.do(http.MethodPost, ordenPath(id, "cancelar"), nil) }},
	}
	for _, step := range steps[estado] {
		if r := step(); r.Status != http.StatusOK {
			f.e.T.Fatalf("to %s: %d %s", estado, r.Status, r.Raw)
		}
	}
}

// expect422 asserts a validation failure that names field.
func expect422(t *testing.T, r testenv.Resp, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422 on %s: %s", r.Status, field, r.Raw)
	}
	if len(r.FieldErrors(field)) == 0 {
		t.Fatalf("no errors[%q]: %s", field, r.Raw)
	}
	if testenv.Str(r.JSON, "message") == "" {
		t.Errorf("422 without message: %s", r.Raw)
	}
}

// ids returns the ids of a list response's data, in order.
func ids(r testenv.Resp) []int64 {
	n := testenv.Len(r.JSON, "data")
	out := make([]int64, 0, max(n, 0))
	for i := 0; i < n; i++ {
		out = append(out, int64(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))))
	}
	return out
}

func has(list []int64, id int64) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}

// userWith creates, in company 1, a role holding exactly perms and a user
// with it, and returns the user's token.
func userWith(t *testing.T, e *testenv.Env, admin, slugBase string, perms ...string) string {
	t.Helper()
	r := call(e, admin, http.MethodPost, "/api/roles", map[string]any{"nombre": "Rol " + slugBase, "permisos": perms})
	if r.Status != http.StatusCreated {
		t.Fatalf("create role: %d %s", r.Status, r.Raw)
	}
	email := strings.ToLower(slugBase) + "@demo.cr"
	r = call(e, admin, http.MethodPost, "/api/usuarios", map[string]any{
		"nombre": "Prueba", "apellidos": "Compras", "email": email, "password": "Segura123!", "roles": []string{testenv.Str(r.JSON, "data.slug")}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	return e.Login(email, "Segura123!")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
