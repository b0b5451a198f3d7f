package tesoreria_test

import (
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack with company 1's administrator, principal branch
// and warehouse, a product with stock (13 % IVA) and a credit customer.
type fx struct {
	*testenv.Fixture
	producto int64
	cliente  int64
}

func setup(t *testing.T) *fx {
	t.Helper()
	f := &fx{Fixture: testenv.NewFixture(t)}
	f.producto = f.Producto(testenv.Prod{Codigo: "P", Tarifa: "08"})
	f.Stock(f.Almacen, f.producto, "100", "400", "", "")
	f.cliente = f.Cliente(1, "109990888", 30)
	return f
}

// forma is the id of a payment method by its Hacienda code (01 efectivo, 04 transferencia).
func (f *fx) forma(codigo string) int64 {
	f.T.Helper()
	return f.Int(`select id from formas_pago where codigo = $1`, codigo)
}

// venta is a body of one line of the fixture product: cantidad x 1000 + 13 % IVA.
func (f *fx) venta(cantidad int, kv ...any) map[string]any {
	return testenv.With(map[string]any{"fecha_venta": "2026-03-10", "tipo_comprobante": "factura", "almacen_id": f.Almacen,
		"detalles": []any{map[string]any{"producto_id": f.producto, "cantidad": cantidad, "precio_unitario": 1000}}}, kv...)
}

// Shorter names for the shared helpers this package's tests use everywhere.
var (
	id   = testenv.ID
	path = testenv.Path
)

// exact is the JSON text of a number at a dotted path ("1130.00").
func exact(t *testing.T, r testenv.Resp, p string) string {
	t.Helper()
	return testenv.Exact(t, r.Raw, p)
}

// cuentaPorCobrar is the receivable of a credit sale.
func (f *fx) cuentaPorCobrar(venta int64) int64 {
	f.T.Helper()
	return f.Int(`select id from cuentas_por_cobrar where venta_id = $1`, venta)
}

// cuentaPorPagar inserts a supplier's payable of monto (owner SQL).
func (f *fx) cuentaPorPagar(monto string) int64 {
	f.T.Helper()
	return f.Int(`with pr as (insert into proveedores (empresa_id, nombre, nit_ruc) values (1, 'Proveedor', '3101999999') returning id),
		o as (insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado)
			select 1, pr.id, (select id from usuarios where empresa_id = 1 order by id limit 1), 'OC-000001', current_date, 'recibida' from pr returning id, proveedor_id)
		insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento)
		select 1, o.proveedor_id, o.id, $1::numeric, $1::numeric, current_date, current_date + 30 from o returning id`, monto)
}
