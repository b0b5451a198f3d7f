package compras_test

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/httpx"
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

// newProveedor inserts a supplier of the company with dias_credito.
func newProveedor(t testing.TB, e *testenv.Env, empresa, dias int) int64 {
	t.Helper()
	n := len(testenv.Column[int64](t, e, `select id from proveedores`)) + 1
	return testenv.Column[int64](t, e, `insert into proveedores (empresa_id, nombre, nit_ruc, dias_credito) values ($1, $2, $3, $4) returning id`, empresa, fmt.Sprintf("Proveedor %d", n), fmt.Sprintf("NIT-%d", n), dias)[0]
}

// newProductos inserts n products of the company; the first `gravados` carry
// the IVA 13% tax type.
func newProductos(t testing.TB, e *testenv.Env, empresa, n, gravados int) []int64 {
	t.Helper()
	return testenv.Column[int64](t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo, precio_compra, precio_venta)
		select $1::bigint, c.id, u.id, case when g <= $3 then ti.id end, 'Producto ' || g, 'E' || $1::bigint || '-' || g || '-' || $4::int, 'producto', 100, 150
		from generate_series(1, $2) g, categorias_producto c, unidades_medida u, tipos_impuesto ti
		where c.empresa_id = $1 and u.codigo = 'Unid' and ti.codigo = '01' and ti.codigo_tarifa_iva = '08'
		order by g returning id`, empresa, n, gravados, len(testenv.Column[int64](t, e, `select id from productos`)))
}

// nuevo is a new environment and company 1's fixture on it, the start of
// most tests.
func nuevo(t *testing.T) (*testenv.Env, *fixture) {
	t.Helper()
	e := testenv.NewParallel(t)
	return e, setup(t, e, 1)
}

func setup(t testing.TB, e *testenv.Env, empresa int) *fixture {
	t.Helper()
	f := &fixture{e: e, empresa: empresa, tok: e.Admin(empresa)}
	f.proveedor = newProveedor(t, e, empresa, 30)
	f.productos = newProductos(t, e, empresa, 4, 2)
	f.almacen = testenv.Column[int64](t, e, `select id from almacenes where empresa_id = $1 and es_principal`, empresa)[0]
	return f
}

func (f *fixture) do(method, path string, body any) testenv.Resp {
	f.e.T.Helper()
	return f.e.Call(f.tok, method, path, body)
}

// orden is a valid create body in borrador (estado is required) with the
// given lines (one line of the third product when none).
func (f *fixture) orden(lineas ...map[string]any) map[string]any {
	if len(lineas) == 0 {
		lineas = []map[string]any{linea(f.productos[2], 2, 100)}
	}
	return map[string]any{"proveedor_id": f.proveedor, "fecha_orden": "2026-03-10", "estado": "borrador", "detalles": lineas}
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
	return testenv.Path("ordenes-compra", id, action...)
}

func cuentaPath(id int64, action ...string) string {
	return testenv.Path("cuentas-por-pagar", id, action...)
}

// paso is one request on an order: a method, an action below the order's
// path ("" for the order itself) and a body.
type paso struct {
	method, accion string
	body           any
}

// editar is the PUT or PATCH of an order that asks for another state.
func editar(method, estado string) paso {
	return paso{method, "", map[string]any{"estado": estado}}
}

var (
	aprobar  = paso{http.MethodPost, "aprobar", nil}
	cancelar = paso{http.MethodPost, "cancelar", nil}
)

// recibir receives the whole order into the principal warehouse.
func (f *fixture) recibir() paso {
	return paso{http.MethodPost, "recibir", map[string]any{"almacen_id": f.almacen}}
}

// dar sends one step on an order.
func (f *fixture) dar(id int64, p paso) testenv.Resp {
	f.e.T.Helper()
	return f.do(p.method, ordenPath(id, p.accion), p.body)
}

// to moves an order to a state through the API (borrador -> ... ).
func (f *fixture) to(id int64, estado string) {
	f.e.T.Helper()
	pendiente := editar(http.MethodPatch, "pendiente")
	steps := map[string][]paso{
		"borrador":  nil,
		"pendiente": {pendiente},
		"aprobada":  {pendiente, aprobar},
		"recibida":  {pendiente, aprobar, f.recibir()},
		"cancelada": {cancelar},
	}
	for _, step := range steps[estado] {
		if r := f.dar(id, step); r.Status != http.StatusOK {
			f.e.T.Fatalf("to %s: %d %s", estado, r.Status, r.Raw)
		}
	}
}

// interno fails t unless r is the generic 500 (the message every module
// sends, no detail of the failure that caused it).
func interno(t testing.TB, r testenv.Resp, detalle string) {
	t.Helper()
	if r.Status != http.StatusInternalServerError || testenv.Str(r.JSON, "message") != httpx.MsgInternal || strings.Contains(string(r.Raw), detalle) {
		t.Fatalf("want the generic 500 without %q: %d %s", detalle, r.Status, r.Raw)
	}
}

// linea is a line body.
var linea = testenv.Linea

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
