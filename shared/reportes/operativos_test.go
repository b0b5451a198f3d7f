package reportes_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

// op is a company's set-up for the operational reports: a product of
// 5,000 + IVA 13 % with stock, a customer with 30 days of credit, the
// principal warehouse and the administrator's token.
type op struct {
	f        *fx
	empresa  int
	tok      string
	almacen  int64
	producto int64
	cliente  int64
}

func (f *fx) operativo(empresa int) *op {
	f.T.Helper()
	o := &op{f: f, empresa: empresa, tok: f.E.Admin(empresa)}
	_, o.almacen = f.Principales(int64(empresa))
	o.producto = f.Producto(testenv.Prod{Empresa: int64(empresa), Codigo: "OP-" + strconv.Itoa(empresa), Precio: "5000", Compra: "1000", Tarifa: "08"})
	f.Stock(o.almacen, o.producto, "100", "1000", "L1", "")
	o.cliente = f.Cliente(int64(empresa), "10999"+strconv.Itoa(empresa)+"777", 30)
	return o
}

// venta creates a confirmed sale of n units through the API (credito
// with the customer, or contado without one) and returns its id.
func (o *op) venta(fecha string, n int, credito bool, kv ...any) int64 {
	o.f.T.Helper()
	body := map[string]any{"fecha_venta": fecha, "tipo_comprobante": "factura", "condicion_venta": "contado", "almacen_id": o.almacen,
		"detalles": []any{map[string]any{"producto_id": o.producto, "cantidad": n, "precio_unitario": 5000}}}
	if credito {
		body["condicion_venta"], body["cliente_id"] = "credito", o.cliente
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(body, kv[i].(string))
		} else {
			body[kv[i].(string)] = kv[i+1]
		}
	}
	return int64(o.f.E.Create(o.f.T, o.tok, "/api/ventas", body))
}

// cobrar pays part of a sale's receivable through the API.
func (o *op) cobrar(venta int64, monto, fecha string) {
	o.f.T.Helper()
	cxc := testenv.Scalar[int64](o.f.T, o.f.E, `select id from cuentas_por_cobrar where venta_id = $1`, venta)
	forma := testenv.Scalar[int64](o.f.T, o.f.E, `select id from formas_pago where activo order by id limit 1`)
	r := o.f.E.Call(o.tok, http.MethodPost, "/api/cuentas-por-cobrar/"+strconv.FormatInt(cxc, 10)+"/pagos",
		map[string]any{"monto": monto, "fecha": fecha, "forma_pago_id": forma})
	if r.Status != http.StatusCreated && r.Status != http.StatusOK {
		o.f.T.Fatalf("pago: %d %s", r.Status, r.Raw)
	}
}

// compra creates an order of n units at 1,000 + IVA 13 % from a supplier
// with dias days of credit and receives it through the API (its payable
// is issued today and due in dias days).
func (o *op) compra(n, dias int) int64 {
	o.f.T.Helper()
	prov := testenv.Scalar[int64](o.f.T, o.f.E, `insert into proveedores (empresa_id, nombre, nit_ruc, dias_credito)
		values ($1::bigint, 'Proveedor ' || $2::int::text || ' días', 'NIT-' || $1::text || '-' || $2::int::text || '-' || $3::int::text, $2::int) returning id`, o.empresa, dias, n)
	ordenCompra(o.f.Fixture, o.tok, prov, o.almacen, testenv.Linea(o.producto, n, 1000))
	return prov
}

func hoy() string {
	return time.Now().In(time.FixedZone("CR", -6*3600)).Format(time.DateOnly)
}

func dias(n int) string {
	d, _ := time.Parse(time.DateOnly, hoy())
	return d.AddDate(0, 0, n).Format(time.DateOnly)
}

// Aging at 2026-06-30 of five credit sales of company 1 (30 days of
// credit), one in each bucket, one of them partly paid before the cut and
// one paid after it; payables of suppliers with 0, 10 and 45 days of
// credit aged 40 days from now. Company 2's sale and purchase never show.
func TestAgingReportsBucketPendingBalancesAtTheCutDate(t *testing.T) {
	f := setup(t)
	o := f.operativo(1)
	o.venta("2026-06-20", 1, true)      // due 07-20: corriente 5,650
	o.venta("2026-05-20", 2, true)      // due 06-19, 11 days: 1-30 11,300
	c := o.venta("2026-04-10", 1, true) // due 05-10, 51 days: 31-60 5,650 - 650 paid
	o.cobrar(c, "650.00", "2026-05-01")
	d := o.venta("2026-03-20", 1, true) // due 04-19, 72 days: 61-90 5,650 (paid later)
	o.cobrar(d, "5650.00", "2026-07-10")
	o.venta("2026-03-01", 1, true)  // due 03-31, 91 days: > 90 5,650
	o.venta("2026-06-25", 3, false) // cash: no receivable
	o.venta("2026-07-01", 1, true)  // after the cut
	o2 := f.operativo(2)
	o2.venta("2026-03-01", 7, true)
	o2.compra(9, 0)

	r := f.ok("/api/reportes/antiguedad-cuentas-por-cobrar?fecha_corte=2026-06-30")
	want(t, r, "cobrar", map[string]string{
		"data.totales.corriente": "5650.00", "data.totales.dias_1_30": "11300.00", "data.totales.dias_31_60": "5000.00",
		"data.totales.dias_61_90": "5650.00", "data.totales.mas_90": "5650.00", "data.totales.total": "33250.00",
		"data.secciones.0.filas.0.total": "33250.00",
	})
	if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != 1 || testenv.Str(r.JSON, "data.tipo") != "antiguedad-cuentas-por-cobrar" ||
		testenv.Str(r.JSON, "data.parametros.fecha_corte") != "2026-06-30" || testenv.Str(r.JSON, "data.secciones.0.filas.0.nombre") != "Cliente 109991777" {
		t.Errorf("one customer of company 1: %s", r.Raw)
	}
	// A payment before the cut, made after the report was cached, shows at
	// once (it posts an entry, which moves the company's cache version).
	o.cobrar(c, "1000.00", "2026-06-01")
	r = f.ok("/api/reportes/antiguedad-cuentas-por-cobrar?fecha_corte=2026-06-30")
	want(t, r, "cobrar after a payment", map[string]string{"data.totales.dias_31_60": "4000.00", "data.totales.total": "32250.00"})
	if h := r.Header.Get("X-Reporte-Cache"); h != "MISS" {
		t.Errorf("after a payment: cache %s", h)
	}
	// Default cut: today: the sale paid on 07-10 is gone and the one of
	// 07-01 is in.
	r = f.ok("/api/reportes/antiguedad-cuentas-por-cobrar")
	if testenv.Str(r.JSON, "data.parametros.fecha_corte") != hoy() {
		t.Errorf("default fecha_corte: %s", r.Raw)
	}
	want(t, r, "cobrar today", map[string]string{"data.totales.total": "32250.00"})

	o.compra(2, 0)  // 2,260 due today
	o.compra(3, 10) // 3,390 due in 10 days
	o.compra(4, 45) // 4,520 due in 45 days
	r = f.ok("/api/reportes/antiguedad-cuentas-por-pagar?fecha_corte=" + dias(40))
	want(t, r, "pagar", map[string]string{
		"data.totales.corriente": "4520.00", "data.totales.dias_1_30": "3390.00", "data.totales.dias_31_60": "2260.00",
		"data.totales.dias_61_90": "0.00", "data.totales.mas_90": "0.00", "data.totales.total": "10170.00",
	})
	if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != 3 || testenv.Str(r.JSON, "data.secciones.0.clave") != "proveedores" {
		t.Errorf("three suppliers of company 1, in section proveedores: %s", r.Raw)
	}
	// Before the payables were issued there is nothing.
	r = f.ok("/api/reportes/antiguedad-cuentas-por-pagar?fecha_corte=2026-01-01")
	want(t, r, "pagar before", map[string]string{"data.totales.total": "0.00"})

	// Company 2 sees only its own.
	r2 := f.E.Get("/api/reportes/antiguedad-cuentas-por-cobrar?fecha_corte=2026-06-30", f.E.Admin(2))
	want(t, r2, "cobrar company 2", map[string]string{"data.totales.mas_90": "39550.00", "data.totales.total": "39550.00"})
	r2 = f.E.Get("/api/reportes/antiguedad-cuentas-por-pagar?fecha_corte="+dias(40), f.E.Admin(2))
	want(t, r2, "pagar company 2", map[string]string{"data.totales.dias_31_60": "10170.00", "data.totales.total": "10170.00"})

	// A bad date is a 422 on its name; both are listed.
	for _, p := range []string{"/api/reportes/antiguedad-cuentas-por-cobrar?fecha_corte=2026-13-01", "/api/reportes/antiguedad-cuentas-por-pagar?fecha_corte=ayer"} {
		if r := f.get(p); r.Status != http.StatusUnprocessableEntity || testenv.Str(r.JSON, "errors.fecha_corte.0") == "" {
			t.Errorf("%s: %d %s", p, r.Status, r.Raw)
		}
	}
	tipos := f.ok("/api/reportes/tipos").Raw
	for _, k := range []string{`"antiguedad-cuentas-por-cobrar"`, `"antiguedad-cuentas-por-pagar"`, `"fecha_corte"`, `"dias_61_90"`} {
		if !strings.Contains(string(tipos), k) {
			t.Errorf("tipos lacks %s", k)
		}
	}
}

// The sales report of March: a cash sale of 2 units, a credit sale of 1,
// a credit note of 1 against the cash sale (subtracts), a draft of 4 and
// an April sale (neither counts), and company 2's sale of 7 (never seen).
func TestSalesReportGroupsConfirmedSalesLessCreditNotes(t *testing.T) {
	f := setup(t)
	o := f.operativo(1)
	contado := o.venta("2026-03-15", 2, false)
	o.venta("2026-03-16", 1, true)
	o.venta("2026-03-16", 1, false, "tipo_comprobante", "nota_credito", "venta_referencia_id", contado,
		"codigo_referencia", "06", "razon_referencia", "Devolución", "almacen_id", nil)
	o.venta("2026-03-20", 4, false, "estado", "borrador")
	o.venta("2026-04-01", 1, false)
	f.operativo(2).venta("2026-03-10", 7, false)

	base := "/api/reportes/ventas?" + marzo
	r := f.ok(base)
	want(t, r, "ventas", map[string]string{
		"data.totales.cantidad": "2.000", "data.totales.subtotal": "10000.00", "data.totales.descuentos": "0.00",
		"data.totales.impuestos": "1300.00", "data.totales.total": "11300.00",
		// By day (the default): the 15th, then the 16th (a sale and its note cancel).
		"data.secciones.0.filas.0.total": "11300.00", "data.secciones.0.filas.1.cantidad": "0.000", "data.secciones.0.filas.1.total": "0.00",
	})
	if testenv.Str(r.JSON, "data.parametros.agrupar") != "dia" || testenv.Str(r.JSON, "data.secciones.0.filas.0.grupo") != "2026-03-15" ||
		testenv.Len(r.JSON, "data.secciones.0.filas") != 2 || testenv.Str(r.JSON, "data.tipo") != "ventas" {
		t.Errorf("by day: %s", r.Raw)
	}
	r = f.ok(base + "&agrupar=cliente")
	want(t, r, "por cliente", map[string]string{
		"data.secciones.0.filas.0.subtotal": "5000.00", "data.secciones.0.filas.0.impuestos": "650.00", "data.secciones.0.filas.0.total": "5650.00",
		"data.secciones.0.filas.1.cantidad": "1.000", "data.secciones.0.filas.1.total": "5650.00", "data.totales.total": "11300.00",
	})
	if testenv.Str(r.JSON, "data.secciones.0.filas.0.grupo") != "Cliente 109991777" || testenv.Str(r.JSON, "data.secciones.0.filas.1.grupo") != "Sin cliente" {
		t.Errorf("by customer: %s", r.Raw)
	}
	for _, g := range []string{"producto", "sucursal", "vendedor"} {
		r = f.ok(base + "&agrupar=" + g)
		want(t, r, g, map[string]string{"data.totales.total": "11300.00", "data.secciones.0.filas.0.total": "11300.00", "data.secciones.0.filas.0.cantidad": "2.000"})
		if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != 1 {
			t.Errorf("by %s: %d rows: %s", g, n, r.Raw)
		}
	}
	if g := testenv.Str(f.ok(base+"&agrupar=producto").JSON, "data.secciones.0.filas.0.grupo"); g != "OP-1 Producto OP-1" {
		t.Errorf("product label %q", g)
	}
	r2 := f.E.Get(base, f.E.Admin(2))
	want(t, r2, "company 2", map[string]string{"data.totales.cantidad": "7.000", "data.totales.total": "39550.00"})

	for p, campo := range map[string]string{
		base + "&agrupar=mes":                                               "agrupar",
		"/api/reportes/ventas?fecha_fin=2026-03-31":                         "fecha_inicio",
		"/api/reportes/ventas?fecha_inicio=2026-03-31&fecha_fin=2026-03-01": "fecha_fin",
	} {
		testenv.Expect422(t, f.get(p), campo)
	}
}

// IVA from March to today: March's sale of 2 units at 13 % and one of 3
// exempt units, April's sale of 3 units less a credit note of 1, today's
// two received purchases at 13 %; company 2's sale and purchase apart.
func TestTaxReportSumsIVAChargedAndCreditedByRateAndMonth(t *testing.T) {
	f := setup(t)
	o := f.operativo(1)
	exento := testenv.Scalar[int64](t, f.E, `insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, codigo, tipo,
			precio_venta, gestionado_inventario, activo)
		select 1, c.id, u.id, 'Exento', 'EX-1', 'producto', 2000, false, true
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' limit 1 returning id`)
	ventaMarzo := o.venta("2026-03-15", 2, false)
	o.venta("2026-03-20", 0, false, "detalles", []any{map[string]any{"producto_id": exento, "cantidad": 3, "precio_unitario": 2000}})
	o.venta("2026-04-10", 3, true)
	o.venta("2026-04-12", 1, false, "tipo_comprobante", "nota_credito", "venta_referencia_id", ventaMarzo,
		"codigo_referencia", "06", "razon_referencia", "Devolución", "almacen_id", nil)
	o.venta("2026-04-20", 5, false, "estado", "borrador")
	o.compra(2, 0)
	o.compra(4, 30)
	o2 := f.operativo(2)
	o2.venta("2026-03-10", 7, false)
	o2.compra(9, 0)

	p := "/api/reportes/impuestos?fecha_inicio=2026-03-01&fecha_fin=" + hoy()
	r := f.ok(p)
	mes := hoy()[:7]
	want(t, r, "impuestos", map[string]string{
		"data.totales.base_ventas": "26000.00", "data.totales.iva_ventas": "2600.00",
		"data.totales.base_compras": "6000.00", "data.totales.iva_compras": "780.00", "data.totales.iva_neto": "1820.00",
		"data.secciones.0.filas.0.porcentaje_impuesto": "0.00", "data.secciones.0.filas.0.base": "6000.00", "data.secciones.0.filas.0.iva": "0.00",
		"data.secciones.0.filas.1.porcentaje_impuesto": "13.00", "data.secciones.0.filas.1.base": "10000.00", "data.secciones.0.filas.1.iva": "1300.00",
		"data.secciones.0.filas.2.base": "10000.00", "data.secciones.0.filas.2.iva": "1300.00",
		"data.secciones.1.filas.0.porcentaje_impuesto": "13.00", "data.secciones.1.filas.0.base": "6000.00", "data.secciones.1.filas.0.iva": "780.00",
		"data.secciones.0.totales.iva": "2600.00", "data.secciones.1.totales.iva": "780.00",
	})
	if testenv.Str(r.JSON, "data.secciones.0.filas.0.mes") != "2026-03" || testenv.Str(r.JSON, "data.secciones.0.filas.2.mes") != "2026-04" ||
		testenv.Str(r.JSON, "data.secciones.1.filas.0.mes") != mes || testenv.Len(r.JSON, "data.secciones.0.filas") != 3 ||
		testenv.Len(r.JSON, "data.secciones.1.filas") != 1 || testenv.Str(r.JSON, "data.secciones.0.clave") != "ventas" {
		t.Errorf("rows: %s", r.Raw)
	}
	// March alone: no purchases yet.
	r = f.ok("/api/reportes/impuestos?" + marzo)
	want(t, r, "marzo", map[string]string{"data.totales.iva_ventas": "1300.00", "data.totales.iva_compras": "0.00", "data.totales.iva_neto": "1300.00"})

	r2 := f.E.Get(p, f.E.Admin(2))
	want(t, r2, "company 2", map[string]string{"data.totales.iva_ventas": "4550.00", "data.totales.iva_compras": "1170.00", "data.totales.iva_neto": "3380.00"})

	for q, campo := range map[string]string{
		"/api/reportes/impuestos?fecha_inicio=2026-03-01":                      "fecha_fin",
		"/api/reportes/impuestos?fecha_inicio=2026-02-30&fecha_fin=2026-03-31": "fecha_inicio",
	} {
		testenv.Expect422(t, f.get(q), campo)
	}
}

// A report's CSV writes a text cell that a spreadsheet would run as a
// formula (a customer named =HYPERLINK(...)) with a leading apostrophe,
// while its amounts, negative ones included, stay plain numbers.
func TestReportCSVTextCellsNeverBecomeFormulas(t *testing.T) {
	f := setup(t)
	o := f.operativo(1)
	f.E.Exec(`update clientes set nombre = '=HYPERLINK("http://malo.cr","clic")', apellidos = null where id = $1`, o.cliente)
	credito := o.venta("2026-02-27", 1, true) // February's sale, March's credit note: -5,650
	o.venta("2026-03-17", 1, true, "tipo_comprobante", "nota_credito", "venta_referencia_id", credito,
		"codigo_referencia", "06", "razon_referencia", "Devolución", "almacen_id", nil)
	r := f.descarga(t, "/api/reportes/ventas?"+marzo+"&agrupar=cliente&formato=csv", "text/csv; charset=utf-8", "ventas_2026-03-01_2026-03-31.csv")
	rows := testenv.CSVRows(t, r.Raw)
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(rows) < 2 || rows[1][col["grupo"]] != `'=HYPERLINK("http://malo.cr","clic")` || rows[1][col["total"]] != "-5650.00" {
		t.Fatalf("%q", rows)
	}
}
