package reportes_test

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/reportes"
	"github.com/erpcr/erp/shared/testenv"
)

// inv is a company's set-up for the inventory reports: its principal
// warehouse (A), a second one (B, company 1 only) and products with IVA
// 13 % created without stock (every unit comes from a movement).
type inv struct {
	f       *fx
	empresa int
	tok     string
	a, b    int64
}

func (f *fx) inventario(empresa int) *inv {
	f.T.Helper()
	i := &inv{f: f, empresa: empresa, tok: f.E.Admin(empresa)}
	_, i.a = f.Principales(int64(empresa))
	if empresa == 1 {
		i.b = int64(f.E.Create(f.T, i.tok, "/api/almacenes", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Bodega Norte", "codigo": "NORTE"}))
	}
	return i
}

// producto inserts a stock-managed product with IVA 13 % and no stock.
func (i *inv) producto(codigo string) int64 {
	i.f.T.Helper()
	return i.f.Producto(testenv.Prod{Empresa: int64(i.empresa), Codigo: codigo, Precio: "5000", Compra: "100", Tarifa: "08"})
}

// mover records and processes an entry (costo > 0) or an exit (costo 0)
// of n units of producto on fecha through the API.
func (i *inv) mover(almacen, producto int64, fecha, tipo string, n int, costo int) {
	i.f.T.Helper()
	linea := map[string]any{"producto_id": producto, "cantidad": n}
	path := "/api/inventario/salidas"
	if costo > 0 {
		linea["costo_unitario"] = costo
		path = "/api/inventario/entradas"
	}
	i.f.E.Create(i.f.T, i.tok, path, map[string]any{"tipo": tipo, "almacen_id": almacen, "fecha": fecha, "procesar": true,
		"detalles": []any{linea}})
}

// escenarioFIFO is company 1's product X (amounts in colones), every
// entry into the same batch-less batch of its warehouse, which averages
// its cost (to 4 decimals); exits leave at the batch's cost, as the books
// post them:
//
//	03-01 A Compra         +10 @ 100   A 10 @ 100
//	03-02 B Compra          +3 @ 200   B 3 @ 200
//	03-05 A Compra         +10 @ 130   A 20 @ 115
//	03-10 A Venta          -12 @ 115   = 1,380; A 8 @ 115 = 920
//	03-20 A Ajuste         +5 @ 150    A 13 @ 128.4615
//	03-22 B -> A transfer   1 @ 200    A 14 @ 133.5714, B 2 @ 200
//	03-25 A Venta          -9 @ 133.5714 = 1,202.1426; A 5 @ 133.5714 = 667.857
//
// and company 2's product: +50 @ 10 on 03-03.
func escenarioFIFO(f *fx) (*inv, int64, *inv, int64) {
	f.T.Helper()
	i := f.inventario(1)
	x := i.producto("FIFO-X")
	i.mover(i.a, x, "2026-03-01", "Compra", 10, 100)
	i.mover(i.b, x, "2026-03-02", "Compra", 3, 200)
	i.mover(i.a, x, "2026-03-05", "Compra", 10, 130)
	i.mover(i.a, x, "2026-03-10", "Venta", 12, 0)
	i.mover(i.a, x, "2026-03-20", "Ajuste Positivo", 5, 150)
	if r := f.E.Call(i.tok, http.MethodPost, "/api/inventario/transferencias", map[string]any{"almacen_origen_id": i.b, "almacen_destino_id": i.a,
		"fecha": "2026-03-22", "detalles": []any{map[string]any{"producto_id": x, "cantidad": 1}}}); r.Status != http.StatusCreated {
		f.T.Fatalf("transferencia: %d %s", r.Status, r.Raw)
	}
	i.mover(i.a, x, "2026-03-25", "Venta", 9, 0)
	i2 := f.inventario(2)
	x2 := i2.producto("FIFO-Z")
	i2.mover(i2.a, x2, "2026-03-03", "Compra", 50, 10)
	return i, x, i2, x2
}

// The valuation is the batches: today their quantity × cost, at a past
// date the batches less what later movements did at their recorded costs.
func TestInventoryValuationIsTheBatchesAtTheirCostAtTheDate(t *testing.T) {
	f := setup(t)
	i, x, i2, _ := escenarioFIFO(f)
	a, b := itoa64(i.a), itoa64(i.b)
	base := "/api/reportes/inventario-valorizado"

	cases := []struct {
		name  string
		query string
		want  map[string]string
		rows  int
	}{
		{"at the end of March", "?fecha=2026-03-31", map[string]string{
			"data.totales.cantidad": "7.000", "data.totales.valor": "1067.86",
			// Sections by warehouse name: A ("Almacén Principal"...) and
			// Bodega Norte; the order is checked below by id.
		}, 2},
		{"after the first sale, before the adjustment", "?fecha=2026-03-12", map[string]string{
			"data.totales.cantidad": "11.000", "data.totales.valor": "1520.00"}, 2},
		{"before anything", "?fecha=2026-02-28", map[string]string{
			"data.totales.cantidad": "0.000", "data.totales.valor": "0.00"}, 0},
		{"one warehouse", "?fecha=2026-03-31&almacen_id=" + b, map[string]string{
			"data.totales.cantidad": "2.000", "data.totales.valor": "400.00",
			"data.secciones.0.filas.0.costo_unitario": "200.00", "data.secciones.0.totales.valor": "400.00"}, 1},
		{"one product in A", "?fecha=2026-03-31&almacen_id=" + a + "&producto_id=" + itoa64(x), map[string]string{
			"data.totales.cantidad": "5.000", "data.totales.valor": "667.86",
			"data.secciones.0.filas.0.cantidad": "5.000", "data.secciones.0.filas.0.costo_unitario": "133.57",
			"data.secciones.0.filas.0.valor": "667.86"}, 1},
		{"A after the first sale: 8 units at the batch's averaged 115, as the books carry them", "?fecha=2026-03-12&almacen_id=" + a, map[string]string{
			"data.totales.cantidad": "8.000", "data.totales.valor": "920.00", "data.secciones.0.filas.0.costo_unitario": "115.00"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.ok(base + c.query)
			want(t, r, c.name, c.want)
			if n := testenv.Len(r.JSON, "data.secciones"); n != c.rows {
				t.Errorf("%d sections, want %d: %s", n, c.rows, r.Raw)
			}
			if testenv.Str(r.JSON, "data.tipo") != "inventario-valorizado" {
				t.Errorf("tipo: %s", r.Raw)
			}
		})
	}
	// Per warehouse at the end of March: A 5 units worth 667.86, B 2 worth 400.
	r := f.ok(base + "?fecha=2026-03-31")
	porAlmacen := map[string][2]string{}
	for s := 0; s < testenv.Len(r.JSON, "data.secciones"); s++ {
		p := "data.secciones." + itoa(s)
		porAlmacen[testenv.Str(r.JSON, p+".clave")] = [2]string{exact(t, r, p+".totales.cantidad"), exact(t, r, p+".totales.valor")}
		if testenv.Str(r.JSON, p+".filas.0.codigo") != "FIFO-X" {
			t.Errorf("row of %s: %s", p, r.Raw)
		}
	}
	if porAlmacen["almacen-"+a] != [2]string{"5.000", "667.86"} || porAlmacen["almacen-"+b] != [2]string{"2.000", "400.00"} {
		t.Errorf("per warehouse: %v", porAlmacen)
	}
	if testenv.Str(r.JSON, "data.parametros.fecha") != "2026-03-31" {
		t.Errorf("parametros: %s", r.Raw)
	}
	// Default date: today, which includes everything above.
	r = f.ok(base)
	if testenv.Str(r.JSON, "data.parametros.fecha") != hoy() {
		t.Errorf("default fecha: %s", r.Raw)
	}
	want(t, r, "today", map[string]string{"data.totales.valor": "1067.86"})

	// A new movement dated before the date, after the report was cached,
	// shows at once (its accounting entry moves the cache version).
	i.mover(i.a, x, "2026-03-28", "Ajuste Negativo", 2, 0) // 2 @ 133.5714 = 267.1428
	r = f.ok(base + "?fecha=2026-03-31")
	want(t, r, "after an adjustment", map[string]string{"data.totales.cantidad": "5.000", "data.totales.valor": "800.71"})
	if h := r.Header.Get(reportes.CacheHeader); h != "MISS" {
		t.Errorf("after a movement: cache %s", h)
	}

	// A transfer posts no accounting entry, yet it changes the figures per
	// warehouse: it moves the cache version itself.
	enB := base + "?fecha=2026-03-31&almacen_id=" + b
	f.ok(enB)
	if r := f.ok(enB); r.Header.Get(reportes.CacheHeader) != "HIT" || exact(t, r, "data.totales.cantidad") != "2.000" {
		t.Errorf("warehouse B cached: %s %s", r.Header.Get(reportes.CacheHeader), r.Raw)
	}
	if r := f.E.Call(i.tok, http.MethodPost, "/api/inventario/transferencias", map[string]any{"almacen_origen_id": i.a, "almacen_destino_id": i.b,
		"fecha": "2026-03-29", "detalles": []any{map[string]any{"producto_id": x, "cantidad": 1}}}); r.Status != http.StatusCreated {
		t.Fatalf("transferencia: %d %s", r.Status, r.Raw)
	}
	r = f.ok(enB)
	if h := r.Header.Get(reportes.CacheHeader); h != "MISS" {
		t.Errorf("after a transfer: cache %s", h)
	}
	if got := exact(t, r, "data.totales.cantidad"); got != "3.000" {
		t.Errorf("warehouse B after a transfer: cantidad %s: %s", got, r.Raw)
	}

	// Company 2 sees its own product only.
	r2 := f.E.Get(base+"?fecha=2026-03-31", i2.tok)
	want(t, r2, "company 2", map[string]string{"data.totales.cantidad": "50.000", "data.totales.valor": "500.00"})
	if testenv.Len(r2.JSON, "data.secciones") != 1 || testenv.Str(r2.JSON, "data.secciones.0.filas.0.codigo") != "FIFO-Z" {
		t.Errorf("company 2: %s", r2.Raw)
	}
}

// The kardex values each movement at its recorded cost (an entry at its
// own, an exit at what its batches gave): the opening balance first, then
// each movement with its running quantity and value, closing at the
// valuation.
func TestKardexRunsQuantityAndRecordedCostMovementByMovement(t *testing.T) {
	f := setup(t)
	i, x, _, _ := escenarioFIFO(f)
	a := itoa64(i.a)
	r := f.ok("/api/reportes/kardex?producto_id=" + itoa64(x) + "&almacen_id=" + a + "&fecha_inicio=2026-03-05&fecha_fin=2026-03-31")
	type fila struct{ fecha, tipo, entrada, salida, saldo, costo, valor string }
	wantRows := []fila{
		{"2026-03-05", "Saldo inicial", "", "", "10.000", "100.00", "1000.00"},
		{"2026-03-05", "Compra", "10.000", "", "20.000", "130.00", "2300.00"},
		{"2026-03-10", "Venta", "", "12.000", "8.000", "115.00", "920.00"},
		{"2026-03-20", "Ajuste Positivo", "5.000", "", "13.000", "150.00", "1670.00"},
		{"2026-03-22", "Transferencia", "1.000", "", "14.000", "200.00", "1870.00"},
		{"2026-03-25", "Venta", "", "9.000", "5.000", "133.57", "667.86"},
	}
	if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != len(wantRows) || testenv.Str(r.JSON, "data.secciones.0.clave") != "movimientos" {
		t.Fatalf("%d rows: %s", n, r.Raw)
	}
	num := func(path string) string {
		if testenv.Get(r.JSON, path) == nil {
			return ""
		}
		return exact(t, r, path)
	}
	for k, w := range wantRows {
		p := "data.secciones.0.filas." + itoa(k) + "."
		got := fila{testenv.Str(r.JSON, p+"fecha"), testenv.Str(r.JSON, p+"tipo"), num(p + "entrada"), num(p + "salida"),
			num(p + "saldo_cantidad"), num(p + "costo_unitario"), num(p + "saldo_valor")}
		if got != w {
			t.Errorf("row %d = %+v, want %+v", k, got, w)
		}
		if k > 0 && !strings.HasPrefix(testenv.Str(r.JSON, p+"documento"), "ENT-") && !strings.HasPrefix(testenv.Str(r.JSON, p+"documento"), "SAL-") {
			t.Errorf("row %d documento: %s", k, testenv.Str(r.JSON, p+"documento"))
		}
	}
	// The same rows at the top level, as data.movimientos.
	if n := testenv.Len(r.JSON, "data.movimientos"); n != len(wantRows) ||
		exact(t, r, "data.movimientos.5.saldo_valor") != "667.86" {
		t.Errorf("data.movimientos: %d rows: %s", n, r.Raw)
	}
	want(t, r, "totales", map[string]string{
		"data.totales.saldo_inicial_cantidad": "10.000", "data.totales.saldo_inicial_valor": "1000.00",
		"data.totales.entradas": "16.000", "data.totales.valor_entradas": "2250.00",
		"data.totales.salidas": "21.000", "data.totales.valor_salidas": "2582.14",
		"data.totales.saldo_final_cantidad": "5.000", "data.totales.saldo_final_valor": "667.86",
	})

	// Every warehouse, March: opening 0; each warehouse keeps its own
	// balance and the transfer nets to zero; the end equals the valuation.
	r = f.ok("/api/reportes/kardex?producto_id=" + itoa64(x) + "&fecha_inicio=2026-03-01&fecha_fin=2026-03-31")
	if n := testenv.Len(r.JSON, "data.secciones.0.filas"); n != 9 {
		t.Fatalf("all warehouses: %d rows: %s", n, r.Raw)
	}
	want(t, r, "all warehouses", map[string]string{
		"data.secciones.0.filas.0.saldo_valor": "0.00", "data.secciones.0.filas.2.saldo_valor": "1600.00",
		"data.secciones.0.filas.4.saldo_cantidad": "11.000", "data.secciones.0.filas.4.saldo_valor": "1520.00",
		"data.secciones.0.filas.6.saldo_cantidad": "15.000", "data.secciones.0.filas.6.saldo_valor": "2070.00",
		"data.secciones.0.filas.7.saldo_cantidad": "16.000", "data.secciones.0.filas.7.saldo_valor": "2270.00",
		"data.totales.saldo_final_cantidad": "7.000", "data.totales.saldo_final_valor": "1067.86",
	})
	if testenv.Str(r.JSON, "data.secciones.0.filas.2.almacen") != "Bodega Norte" {
		t.Errorf("warehouse column: %s", r.Raw)
	}
	// Default period: January 1st of today's year to today.
	r = f.ok("/api/reportes/kardex?producto_id=" + itoa64(x))
	if testenv.Str(r.JSON, "data.parametros.fecha_fin") != hoy() || testenv.Str(r.JSON, "data.parametros.fecha_inicio") != hoy()[:4]+"-01-01" {
		t.Errorf("default period: %s", r.Raw)
	}
	want(t, r, "default period", map[string]string{"data.totales.saldo_final_valor": "1067.86"})

	t.Run("excel opens with the running balances as numbers", func(t *testing.T) {
		r := f.descarga(t, "/api/reportes/kardex?producto_id="+itoa64(x)+"&almacen_id="+a+"&fecha_inicio=2026-03-05&fecha_fin=2026-03-31&formato=excel",
			exportar.MediaExcel, "kardex_2026-03-05_2026-03-31.xlsx")
		xl, rows := testenv.XLSX(t, r.Raw, "Reporte")
		var ventas [][]string
		for k, row := range rows {
			if len(row) > 1 && row[1] == "Venta" {
				raw := make([]string, len(row))
				for c := range row {
					cell, _ := excelize.CoordinatesToCellName(c+1, k+1)
					raw[c], _ = xl.GetCellValue("Reporte", cell, excelize.Options{RawCellValue: true})
				}
				ventas = append(ventas, raw)
			}
		}
		// fecha, tipo, documento, entrada, salida, saldo, costo, saldo valorado
		if len(ventas) != 2 || ventas[0][4] != "12" || ventas[0][5] != "8" || ventas[0][6] != "115" || ventas[0][7] != "920" ||
			ventas[1][7] != "667.86" {
			t.Errorf("sale rows: %v", ventas)
		}
	})

	t.Run("bad parameters", func(t *testing.T) {
		otro := testenv.Scalar[int64](t, f.E, `select id from productos where empresa_id = 2 limit 1`)
		almacen2 := testenv.Scalar[int64](t, f.E, `select id from almacenes where empresa_id = 2 and es_principal`)
		for _, c := range []struct{ path, campo, msg string }{
			{"/api/reportes/kardex", "producto_id", "El campo producto_id es obligatorio."},
			{"/api/reportes/kardex?producto_id=abc", "producto_id", ""},
			{"/api/reportes/kardex?producto_id=" + itoa64(otro), "producto_id", "El producto no existe en la empresa."},
			{"/api/reportes/kardex?producto_id=" + itoa64(x) + "&almacen_id=" + itoa64(almacen2), "almacen_id", "El almacén no existe en la empresa."},
			{"/api/reportes/kardex?producto_id=" + itoa64(x) + "&fecha_inicio=2026-03-31&fecha_fin=2026-03-01", "fecha_fin", ""},
			{"/api/reportes/kardex?producto_id=" + itoa64(x) + "&fecha_fin=2026-02-30", "fecha_fin", ""},
		} {
			r := f.get(c.path)
			testenv.Expect422(t, r, c.campo)
			if c.msg != "" && r.FieldErrors(c.campo)[0] != c.msg {
				t.Errorf("%s: %q, want %q", c.path, r.FieldErrors(c.campo)[0], c.msg)
			}
		}
	})
}

// The purchases report of the received orders, by supplier and by product.
func TestPurchasesReportGroupsReceivedOrdersBySupplierOrProduct(t *testing.T) {
	f := setup(t)
	i := f.inventario(1)
	x, y := i.producto("CMP-X"), i.producto("CMP-Y")
	s1, s2 := i.proveedor("Alfa"), i.proveedor("Beta")
	i.ordenar(s1, true, linea(x, 4, 1000, 0))
	i.ordenar(s1, true, linea(y, 2, 500, 100))
	i.ordenar(s2, true, linea(x, 1, 2000, 0))
	i.ordenar(s2, false, linea(y, 9, 9000, 0)) // approved, not received
	i2 := f.inventario(2)
	i2.ordenar(i2.proveedor("Gamma"), true, linea(i2.producto("CMP-Z"), 7, 700, 0))

	periodo := "fecha_inicio=" + dias(-1) + "&fecha_fin=" + hoy()
	r := f.ok("/api/reportes/compras?" + periodo)
	want(t, r, "por proveedor", map[string]string{
		"data.totales.cantidad": "7.000", "data.totales.subtotal": "7000.00", "data.totales.descuentos": "100.00",
		"data.totales.impuestos": "897.00", "data.totales.total": "7797.00",
		"data.secciones.0.filas.0.cantidad": "6.000", "data.secciones.0.filas.0.subtotal": "5000.00", "data.secciones.0.filas.0.descuentos": "100.00",
		"data.secciones.0.filas.0.impuestos": "637.00", "data.secciones.0.filas.0.total": "5537.00",
		"data.secciones.0.filas.1.cantidad": "1.000", "data.secciones.0.filas.1.total": "2260.00",
	})
	if testenv.Str(r.JSON, "data.parametros.agrupar") != "proveedor" || testenv.Str(r.JSON, "data.secciones.0.filas.0.grupo") != "Proveedor Alfa (NIT-ALFA)" ||
		testenv.Num(r.JSON, "data.secciones.0.filas.0.ordenes") != 2 || testenv.Len(r.JSON, "data.secciones.0.filas") != 2 {
		t.Errorf("by supplier: %s", r.Raw)
	}
	r = f.ok("/api/reportes/compras?" + periodo + "&agrupar=producto")
	want(t, r, "por producto", map[string]string{
		"data.secciones.0.filas.0.cantidad": "5.000", "data.secciones.0.filas.0.subtotal": "6000.00", "data.secciones.0.filas.0.impuestos": "780.00",
		"data.secciones.0.filas.0.total":    "6780.00",
		"data.secciones.0.filas.1.cantidad": "2.000", "data.secciones.0.filas.1.descuentos": "100.00", "data.secciones.0.filas.1.total": "1017.00",
		"data.totales.total": "7797.00",
	})
	if testenv.Str(r.JSON, "data.secciones.0.filas.0.grupo") != "CMP-X Producto CMP-X" {
		t.Errorf("by product: %s", r.Raw)
	}
	// The IVA report credits the same purchases.
	want(t, f.ok("/api/reportes/impuestos?"+periodo), "impuestos", map[string]string{"data.totales.iva_compras": "897.00"})
	// Before the receipts: nothing.
	want(t, f.ok("/api/reportes/compras?fecha_inicio=2026-01-01&fecha_fin=2026-01-31"), "enero", map[string]string{"data.totales.total": "0.00"})
	// Company 2: its own order only.
	want(t, f.E.Get("/api/reportes/compras?"+periodo, i2.tok), "company 2", map[string]string{
		"data.totales.cantidad": "7.000", "data.totales.subtotal": "4900.00", "data.totales.total": "5537.00"})

	t.Run("csv", func(t *testing.T) {
		r := f.descarga(t, "/api/reportes/compras?"+periodo+"&formato=csv", exportar.MediaCSV, "compras_"+dias(-1)+"_"+hoy()+".csv")
		recs := testenv.CSVRows(t, r.Raw)
		if strings.Join(recs[0], ",") != "seccion,grupo,ordenes,cantidad,subtotal,descuentos,impuestos,total" {
			t.Errorf("header: %v", recs[0])
		}
		if strings.Join(recs[1], ",") != "proveedor,Proveedor Alfa (NIT-ALFA),2,6.000,5000.00,100.00,637.00,5537.00" {
			t.Errorf("first row: %v", recs[1])
		}
		tot := map[string]string{}
		for _, rec := range recs {
			if rec[0] == "totales" {
				tot[rec[1]] = rec[2]
			}
		}
		if tot["Total"] != "7797.00" || tot["Impuestos"] != "897.00" {
			t.Errorf("totals: %v", tot)
		}
	})

	for _, c := range []struct{ path, campo string }{
		{"/api/reportes/compras?" + periodo + "&agrupar=mes", "agrupar"},
		{"/api/reportes/compras?fecha_fin=" + hoy(), "fecha_inicio"},
		{"/api/reportes/compras?fecha_inicio=" + hoy(), "fecha_fin"},
	} {
		testenv.Expect422(t, f.get(c.path), c.campo)
	}
}

// The PDF of the valuation opens in pdftotext with its figures.
func TestInventoryValuationPDFOpensWithItsFigures(t *testing.T) {
	f := setup(t)
	escenarioFIFO(f)
	r := f.ok("/api/reportes/inventario-valorizado?fecha=2026-03-31&formato=pdf")
	if r.Header.Get("Content-Type") != exportar.MediaPDF || !bytes.HasPrefix(r.Raw, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %v", r.Header)
	}
	text := testenv.PDFTexto(t, r.Raw)
	for _, s := range []string{"Inventario valorizado (PEPS) al 2026-03-31", "Al 2026-03-31", "Almacén Bodega Norte", "FIFO-X",
		"667.86", "133.57", "400.00", "1,067.86", "Valor (costo PEPS)", "Página 1 de 1"} {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF text lacks %q:\n%s", s, text)
		}
	}
}

// The inventory reports need inventario.leer, the purchases report
// compras.leer; all three are listed in GET /api/reportes/tipos.
func TestInventoryAndPurchaseReportsPermissionsAndListing(t *testing.T) {
	f := setup(t)
	i := f.inventario(1)
	x := i.producto("PERM-X")
	ventas := f.E.UserWith(t, f.Admin, "solo-ventas", "ventas.leer")
	inventario := f.E.UserWith(t, f.Admin, "inventario", "inventario.leer")
	compras := f.E.UserWith(t, f.Admin, "compras", "compras.leer")
	valorizado, kardex := "/api/reportes/inventario-valorizado", "/api/reportes/kardex?producto_id="+itoa64(x)
	comprasP := "/api/reportes/compras?fecha_inicio=2026-03-01&fecha_fin=2026-03-31"
	for _, c := range []struct {
		tok, path string
		status    int
	}{
		{ventas, valorizado, http.StatusForbidden}, {ventas, kardex, http.StatusForbidden}, {ventas, comprasP, http.StatusForbidden},
		{inventario, valorizado, http.StatusOK}, {inventario, kardex, http.StatusOK}, {inventario, comprasP, http.StatusForbidden},
		{compras, comprasP, http.StatusOK}, {compras, valorizado, http.StatusForbidden}, {compras, kardex, http.StatusForbidden},
	} {
		if r := f.E.Get(c.path, c.tok); r.Status != c.status {
			t.Errorf("%s: %d, want %d: %s", c.path, r.Status, c.status, r.Raw)
		}
	}
	for _, c := range []struct{ path, campo string }{
		{valorizado + "?fecha=2026-13-01", "fecha"},
		{valorizado + "?almacen_id=abc", "almacen_id"},
		{valorizado + "?almacen_id=" + strconv.FormatInt(testenv.Scalar[int64](t, f.E, `select id from almacenes where empresa_id = 2 and es_principal`), 10), "almacen_id"},
		{valorizado + "?categoria_id=999999", "categoria_id"},
		{valorizado + "?producto_id=999999", "producto_id"},
		{valorizado + "?formato=doc", "formato"},
	} {
		testenv.Expect422(t, f.get(c.path), c.campo)
	}
	r := f.ok("/api/reportes/tipos")
	tipos := map[string]int{}
	for k := 0; k < testenv.Len(r.JSON, "data"); k++ {
		tipos[testenv.Str(r.JSON, "data."+itoa(k)+".clave")] = k
	}
	for _, k := range []string{"inventario-valorizado", "kardex", "compras"} {
		n, ok := tipos[k]
		if !ok {
			t.Errorf("tipos lacks %s", k)
			continue
		}
		if testenv.Str(r.JSON, "data."+itoa(n)+".limite") != "reports" || testenv.Len(r.JSON, "data."+itoa(n)+".formatos") != 4 {
			t.Errorf("type %s: %v", k, testenv.Get(r.JSON, "data."+itoa(n)))
		}
	}
	if n := tipos["inventario-valorizado"]; testenv.Str(r.JSON, "data."+itoa(n)+".totales.1.clave") != "valor" {
		t.Errorf("valuation totals: %v", testenv.Get(r.JSON, "data."+itoa(n)))
	}
}

// proveedor inserts a supplier of the company with no credit days.
func (i *inv) proveedor(nombre string) int64 {
	i.f.T.Helper()
	return testenv.Scalar[int64](i.f.T, i.f.E, `insert into proveedores (empresa_id, nombre, nit_ruc, dias_credito)
		values ($1::bigint, 'Proveedor ' || $2::text, 'NIT-' || upper($2::text), 0) returning id`, i.empresa, nombre)
}

func linea(producto int64, n, precio, descuento int) map[string]any {
	return map[string]any{"producto_id": producto, "cantidad": n, "precio_unitario": precio, "descuento": descuento}
}

// ordenar creates an order from the supplier, approves it and, when
// recibir, receives it into the principal warehouse through the API.
func (i *inv) ordenar(proveedor int64, recibir bool, lineas ...map[string]any) {
	i.f.T.Helper()
	var almacen int64
	if recibir {
		almacen = i.a
	}
	ordenCompra(i.f.Fixture, i.tok, proveedor, almacen, lineas...)
}

// ordenCompra creates an order dated today from the supplier with tok,
// approves it and, unless almacen is 0, receives it there through the API.
func ordenCompra(f *testenv.Fixture, tok string, proveedor, almacen int64, lineas ...map[string]any) {
	f.T.Helper()
	ls := make([]any, len(lineas))
	for k, l := range lineas {
		ls[k] = l
	}
	id := f.E.Create(f.T, tok, "/api/ordenes-compra", map[string]any{"proveedor_id": proveedor, "fecha_orden": hoy(), "estado": "pendiente",
		"detalles": ls})
	p := "/api/ordenes-compra/" + strconv.Itoa(id)
	f.E.Must(f.T, http.StatusOK, tok, http.MethodPost, p+"/aprobar", nil)
	if almacen != 0 {
		f.E.Must(f.T, http.StatusOK, tok, http.MethodPost, p+"/recibir", map[string]any{"almacen_id": almacen})
	}
}

// With negative stock allowed, what an exit takes beyond the batches goes
// below zero in the batch-less batch, and is valued at that batch's cost
// (the next entry averages into it: 1 @ 120 at the end, so -3 @ 120
// before it). The valuation and the kardex agree at every date.
func TestNegativeStockIsValuedAtItsBatchCost(t *testing.T) {
	f := setup(t)
	f.E.Exec(`update configuraciones set valor = 'true' where empresa_id = 1 and clave = 'inventario.permitir_stock_negativo'`)
	i := f.inventario(1)
	w := i.producto("NEG-W")
	i.mover(i.a, w, "2026-04-01", "Compra", 2, 100)
	i.mover(i.a, w, "2026-04-02", "Venta", 5, 0)
	i.mover(i.a, w, "2026-04-03", "Compra", 4, 120)
	prod := "&producto_id=" + itoa64(w)
	want(t, f.ok("/api/reportes/inventario-valorizado?fecha=2026-04-02"+prod), "04-02", map[string]string{
		"data.totales.cantidad": "-3.000", "data.totales.valor": "-360.00"})
	want(t, f.ok("/api/reportes/inventario-valorizado?fecha=2026-04-03"+prod), "04-03", map[string]string{
		"data.totales.cantidad": "1.000", "data.totales.valor": "120.00"})
	r := f.ok("/api/reportes/kardex?fecha_inicio=2026-04-01&fecha_fin=2026-04-03" + prod)
	want(t, r, "kardex", map[string]string{
		"data.secciones.0.filas.1.saldo_valor":    "200.00",
		"data.secciones.0.filas.2.saldo_cantidad": "-3.000", "data.secciones.0.filas.2.costo_unitario": "112.00",
		"data.secciones.0.filas.2.saldo_valor":    "-360.00",
		"data.secciones.0.filas.3.saldo_cantidad": "1.000", "data.secciones.0.filas.3.saldo_valor": "120.00",
		"data.totales.saldo_final_valor": "120.00",
	})
	// From 04-03 on, the opening is the negative balance.
	r = f.ok("/api/reportes/kardex?fecha_inicio=2026-04-03&fecha_fin=2026-04-03" + prod)
	want(t, r, "opening", map[string]string{
		"data.totales.saldo_inicial_cantidad": "-3.000", "data.totales.saldo_inicial_valor": "-360.00",
		"data.totales.saldo_final_cantidad": "1.000", "data.totales.saldo_final_valor": "120.00",
	})
}

// Each report costs the same round trips with few or many movements and
// rows (one batch; the cache lookup and write around it).
func TestInventoryReportsCostConstantRoundTrips(t *testing.T) {
	f := setup(t)
	i := f.inventario(1)
	x := i.producto("RT-X")
	i.mover(i.a, x, "2026-05-01", "Compra", 1, 10)
	pocos := []int64{
		f.E.RoundTrips(t, "/api/reportes/inventario-valorizado?fecha=2026-05-31", f.Admin),
		f.E.RoundTrips(t, "/api/reportes/kardex?fecha_inicio=2026-05-01&fecha_fin=2026-05-31&producto_id="+itoa64(x), f.Admin),
	}
	for k := 0; k < 4; k++ {
		y := i.producto("RT-Y" + itoa(k))
		i.mover(i.a, y, "2026-05-02", "Compra", 3, 10+k)
		i.mover(i.b, y, "2026-05-03", "Compra", 2, 20)
		i.mover(i.a, x, "2026-05-04", "Compra", 2, 11+k)
		i.mover(i.a, x, "2026-05-05", "Venta", 1, 0)
	}
	muchos := []int64{
		f.E.RoundTrips(t, "/api/reportes/inventario-valorizado?fecha=2026-05-30", f.Admin),
		f.E.RoundTrips(t, "/api/reportes/kardex?fecha_inicio=2026-05-01&fecha_fin=2026-05-30&producto_id="+itoa64(x), f.Admin),
	}
	t.Logf("round trips: %v, %v", pocos, muchos)
	if pocos[0] != muchos[0] || pocos[1] != muchos[1] {
		t.Errorf("round trips: %v with one movement, %v with many", pocos, muchos)
	}
}
