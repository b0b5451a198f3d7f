package escenario

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/testenv"
)

// dia is one business day of company 1 driven through the gateway, and
// what the test expects of it, computed from the answers of the writes.
type dia struct {
	*testenv.Fixture
	hoy, mes  string // today in Costa Rica, the first of its month
	principal int64  // the principal warehouse
	bodega    int64  // a second warehouse
	caja      int64
	cliente   int64 // 30 days of credit
	proveedor int64
	// products: 13 %, 1 %, exempt, and one sold by weight (3 decimals)
	p13, p1, pex, pkg int64
	forma             map[string]int64 // formas_pago by code

	// Confirmed sales (pendiente/pagada, not cancelled): totals in colones
	// by column, signed (a credit note subtracts), and per tax rate.
	ventas      map[string]decimal.Decimal
	porTasa     map[string][2]decimal.Decimal // rate -> base, tax
	confirmadas int                           // facturas and tiquetes counted by the dashboard
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// amt reads an amount at path of an answer, written as a JSON number or a
// string; it fails the test when there is none.
func amt(t testing.TB, r testenv.Resp, path string) decimal.Decimal {
	t.Helper()
	if n := testenv.Number(r, path); n != "" {
		return d(n)
	}
	if s := testenv.Str(r.JSON, path); s != "" {
		v, err := decimal.NewFromString(s)
		if err == nil {
			return v
		}
	}
	t.Fatalf("no amount at %s: %.600s", path, r.Raw)
	return decimal.Zero
}

// diferente reports (as a test error) that got is not want.
func diferente(t testing.TB, que string, got, want decimal.Decimal) bool {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: %s, want %s", que, got.StringFixed(3), want.StringFixed(3))
		return true
	}
	return false
}

func nuevoDia(t *testing.T) *dia {
	f := testenv.NewFixture(t)
	x := &dia{Fixture: f, principal: f.Almacen, ventas: map[string]decimal.Decimal{}, porTasa: map[string][2]decimal.Decimal{},
		forma: map[string]int64{}}
	x.hoy = time.Now().In(time.FixedZone("CR", -6*3600)).Format(time.DateOnly)
	x.mes = x.hoy[:8] + "01"
	for _, c := range []string{"01", "02", "04"} {
		x.forma[c] = f.Int(`select id from formas_pago where codigo = $1`, c)
	}
	return x
}

func (x *dia) tarifa(codigo string) int64 {
	x.T.Helper()
	r := x.Must(http.StatusOK, http.MethodGet, "/api/tipos-impuesto?codigo_tarifa_iva="+codigo, nil)
	ids := testenv.IDs64(r)
	if len(ids) != 1 {
		x.T.Fatalf("tipo de impuesto %s: %s", codigo, r.Raw)
	}
	return ids[0]
}

// maestros creates through the API what the day needs: products, a second
// warehouse, a customer with credit, a supplier and a cash box.
func (x *dia) maestros() {
	t := x.T
	t.Helper()
	cat := x.Int(`select min(id) from categorias_producto where empresa_id = 1`)
	unid := x.Int(`select id from unidades_medida where codigo = 'Unid'`)
	kg := x.Int(`select id from unidades_medida where codigo = 'Kg'`)
	prod := func(codigo, precio, tarifa string, unidad int64) int64 {
		return int64(x.E.Create(t, x.Admin, "/api/productos", map[string]any{"categoria_id": cat, "unidad_medida_id": unidad,
			"nombre": "Producto " + codigo, "codigo": codigo, "tipo": "producto", "precio_venta": precio, "tipo_impuesto_id": x.tarifa(tarifa)}))
	}
	x.p13 = prod("ESC-13", "5000", "08", unid)
	x.p1 = prod("ESC-1", "2000", "02", unid)
	x.pex = prod("ESC-EX", "1500", "10", unid)
	x.pkg = prod("ESC-KG", "3333.33", "08", kg)
	x.bodega = int64(x.E.Create(t, x.Admin, "/api/almacenes", map[string]any{"nombre": "Bodega Norte", "codigo": "NORTE", "sucursal_id": x.Sucursal}))
	x.cliente = int64(x.E.Create(t, x.Admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "109990111",
		"nombre": "Ana", "apellidos": "Mora", "dias_credito": 30}))
	x.proveedor = int64(x.E.Create(t, x.Admin, "/api/proveedores", map[string]any{"nombre": "Distribuidora Central", "nit_ruc": "3101999888",
		"dias_credito": 15}))
	x.caja = int64(x.E.Create(t, x.Admin, "/api/cajas", map[string]any{"sucursal_id": x.Sucursal, "nombre": "Caja 1", "codigo": "C1"}))
	x.Must(http.StatusOK, http.MethodPost, testenv.Path("cajas", x.caja, "abrir"), map[string]any{"monto_inicial": "50000.00"})
}

// compra receives a purchase order of the four products into the principal
// warehouse (13 %, 1 %, exempt and by weight) and pays part of its payable.
func (x *dia) compra() (orden int64) {
	t := x.T
	t.Helper()
	orden = int64(x.E.Create(t, x.Admin, "/api/ordenes-compra", map[string]any{"proveedor_id": x.proveedor, "fecha_orden": x.hoy,
		"almacen_id": x.principal, "estado": "aprobada", "detalles": []any{
			testenv.Linea(x.p13, 40, "2500.00", "descuento", "1000.00"),
			testenv.Linea(x.p1, 30, "900.00"),
			testenv.Linea(x.pex, 50, "600.00", "porcentaje_impuesto", 0),
			testenv.Linea(x.pkg, "12.500", "1777.77"),
		}}))
	x.Must(http.StatusOK, http.MethodPost, testenv.Path("ordenes-compra", orden, "recibir"), map[string]any{"almacen_id": x.principal})
	// A second receipt of the 13 % product at another cost into the same
	// (batch-less) batch, which averages the two costs: the books post the
	// exits at that average, and the valuation and kardex must too.
	o2 := int64(x.E.Create(t, x.Admin, "/api/ordenes-compra", map[string]any{"proveedor_id": x.proveedor, "fecha_orden": x.hoy,
		"almacen_id": x.principal, "estado": "aprobada", "detalles": []any{testenv.Linea(x.p13, 10, "2800.00")}}))
	x.Must(http.StatusOK, http.MethodPost, testenv.Path("ordenes-compra", o2, "recibir"), map[string]any{"almacen_id": x.principal,
		"detalles": []any{map[string]any{"producto_id": x.p13, "cantidad": 10}}})
	cxp := x.Int(`select id from cuentas_por_pagar where orden_compra_id = $1`, orden)
	x.Must(http.StatusCreated, http.MethodPost, testenv.Path("cuentas-por-pagar", cxp, "pagos"), map[string]any{
		"monto": "30000.00", "fecha": x.hoy, "forma_pago_id": x.forma["04"]})
	x.Must(http.StatusCreated, http.MethodPost, testenv.Path("cuentas-por-pagar", cxp, "pagos"), map[string]any{
		"monto": "5000.00", "fecha": x.hoy, "forma_pago_id": x.forma["01"], "caja_id": x.caja})
	return orden
}

// vender creates a sale and adds it to the expected figures.
func (x *dia) vender(body map[string]any) testenv.Resp {
	t := x.T
	t.Helper()
	body = testenv.With(map[string]any{"fecha_venta": x.hoy, "tipo_comprobante": "factura", "almacen_id": x.principal}, flat(body)...)
	r := x.Must(http.StatusCreated, http.MethodPost, "/api/ventas", body)
	x.sumar(r, 1)
	return r
}

func flat(m map[string]any) []any {
	var kv []any
	for k, v := range m {
		kv = append(kv, k, v)
	}
	return kv
}

// sumar adds (signo 1) or removes (-1) a sale's answer to the expected
// figures, in colones at its exchange rate.
func (x *dia) sumar(r testenv.Resp, signo int64) {
	t := x.T
	t.Helper()
	s := decimal.NewFromInt(signo)
	if testenv.Str(r.JSON, "data.tipo_comprobante") == "nota_credito" {
		s = s.Neg()
	} else {
		x.confirmadas += int(signo)
	}
	tc := amt(t, r, "data.tipo_cambio")
	col := func(k string, v decimal.Decimal) { x.ventas[k] = x.ventas[k].Add(s.Mul(v)) }
	col("subtotal", amt(t, r, "data.monto_subtotal").Mul(tc))
	col("descuentos", amt(t, r, "data.monto_descuentos").Mul(tc))
	col("impuestos", amt(t, r, "data.monto_impuestos").Mul(tc))
	col("total", amt(t, r, "data.monto_total").Mul(tc))
	for i := 0; i < testenv.Len(r.JSON, "data.detalles"); i++ {
		p := fmt.Sprintf("data.detalles.%d.", i)
		col("cantidad", amt(t, r, p+"cantidad"))
		tasa := amt(t, r, p+"porcentaje_impuesto").StringFixed(2)
		a := x.porTasa[tasa]
		base := amt(t, r, p+"subtotal").Sub(amt(t, r, p+"descuento")).Mul(tc)
		x.porTasa[tasa] = [2]decimal.Decimal{a[0].Add(s.Mul(base)), a[1].Add(s.Mul(amt(t, r, p+"monto_impuesto").Mul(tc)))}
	}
}

// ventasDelDia: cash sales into the box, a credit sale, a dollar sale, a
// credit note, a cancelled sale, and payments of the receivable.
func (x *dia) ventasDelDia() {
	t := x.T
	t.Helper()
	x.vender(map[string]any{"condicion_venta": "contado", "estado": "pagada", "forma_pago_id": x.forma["01"], "caja_id": x.caja,
		"detalles": []any{
			testenv.Linea(x.p13, 3, "5000.00", "descuento", "500.00"),
			testenv.Linea(x.p1, 2, "2000.00"),
			testenv.Linea(x.pex, 1, "1500.00"),
			testenv.Linea(x.pkg, "2.125", "3333.33", "descuento", "0.01"),
		}})
	x.vender(map[string]any{"tipo_comprobante": "tiquete", "condicion_venta": "contado", "estado": "pagada", "forma_pago_id": x.forma["02"],
		"detalles": []any{testenv.Linea(x.p13, 1, "4999.99"), testenv.Linea(x.pkg, "0.333", "3333.33")}})
	credito := x.vender(map[string]any{"cliente_id": x.cliente, "detalles": []any{
		testenv.Linea(x.p13, 12, "5000.00", "descuento", "2500.00"),
		testenv.Linea(x.p1, 5, "2000.00"),
		testenv.Linea(x.pex, 4, "1500.00", "descuento", "100.00"),
	}})
	if testenv.Str(credito.JSON, "data.condicion_venta") != "credito" {
		t.Fatalf("credit sale: %s", credito.Raw)
	}
	x.vender(map[string]any{"moneda": "USD", "tipo_cambio": "512.34567", "condicion_venta": "contado", "forma_pago_id": x.forma["04"],
		"detalles": []any{testenv.Linea(x.p13, 2, "10.37"), testenv.Linea(x.pex, 3, "2.99")}})
	// A cancelled sale leaves no trace in the figures.
	anulada := x.vender(map[string]any{"cliente_id": x.cliente, "detalles": []any{testenv.Linea(x.p1, 4, "2000.00"), testenv.Linea(x.p13, 1, "5000.00")}})
	r := x.Must(http.StatusOK, http.MethodPatch, testenv.Path("ventas", testenv.ID(anulada)), map[string]any{"estado": "anulada"})
	x.sumar(anulada, -1)
	_ = r

	// The receivable of the credit sale: a cash payment into the box and a
	// transfer sent without fecha (today in Costa Rica, also after 18:00
	// when the server's UTC day is already tomorrow).
	cxc := x.Int(`select id from cuentas_por_cobrar where venta_id = $1`, testenv.ID(credito))
	x.Must(http.StatusCreated, http.MethodPost, testenv.Path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{
		"monto": "20000.00", "fecha": x.hoy, "forma_pago_id": x.forma["01"], "caja_id": x.caja})
	p := x.Must(http.StatusCreated, http.MethodPost, testenv.Path("cuentas-por-cobrar", cxc, "pagos"), map[string]any{
		"monto": "7654.32", "forma_pago_id": x.forma["04"]})
	if f := testenv.Str(p.JSON, "data.fecha"); f != x.hoy {
		t.Errorf("a payment without fecha is dated %s, want today in Costa Rica %s", f, x.hoy)
	}
}

// notaCredito credits part of the credit sale twice, as price
// corrections without goods (code 02, no warehouse): once refunded in
// cash from the box, once on credit, which lowers the open balance of
// the sale's receivable (no receivable of its own) as the books credit
// receivables with it: cuadraCuentas checks the aging, the open
// receivables and the receivables account agree. A third note returns
// goods and is cancelled.
func (x *dia) notaCredito(venta int64) {
	t := x.T
	t.Helper()
	nota := func(condicion string, extra ...any) testenv.Resp {
		return x.vender(testenv.With(map[string]any{"tipo_comprobante": "nota_credito", "venta_referencia_id": venta, "codigo_referencia": "02",
			"razon_referencia": "Corrige precio", "cliente_id": x.cliente, "condicion_venta": condicion, "almacen_id": testenv.Absent,
			"detalles": []any{testenv.Linea(x.p13, 2, "500.00")}}, extra...))
	}
	nota("contado", "forma_pago_id", x.forma["01"], "caja_id", x.caja)
	antes := d(x.Text(`select saldo::text from cuentas_por_cobrar where venta_id = $1`, venta))
	r := nota("credito")
	despues := d(x.Text(`select saldo::text from cuentas_por_cobrar where venta_id = $1`, venta))
	if testenv.Get(r.JSON, "data.cuenta_por_cobrar") != nil || !antes.Sub(despues).Equal(amt(t, r, "data.monto_total")) {
		t.Errorf("a credit note on credit took %s off its sale's receivable (want its total): %s", antes.Sub(despues), r.Raw)
	}
	// A third note returns goods (code 06) into the principal warehouse, at
	// the cost the sale took them out (averaged into the batch they go
	// back to), and is cancelled: they leave that batch again at that cost,
	// so stock, valuation, kardex and books are where the sale left them.
	dev := nota("credito", "codigo_referencia", "06", "razon_referencia", "Devolución de mercadería", "almacen_id", x.principal,
		"detalles", []any{testenv.Linea(x.p13, 2, "5000.00")})
	x.Must(http.StatusOK, http.MethodDelete, testenv.Path("ventas", testenv.ID(dev)), nil)
	x.sumar(dev, -1)
}

// movimientos: a transfer between warehouses and adjustments both ways.
func (x *dia) movimientos() {
	t := x.T
	t.Helper()
	x.Must(http.StatusCreated, http.MethodPost, "/api/inventario/transferencias", map[string]any{
		"almacen_origen_id": x.principal, "almacen_destino_id": x.bodega,
		"detalles": []any{map[string]any{"producto_id": x.p13, "cantidad": 7}, map[string]any{"producto_id": x.pkg, "cantidad": "1.250"}}})
	x.Must(http.StatusCreated, http.MethodPost, "/api/inventario/salidas", map[string]any{"tipo": "Ajuste Negativo", "almacen_id": x.principal,
		"procesar": true, "detalles": []any{map[string]any{"producto_id": x.p1, "cantidad": 1}}})
	x.Must(http.StatusCreated, http.MethodPost, "/api/inventario/entradas", map[string]any{"tipo": "Ajuste Positivo", "almacen_id": x.bodega,
		"procesar": true, "detalles": []any{map[string]any{"producto_id": x.pex, "cantidad": 3, "costo_unitario": "650.00"}}})
	x.Must(http.StatusCreated, http.MethodPost, "/api/inventario/salidas", map[string]any{"tipo": "Consumo Interno", "almacen_id": x.bodega,
		"procesar": true, "detalles": []any{map[string]any{"producto_id": x.p13, "cantidad": 1}}})
}

// planilla pays this month's payroll of one employee: calculated,
// approved (the dashboard shows it pending), then paid without fecha_pago.
func (x *dia) planilla() {
	t := x.T
	t.Helper()
	// The employee is a fixture (owner SQL), as in the payroll's own tests.
	x.Int(`insert into empleados (empresa_id, nombre, apellidos, tipo_identificacion, identificacion, fecha_nacimiento,
			fecha_ingreso, puesto, salario_base, jornada, hijos, conyuge, estado, tipo_pago)
		values (1, 'Luis', 'Vargas', 'fisica', '109990222', '1990-01-01', '2020-01-01', 'Bodeguero', 650000, 'diurna', 0, false,
			'activo', 'mensual') returning id`)
	ini, _ := time.Parse(time.DateOnly, x.mes)
	fin := ini.AddDate(0, 1, -1).Format(time.DateOnly)
	id := int64(x.E.Create(t, x.Admin, "/api/planillas", map[string]any{"tipo": "mensual", "fecha_inicio": x.mes, "fecha_fin": fin}))
	x.Must(http.StatusOK, http.MethodPost, testenv.Path("planillas", id, "calcular"), nil)
	a := x.Must(http.StatusOK, http.MethodPost, testenv.Path("planillas", id, "aprobar"), nil)
	dash := x.Must(http.StatusOK, http.MethodGet, "/api/dashboard", nil)
	if testenv.Num(dash.JSON, "data.planilla_pendiente.cantidad") != 1 {
		t.Errorf("dashboard planilla_pendiente after approving: %s", dash.Raw)
	}
	var neto decimal.Decimal
	for i := 0; i < testenv.Len(a.JSON, "data.lineas"); i++ {
		neto = neto.Add(amt(t, a, fmt.Sprintf("data.lineas.%d.salario_neto", i)))
	}
	diferente(t, "dashboard planilla_pendiente against the planilla", amt(t, dash, "data.planilla_pendiente.monto"), neto)
	p := x.Must(http.StatusOK, http.MethodPost, testenv.Path("planillas", id, "marcar-pagada"), nil)
	if f := testenv.Str(p.JSON, "data.fecha_pago"); f != x.hoy {
		t.Errorf("a planilla paid without fecha_pago is dated %s, want today in Costa Rica %s", f, x.hoy)
	}
}
