package ventas_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// movimientos summarises a sale's inventory movements: "clase tipo estado numero" per movement.
func (f *fx) movimientos(venta int64) string {
	f.T.Helper()
	return f.Text(`select coalesce(string_agg(clase || ' ' || tipo || ' ' || estado, ', ' order by id), '') from movimientos_inventario where venta_id = $1`, venta)
}

func TestASaleWithAWarehouseTakesItsStockFIFOByBatch(t *testing.T) {
	f := setup(t)
	arroz := f.Producto(testenv.Prod{Codigo: "ARZ"})
	servicio := f.Producto(testenv.Prod{Codigo: "SRV", Servicio: true})
	f.Stock(f.Almacen, arroz, "4", "450", "A", "2027-01-01")
	f.Stock(f.Almacen, arroz, "10", "500", "B", "2027-06-01")
	r := f.venderOK(testenv.With(venta(linea(arroz, 6, 1000), linea(servicio, 1, 5000)), "almacen_id", f.Almacen))
	if testenv.Num(r.JSON, "data.almacen_id") != float64(f.Almacen) || testenv.Str(r.JSON, "data.almacen.codigo") != "PRINCIPAL" {
		t.Errorf("almacen: %s", r.Raw)
	}
	if got := f.Existencias(f.Almacen, arroz); got != "8.000" {
		t.Errorf("stock after the sale %s, want 8", got)
	}
	// The earliest-expiring batch went first: A emptied, B gave 2.
	if got := f.Text(`select string_agg(lote || '=' || cantidad_disponible::numeric(18,0), ',' order by lote) from inventarios where producto_id = $1`, arroz); got != "A=0,B=8" {
		t.Errorf("batches %s", got)
	}
	if got := f.movimientos(id(r)); got != "salida Venta Procesada" {
		t.Errorf("movements %q", got)
	}
	// Only the stock-managed product is in the exit.
	if n := f.Int(`select count(*) from detalles_movimiento d join movimientos_inventario m on m.id = d.movimiento_id where m.venta_id = $1`, id(r)); n != 1 {
		t.Errorf("%d exit lines, want 1", n)
	}
	// The exit is linked to the sale, its customer and user.
	if got := f.Text(`select venta_id || ' ' || usuario_id || ' ' || fecha from movimientos_inventario where venta_id = $1`, id(r)); got != fmt.Sprintf("%d 1 2026-03-15", id(r)) {
		t.Errorf("exit %s", got)
	}
}

func TestInsufficientStockIsA422OnTheLineAndWritesNothing(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	b := f.Producto(testenv.Prod{Codigo: "B"})
	f.Stock(f.Almacen, a, "10", "100", "", "")
	f.Stock(f.Almacen, b, "2", "100", "", "")
	r := f.vender(testenv.With(venta(linea(a, 3, 10), linea(b, "2.5", 10)), "almacen_id", f.Almacen))
	testenv.Expect422(t, r, "detalles.1.cantidad")
	if msg := r.FieldErrors("detalles.1.cantidad")[0]; msg != "Stock insuficiente en el almacén: disponible 2, solicitado 2.5." {
		t.Errorf("message %q", msg)
	}
	// The same product twice: the second line finds what the first left.
	r = f.vender(testenv.With(venta(linea(a, 6, 10), linea(a, 5, 10)), "almacen_id", f.Almacen))
	testenv.Expect422(t, r, "detalles.1.cantidad")
	if f.Existencias(f.Almacen, a) != "10.000" || f.Existencias(f.Almacen, b) != "2.000" {
		t.Errorf("stock changed by refused sales")
	}
	if n := f.Int(`select count(*) from ventas`) + f.Int(`select count(*) from movimientos_inventario`); n != 0 {
		t.Errorf("%d rows written by refused sales", n)
	}
	// A product without stock rows at all.
	c := f.Producto(testenv.Prod{Codigo: "C"})
	testenv.Expect422(t, f.vender(testenv.With(venta(linea(c, 1, 10)), "almacen_id", f.Almacen)), "detalles.0.cantidad")
	// The numbers were given back.
	if r := f.venderOK(testenv.With(venta(linea(a, 10, 10)), "almacen_id", f.Almacen)); testenv.Str(r.JSON, "data.numero_comprobante") != "FAC-00000001" {
		t.Errorf("number after refusals: %s", r.Raw)
	}
	if f.Existencias(f.Almacen, a) != "0.000" {
		t.Errorf("selling the whole stock left %s", f.Existencias(f.Almacen, a))
	}
}

func TestNegativeStockWhenTheCompanyAllowsIt(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "2", "100", "L1", "")
	f.Ajuste(1, "inventario.permitir_stock_negativo", true)
	r := f.venderOK(testenv.With(venta(linea(a, 5, 10)), "almacen_id", f.Almacen))
	if got := f.Existencias(f.Almacen, a); got != "-3.000" {
		t.Errorf("stock %s, want -3", got)
	}
	// Cancelling gives back both the batch and the negative remainder.
	u := f.E.Call(f.Admin, http.MethodPut, path("ventas", id(r)), map[string]any{"estado": "anulada"})
	if u.Status != http.StatusOK {
		t.Fatalf("anular: %d %s", u.Status, u.Raw)
	}
	if got := f.Existencias(f.Almacen, a); got != "2.000" {
		t.Errorf("stock after cancelling %s, want 2", got)
	}
	if got := f.Text(`select string_agg(coalesce(lote, '-') || '=' || cantidad_disponible::numeric(18,0), ',' order by lote nulls last) from inventarios where producto_id = $1`, a); got != "L1=2,-=0" {
		t.Errorf("rows %s", got)
	}
	// The setting off again: refused.
	f.Ajuste(1, "inventario.permitir_stock_negativo", false)
	testenv.Expect422(t, f.vender(testenv.With(venta(linea(a, 5, 10)), "almacen_id", f.Almacen)), "detalles.0.cantidad")
}

func TestAutomaticDeductionUsesThePrincipalWarehouse(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "10", "100", "", "")
	// Off (the default): a sale without almacen_id moves no stock.
	r := f.venderOK(testenv.With(venta(linea(a, 1, 10)), "sucursal_id", f.Sucursal))
	if f.Existencias(f.Almacen, a) != "10.000" || f.movimientos(id(r)) != "" || testenv.Get(r.JSON, "data.almacen_id") != nil {
		t.Errorf("deducted with the setting off: %s", r.Raw)
	}
	f.Ajuste(1, "inventario.descontar_stock_automatico", true)
	// The branch's principal warehouse.
	r = f.venderOK(testenv.With(venta(linea(a, 2, 10)), "sucursal_id", f.Sucursal))
	if f.Existencias(f.Almacen, a) != "8.000" || testenv.Num(r.JSON, "data.almacen_id") != float64(f.Almacen) {
		t.Errorf("branch sale: %s %s", f.Existencias(f.Almacen, a), r.Raw)
	}
	// Without a branch, or from a branch without the principal warehouse: the company's principal one.
	otra := f.Int(`insert into sucursales (empresa_id, nombre) values (1, 'Norte') returning id`)
	r = f.venderOK(venta(linea(a, 1, 10)))
	r2 := f.venderOK(testenv.With(venta(linea(a, 1, 10)), "sucursal_id", otra))
	if f.Existencias(f.Almacen, a) != "6.000" || testenv.Num(r2.JSON, "data.almacen_id") != float64(f.Almacen) {
		t.Errorf("company principal: %s %s", f.Existencias(f.Almacen, a), r2.Raw)
	}
	// An explicit warehouse wins.
	bodega := f.Int(`insert into almacenes (empresa_id, sucursal_id, nombre) values (1, $1, 'Bodega') returning id`, otra)
	f.Stock(bodega, a, "5", "100", "", "")
	f.venderOK(testenv.With(venta(linea(a, 5, 10)), "almacen_id", bodega))
	if f.Existencias(bodega, a) != "0.000" || f.Existencias(f.Almacen, a) != "6.000" {
		t.Errorf("explicit warehouse: %s %s", f.Existencias(bodega, a), f.Existencias(f.Almacen, a))
	}
	// Insufficient in the automatic warehouse is the same 422.
	testenv.Expect422(t, f.vender(venta(linea(a, 1, 10), linea(a, 7, 10))), "detalles.1.cantidad")
}

func TestADraftMovesStockWhenConfirmed(t *testing.T) {
	f := setup(t)
	a := f.Producto(testenv.Prod{Codigo: "A"})
	f.Stock(f.Almacen, a, "3", "100", "", "")
	r := f.venderOK(testenv.With(venta(linea(a, 2, 10)), "almacen_id", f.Almacen, "estado", "borrador"))
	if testenv.Str(r.JSON, "data.estado") != "borrador" || f.Existencias(f.Almacen, a) != "3.000" || f.movimientos(id(r)) != "" {
		t.Fatalf("a draft moved stock: %s", r.Raw)
	}
	// Confirming it when the stock no longer covers it: 422 on the line, still a draft.
	f.E.Exec(`update inventarios set cantidad_disponible = 1 where producto_id = $1`, a)
	u := f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"estado": "pendiente"})
	testenv.Expect422(t, u, "detalles.0.cantidad")
	if s := f.E.Get(path("ventas", id(r)), f.Admin); testenv.Str(s.JSON, "data.estado") != "borrador" {
		t.Errorf("refused confirmation changed the sale: %s", s.Raw)
	}
	f.E.Exec(`update inventarios set cantidad_disponible = 3 where producto_id = $1`, a)
	u = f.E.Call(f.Admin, http.MethodPatch, path("ventas", id(r)), map[string]any{"estado": "pendiente"})
	if u.Status != http.StatusOK || testenv.Str(u.JSON, "data.estado") != "pendiente" || f.Existencias(f.Almacen, a) != "1.000" {
		t.Fatalf("confirm: %d %s (stock %s)", u.Status, u.Raw, f.Existencias(f.Almacen, a))
	}
	if got := f.movimientos(id(r)); got != "salida Venta Procesada" {
		t.Errorf("movements %q", got)
	}
}
