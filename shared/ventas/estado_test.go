package ventas_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestStateTransitions(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	cases := []struct {
		from, to string
		ok       bool
	}{
		{"borrador", "pendiente", true}, {"borrador", "anulada", true}, {"borrador", "pagada", false}, {"borrador", "borrador", true},
		{"pendiente", "pagada", true}, {"pendiente", "anulada", true}, {"pendiente", "borrador", false}, {"pendiente", "pendiente", true},
		{"pagada", "anulada", true}, {"pagada", "pendiente", false}, {"pagada", "borrador", false}, {"pagada", "pagada", true},
		{"anulada", "pendiente", false}, {"anulada", "pagada", false}, {"anulada", "borrador", false}, {"anulada", "anulada", false},
	}
	for _, c := range cases {
		for _, method := range []string{http.MethodPut, http.MethodPatch} {
			t.Run(method+" "+c.from+" to "+c.to, func(t *testing.T) {
				fs := f.sub(t)
				estado := c.from
				if estado == "anulada" {
					estado = "pendiente"
				}
				r := fs.venderOK(testenv.With(venta(linea(p, 1, 10)), "estado", estado))
				if c.from == "anulada" {
					if u := fs.E.Call(f.Admin, method, path("ventas", id(r)), map[string]any{"estado": "anulada"}); u.Status != http.StatusOK {
						t.Fatalf("anular: %d %s", u.Status, u.Raw)
					}
				}
				u := fs.E.Call(f.Admin, method, path("ventas", id(r)), map[string]any{"estado": c.to})
				if !c.ok {
					testenv.Expect422(t, u, "estado")
					if got := fs.Text(`select estado from ventas where id = $1`, id(r)); got != c.from {
						t.Errorf("state changed to %s by a refused request", got)
					}
					return
				}
				if u.Status != http.StatusOK || testenv.Str(u.JSON, "data.estado") != c.to || testenv.Str(u.JSON, "message") != "Venta actualizada correctamente." {
					t.Fatalf("%d %s", u.Status, u.Raw)
				}
			})
		}
	}
}

func TestUpdateChangesOnlyObservacionesAndEstado(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	otro := f.Producto(testenv.Prod{Codigo: "O"})
	r := f.venderOK(testenv.With(venta(linea(p, 1, 10)), "observaciones", "Original"))
	u := f.E.Call(f.Admin, http.MethodPut, path("ventas", id(r)), map[string]any{
		"observaciones": "Cambiada", "fecha_venta": "2020-01-01", "tipo_comprobante": "tiquete", "numero_comprobante": "X-1",
		"monto_total": 1, "empresa_id": 2, "cliente_id": 999, "detalles": []any{linea(otro, 9, 9)}, "usuario_id": 7,
	})
	if u.Status != http.StatusOK || testenv.Str(u.JSON, "data.observaciones") != "Cambiada" {
		t.Fatalf("update: %d %s", u.Status, u.Raw)
	}
	for k, v := range map[string]any{"data.fecha_venta": "2026-03-15", "data.tipo_comprobante": "factura",
		"data.numero_comprobante": "FAC-00000001", "data.empresa_id": 1.0, "data.cliente_id": nil, "data.usuario_id": 1.0,
		"data.detalles.0.producto_id": float64(p), "data.estado": "pendiente"} {
		if got := testenv.Get(u.JSON, k); got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	if testenv.Len(u.JSON, "data.detalles") != 1 || num(u, "data.monto_total") != "10.00" {
		t.Errorf("lines or totals changed: %s", u.Raw)
	}
	// PATCH with null clears observaciones; a too long one is refused.
	u = f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"observaciones": nil})
	if u.Status != http.StatusOK || testenv.Get(u.JSON, "data.observaciones") != nil {
		t.Errorf("clear: %d %s", u.Status, u.Raw)
	}
	long := make([]byte, 2001)
	for i := range long {
		long[i] = 'x'
	}
	testenv.Expect422(t, f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"observaciones": string(long)}), "observaciones")
	testenv.Expect422(t, f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"estado": "completada"}), "estado")
	// An anulada sale is final, observaciones included.
	f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"estado": "anulada"})
	testenv.Expect422(t, f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"observaciones": "tarde"}), "estado")
}

func TestCancellingReturnsTheStockAndCancelsTheReceivable(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "4", "450", "A", "2027-01-01")
	f.Stock(f.Almacen, a, "10", "500", "B", "2027-06-01")
	cliente := f.Cliente(1, "101110111", 15)
	for _, how := range []string{"PUT", "DELETE"} {
		t.Run(how, func(t *testing.T) {
			fs := f.sub(t)
			r := fs.venderOK(testenv.With(venta(linea(a, 6, 1000)), "almacen_id", f.Almacen, "cliente_id", cliente))
			cxc := cuentaDe(r)
			if cxc <= 0 || fs.Existencias(f.Almacen, a) != "8.000" {
				t.Fatalf("sale: %s", r.Raw)
			}
			var u testenv.Resp
			if how == "PUT" {
				u = fs.E.Call(f.Admin, http.MethodPut, path("ventas", id(r)), map[string]any{"estado": "anulada"})
				if u.Status != http.StatusOK || testenv.Str(u.JSON, "data.estado") != "anulada" || testenv.Str(u.JSON, "data.anulado_en") == "" ||
					testenv.Str(u.JSON, "data.cuenta_por_cobrar.estado") != "anulada" || num(u, "data.cuenta_por_cobrar.saldo") != "0.00" {
					t.Fatalf("anular: %d %s", u.Status, u.Raw)
				}
			} else {
				u = fs.E.Call(f.Admin, http.MethodDelete, path("ventas", id(r)), nil)
				if u.Status != http.StatusOK || testenv.Str(u.JSON, "message") != "Venta anulada y eliminada correctamente." {
					t.Fatalf("delete: %d %s", u.Status, u.Raw)
				}
				// Soft-deleted: gone from show, list, update and delete; the row stays.
				if s := fs.E.Get(path("ventas", id(r)), f.Admin); s.Status != http.StatusNotFound {
					t.Errorf("show after delete: %d", s.Status)
				}
				for _, m := range []string{http.MethodPut, http.MethodDelete} {
					if s := fs.E.Call(f.Admin, m, path("ventas", id(r)), map[string]any{"estado": "anulada"}); s.Status != http.StatusNotFound {
						t.Errorf("%s after delete: %d", m, s.Status)
					}
				}
				if got := fs.Text(`select estado || ' ' || activo || ' ' || eliminado from ventas where id = $1`, id(r)); got != "anulada false true" {
					t.Errorf("stored %s", got)
				}
			}
			if got := fs.Existencias(f.Almacen, a); got != "14.000" {
				t.Errorf("stock after cancelling %s, want 14", got)
			}
			// Each batch got back what it gave, at its cost.
			if got := fs.Text(`select string_agg(lote || '=' || cantidad_disponible::numeric(18,0) || '@' || costo_unitario::numeric(18,0), ',' order by lote) from inventarios where producto_id = $1`, a); got != "A=4@450,B=10@500" {
				t.Errorf("batches %s", got)
			}
			if got := fs.movimientos(id(r)); got != "salida Venta Procesada, entrada Devolucion Cliente Procesada" {
				t.Errorf("movements %q", got)
			}
			if got := fs.Text(`select estado || ' ' || saldo from cuentas_por_cobrar where id = $1`, cxc); got != "anulada 0.00" {
				t.Errorf("receivable %s", got)
			}
		})
	}
	// Deleting a sale cancelled before returns nothing twice.
	r := f.venderOK(testenv.With(venta(linea(a, 1, 10)), "almacen_id", f.Almacen))
	f.E.Call(f.Admin, http.MethodPut, path("ventas", id(r)), map[string]any{"estado": "anulada"})
	if u := f.E.Call(f.Admin, http.MethodDelete, path("ventas", id(r)), nil); u.Status != http.StatusOK {
		t.Fatalf("delete anulada: %d %s", u.Status, u.Raw)
	}
	if got := f.Existencias(f.Almacen, a); got != "14.000" {
		t.Errorf("stock after deleting a cancelled sale %s", got)
	}
	// A cancelled draft moved nothing and returns nothing.
	d := f.venderOK(testenv.With(venta(linea(a, 1, 10)), "almacen_id", f.Almacen, "estado", "borrador"))
	if u := f.E.Call(f.Admin, http.MethodDelete, path("ventas", id(d)), nil); u.Status != http.StatusOK || f.movimientos(id(d)) != "" {
		t.Errorf("draft delete: %d %s %q", u.Status, u.Raw, f.movimientos(id(d)))
	}
}
