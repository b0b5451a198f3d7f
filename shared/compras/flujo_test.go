package compras_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// The whole life of an order: draft, pending, approved, received in two
// deliveries (batches with expiry), its payable paid in two payments.
func TestPurchaseOrderLifeFromDraftToPaid(t *testing.T) {
	e, f := nuevo(t)
	r := f.do(http.MethodPost, "/api/ordenes-compra", map[string]any{
		"proveedor_id": f.proveedor, "fecha_orden": "2026-03-10", "fecha_entrega_estimada": "2026-03-20",
		"observaciones": "Pedido mensual", "empresa_id": 2, "usuario_id": 99, "estado": "borrador",
		"detalles": []map[string]any{
			linea(f.productos[0], 10, "1000.00", "descuento", 500, "descripcion", "Arroz 1 kg"), // IVA 13% from its tax type
			linea(f.productos[2], "2.5", 200), // no tax type: 0%
		},
	})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Orden de compra creada correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int64(testenv.Num(r.JSON, "data.id"))
	want := map[string]any{
		"numero_orden": "OC-000001", "estado": "borrador", "empresa_id": 1.0, "usuario_id": 1.0,
		"proveedor_id": float64(f.proveedor), "fecha_orden": "2026-03-10", "fecha_entrega_estimada": "2026-03-20",
		"observaciones": "Pedido mensual", "monto_subtotal": 10500.0, "monto_descuentos": 500.0,
		"monto_impuestos": 1235.0, "monto_total": 11235.0, "saldo_pendiente": 11235.0,
		"proveedor.nombre": testenv.Str(f.do(http.MethodGet, "/api/proveedores/"+itoa(f.proveedor), nil).JSON, "data.nombre"),
		"detalles.0.linea": 1.0, "detalles.0.porcentaje_impuesto": 13.0, "detalles.0.subtotal": 10000.0,
		"detalles.0.monto_impuesto": 1235.0, "detalles.0.total": 10735.0, "detalles.0.descripcion": "Arroz 1 kg",
		"detalles.0.producto.id": float64(f.productos[0]), "detalles.0.cantidad_recibida": 0.0,
		"detalles.1.porcentaje_impuesto": 0.0, "detalles.1.subtotal": 500.0, "detalles.1.descripcion": "Producto 3",
		"aprobado_en": nil, "recibido_en": nil, "cuenta_por_pagar": nil, "activo": true, "eliminado": false,
	}
	for k, v := range want {
		if got := testenv.Get(r.JSON, "data."+k); got != v {
			t.Errorf("created data.%s = %#v, want %#v", k, got, v)
		}
	}
	for _, k := range []string{"detalles", "pagos", "entradas_inventario"} {
		if testenv.Len(r.JSON, "data."+k) < 0 {
			t.Errorf("data.%s is not a list: %s", k, r.Raw)
		}
	}

	// Show returns the same document.
	show := f.do(http.MethodGet, ordenPath(id), nil)
	if show.Status != http.StatusOK || testenv.Str(show.JSON, "data.numero_orden") != "OC-000001" || testenv.Len(show.JSON, "data.detalles") != 2 {
		t.Fatalf("show: %d %s", show.Status, show.Raw)
	}

	// borrador -> pendiente -> aprobada.
	r = f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": "pendiente"})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "pendiente" {
		t.Fatalf("pendiente: %d %s", r.Status, r.Raw)
	}
	r = f.dar(id, aprobar)
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "aprobada" || testenv.Str(r.JSON, "data.aprobado_en") == "" {
		t.Fatalf("aprobar: %d %s", r.Status, r.Raw)
	}
	detalle0 := int64(testenv.Num(r.JSON, "data.detalles.0.id"))

	// First delivery: 4 of line 1 in two batches with expiry, at another cost.
	r = f.do(http.MethodPost, ordenPath(id, "recibir"), map[string]any{"almacen_id": f.almacen, "detalles": []map[string]any{
		{"detalle_id": detalle0, "cantidad": 3, "lote": "L-1", "fecha_vencimiento": "2027-01-31", "costo_unitario": "950.5"},
		{"producto_id": f.productos[0], "cantidad": 1, "lote": "L-2", "fecha_vencimiento": "2027-02-28"},
	}})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "aprobada" || testenv.Get(r.JSON, "data.recibido_en") != nil ||
		testenv.Str(r.JSON, "message") != "Recepción parcial registrada correctamente." {
		t.Fatalf("partial receipt: %d %s", r.Status, r.Raw)
	}
	if testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") != 4 || testenv.Num(r.JSON, "data.detalles.0.cantidad_pendiente") != 6 ||
		testenv.Num(r.JSON, "data.detalles.1.cantidad_recibida") != 0 || testenv.Get(r.JSON, "data.cuenta_por_pagar") != nil {
		t.Errorf("partial receipt quantities: %s", r.Raw)
	}
	if testenv.Len(r.JSON, "data.entradas_inventario") != 1 || testenv.Str(r.JSON, "data.entradas_inventario.0.tipo") != "Compra" ||
		testenv.Str(r.JSON, "data.entradas_inventario.0.estado") != "Procesada" || testenv.Len(r.JSON, "data.entradas_inventario.0.detalles") != 2 ||
		testenv.Str(r.JSON, "data.entradas_inventario.0.detalles.0.lote") != "L-1" ||
		testenv.Str(r.JSON, "data.entradas_inventario.0.detalles.0.fecha_vencimiento") != "2027-01-31" ||
		testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.0.costo_unitario") != 950.5 ||
		testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.1.costo_unitario") != 950 || // 1000 less 500 of discount over 10
		testenv.Num(r.JSON, "data.entradas_inventario.0.proveedor_id") != float64(f.proveedor) {
		t.Errorf("inventory entry of the partial receipt: %s", r.Raw)
	}
	// The stock is in the warehouse, batch by batch.
	if got := testenv.Scalar[string](t, e, `select string_agg(lote || ':' || cantidad_disponible::numeric(10,1) || ':' || fecha_vencimiento, ',' order by lote)
		from inventarios where empresa_id = 1 and almacen_id = $1 and producto_id = $2`, f.almacen, f.productos[0]); got != "L-1:3.0:2027-01-31,L-2:1.0:2027-02-28" {
		t.Errorf("stock after the partial receipt: %s", got)
	}

	// Second delivery: the rest (no lines = everything pending).
	r = f.do(http.MethodPost, ordenPath(id, "recibir"), map[string]any{})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "recibida" || testenv.Str(r.JSON, "data.recibido_en") == "" ||
		testenv.Str(r.JSON, "message") != "Orden de compra recibida por completo." {
		t.Fatalf("final receipt: %d %s", r.Status, r.Raw)
	}
	if testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") != 10 || testenv.Num(r.JSON, "data.detalles.1.cantidad_recibida") != 2.5 ||
		testenv.Len(r.JSON, "data.entradas_inventario") != 2 || testenv.Num(r.JSON, "data.almacen.id") != float64(f.almacen) {
		t.Errorf("after the final receipt: %s", r.Raw)
	}
	// The payable: the order's total, due today + the supplier's 30 days.
	cuenta := int64(testenv.Num(r.JSON, "data.cuenta_por_pagar.id"))
	hoy := testenv.Scalar[string](t, e, `select ((now() at time zone 'America/Costa_Rica')::date)::text`)
	vence := testenv.Scalar[string](t, e, `select ((now() at time zone 'America/Costa_Rica')::date + 30)::text`)
	if cuenta <= 0 || testenv.Num(r.JSON, "data.cuenta_por_pagar.monto") != 11235 || testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") != 11235 ||
		testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pendiente" || testenv.Str(r.JSON, "data.cuenta_por_pagar.fecha_emision") != hoy ||
		testenv.Str(r.JSON, "data.cuenta_por_pagar.fecha_vencimiento") != vence {
		t.Fatalf("payable: %s", r.Raw)
	}

	// Two payments; the second settles it.
	r = f.do(http.MethodPost, cuentaPath(cuenta, "pagos"), map[string]any{"monto": "6235.00", "fecha": "2026-04-01", "forma_pago_id": 4, "referencia": "TRF-1"})
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.monto") != 6235 || testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") != 5000 ||
		testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pendiente" || testenv.Str(r.JSON, "data.forma_pago.codigo") != "04" {
		t.Fatalf("first payment: %d %s", r.Status, r.Raw)
	}
	r = f.do(http.MethodGet, ordenPath(id), nil)
	if testenv.Num(r.JSON, "data.saldo_pendiente") != 5000 || testenv.Len(r.JSON, "data.pagos") != 1 {
		t.Errorf("order after one payment: %s", r.Raw)
	}
	r = f.do(http.MethodPost, cuentaPath(cuenta, "pagos"), map[string]any{"monto": 5000, "fecha": "2026-04-15", "forma_pago_id": 1})
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") != 0 ||
		testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pagada" || testenv.Len(r.JSON, "data.cuenta_por_pagar.pagos") != 2 {
		t.Fatalf("second payment: %d %s", r.Status, r.Raw)
	}
	r = f.do(http.MethodGet, ordenPath(id), nil)
	if testenv.Num(r.JSON, "data.saldo_pendiente") != 0 || testenv.Len(r.JSON, "data.pagos") != 2 || testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pagada" {
		t.Errorf("order after both payments: %s", r.Raw)
	}
	r = f.do(http.MethodGet, cuentaPath(cuenta), nil)
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data.pagos") != 2 || testenv.Str(r.JSON, "data.orden_compra.numero_orden") != "OC-000001" ||
		testenv.Num(r.JSON, "data.monto_pagado") != 11235 || testenv.Str(r.JSON, "data.pagos.0.referencia") != "TRF-1" {
		t.Errorf("payable show: %d %s", r.Status, r.Raw)
	}
}
