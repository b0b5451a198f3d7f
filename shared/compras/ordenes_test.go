package compras_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestCreateComputesEachLineAndSumsTheRoundedLines(t *testing.T) {
	_, f := nuevo(t)
	taxed, untaxed := f.productos[0], f.productos[2]
	cases := []struct {
		name   string
		lineas []map[string]any
		want   map[string]float64 // data.<key>
	}{
		{"subtotal is cantidad x precio, rounded half-up (0.125 -> 0.13)",
			[]map[string]any{linea(untaxed, "0.125", 1)},
			map[string]float64{"monto_subtotal": 0.13, "monto_impuestos": 0, "monto_total": 0.13, "detalles.0.subtotal": 0.13}},
		{"tax applies to subtotal minus discount, rounded half-up (1.365 -> 1.37)",
			[]map[string]any{linea(untaxed, 1, "11.50", "descuento", 1, "porcentaje_impuesto", 13)},
			map[string]float64{"monto_subtotal": 11.5, "monto_descuentos": 1, "monto_impuestos": 1.37, "monto_total": 11.87,
				"detalles.0.monto_impuesto": 1.37, "detalles.0.total": 11.87}},
		{"totals are sums of rounded lines (0.005 + 0.005 -> 0.02, not 0.01)",
			[]map[string]any{linea(untaxed, 1, "0.50", "porcentaje_impuesto", 1), linea(untaxed, 1, "0.50", "porcentaje_impuesto", 1)},
			map[string]float64{"monto_subtotal": 1, "monto_impuestos": 0.02, "monto_total": 1.02, "detalles.1.monto_impuesto": 0.01}},
		{"the product's tax type rate is the default (13%)",
			[]map[string]any{linea(taxed, 2, 100)},
			map[string]float64{"monto_impuestos": 26, "monto_total": 226, "detalles.0.porcentaje_impuesto": 13}},
		{"an explicit rate wins over the product's, even 0",
			[]map[string]any{linea(taxed, 2, 100, "porcentaje_impuesto", 0), linea(taxed, 1, 100, "porcentaje_impuesto", "4")},
			map[string]float64{"monto_impuestos": 4, "monto_total": 304, "detalles.0.porcentaje_impuesto": 0, "detalles.1.porcentaje_impuesto": 4}},
		{"a product without tax type is 0%",
			[]map[string]any{linea(untaxed, 3, "33.33")},
			map[string]float64{"monto_subtotal": 99.99, "monto_impuestos": 0, "monto_total": 99.99}},
		{"a discount equal to the subtotal is allowed",
			[]map[string]any{linea(taxed, 2, 50, "descuento", 100)},
			map[string]float64{"monto_subtotal": 100, "monto_descuentos": 100, "monto_impuestos": 0, "monto_total": 0}},
		{"monto_total = subtotal - descuentos + impuestos over several lines",
			[]map[string]any{linea(taxed, "1.5", "999.99", "descuento", "0.99"), linea(untaxed, 4, "12.25", "descuento", 1)},
			// 1499.985 -> 1499.99; tax (1499.99 - 0.99) x 13% = 194.87; 49.00 - 1 = 48
			map[string]float64{"monto_subtotal": 1548.99, "monto_descuentos": 1.99, "monto_impuestos": 194.87, "monto_total": 1741.87}},
		{"numeric strings and 3-decimal quantities are accepted",
			[]map[string]any{linea(untaxed, "2.333", "3.00")},
			map[string]float64{"monto_subtotal": 7, "detalles.0.cantidad": 2.333}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Must(t, http.StatusCreated, f.tok, http.MethodPost, "/api/ordenes-compra", f.orden(c.lineas...))
			for k, v := range c.want {
				if got := testenv.Num(r.JSON, "data."+k); got != v {
					t.Errorf("data.%s = %v, want %v", k, got, v)
				}
			}
			// Stored, not only answered.
			if got := testenv.Num(f.do(http.MethodGet, ordenPath(int64(testenv.Num(r.JSON, "data.id"))), nil).JSON, "data.monto_total"); got != testenv.Num(r.JSON, "data.monto_total") {
				t.Errorf("show monto_total %v", got)
			}
		})
	}
	// Money keeps two decimals in the JSON text.
	r := f.do(http.MethodPost, "/api/ordenes-compra", f.orden(linea(untaxed, 1, 100)))
	if !strings.Contains(string(r.Raw), `"monto_total":100.00`) {
		t.Errorf("monto_total without its scale: %s", r.Raw)
	}
}

func TestCreateAssignsConsecutiveNumbersPerCompanyAndKeepsTheGivenState(t *testing.T) {
	e := testenv.NewParallel(t)
	f1, f2 := setup(t, e, 1), setup(t, e, 2)
	for i, want := range []string{"OC-000001", "OC-000002", "OC-000003"} {
		body := f1.orden()
		if i == 1 {
			body = testenv.With(body, "estado", "pendiente", "almacen_id", f1.almacen)
		}
		r := f1.do(http.MethodPost, "/api/ordenes-compra", body)
		if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_orden") != want {
			t.Fatalf("order %d: %d %s", i, r.Status, r.Raw)
		}
		wantEstado := map[int]string{0: "borrador", 1: "pendiente", 2: "borrador"}[i]
		if testenv.Str(r.JSON, "data.estado") != wantEstado {
			t.Errorf("order %d estado %q, want %q", i, testenv.Str(r.JSON, "data.estado"), wantEstado)
		}
		if i == 1 && testenv.Num(r.JSON, "data.almacen.id") != float64(f1.almacen) {
			t.Errorf("almacen not kept: %s", r.Raw)
		}
	}
	// Each company has its own sequence; empresa_id in the body is ignored.
	r := f2.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f2.orden(), "empresa_id", 1))
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_orden") != "OC-000001" || testenv.Num(r.JSON, "data.empresa_id") != 2 {
		t.Fatalf("company 2's first order: %d %s", r.Status, r.Raw)
	}
	// A line without descripcion takes the product's name; one with it keeps it.
	r = f1.do(http.MethodPost, "/api/ordenes-compra", f1.orden(linea(f1.productos[1], 1, 1), linea(f1.productos[1], 1, 1, "descripcion", "  Caja de 12  ")))
	if testenv.Str(r.JSON, "data.detalles.0.descripcion") != "Producto 2" || testenv.Str(r.JSON, "data.detalles.1.descripcion") != "Caja de 12" {
		t.Errorf("descripcion: %s", r.Raw)
	}
}

func TestCreateValidationRules(t *testing.T) {
	e, f := nuevo(t)
	f2 := setup(t, e, 2)
	borrado := newProveedor(t, e, 1, 0)
	e.Exec(`update proveedores set eliminado = true, activo = false where id = $1`, borrado)
	inactivo := newProveedor(t, e, 1, 0)
	e.Exec(`update proveedores set activo = false where id = $1`, inactivo)
	prodInactivo := newProductos(t, e, 1, 1, 0)[0]
	e.Exec(`update productos set activo = false where id = $1`, prodInactivo)
	p := f.productos[2]
	base := f.orden()
	line := func(kv ...any) map[string]any { return f.orden(linea(p, 2, 100, kv...)) }
	lineWithout := func(key string) map[string]any {
		l := linea(p, 2, 100)
		delete(l, key)
		return f.orden(l)
	}
	many := make([]map[string]any, 501)
	for i := range many {
		many[i] = linea(p, 1, 1)
	}
	cases := []testenv.Invalid{
		{"proveedor_id required", testenv.With(base, "proveedor_id", testenv.Absent), "proveedor_id"},
		{"proveedor_id null", fmt.Sprintf(`{"proveedor_id":null,"fecha_orden":"2026-03-10","estado":"borrador","detalles":[{"producto_id":%d,"cantidad":1,"precio_unitario":1}]}`, p), "proveedor_id"},
		{"proveedor_id of another company", testenv.With(base, "proveedor_id", f2.proveedor), "proveedor_id"},
		{"proveedor_id unknown", testenv.With(base, "proveedor_id", 999999), "proveedor_id"},
		{"proveedor_id deleted", testenv.With(base, "proveedor_id", borrado), "proveedor_id"},
		{"proveedor_id inactive", testenv.With(base, "proveedor_id", inactivo), "proveedor_id"},
		{"proveedor_id zero", testenv.With(base, "proveedor_id", 0), "proveedor_id"},
		{"fecha_orden required", testenv.With(base, "fecha_orden", testenv.Absent), "fecha_orden"},
		{"fecha_orden blank", testenv.With(base, "fecha_orden", " "), "fecha_orden"},
		{"fecha_orden not YYYY-MM-DD", testenv.With(base, "fecha_orden", "10/03/2026"), "fecha_orden"},
		{"fecha_orden impossible", testenv.With(base, "fecha_orden", "2026-02-30"), "fecha_orden"},
		{"fecha_orden a number", testenv.With(base, "fecha_orden", 20260310), "fecha_orden"},
		{"fecha_entrega_estimada before fecha_orden", testenv.With(base, "fecha_entrega_estimada", "2026-03-09"), "fecha_entrega_estimada"},
		{"fecha_entrega_estimada invalid", testenv.With(base, "fecha_entrega_estimada", "mañana"), "fecha_entrega_estimada"},
		{"estado required", testenv.With(base, "estado", testenv.Absent), "estado"},
		{"estado null", fmt.Sprintf(`{"proveedor_id":%d,"fecha_orden":"2026-03-10","estado":null,"detalles":[{"producto_id":%d,"cantidad":1,"precio_unitario":1}]}`, f.proveedor, p), "estado"},
		{"estado blank", testenv.With(base, "estado", "  "), "estado"},
		{"estado unknown", testenv.With(base, "estado", "abierta"), "estado"},
		{"estado in capitals", testenv.With(base, "estado", "Aprobada"), "estado"},
		{"estado not a string", testenv.With(base, "estado", 1), "estado"},
		{"observaciones over 2000", testenv.With(base, "observaciones", strings.Repeat("o", 2001)), "observaciones"},
		{"almacen_id of another company", testenv.With(base, "almacen_id", f2.almacen), "almacen_id"},
		{"detalles required", testenv.With(base, "detalles", testenv.Absent), "detalles"},
		{"detalles empty", testenv.With(base, "detalles", []any{}), "detalles"},
		{"detalles not a list", testenv.With(base, "detalles", "x"), "detalles"},
		{"detalles over 500 lines", testenv.With(base, "detalles", many), "detalles"},
		{"a line that is not an object", testenv.With(base, "detalles", []any{1}), "detalles.0"},
		{"producto_id required", lineWithout("producto_id"), "detalles.0.producto_id"},
		{"producto_id of another company", f.orden(linea(f2.productos[0], 1, 1)), "detalles.0.producto_id"},
		{"producto_id unknown", f.orden(linea(999999, 1, 1)), "detalles.0.producto_id"},
		{"producto_id inactive", f.orden(linea(prodInactivo, 1, 1)), "detalles.0.producto_id"},
		{"cantidad required", lineWithout("cantidad"), "detalles.0.cantidad"},
		{"cantidad zero", f.orden(linea(p, 0, 1)), "detalles.0.cantidad"},
		{"cantidad negative", f.orden(linea(p, -1, 1)), "detalles.0.cantidad"},
		{"cantidad not a number", f.orden(linea(p, "dos", 1)), "detalles.0.cantidad"},
		{"cantidad with 4 decimals", f.orden(linea(p, "1.0001", 1)), "detalles.0.cantidad"},
		{"cantidad too large", f.orden(linea(p, "10000000000000", 1)), "detalles.0.cantidad"},
		{"precio_unitario required", lineWithout("precio_unitario"), "detalles.0.precio_unitario"},
		{"precio_unitario negative", f.orden(linea(p, 1, "-0.01")), "detalles.0.precio_unitario"},
		{"precio_unitario with 3 decimals", f.orden(linea(p, 1, "1.001")), "detalles.0.precio_unitario"},
		{"line subtotal too large", f.orden(linea(p, "1000000000000", "10000")), "detalles.0.precio_unitario"},
		{"descuento negative", line("descuento", -1), "detalles.0.descuento"},
		{"descuento above the line subtotal", line("descuento", "200.01"), "detalles.0.descuento"},
		{"descuento not a number", line("descuento", true), "detalles.0.descuento"},
		{"porcentaje_impuesto above 100", line("porcentaje_impuesto", "100.01"), "detalles.0.porcentaje_impuesto"},
		{"porcentaje_impuesto negative", line("porcentaje_impuesto", -1), "detalles.0.porcentaje_impuesto"},
		{"descripcion over 1000", line("descripcion", strings.Repeat("d", 1001)), "detalles.0.descripcion"},
		{"the index names the failing line", f.orden(linea(p, 1, 1), linea(p, 0, 1)), "detalles.1.cantidad"},
		{"empty body", "", "proveedor_id"},
	}
	f.e.ExpectInvalid(t, f.tok, http.MethodPost, "/api/ordenes-compra", cases)
	// Several mistakes are reported together, each under its own key.
	r := f.do(http.MethodPost, "/api/ordenes-compra", map[string]any{"detalles": []any{linea(p, 0, -1), map[string]any{}}})
	for _, k := range []string{"proveedor_id", "fecha_orden", "estado", "detalles.0.cantidad", "detalles.0.precio_unitario", "detalles.1.producto_id", "detalles.1.cantidad"} {
		if len(r.FieldErrors(k)) == 0 {
			t.Errorf("no errors[%s]: %s", k, r.Raw)
		}
	}
	if got := r.FieldErrors("fecha_orden"); len(got) != 1 || !strings.Contains(got[0], "obligatorio") {
		t.Errorf("fecha_orden message: %v", got)
	}
	// None of the refused orders exists or used a number.
	if n := testenv.Column[int64](t, e, `select count(*) from ordenes_compra`)[0]; n != 0 {
		t.Errorf("%d orders written by refused requests", n)
	}
	if r := f.do(http.MethodPost, "/api/ordenes-compra", base); testenv.Str(r.JSON, "data.numero_orden") != "OC-000001" {
		t.Errorf("first accepted order after the refused ones: %s", r.Raw)
	}
	// Malformed bodies.
	for _, c := range []struct {
		body    string
		headers map[string]string
		status  int
	}{
		{"{detalles:", nil, http.StatusBadRequest},
		{"[]", nil, http.StatusBadRequest},
		{`{"x":1}`, map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
	} {
		r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ordenes-compra", Token: f.tok, Body: c.body, Headers: c.headers})
		if r.Status != c.status || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("%q: %d %s", c.body, r.Status, r.Raw)
		}
	}
}

func TestUpdateInDraftOrPendingRecomputesTotals(t *testing.T) {
	e, f := nuevo(t)
	otro := newProveedor(t, e, 1, 0)
	id := f.create(testenv.With(f.orden(linea(f.productos[0], 2, 100)), "fecha_entrega_estimada", "2026-03-15", "observaciones", "Primera"))
	path := ordenPath(id)

	// A partial edit keeps lines and totals.
	r := f.do(http.MethodPatch, path, map[string]any{"observaciones": "Editada"})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.observaciones") != "Editada" || testenv.Num(r.JSON, "data.monto_total") != 226 ||
		testenv.Len(r.JSON, "data.detalles") != 1 || testenv.Str(r.JSON, "message") != "Orden de compra actualizada correctamente." {
		t.Fatalf("patch observaciones: %d %s", r.Status, r.Raw)
	}
	// PUT replaces the lines; totals follow.
	r = f.do(http.MethodPut, path, map[string]any{"proveedor_id": otro, "fecha_orden": "2026-03-12", "estado": "pendiente",
		"detalles": []any{linea(f.productos[2], 3, 10), linea(f.productos[1], 1, 100, "descuento", 50)}})
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.proveedor.id") != float64(otro) || testenv.Str(r.JSON, "data.fecha_orden") != "2026-03-12" ||
		testenv.Str(r.JSON, "data.estado") != "pendiente" || testenv.Len(r.JSON, "data.detalles") != 2 ||
		testenv.Num(r.JSON, "data.monto_subtotal") != 130 || testenv.Num(r.JSON, "data.monto_descuentos") != 50 ||
		testenv.Num(r.JSON, "data.monto_impuestos") != 6.5 || testenv.Num(r.JSON, "data.monto_total") != 86.5 ||
		testenv.Str(r.JSON, "data.numero_orden") != "OC-000001" || testenv.Str(r.JSON, "data.observaciones") != "Editada" {
		t.Fatalf("put: %d %s", r.Status, r.Raw)
	}
	if n := testenv.Column[int64](t, e, `select count(*) from detalles_orden_compra where orden_compra_id = $1`, id)[0]; n != 2 {
		t.Errorf("%d stored lines after replacing them with 2", n)
	}
	// pendiente -> borrador, and null clears optional fields.
	r = f.do(http.MethodPatch, path, map[string]any{"estado": "borrador", "observaciones": nil, "fecha_entrega_estimada": nil})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "borrador" || testenv.Get(r.JSON, "data.observaciones") != nil ||
		testenv.Get(r.JSON, "data.fecha_entrega_estimada") != nil {
		t.Fatalf("back to borrador: %d %s", r.Status, r.Raw)
	}
	// Dates are checked against the stored values.
	f.do(http.MethodPatch, path, map[string]any{"fecha_entrega_estimada": "2026-03-20"})
	testenv.Expect422(t, f.do(http.MethodPatch, path, map[string]any{"fecha_orden": "2026-03-21"}), "fecha_entrega_estimada")
	testenv.Expect422(t, f.do(http.MethodPatch, path, map[string]any{"fecha_entrega_estimada": "2026-03-11"}), "fecha_entrega_estimada")
	for name, c := range map[string]struct {
		body  map[string]any
		field string
	}{
		"estado unknown through an edit":    {map[string]any{"estado": "abierta"}, "estado"},
		"estado blank through an edit":      {map[string]any{"estado": ""}, "estado"},
		"detalles empty":                    {map[string]any{"detalles": []any{}}, "detalles"},
		"detalles null":                     {map[string]any{"detalles": nil}, "detalles"},
		"proveedor_id null":                 {map[string]any{"proveedor_id": nil}, "proveedor_id"},
		"fecha_orden null":                  {map[string]any{"fecha_orden": nil}, "fecha_orden"},
		"a line of another company":         {map[string]any{"detalles": []any{linea(setup(t, e, 2).productos[0], 1, 1)}}, "detalles.0.producto_id"},
		"a line with a discount too large":  {map[string]any{"detalles": []any{linea(f.productos[0], 1, 1, "descuento", 2)}}, "detalles.0.descuento"},
		"observaciones too long":            {map[string]any{"observaciones": strings.Repeat("x", 2001)}, "observaciones"},
		"proveedor of another company":      {map[string]any{"proveedor_id": 999999}, "proveedor_id"},
		"almacen_id unknown":                {map[string]any{"almacen_id": 999999}, "almacen_id"},
		"fecha_entrega_estimada not a date": {map[string]any{"fecha_entrega_estimada": "2026-13-01"}, "fecha_entrega_estimada"},
	} {
		t.Run(name, func(t *testing.T) {
			testenv.Expect422(t, f.do(http.MethodPatch, path, c.body), c.field)
		})
	}
	// Nothing of the refused edits stuck.
	r = f.do(http.MethodGet, path, nil)
	if testenv.Num(r.JSON, "data.monto_total") != 86.5 || testenv.Len(r.JSON, "data.detalles") != 2 || testenv.Str(r.JSON, "data.estado") != "borrador" ||
		testenv.Str(r.JSON, "data.fecha_orden") != "2026-03-12" {
		t.Errorf("after refused edits: %s", r.Raw)
	}
}

func TestEditIsRefusedOnceApprovedReceivedOrCancelled(t *testing.T) {
	_, f := nuevo(t)
	for _, estado := range []string{"aprobada", "recibida", "cancelada"} {
		id := f.create(f.orden())
		f.to(id, estado)
		for _, m := range []string{http.MethodPut, http.MethodPatch} {
			for _, body := range []map[string]any{{"observaciones": "tarde"}, {"estado": "borrador"}, {}} {
				r := f.do(m, ordenPath(id), body)
				testenv.Expect422(t, r, "estado")
				if got := r.FieldErrors("estado")[0]; got != "Solo se pueden editar órdenes en estado borrador o pendiente." {
					t.Errorf("%s %s message: %q", estado, m, got)
				}
			}
		}
		r := f.do(http.MethodGet, ordenPath(id), nil)
		if testenv.Str(r.JSON, "data.estado") != estado || testenv.Get(r.JSON, "data.observaciones") != nil {
			t.Errorf("%s order changed by a refused edit: %s", estado, r.Raw)
		}
	}
}

func TestDeleteOnlyInDraftAndSoft(t *testing.T) {
	e, f := nuevo(t)
	keep := f.create(f.orden())
	gone := f.create(f.orden())
	r := f.do(http.MethodDelete, ordenPath(gone), nil)
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "message") != "Orden de compra eliminada correctamente." {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := f.do(http.MethodGet, ordenPath(gone), nil); r.Status != http.StatusNotFound {
		t.Errorf("show after delete: %d", r.Status)
	}
	for _, m := range []string{http.MethodPatch, http.MethodDelete} {
		if r := f.do(m, ordenPath(gone), map[string]any{}); r.Status != http.StatusNotFound {
			t.Errorf("%s after delete: %d", m, r.Status)
		}
	}
	if r := f.dar(gone, cancelar); r.Status != http.StatusNotFound {
		t.Errorf("cancel after delete: %d", r.Status)
	}
	if got := testenv.IDs64(f.do(http.MethodGet, "/api/ordenes-compra?per_page=100", nil)); slices.Contains(got, gone) || !slices.Contains(got, keep) {
		t.Errorf("list after delete: %v", got)
	}
	if n := testenv.Column[int64](t, e, `select count(*) from ordenes_compra where id = $1 and eliminado and not activo`, gone)[0]; n != 1 {
		t.Errorf("the row was not soft-deleted")
	}
	for _, estado := range []string{"pendiente", "aprobada", "recibida", "cancelada"} {
		id := f.create(f.orden())
		f.to(id, estado)
		r := f.do(http.MethodDelete, ordenPath(id), nil)
		testenv.Expect422(t, r, "estado")
		if r.FieldErrors("estado")[0] != "Solo se pueden eliminar órdenes en estado borrador." {
			t.Errorf("message: %s", r.Raw)
		}
		if r := f.do(http.MethodGet, ordenPath(id), nil); r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != estado {
			t.Errorf("%s order after a refused delete: %d %s", estado, r.Status, r.Raw)
		}
	}
}

func TestListFiltersSearchPaginationAndSort(t *testing.T) {
	e, f := nuevo(t)
	otro := newProveedor(t, e, 1, 0)
	byEstado := map[string]int64{}
	for _, estado := range []string{"borrador", "pendiente", "aprobada", "recibida", "cancelada"} {
		byEstado[estado] = f.create(f.orden())
		f.to(byEstado[estado], estado)
	}
	delOtro := f.create(testenv.With(f.orden(linea(f.productos[0], 10, 100)), "proveedor_id", otro, "fecha_orden", "2026-04-02"))
	all := []int64{byEstado["borrador"], byEstado["pendiente"], byEstado["aprobada"], byEstado["recibida"], byEstado["cancelada"], delOtro}
	list := func(q string) []int64 {
		t.Helper()
		r := f.do(http.MethodGet, "/api/ordenes-compra"+q, nil)
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != float64(testenv.Len(r.JSON, "data")) && !strings.Contains(q, "per_page") {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
		return testenv.IDs64(r)
	}
	cases := []struct {
		query string
		want  []int64
	}{
		{"", all},
		{"?proveedor_id=" + itoa(otro), []int64{delOtro}},
		{"?proveedor_id=" + itoa(f.proveedor), all[:5]},
		{"?estado=aprobada", []int64{byEstado["aprobada"]}},
		{"?estado=borrador", []int64{byEstado["borrador"], delOtro}},
		{"?pendientes=1", []int64{byEstado["borrador"], byEstado["pendiente"], byEstado["aprobada"], delOtro}},
		{"?pendientes=0", []int64{byEstado["recibida"], byEstado["cancelada"]}},
		{"?activas=1", []int64{byEstado["borrador"], byEstado["pendiente"], byEstado["aprobada"], byEstado["recibida"], delOtro}},
		{"?activas=true&pendientes=true", []int64{byEstado["borrador"], byEstado["pendiente"], byEstado["aprobada"], delOtro}},
		{"?activas=0", []int64{byEstado["cancelada"]}},
		{"?empresa_id=2", all},
		{"?search=000003", []int64{byEstado["aprobada"]}},
		{"?search=oc-00000", all},
		{"?search=OC-9", nil},
		{"?search=%25", nil},
		{"?fecha_inicio=2026-04-01", []int64{delOtro}},
		{"?fecha_fin=2026-03-31", all[:5]},
		{"?activos=1", all},
		{"?sort=monto_total&order=desc", append([]int64{delOtro}, all[:5]...)},
		{"?sort=numero_orden&order=desc", []int64{delOtro, all[4], all[3], all[2], all[1], all[0]}},
		{"?sort=fecha_orden&order=desc", append([]int64{delOtro}, all[:5]...)},
		{"?per_page=2&page=2", all[2:4]},
		{"?per_page=4&page=2", all[4:]},
	}
	for _, c := range cases {
		if got := list(c.query); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: %v, want %v", c.query, got, c.want)
		}
	}
	r := f.do(http.MethodGet, "/api/ordenes-compra?per_page=4&page=2", nil)
	if testenv.Num(r.JSON, "total") != 6 || testenv.Num(r.JSON, "last_page") != 2 || testenv.Num(r.JSON, "from") != 5 || testenv.Num(r.JSON, "to") != 6 {
		t.Errorf("page metadata: %s", r.Raw)
	}
	r = f.do(http.MethodGet, "/api/ordenes-compra", nil)
	if testenv.Num(r.JSON, "per_page") != 15 || testenv.Str(r.JSON, "data.0.proveedor.nombre") == "" || testenv.Num(r.JSON, "data.0.detalles_count") != 1 {
		t.Errorf("list row: %s", r.Raw)
	}
	for q, field := range map[string]string{
		"?estado=abierta": "estado", "?proveedor_id=abc": "proveedor_id", "?proveedor_id=-1": "proveedor_id",
		"?pendientes=quizas": "pendientes", "?activas=2": "activas", "?sort=password": "sort", "?order=up": "order",
		"?per_page=0": "per_page", "?per_page=101": "per_page", "?page=0": "page", "?fecha_inicio=ayer": "fecha_inicio",
	} {
		testenv.Expect422(t, f.do(http.MethodGet, "/api/ordenes-compra"+q, nil), field)
	}
}

func TestUnknownOrderIsNotFound(t *testing.T) {
	_, f := nuevo(t)
	for _, id := range []string{"999999", "0", "-1", "abc"} {
		for _, c := range []struct{ method, suffix string }{
			{http.MethodGet, ""}, {http.MethodPut, ""}, {http.MethodPatch, ""}, {http.MethodDelete, ""},
			{http.MethodPost, "/aprobar"}, {http.MethodPost, "/recibir"}, {http.MethodPost, "/cancelar"},
		} {
			r := f.do(c.method, "/api/ordenes-compra/"+id+c.suffix, map[string]any{"observaciones": "x"})
			if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("%s %s%s: %d %s", c.method, id, c.suffix, r.Status, r.Raw)
			}
			if id == "999999" && testenv.Str(r.JSON, "message") != "Orden de compra no encontrada." {
				t.Errorf("message %q", testenv.Str(r.JSON, "message"))
			}
		}
	}
	// An invalid body does not hide the 404.
	r := f.do(http.MethodPatch, "/api/ordenes-compra/999999", map[string]any{"detalles": []any{}})
	if r.Status != http.StatusNotFound {
		t.Errorf("invalid body on an unknown order: %d %s", r.Status, r.Raw)
	}
}
