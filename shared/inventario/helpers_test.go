package inventario_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// obj is a JSON object body.
type obj = map[string]any

const (
	entradasPath  = "/api/inventario/entradas"
	salidasPath   = "/api/inventario/salidas"
	transferPath  = "/api/inventario/transferencias"
	existPath     = "/api/inventario/existencias"
	productosPath = "/api/productos"
)

// fx is what the inventory tests of one environment share: tokens of both
// demo administrators, company 1's principal warehouse and a second one,
// company 2's principal warehouse, and the ids products need.
type fx struct {
	e             *testenv.Env
	admin, admin2 string
	alm, alm2     int // company 1: principal, "Bodega Norte"
	almB          int // company 2: principal
	cat, catB     int
	unid          int
}

func newFx(t *testing.T) *fx {
	t.Helper()
	e := testenv.NewParallel(t)
	f := &fx{e: e, admin: e.Admin(1), admin2: e.Admin(2)}
	f.alm = testenv.Scalar[int](t, e, `select id from almacenes where empresa_id = 1 and es_principal`)
	f.almB = testenv.Scalar[int](t, e, `select id from almacenes where empresa_id = 2 and es_principal`)
	f.cat = testenv.Scalar[int](t, e, `select id from categorias_producto where empresa_id = 1 order by id limit 1`)
	f.catB = testenv.Scalar[int](t, e, `select id from categorias_producto where empresa_id = 2 order by id limit 1`)
	f.unid = testenv.Scalar[int](t, e, `select id from unidades_medida where codigo = 'Unid'`)
	sucursal := testenv.Scalar[int](t, e, `select id from sucursales where empresa_id = 1 and es_principal`)
	f.alm2 = f.e.Create(t, f.admin, "/api/almacenes", obj{"sucursal_id": sucursal, "nombre": "Bodega Norte", "codigo": "NORTE"})
	return f
}

// producto creates a stock-keeping product of company 1 (or of company 2
// with admin2's token) through the API.
func (f *fx) producto(t testing.TB, tok, codigo string, stockMinimo int) int {
	t.Helper()
	cat := f.cat
	if tok == f.admin2 {
		cat = f.catB
	}
	return f.e.Create(t, tok, productosPath, obj{"categoria_id": cat, "unidad_medida_id": f.unid, "nombre": "Producto " + codigo,
		"codigo": codigo, "tipo": "producto", "precio_venta": 1000, "precio_compra": 400, "stock_minimo": stockMinimo})
}

// linea is a detail line; extra adds or overrides fields.
func linea(producto int, cantidad any, extra ...any) obj {
	l := obj{"producto_id": producto, "cantidad": cantidad}
	for i := 0; i+1 < len(extra); i += 2 {
		l[extra[i].(string)] = extra[i+1]
	}
	return l
}

// entrar records and processes an entry of company 1 and returns its id.
func (f *fx) entrar(t testing.TB, almacen int, lineas ...obj) int {
	t.Helper()
	return f.e.Create(t, f.admin, entradasPath, obj{"tipo": "Compra", "almacen_id": almacen, "procesar": true, "detalles": lineas})
}

// sacar records and processes an exit of company 1 and returns the answer.
func (f *fx) sacar(t testing.TB, almacen int, lineas ...obj) testenv.Resp {
	t.Helper()
	return f.e.Call(f.admin, "POST", salidasPath, obj{"tipo": "Venta", "almacen_id": almacen, "procesar": true, "detalles": lineas})
}

func item(path string, id int) string { return fmt.Sprintf("%s/%d", path, id) }

// expectExact asserts several paths of a body at once.
func expectExact(t testing.TB, raw []byte, want map[string]string) {
	t.Helper()
	for path, w := range want {
		if got := testenv.Exact(t, raw, path); got != w {
			t.Errorf("%s = %s, want %s", path, got, w)
		}
	}
}

// existencia returns the stock row of a product in a warehouse (nil when
// there is none).
func (f *fx) existencia(t testing.TB, almacen, producto int) map[string]any {
	t.Helper()
	r := f.e.Get(fmt.Sprintf("%s?almacen_id=%d&producto_id=%d&lotes=1", existPath, almacen, producto), f.admin)
	if r.Status != http.StatusOK {
		t.Fatalf("existencias: %d %s", r.Status, r.Raw)
	}
	if testenv.Len(r.JSON, "data") == 0 {
		return nil
	}
	return testenv.Get(r.JSON, "data.0").(map[string]any)
}

// stock is the available quantity of a product in a warehouse (0 when none).
func (f *fx) stock(t testing.TB, almacen, producto int) float64 {
	t.Helper()
	x := f.existencia(t, almacen, producto)
	if x == nil {
		return 0
	}
	return x["cantidad_disponible"].(float64)
}

// permitirNegativo turns the company setting inventario.permitir_stock_negativo on.
func (f *fx) permitirNegativo(empresa int) {
	f.e.Exec(`update configuraciones set valor = 'true' where empresa_id = $1 and clave = 'inventario.permitir_stock_negativo'`, empresa)
}
