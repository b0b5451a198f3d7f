package escenario

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/testenv"
)

// One business day of company 1 (purchases received and partly paid, cash,
// credit, dollar and weighed sales at 13 %, 1 % and exempt, a credit note,
// a cancelled sale, collections, a transfer, adjustments, a cash box) and
// the figures an auditor checks across modules: stock, movements,
// valuation, kardex and the books' inventory; sales, IVA, the dashboard
// and the books' revenue and IVA; receivables and payables against their
// aging and accounts; a balanced trial balance and balance sheet; the
// files of the reports; and company 2 seeing none of it.
func TestUnDiaDeNegocioCuadraEntreModulos(t *testing.T) {
	x := nuevoDia(t)
	x.maestros()
	x.compra()
	x.calentar() // every report and the dashboard cached mid-day: what follows must invalidate them
	x.ventasDelDia()
	x.calentar()
	credito := x.Int(`select id from ventas where empresa_id = 1 and condicion_venta = 'credito' and estado = 'pendiente' order by id limit 1`)
	x.notaCredito(credito)
	x.calentar()
	x.movimientos()
	x.planilla()
	cierre := x.Must(http.StatusOK, http.MethodPost, testenv.Path("cajas", x.caja, "cerrar"), map[string]any{"monto_contado": "93000.00"})
	t.Run("the cash box expects what went through it", func(t *testing.T) { x.cuadraCaja(t, cierre) })

	t.Run("stock, movements, valuation and batches agree", x.cuadraInventario)
	t.Run("kardex ends at the stock and its value", x.cuadraKardex)
	t.Run("sales report, IVA report and dashboard agree with the sales", x.cuadraVentas)
	t.Run("receivables and payables agree with their aging and accounts", x.cuadraCuentas)
	t.Run("the books balance and agree with the operations", x.cuadraLibros)
	t.Run("report files carry the JSON's totals", x.cuadraArchivos)
	t.Run("company 2 sees none of it", x.aislado)
}

// calentar reads every report the checks read, and the dashboard, so
// that they are cached: a write that does not invalidate them shows as a
// stale figure in the checks.
func (x *dia) calentar() {
	x.T.Helper()
	periodo := "fecha_inicio=" + x.mes + "&fecha_fin=" + x.hoy
	for _, p := range []string{"/api/dashboard", fmt.Sprintf("/api/dashboard?sucursal_id=%d", x.Sucursal),
		"/api/reportes/inventario-valorizado", "/api/reportes/ventas?" + periodo, "/api/reportes/impuestos?" + periodo,
		"/api/reportes/compras?" + periodo, "/api/reportes/antiguedad-cuentas-por-cobrar", "/api/reportes/antiguedad-cuentas-por-pagar",
		"/api/reportes/balanza-comprobacion?fecha_inicio=" + x.hoy[:5] + "01-01&fecha_fin=" + x.hoy,
		"/api/reportes/financiero?tipo=balance_general&fecha_fin=" + x.hoy,
		fmt.Sprintf("/api/reportes/kardex?producto_id=%d", x.p13), fmt.Sprintf("/api/reportes/kardex?producto_id=%d&almacen_id=%d", x.p13, x.bodega)} {
		x.Must(http.StatusOK, http.MethodGet, p, nil)
	}
}

// reporte GETs a report as company 1's administrator.
func (x *dia) reporte(t *testing.T, path string) testenv.Resp {
	t.Helper()
	r := x.E.Get(path, x.Admin)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
	}
	return r
}

type clave struct{ almacen, producto int64 }

// sumaFilas adds the column key of the rows of section s of a report, as
// a reader adds what the report shows.
func sumaFilas(t *testing.T, r testenv.Resp, s int, key string) decimal.Decimal {
	t.Helper()
	var sum decimal.Decimal
	for i := 0; i < testenv.Len(r.JSON, fmt.Sprintf("data.secciones.%d.filas", s)); i++ {
		sum = sum.Add(amt(t, r, fmt.Sprintf("data.secciones.%d.filas.%d.%s", s, i, key)))
	}
	return sum
}

func (x *dia) cuadraInventario(t *testing.T) {
	// The API's stock per warehouse and product, and its value at the batches' costs.
	ex := x.reporte(t, "/api/inventario/existencias?per_page=100")
	stock, valor := map[clave]decimal.Decimal{}, map[clave]decimal.Decimal{}
	var valorLotes decimal.Decimal
	for i := 0; i < testenv.Len(ex.JSON, "data"); i++ {
		p := fmt.Sprintf("data.%d.", i)
		k := clave{int64(testenv.Num(ex.JSON, p+"almacen_id")), int64(testenv.Num(ex.JSON, p+"producto_id"))}
		stock[k], valor[k] = amt(t, ex, p+"cantidad_disponible"), amt(t, ex, p+"valor")
		valorLotes = valorLotes.Add(valor[k])
	}
	if len(stock) != 7 {
		t.Errorf("%d stock rows, want 7 (4 products in the principal warehouse, 3 in the other): %s", len(stock), ex.Raw)
	}
	// Every movement is dated today in Costa Rica, as the day's documents are.
	if n := x.Int(`select count(*) from movimientos_inventario where empresa_id = 1 and fecha <> $1::date`, x.hoy); n != 0 {
		t.Errorf("%d movements not dated %s (today in Costa Rica): %s", n, x.hoy,
			x.Text(`select string_agg(numero || ' ' || tipo || ' ' || fecha, ', ') from movimientos_inventario where empresa_id = 1 and fecha <> $1::date`, x.hoy))
	}
	// The processed movements add up to the stock.
	movs := testenv.Column[string](t, x.E, `select m.almacen_id || ' ' || d.producto_id || ' ' ||
			sum(case when m.clase = 'entrada' then d.cantidad else -d.cantidad end)
		from movimientos_inventario m join detalles_movimiento d on d.movimiento_id = m.id
		where m.empresa_id = 1 and m.estado = 'Procesada' and not m.eliminado group by m.almacen_id, d.producto_id`)
	for _, row := range movs {
		var a, p int64
		var q string
		fmt.Sscan(row, &a, &p, &q)
		diferente(t, fmt.Sprintf("movements of product %d in warehouse %d against its stock", p, a), d(q), stock[clave{a, p}])
	}
	// The valuation report: the same quantities, and the value the books carry.
	r := x.reporte(t, "/api/reportes/inventario-valorizado")
	var cant decimal.Decimal
	for s := 0; s < testenv.Len(r.JSON, "data.secciones"); s++ {
		for i := 0; i < testenv.Len(r.JSON, fmt.Sprintf("data.secciones.%d.filas", s)); i++ {
			p := fmt.Sprintf("data.secciones.%d.filas.%d.", s, i)
			k := clave{int64(testenv.Num(r.JSON, p+"almacen_id")), int64(testenv.Num(r.JSON, p+"producto_id"))}
			diferente(t, fmt.Sprintf("valuation quantity of %v", k), amt(t, r, p+"cantidad"), stock[k])
			diferente(t, fmt.Sprintf("valuation value of %v against its batches", k), amt(t, r, p+"valor"), valor[k])
			cant = cant.Add(stock[k])
		}
	}
	diferente(t, "valuation total quantity", amt(t, r, "data.totales.cantidad"), cant)
	var filas decimal.Decimal
	for s := 0; s < testenv.Len(r.JSON, "data.secciones"); s++ {
		filas = filas.Add(sumaFilas(t, r, s, "valor"))
		diferente(t, fmt.Sprintf("valuation section %d: total value against its rows", s), amt(t, r, fmt.Sprintf("data.secciones.%d.totales.valor", s)),
			sumaFilas(t, r, s, "valor"))
	}
	diferente(t, "valuation total value against its rows", amt(t, r, "data.totales.valor"), filas)
	diferente(t, "valuation total value against the batches", amt(t, r, "data.totales.valor"), valorLotes)
	// The books and the batches carry the same value: the books post each
	// movement at its recorded cost (an entry's lines quantity × cost, an
	// exit's what it consumed batch by batch, one of them averaged by the
	// second receipt into its batch) rounded to céntimos (12.5 kg at
	// 1777.77 is 22222.13), the valuation rounds each row of the batches
	// (8.792 kg at 1777.77 is 15630.15). Before rounding the two are the
	// same sum exactly; after it, they differ by exactly those roundings.
	valores := `select m.id, m.tipo, case when m.clase = 'entrada'
			then (select sum(d.cantidad * d.costo_unitario) from detalles_movimiento d where d.movimiento_id = m.id)
			else -(select coalesce(sum(c.cantidad * c.costo_unitario), 0) from consumos_lote c
			  join detalles_movimiento d on d.id = c.detalle_id where d.movimiento_id = m.id) end as v
		from movimientos_inventario m where m.empresa_id = 1 and m.estado = 'Procesada' and not m.eliminado`
	movido := d(x.Text(`select sum(v)::text from (` + valores + `) x`))
	libros := d(x.Text(`select sum(round(v, 2))::text from (` + valores + `) x where tipo <> 'Transferencia'`))
	lotes := d(x.Text(`select sum(cantidad_disponible * costo_unitario)::text from inventarios where empresa_id = 1 and not eliminado`))
	diferente(t, "inventory account against the movements as posted (each rounded)", d(x.Saldo("1.1.04.001")), libros)
	diferente(t, "the batches' value against the movements' recorded values, before rounding", lotes, movido)
}

func (x *dia) cuadraKardex(t *testing.T) {
	for _, p := range []int64{x.p13, x.p1, x.pex, x.pkg} {
		// Every warehouse at once ends at the product's whole stock and value.
		r := x.reporte(t, fmt.Sprintf("/api/reportes/kardex?producto_id=%d", p))
		v := x.reporte(t, fmt.Sprintf("/api/reportes/inventario-valorizado?producto_id=%d", p))
		stock := d(x.Existencias(x.principal, p)).Add(d(x.Existencias(x.bodega, p)))
		diferente(t, fmt.Sprintf("kardex of product %d, every warehouse: closing quantity", p), amt(t, r, "data.totales.saldo_final_cantidad"), stock)
		diferente(t, fmt.Sprintf("kardex of product %d, every warehouse: closing value", p), amt(t, r, "data.totales.saldo_final_valor"),
			amt(t, v, "data.totales.valor"))
		for _, a := range []int64{x.principal, x.bodega} {
			r := x.reporte(t, fmt.Sprintf("/api/reportes/kardex?producto_id=%d&almacen_id=%d", p, a))
			v := x.reporte(t, fmt.Sprintf("/api/reportes/inventario-valorizado?producto_id=%d&almacen_id=%d", p, a))
			que := fmt.Sprintf("kardex of product %d in warehouse %d", p, a)
			stock := d(x.Existencias(a, p))
			n := testenv.Len(r.JSON, "data.secciones.0.filas")
			if n < 1 {
				t.Fatalf("%s: no rows: %s", que, r.Raw)
			}
			ult := fmt.Sprintf("data.secciones.0.filas.%d.", n-1)
			diferente(t, que+": last balance against the stock", amt(t, r, ult+"saldo_cantidad"), stock)
			diferente(t, que+": closing quantity against the stock", amt(t, r, "data.totales.saldo_final_cantidad"), stock)
			diferente(t, que+": closing value against the valuation", amt(t, r, "data.totales.saldo_final_valor"), amt(t, v, "data.totales.valor"))
		}
	}
}

func (x *dia) cuadraVentas(t *testing.T) {
	periodo := "fecha_inicio=" + x.mes + "&fecha_fin=" + x.hoy
	for _, agrupar := range []string{"dia", "producto", "cliente", "sucursal", "vendedor"} {
		r := x.reporte(t, "/api/reportes/ventas?agrupar="+agrupar+"&"+periodo)
		for _, k := range []string{"cantidad", "subtotal", "descuentos", "impuestos", "total"} {
			got := amt(t, r, "data.totales."+k)
			diferente(t, "sales report by "+agrupar+": "+k+" against its rows", got, sumaFilas(t, r, 0, k))
			want := x.ventas[k]
			if k == "cantidad" || agrupar == "dia" { // one row: the lines' sum rounded once
				if k != "cantidad" {
					want = want.Round(2)
				}
				diferente(t, "sales report by "+agrupar+": "+k, got, want)
				continue
			}
			// Each row rounds its dollar lines in colones once.
			if dif := got.Sub(want).Abs(); dif.GreaterThan(d("0.05")) {
				t.Errorf("sales report by %s: %s %s, want %s", agrupar, k, got, want.Round(2))
			}
		}
	}
	r := x.reporte(t, "/api/reportes/impuestos?"+periodo)
	var base, iva decimal.Decimal
	for i := 0; i < testenv.Len(r.JSON, "data.secciones.0.filas"); i++ {
		p := fmt.Sprintf("data.secciones.0.filas.%d.", i)
		tasa := amt(t, r, p+"porcentaje_impuesto").StringFixed(2)
		want, ok := x.porTasa[tasa]
		if !ok {
			t.Errorf("IVA report: rate %s sold nothing", tasa)
		}
		diferente(t, "IVA report base at "+tasa+" %", amt(t, r, p+"base"), want[0].Round(2))
		diferente(t, "IVA report tax at "+tasa+" %", amt(t, r, p+"iva"), want[1].Round(2))
		base, iva = base.Add(want[0]), iva.Add(want[1])
	}
	if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != len(x.porTasa) {
		t.Errorf("IVA report: %d rates, want %d: %s", n, len(x.porTasa), r.Raw)
	}
	diferente(t, "IVA report iva_ventas", amt(t, r, "data.totales.iva_ventas"), x.ventas["impuestos"].Round(2))
	diferente(t, "IVA report base_ventas", amt(t, r, "data.totales.base_ventas"), x.ventas["subtotal"].Sub(x.ventas["descuentos"]).Round(2))

	// The dashboard counts each sale's total in colones as the books post it.
	libros := x.enLibros(t, "empresa_id = $1", 1)
	dash := x.reporte(t, "/api/dashboard")
	diferente(t, "dashboard ventas_hoy", amt(t, dash, "data.ventas_hoy.monto"), libros)
	diferente(t, "dashboard ventas_mes", amt(t, dash, "data.ventas_mes.monto"), libros)
	// Rebuilt from the sales (the repair path of migrations 0015 and 0032), the same.
	x.E.Exec(`select dashboard_reconstruir(1)`)
	re := x.reporte(t, "/api/dashboard")
	diferente(t, "dashboard ventas_mes rebuilt", amt(t, re, "data.ventas_mes.monto"), libros)
	if a, b := testenv.Exact(t, re.Raw, "data.top_productos_mes"), testenv.Exact(t, dash.Raw, "data.top_productos_mes"); a != b {
		t.Errorf("top products rebuilt %s, kept by the sales %s", a, b)
	}
	if dif := libros.Sub(x.ventas["total"]).Abs(); dif.GreaterThan(d("0.05")) {
		t.Errorf("sales in colones: the books' %s, the lines' %s", libros, x.ventas["total"])
	}
	// Per branch: the dashboard of the principal branch and the sales report's row of it.
	sucursal := x.enLibros(t, "sucursal_id = $1", x.Sucursal)
	if sucursal.IsZero() {
		t.Errorf("no sale of the principal branch")
	}
	ds := x.reporte(t, fmt.Sprintf("/api/dashboard?sucursal_id=%d", x.Sucursal))
	diferente(t, "dashboard ventas_hoy of the principal branch", amt(t, ds, "data.ventas_hoy.monto"), sucursal)
	porSucursal := x.reporte(t, "/api/reportes/ventas?agrupar=sucursal&"+periodo)
	for i := 0; i < testenv.Len(porSucursal.JSON, "data.secciones.0.filas"); i++ {
		p := fmt.Sprintf("data.secciones.0.filas.%d.", i)
		if testenv.Str(porSucursal.JSON, p+"clave") == fmt.Sprint(x.Sucursal) {
			if dif := amt(t, porSucursal, p+"total").Sub(sucursal).Abs(); dif.GreaterThan(d("0.05")) {
				t.Errorf("sales report of the principal branch %s, its sales %s", amt(t, porSucursal, p+"total"), sucursal)
			}
		}
	}
	var top decimal.Decimal
	for i := 0; i < testenv.Len(dash.JSON, "data.top_productos_mes"); i++ {
		top = top.Add(amt(t, dash, fmt.Sprintf("data.top_productos_mes.%d.monto", i)))
	}
	diferente(t, "dashboard top products (all four) against net sales", top, x.ventas["subtotal"].Sub(x.ventas["descuentos"]).Round(2))
}

// cuadraCaja: the box's expected cash is its opening plus the cash sales
// into it (the credit note's refund subtracts), plus the cash collected
// into it, less the cash paid from it; the difference is posted.
func (x *dia) cuadraCaja(t *testing.T, cierre testenv.Resp) {
	ventas := x.enLibros(t, "caja_id = $1", x.caja)
	cobros := d(x.Text(`select coalesce(sum(monto), 0)::text from pagos where caja_id = $1 and cuenta_por_cobrar_id is not null`, x.caja))
	pagos := d(x.Text(`select coalesce(sum(monto), 0)::text from pagos where caja_id = $1 and cuenta_por_pagar_id is not null`, x.caja))
	diferente(t, "box ventas_efectivo", amt(t, cierre, "data.ventas_efectivo"), ventas)
	diferente(t, "box cobros_efectivo", amt(t, cierre, "data.cobros_efectivo"), cobros)
	diferente(t, "box pagos_efectivo", amt(t, cierre, "data.pagos_efectivo"), pagos)
	esperado := d("50000.00").Add(ventas).Add(cobros).Sub(pagos)
	diferente(t, "box monto_esperado", amt(t, cierre, "data.monto_esperado"), esperado)
	diferente(t, "box diferencia", amt(t, cierre, "data.diferencia"), d("93000.00").Sub(esperado))
	if pagos.IsZero() || cobros.IsZero() || ventas.IsZero() {
		t.Errorf("the box saw no sale, collection or payment: %s", cierre.Raw)
	}
}

// enLibros adds the confirmed sales where cond holds ($1 = arg) as their
// postings count them: each total in colones rounded to céntimos, a credit
// note subtracting.
func (x *dia) enLibros(t *testing.T, cond string, arg any) decimal.Decimal {
	t.Helper()
	return d(x.Text(`select coalesce(sum(case when tipo_comprobante = 'nota_credito' then -1 else 1 end
			* round(monto_total * tipo_cambio, 2)), 0)::numeric(18,2)::text
		from ventas where `+cond+` and estado in ('pendiente', 'pagada')`, arg))
}

// saldoAging is the total of an aging report and the open balances of the
// list it ages.
func (x *dia) saldoAging(t *testing.T, reporte, lista string) (decimal.Decimal, decimal.Decimal) {
	t.Helper()
	r := x.reporte(t, "/api/reportes/"+reporte)
	l := x.reporte(t, lista+"?per_page=100")
	var abiertos decimal.Decimal
	for i := 0; i < testenv.Len(l.JSON, "data"); i++ {
		if e := testenv.Str(l.JSON, fmt.Sprintf("data.%d.estado", i)); e == "pendiente" || e == "parcial" || e == "vencida" {
			abiertos = abiertos.Add(amt(t, l, fmt.Sprintf("data.%d.saldo", i)))
		}
	}
	return amt(t, r, "data.totales.total"), abiertos
}

func (x *dia) cuadraCuentas(t *testing.T) {
	aging, abiertos := x.saldoAging(t, "antiguedad-cuentas-por-cobrar", "/api/cuentas-por-cobrar")
	diferente(t, "receivables aging against the open receivables", aging, abiertos)
	diferente(t, "receivables account against the open receivables", d(x.Saldo("1.1.03.001")), abiertos)
	// The purchases report counts the orders whose payable was issued in the period.
	compras := x.reporte(t, "/api/reportes/compras?fecha_inicio="+x.mes+"&fecha_fin="+x.hoy)
	diferente(t, "purchases report total against the payables issued", amt(t, compras, "data.totales.total"),
		d(x.Text(`select sum(monto)::text from cuentas_por_pagar where empresa_id = 1`)))
	impuestos := x.reporte(t, "/api/reportes/impuestos?fecha_inicio="+x.mes+"&fecha_fin="+x.hoy)
	diferente(t, "IVA report purchases' IVA against the purchases report", amt(t, impuestos, "data.totales.iva_compras"),
		amt(t, compras, "data.totales.impuestos"))
	aging, abiertos = x.saldoAging(t, "antiguedad-cuentas-por-pagar", "/api/cuentas-por-pagar")
	diferente(t, "payables aging against the open payables", aging, abiertos)
	diferente(t, "payables account against the open payables", d(x.Saldo("2.1.01.001")).Neg(), abiertos)
}

func (x *dia) cuadraLibros(t *testing.T) {
	periodo := "fecha_inicio=" + x.hoy[:5] + "01-01&fecha_fin=" + x.hoy
	b := x.reporte(t, "/api/reportes/balanza-comprobacion?"+periodo)
	diferente(t, "trial balance: debits against credits", amt(t, b, "data.totales.debe"), amt(t, b, "data.totales.haber"))
	diferente(t, "trial balance: closing debit against credit balances", amt(t, b, "data.totales.saldo_final_deudor"),
		amt(t, b, "data.totales.saldo_final_acreedor"))
	bg := x.reporte(t, "/api/reportes/financiero?tipo=balance_general&fecha_fin="+x.hoy)
	diferente(t, "balance sheet: assets against liabilities and equity", amt(t, bg, "data.totales.activo"),
		amt(t, bg, "data.totales.pasivo").Add(amt(t, bg, "data.totales.patrimonio")))
	er := x.reporte(t, "/api/reportes/financiero?tipo=estado_resultados&"+periodo)
	// No capital was brought in: the equity is the year's result.
	diferente(t, "balance sheet equity against the income statement's utilidad_neta", amt(t, bg, "data.totales.patrimonio"),
		amt(t, er, "data.totales.utilidad_neta"))
	var filasER decimal.Decimal
	for _, k := range []string{"ingresos", "otros_ingresos"} {
		filasER = filasER.Add(amt(t, er, "data.totales."+k))
	}
	for _, k := range []string{"costo_ventas", "gastos"} {
		filasER = filasER.Sub(amt(t, er, "data.totales."+k))
	}
	diferente(t, "income statement: utilidad_neta against its parts", amt(t, er, "data.totales.utilidad_neta"), filasER)

	// The cash flow ends at the cash and bank accounts' balance (the box
	// uses the configured cash account), and the ledger of every account
	// of the trial balance ends at its closing balance there.
	fl := x.reporte(t, "/api/reportes/financiero?tipo=flujo_efectivo&"+periodo)
	diferente(t, "cash flow saldo_final against the cash and bank accounts", amt(t, fl, "data.totales.saldo_final"),
		d(x.Saldo("1.1.01.001")).Add(d(x.Saldo("1.1.02.001"))))
	diferente(t, "cash flow variacion_neta against saldo_final - saldo_inicial", amt(t, fl, "data.totales.variacion_neta"),
		amt(t, fl, "data.totales.saldo_final").Sub(amt(t, fl, "data.totales.saldo_inicial")))
	for i := 0; i < testenv.Len(b.JSON, "data.secciones.0.filas"); i++ {
		p := fmt.Sprintf("data.secciones.0.filas.%d.", i)
		cuenta := int64(testenv.Num(b.JSON, p+"cuenta_id"))
		m := x.reporte(t, fmt.Sprintf("/api/reportes/libro-mayor?cuenta_id=%d&%s", cuenta, periodo))
		diferente(t, "ledger of "+testenv.Str(b.JSON, p+"codigo")+" against the trial balance", amt(t, m, "data.totales.saldo_final"),
			amt(t, b, p+"saldo_final_deudor").Sub(amt(t, b, p+"saldo_final_acreedor")).Mul(x.signo(cuenta)))
	}

	netas := x.ventas["subtotal"].Sub(x.ventas["descuentos"]).Round(2)
	ventas, devoluciones := d(x.Saldo("4.1.01.001")).Neg(), d(x.Saldo("4.1.01.002"))
	diferente(t, "sales less returns accounts against net sales", ventas.Sub(devoluciones), netas)
	diferente(t, "income statement ingresos against net sales", amt(t, er, "data.totales.ingresos"), netas)
	// IVA por pagar is what was charged less the credit notes (purchases'
	// IVA goes to IVA acreditable).
	diferente(t, "IVA por pagar against the sales' taxes", d(x.Saldo("2.1.02.001")).Neg(), x.ventas["impuestos"].Round(2))
	k := x.reporte(t, "/api/reportes/impuestos?fecha_inicio="+x.mes+"&fecha_fin="+x.hoy)
	diferente(t, "IVA acreditable against the IVA report's purchases", d(x.Saldo("1.1.05.001")), amt(t, k, "data.totales.iva_compras"))
	// The cost of sales is what the sales' exits consumed, less what the cancellation returned.
	costo := d(x.Text(`select coalesce(sum(case when m.clase = 'salida' then c.cantidad * c.costo_unitario else -d.cantidad * d.costo_unitario end), 0)::numeric(18,2)::text
		from movimientos_inventario m join detalles_movimiento d on d.movimiento_id = m.id
		left join consumos_lote c on c.detalle_id = d.id
		where m.empresa_id = 1 and m.estado = 'Procesada' and ((m.clase = 'salida' and m.tipo = 'Venta') or (m.clase = 'entrada' and m.tipo = 'Devolucion Cliente'))`))
	diferente(t, "cost of sales account against the sales' exits", d(x.Saldo("5.1.01.001")), costo)
	diferente(t, "income statement costo_ventas", amt(t, er, "data.totales.costo_ventas"), costo)
}

// signo is 1 for an account of debit nature and -1 for one of credit
// nature: the sign its ledger's balance carries.
func (x *dia) signo(cuenta int64) decimal.Decimal {
	if x.Text(`select naturaleza from cuentas_contables where id = $1`, cuenta) == "deudora" {
		return decimal.NewFromInt(1)
	}
	return decimal.NewFromInt(-1)
}

// cuadraArchivos downloads the reports as CSV and XLSX and finds the JSON's
// totals in their totals row.
func (x *dia) cuadraArchivos(t *testing.T) {
	periodo := "fecha_inicio=" + x.mes + "&fecha_fin=" + x.hoy
	for _, c := range []struct{ path, total string }{
		{"/api/reportes/ventas?" + periodo, "total"},
		{"/api/reportes/impuestos?" + periodo, "iva_ventas"},
		{"/api/reportes/inventario-valorizado?", "valor"},
		{"/api/reportes/inventario-valorizado?", "cantidad"},
		{"/api/reportes/antiguedad-cuentas-por-cobrar?", "total"},
		{"/api/reportes/antiguedad-cuentas-por-pagar?", "total"},
		{"/api/reportes/balanza-comprobacion?fecha_inicio=" + x.hoy[:5] + "01-01&fecha_fin=" + x.hoy, "debe"},
		{"/api/reportes/financiero?tipo=balance_general&fecha_fin=" + x.hoy, "activo"},
	} {
		j := x.reporte(t, c.path)
		want := amt(t, j, "data.totales."+c.total)
		var totales [][]string // the CSV's rows of its totals section
		for _, r := range testenv.CSVRows(t, x.reporte(t, c.path+"&formato=csv").Raw) {
			if len(r) > 0 && r[0] == "totales" {
				totales = append(totales, r)
			}
		}
		if !contiene(totales, want) {
			t.Errorf("%s CSV totals have no %s (totales.%s): %v", c.path, want.StringFixed(2), c.total, totales)
		}
		xl := x.reporte(t, c.path+"&formato=excel")
		_, rows := testenv.XLSX(t, xl.Raw, "")
		if !contiene(rows, want) {
			t.Errorf("%s XLSX has no cell %s (totales.%s)", c.path, want.StringFixed(2), c.total)
		}
	}
}

func contiene(rows [][]string, v decimal.Decimal) bool {
	for _, r := range rows {
		for _, c := range r {
			if n, err := decimal.NewFromString(strings.ReplaceAll(c, ",", "")); err == nil && n.Equal(v) {
				return true
			}
		}
	}
	return false
}

func (x *dia) aislado(t *testing.T) {
	otra := x.E.Admin(2)
	hoy := x.hoy
	for _, p := range []string{"/api/inventario/existencias", "/api/ventas", "/api/cuentas-por-cobrar", "/api/cuentas-por-pagar",
		"/api/ordenes-compra", "/api/productos", "/api/cajas", "/api/inventario/entradas", "/api/inventario/salidas"} {
		if r := x.E.Get(p, otra); r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("company 2 GET %s: %d %.300s", p, r.Status, r.Raw)
		}
	}
	for _, p := range []string{"/api/reportes/ventas?fecha_inicio=" + x.mes + "&fecha_fin=" + hoy, "/api/reportes/inventario-valorizado",
		"/api/reportes/antiguedad-cuentas-por-cobrar", "/api/reportes/antiguedad-cuentas-por-pagar",
		"/api/reportes/balanza-comprobacion?fecha_inicio=" + hoy[:5] + "01-01&fecha_fin=" + hoy} {
		r := x.E.Get(p, otra)
		if r.Status != http.StatusOK || strings.Contains(string(r.Raw), "ESC-") || !todoCero(r.JSON["data"].(map[string]any)["totales"]) {
			t.Errorf("company 2 GET %s: %d %.400s", p, r.Status, r.Raw)
		}
	}
	if r := x.E.Get("/api/dashboard", otra); amt(t, r, "data.ventas_hoy.monto").Sign() != 0 || testenv.Len(r.JSON, "data.top_productos_mes") > 0 {
		t.Errorf("company 2's dashboard: %.400s", r.Raw)
	}
	for _, p := range []string{fmt.Sprintf("/api/reportes/kardex?producto_id=%d", x.p13), testenv.Path("productos", x.p13),
		testenv.Path("almacenes", x.bodega), testenv.Path("cajas", x.caja)} {
		if r := x.E.Get(p, otra); r.Status != http.StatusNotFound && r.Status != http.StatusUnprocessableEntity {
			t.Errorf("company 2 GET %s: %d, want 404 (or 422 for a report's filter) %.300s", p, r.Status, r.Raw)
		}
	}
}

func todoCero(v any) bool {
	m, _ := v.(map[string]any)
	for _, x := range m {
		if f, ok := x.(float64); !ok || f != 0 {
			return false
		}
	}
	return true
}
