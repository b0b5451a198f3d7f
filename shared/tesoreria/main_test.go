package tesoreria_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack with company 1's administrator, principal branch
// and warehouse, a product with stock (13 % IVA) and a credit customer.
type fx struct {
	t        *testing.T
	e        *testenv.Env
	admin    string
	sucursal int64
	almacen  int64
	producto int64
	cliente  int64
}

func setup(t *testing.T) *fx {
	t.Helper()
	e := testenv.NewParallel(t)
	f := &fx{t: t, e: e, admin: e.Admin(1)}
	f.sucursal = f.int(`select id from sucursales where empresa_id = 1 and es_principal`)
	f.almacen = f.int(`select id from almacenes where empresa_id = 1 and es_principal`)
	f.producto = f.int(`insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo, precio_venta)
		select 1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'), 'Producto P', 'P', 'producto', 1000
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' returning id`)
	f.e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario) values (1, $1, $2, 100, 400)`,
		f.almacen, f.producto)
	f.cliente = f.int(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, dias_credito)
		values (1, 'fisica', '109990888', 'Cliente', 'Crédito', 30) returning id`)
	return f
}

func (f *fx) int(sql string, args ...any) int64 {
	f.t.Helper()
	return testenv.Scalar[int64](f.t, f.e, sql, args...)
}

func (f *fx) text(sql string, args ...any) string {
	f.t.Helper()
	if s := testenv.Scalar[*string](f.t, f.e, sql, args...); s != nil {
		return *s
	}
	return "<null>"
}

// forma is the id of a payment method by its Hacienda code (01 efectivo, 04 transferencia).
func (f *fx) forma(codigo string) int64 {
	f.t.Helper()
	return f.int(`select id from formas_pago where codigo = $1`, codigo)
}

// saldo is an account's balance in the books, debits minus credits.
func (f *fx) saldo(codigo string) string {
	f.t.Helper()
	return f.text(`select coalesce(sum(l.debe - l.haber), 0)::numeric(18,2)::text from asiento_lineas l
		join asientos_contables a on a.id = l.asiento_id join cuentas_contables k on k.id = l.cuenta_id
		where a.empresa_id = 1 and a.estado in ('contabilizado', 'anulado') and k.codigo = $1`, codigo)
}

func (f *fx) call(method, path string, body any) testenv.Resp {
	f.t.Helper()
	return f.e.Call(f.admin, method, path, body)
}

// ok asserts a status and returns the response.
func (f *fx) ok(status int, r testenv.Resp) testenv.Resp {
	f.t.Helper()
	if r.Status != status {
		f.t.Fatalf("want %d, got %d %s", status, r.Status, r.Raw)
	}
	return r
}

// venta is a body of one line of the fixture product: cantidad x 1000 + 13 % IVA.
func (f *fx) venta(cantidad int, kv ...any) map[string]any {
	return testenv.With(map[string]any{"fecha_venta": "2026-03-10", "tipo_comprobante": "factura", "almacen_id": f.almacen,
		"detalles": []any{map[string]any{"producto_id": f.producto, "cantidad": cantidad, "precio_unitario": 1000}}}, kv...)
}

func id(r testenv.Resp) int64 { return int64(testenv.Num(r.JSON, "data.id")) }

func path(res string, id int64, rest ...string) string {
	p := fmt.Sprintf("/api/%s/%d", res, id)
	for _, s := range rest {
		p += s
	}
	return p
}

// exact is the JSON text of a number at a dotted path ("1130.00").
func exact(t *testing.T, r testenv.Resp, p string) string {
	t.Helper()
	return testenv.Exact(t, r.Raw, p)
}

// cuentaPorCobrar is the receivable of a credit sale.
func (f *fx) cuentaPorCobrar(venta int64) int64 {
	f.t.Helper()
	return f.int(`select id from cuentas_por_cobrar where venta_id = $1`, venta)
}

// cuentaPorPagar inserts a supplier's payable of monto (owner SQL).
func (f *fx) cuentaPorPagar(monto string) int64 {
	f.t.Helper()
	return f.int(`with pr as (insert into proveedores (empresa_id, nombre, nit_ruc) values (1, 'Proveedor', '3101999999') returning id),
		o as (insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado)
			select 1, pr.id, (select id from usuarios where empresa_id = 1 order by id limit 1), 'OC-000001', current_date, 'recibida' from pr returning id, proveedor_id)
		insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento)
		select 1, o.proveedor_id, o.id, $1::numeric, $1::numeric, current_date, current_date + 30 from o returning id`, monto)
}

var _ = http.MethodGet
