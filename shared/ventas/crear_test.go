package ventas_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestCreateReturns201WithNestedClienteDetallesAndUsuario(t *testing.T) {
	f := setup(t)
	cafe := f.Producto(testenv.Prod{Codigo: "CAF", Tarifa: "08"})
	te := f.Producto(testenv.Prod{Codigo: "TE"})
	cliente := f.Cliente(1, "101110111", 0)
	r := f.venderOK(testenv.With(venta(
		linea(cafe, 2, "1500.00", "descuento", 100, "descripcion", "Café tostado"),
		linea(te, "1.5", 1000, "porcentaje_impuesto", 4),
	), "empresa_id", 2, "cliente_id", cliente, "sucursal_id", f.Sucursal, "forma_pago_id", 1, "observaciones", "  Entrega en tienda  "))
	if testenv.Str(r.JSON, "message") != "Venta creada correctamente." || r.JSON["success"] != true {
		t.Errorf("envelope: %s", r.Raw)
	}
	want := map[string]any{
		"data.empresa_id": 1.0, "data.numero_comprobante": "FAC-00000001", "data.tipo_comprobante": "factura",
		"data.fecha_venta": "2026-03-15", "data.estado": "pendiente", "data.condicion_venta": "contado",
		"data.observaciones": "Entrega en tienda", "data.usuario_id": 1.0, "data.usuario.email": "admin@demo.cr",
		"data.cliente.id": float64(cliente), "data.cliente.nombre_completo": "Cliente 101110111",
		"data.sucursal.id": float64(f.Sucursal), "data.forma_pago.codigo": "01", "data.almacen_id": nil,
		"data.cuenta_por_cobrar": nil, "data.activo": true, "data.eliminado": false,
		"data.detalles.0.linea": 1.0, "data.detalles.0.producto.codigo": "CAF", "data.detalles.0.descripcion": "Café tostado",
		"data.detalles.1.producto_id": float64(te), "data.detalles.1.descripcion": "Producto TE",
	}
	for k, v := range want {
		if got := testenv.Get(r.JSON, k); got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	// Line 1: 2 x 1500 = 3000, discount 100, 13 % of 2900 = 377 (the product's tax type).
	// Line 2: 1.5 x 1000 = 1500, 4 % given = 60.
	nums := map[string]string{
		"data.detalles.0.subtotal": "3000.00", "data.detalles.0.descuento": "100.00", "data.detalles.0.porcentaje_impuesto": "13.00",
		"data.detalles.0.monto_impuesto": "377.00", "data.detalles.0.total": "3277.00", "data.detalles.0.cantidad": "2.000",
		"data.detalles.1.subtotal": "1500.00", "data.detalles.1.monto_impuesto": "60.00", "data.detalles.1.porcentaje_impuesto": "4.00",
		"data.monto_subtotal": "4500.00", "data.monto_descuentos": "100.00", "data.monto_impuestos": "437.00", "data.monto_total": "4837.00",
	}
	for k, v := range nums {
		if got := num(r, k); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	for _, k := range []string{"data.creado_en", "data.actualizado_en"} {
		if testenv.Str(r.JSON, k) == "" {
			t.Errorf("no %s", k)
		}
	}
	// The show gives the same sale.
	s := f.E.Get(path("ventas", id(r), ""), f.Admin)
	if s.Status != http.StatusOK || num(s, "data.monto_total") != "4837.00" || testenv.Len(s.JSON, "data.detalles") != 2 ||
		testenv.Str(s.JSON, "data.detalles.1.producto.nombre") != "Producto TE" {
		t.Errorf("show: %d %s", s.Status, s.Raw)
	}
	// The stored rows.
	if got := f.Text(`select string_agg(linea || ':' || total, ',' order by linea) from detalles_venta where venta_id = $1`, id(r)); got != "1:3277.00,2:1560.00" {
		t.Errorf("stored lines %s", got)
	}
}

func TestTotalsRoundEachLineHalfUpAndSumTheRoundedLines(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	exento := f.Producto(testenv.Prod{Codigo: "EX", Tarifa: "10"})
	reducido := f.Producto(testenv.Prod{Codigo: "RED", Tarifa: "04"})
	cases := []struct {
		name                  string
		lineas                []map[string]any
		sub, desc, imp, total string
	}{
		// 3 x 0.335 = 1.005 -> 1.01 (half up); tax 13 % of 1.01 = 0.1313 -> 0.13.
		{"half up subtotal", []map[string]any{linea(p, "0.335", 3, "porcentaje_impuesto", 13)}, "1.01", "0.00", "0.13", "1.14"},
		// 1 x 0.05 at 50 % = 0.025 -> 0.03.
		{"half up tax", []map[string]any{linea(p, 1, "0.05", "porcentaje_impuesto", 50)}, "0.05", "0.00", "0.03", "0.08"},
		// Three lines of 0.025 tax each: the document sums rounded lines (0.09), not 0.075 -> 0.08.
		{"sum of rounded lines", []map[string]any{
			linea(p, 1, "0.05", "porcentaje_impuesto", 50), linea(p, 1, "0.05", "porcentaje_impuesto", 50), linea(p, 1, "0.05", "porcentaje_impuesto", 50),
		}, "0.15", "0.00", "0.09", "0.24"},
		// Tax on the amount after the discount.
		{"tax after discount", []map[string]any{linea(p, 10, 100, "descuento", "250.50", "porcentaje_impuesto", 13)}, "1000.00", "250.50", "97.44", "846.94"},
		// Without porcentaje_impuesto: the product's tax type; none -> 0; exempt -> 0; 4 %.
		{"no tax type", []map[string]any{linea(p, 1, 100)}, "100.00", "0.00", "0.00", "100.00"},
		{"exempt", []map[string]any{linea(exento, 1, 100)}, "100.00", "0.00", "0.00", "100.00"},
		{"reduced rate", []map[string]any{linea(reducido, 1, 100)}, "100.00", "0.00", "4.00", "104.00"},
		// An explicit 0 overrides the product's rate.
		{"explicit zero", []map[string]any{linea(reducido, 1, 100, "porcentaje_impuesto", 0)}, "100.00", "0.00", "0.00", "100.00"},
		// Numeric strings and 3-decimal quantities.
		{"strings", []map[string]any{linea(p, "0.125", "99.99", "descuento", "0.50", "porcentaje_impuesto", "13")}, "12.50", "0.50", "1.56", "13.56"},
		{"discount equal to subtotal", []map[string]any{linea(p, 2, 50, "descuento", 100, "porcentaje_impuesto", 13)}, "100.00", "100.00", "0.00", "0.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.sub(t).venderOK(venta(c.lineas...))
			got := []string{num(r, "data.monto_subtotal"), num(r, "data.monto_descuentos"), num(r, "data.monto_impuestos"), num(r, "data.monto_total")}
			if want := []string{c.sub, c.desc, c.imp, c.total}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("totals %v, want %v", got, want)
			}
		})
	}
}

func TestNumbersArePerPrefixAndPerCompany(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	p2 := f.Producto(testenv.Prod{Empresa: 2, Codigo: "P"})
	admin2 := f.E.Admin(2)
	want := []struct{ tipo, numero string }{
		{"factura", "FAC-00000001"}, {"tiquete", "TIQ-00000001"}, {"factura", "FAC-00000002"},
		{"nota_credito", "NC-00000001"}, {"nota_debito", "ND-00000001"}, {"tiquete", "TIQ-00000002"},
	}
	var primera int64
	for _, w := range want {
		body := testenv.With(venta(linea(p, 1, 10)), "tipo_comprobante", w.tipo)
		if w.tipo == "nota_credito" || w.tipo == "nota_debito" {
			// Notes name the sale they correct.
			body = testenv.With(body, "venta_referencia_id", primera, "codigo_referencia", "01", "razon_referencia", "Anula la factura")
		}
		r := f.venderOK(body)
		if primera == 0 {
			primera = int64(testenv.Num(r.JSON, "data.id"))
		}
		if got := testenv.Str(r.JSON, "data.numero_comprobante"); got != w.numero {
			t.Errorf("%s: %s, want %s", w.tipo, got, w.numero)
		}
	}
	// Company 2 has its own series.
	r := f.E.Call(admin2, http.MethodPost, "/api/ventas", venta(linea(p2, 1, 10)))
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000001" || testenv.Num(r.JSON, "data.empresa_id") != 2 {
		t.Errorf("company 2: %d %s", r.Status, r.Raw)
	}
}

func TestCreateValidationNamesEachField(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	inactivo := f.Producto(testenv.Prod{Codigo: "INA", Activo: ptr(false)})
	ajeno := f.Producto(testenv.Prod{Empresa: 2, Codigo: "AJ"})
	borrado := f.Producto(testenv.Prod{Codigo: "DEL"})
	f.E.Exec(`update productos set eliminado = true where id = $1`, borrado)
	clienteAjeno := f.Cliente(2, "202220222", 0)
	sucursalAjena := f.Int(`select id from sucursales where empresa_id = 2`)
	almacenAjeno := f.Int(`select id from almacenes where empresa_id = 2`)
	base := venta(linea(p, 1, 100))
	long := strings.Repeat("x", 2001)
	cases := []testenv.Invalid{
		{"fecha missing", testenv.With(base, "fecha_venta", testenv.Absent), "fecha_venta"},
		{"fecha format", testenv.With(base, "fecha_venta", "15/03/2026"), "fecha_venta"},
		{"fecha impossible", testenv.With(base, "fecha_venta", "2026-02-30"), "fecha_venta"},
		{"fecha out of range", testenv.With(base, "fecha_venta", "9999-12-31"), "fecha_venta"},
		{"fecha with time", testenv.With(base, "fecha_venta", "2026-03-15T10:00:00Z"), "fecha_venta"},
		{"tipo missing", testenv.With(base, "tipo_comprobante", testenv.Absent), "tipo_comprobante"},
		{"tipo unknown", testenv.With(base, "tipo_comprobante", "boleta"), "tipo_comprobante"},
		{"estado unknown", testenv.With(base, "estado", "completada"), "estado"},
		{"estado anulada", testenv.With(base, "estado", "anulada"), "estado"},
		{"condicion unknown", testenv.With(base, "condicion_venta", "fiado"), "condicion_venta"},
		{"observaciones too long", testenv.With(base, "observaciones", long), "observaciones"},
		{"detalles missing", testenv.With(base, "detalles", testenv.Absent), "detalles"},
		{"detalles empty", testenv.With(base, "detalles", []any{}), "detalles"},
		{"detalles not a list", testenv.With(base, "detalles", map[string]any{"producto_id": p}), "detalles"},
		{"line not an object", testenv.With(base, "detalles", []any{5}), "detalles.0"},
		{"producto missing", venta(linea(p, 1, 100, "producto_id", testenv.Absent)), "detalles.0.producto_id"},
		{"producto unknown", venta(linea(p, 1, 100), linea(999999, 1, 100)), "detalles.1.producto_id"},
		{"producto of another company", venta(linea(p, 1, 100), linea(ajeno, 1, 100)), "detalles.1.producto_id"},
		{"producto deleted", venta(linea(borrado, 1, 100)), "detalles.0.producto_id"},
		{"producto inactive", venta(linea(inactivo, 1, 100)), "detalles.0.producto_id"},
		{"cantidad missing", venta(linea(p, testenv.Absent, 100)), "detalles.0.cantidad"},
		{"cantidad below 0.01", venta(linea(p, "0.009", 100)), "detalles.0.cantidad"},
		{"cantidad zero", venta(linea(p, 0, 100)), "detalles.0.cantidad"},
		{"cantidad 4 decimals", venta(linea(p, "1.0005", 100)), "detalles.0.cantidad"},
		{"cantidad text", venta(linea(p, "uno", 100)), "detalles.0.cantidad"},
		{"precio missing", venta(linea(p, 1, testenv.Absent)), "detalles.0.precio_unitario"},
		{"precio negative", venta(linea(p, 1, -1)), "detalles.0.precio_unitario"},
		{"precio 3 decimals", venta(linea(p, 1, "1.005")), "detalles.0.precio_unitario"},
		{"precio huge", venta(linea(p, 1, "1e20")), "detalles.0.precio_unitario"},
		{"subtotal too large", venta(linea(p, "9999999999999", "99999")), "detalles.0.cantidad"},
		{"descuento negative", venta(linea(p, 1, 100, "descuento", -1)), "detalles.0.descuento"},
		{"descuento above subtotal", venta(linea(p, 2, 50, "descuento", "100.01")), "detalles.0.descuento"},
		{"porcentaje above 100", venta(linea(p, 1, 100, "porcentaje_impuesto", "100.01")), "detalles.0.porcentaje_impuesto"},
		{"porcentaje negative", venta(linea(p, 1, 100, "porcentaje_impuesto", -1)), "detalles.0.porcentaje_impuesto"},
		{"descripcion too long", venta(linea(p, 1, 100, "descripcion", strings.Repeat("d", 1001))), "detalles.0.descripcion"},
		{"cliente of another company", testenv.With(base, "cliente_id", clienteAjeno), "cliente_id"},
		{"cliente unknown", testenv.With(base, "cliente_id", 999999), "cliente_id"},
		{"cliente not an integer", testenv.With(base, "cliente_id", "abc"), "cliente_id"},
		{"sucursal of another company", testenv.With(base, "sucursal_id", sucursalAjena), "sucursal_id"},
		{"almacen of another company", testenv.With(base, "almacen_id", almacenAjeno), "almacen_id"},
		{"forma de pago unknown", testenv.With(base, "forma_pago_id", 999999), "forma_pago_id"},
		{"credit without customer", testenv.With(base, "condicion_venta", "credito"), "cliente_id"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := f.E.Call(f.Admin, http.MethodPost, "/api/ventas", c.Body)
			testenv.Expect422(t, r, c.Field)
			if testenv.Str(r.JSON, "message") == "" || r.JSON["success"] != false {
				t.Errorf("envelope: %s", r.Raw)
			}
		})
	}
	// Several lines report each of their errors under their own index.
	r := f.vender(venta(linea(p, 1, 100), linea(p, 0, -5), linea(ajeno, 1, 100)))
	testenv.Expect422(t, r, "detalles.1.cantidad")
	testenv.Expect422(t, r, "detalles.1.precio_unitario")
	// Spanish messages.
	if got := r.FieldErrors("detalles.1.cantidad")[0]; got != "El campo cantidad debe ser al menos 0.01." {
		t.Errorf("message %q", got)
	}
	// Nothing was written and no number was taken.
	if n := f.Int(`select count(*) from ventas`); n != 0 {
		t.Errorf("%d sales after refused requests", n)
	}
	if r := f.venderOK(venta(linea(p, 1, 100))); testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000001" {
		t.Errorf("a refused request consumed a number: %s", r.Raw)
	}
	// Malformed bodies.
	for body, status := range map[string]int{`{roto`: 400, `[1]`: 400} {
		if r := f.E.Call(f.Admin, http.MethodPost, "/api/ventas", body); r.Status != status {
			t.Errorf("%s: %d", body, r.Status)
		}
	}
}

func TestEmpresaIDInTheBodyIsIgnored(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	r := f.venderOK(testenv.With(venta(linea(p, 1, 100)), "empresa_id", 2))
	if testenv.Num(r.JSON, "data.empresa_id") != 1 || f.Int(`select empresa_id from ventas where id = $1`, id(r)) != 1 {
		t.Errorf("created outside the tenant: %s", r.Raw)
	}
}

func TestNotesRequireTheSaleTheyCorrect(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	p2 := f.Producto(testenv.Prod{Empresa: 2, Codigo: "P"})
	factura := int64(testenv.Num(f.venderOK(venta(linea(p, 1, 100))).JSON, "data.id"))
	ajena := int64(testenv.Num(f.E.Call(f.E.Admin(2), http.MethodPost, "/api/ventas", venta(linea(p2, 1, 10))).JSON, "data.id"))
	nota := func(kv ...any) map[string]any {
		return testenv.With(testenv.With(venta(linea(p, 1, 100)), "tipo_comprobante", "nota_credito", "venta_referencia_id", factura, "codigo_referencia", "01", "razon_referencia", "Devolución total"), kv...)
	}
	long := strings.Repeat("x", 181)
	cases := []testenv.Invalid{
		{"reference missing", nota("venta_referencia_id", testenv.Absent), "venta_referencia_id"},
		{"code missing", nota("codigo_referencia", testenv.Absent), "codigo_referencia"},
		{"reason missing", nota("razon_referencia", testenv.Absent), "razon_referencia"},
		{"code 03 does not exist", nota("codigo_referencia", "03"), "codigo_referencia"},
		{"code 17 is for receipts", nota("codigo_referencia", "17"), "codigo_referencia"},
		{"reason over 180", nota("razon_referencia", long), "razon_referencia"},
		{"another company's sale", nota("venta_referencia_id", ajena), "venta_referencia_id"},
		{"unknown sale", nota("venta_referencia_id", 999999), "venta_referencia_id"},
		{"a factura carries no reference", testenv.With(venta(linea(p, 1, 100)), "venta_referencia_id", factura), "venta_referencia_id"},
	}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/ventas", cases)
	r := f.venderOK(testenv.With(nota(), "tipo_comprobante", "nota_debito", "codigo_referencia", "14"))
	if testenv.Num(r.JSON, "data.venta_referencia_id") != float64(factura) || testenv.Str(r.JSON, "data.codigo_referencia") != "14" ||
		testenv.Str(r.JSON, "data.razon_referencia") != "Devolución total" || testenv.Str(r.JSON, "data.numero_comprobante") != "ND-00000001" {
		t.Fatalf("note: %s", r.Raw)
	}
}

func TestSalesInDollarsCarryTheirExchangeRate(t *testing.T) {
	f := setup(t)
	servicio := f.Producto(testenv.Prod{Codigo: "USD", Precio: "100", Servicio: true})
	vender := func(kv ...any) testenv.Resp {
		body := testenv.With(venta(linea(servicio, 1, 100, "porcentaje_impuesto", 13)), "fecha_venta", "2026-11-21")
		return f.vender(testenv.With(body, kv...))
	}
	r := vender("moneda", "USD", "tipo_cambio", "512.34567")
	if r.Status != 201 || testenv.Str(r.JSON, "data.moneda") != "USD" || testenv.Num(r.JSON, "data.tipo_cambio") != 512.34567 {
		t.Fatalf("USD sale: %d %s", r.Status, r.Raw)
	}
	if r := vender(); r.Status != 201 || testenv.Str(r.JSON, "data.moneda") != "CRC" || testenv.Num(r.JSON, "data.tipo_cambio") != 1 {
		t.Fatalf("default CRC sale: %d %s", r.Status, r.Raw)
	}
	for name, c := range map[string]struct {
		kv    []any
		field string
	}{
		"dollars need a rate":        {[]any{"moneda", "USD"}, "tipo_cambio"},
		"colones have rate 1":        {[]any{"moneda", "CRC", "tipo_cambio", 500}, "tipo_cambio"},
		"rate must be positive":      {[]any{"moneda", "USD", "tipo_cambio", 0}, "tipo_cambio"},
		"at most 5 decimals":         {[]any{"moneda", "USD", "tipo_cambio", "512.123456"}, "tipo_cambio"},
		"only CRC and USD are known": {[]any{"moneda", "EUR", "tipo_cambio", 600}, "moneda"},
	} {
		if r := vender(c.kv...); r.Status != 422 || len(r.FieldErrors(c.field)) == 0 {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
}

// A number the counter hands out that a sale already holds (a counter set
// back by hand) is a 409, and nothing is written. The number is taken inside
// the insert and PostgreSQL leaves a row-level-secured table's key out of
// the violation's detail, so the message cannot name it.
func TestCreateWithANumberAlreadyTakenIs409(t *testing.T) {
	f := setup(t)
	cafe := f.Producto(testenv.Prod{Codigo: "CAF"})
	f.venderOK(venta(linea(cafe, 1, 1000)))
	f.E.Exec(`update contadores set valor = valor - 1 where empresa_id = 1 and clave = 'FAC'`)
	r := f.vender(venta(linea(cafe, 1, 1000)))
	if r.Status != http.StatusConflict || testenv.Str(r.JSON, "message") != "El número de comprobante asignado ya existe; intente de nuevo." {
		t.Fatalf("a repeated number: %d %s", r.Status, r.Raw)
	}
	if n := f.Int(`select count(*) from ventas where empresa_id = 1`); n != 1 {
		t.Errorf("sales after the refused one = %d, want 1", n)
	}
}
