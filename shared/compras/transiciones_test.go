package compras_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Every action from every state: allowed ones move the order, the others
// are a 422 under estado in Spanish and change nothing.
func TestEveryTransitionFromEveryState(t *testing.T) {
	e, f := nuevo(t)
	estados := []string{"borrador", "pendiente", "aprobada", "recibida", "cancelada"}
	type action struct {
		name string
		paso paso
		// to is the resulting state per starting state; absent = refused.
		to map[string]string
	}
	actions := []action{
		{"aprobar", aprobar, map[string]string{"pendiente": "aprobada"}},
		{"recibir", f.recibir(), map[string]string{"aprobada": "recibida"}},
		{"cancelar", cancelar, map[string]string{"borrador": "cancelada", "pendiente": "cancelada", "aprobada": "cancelada"}},
		{"editar a pendiente", editar(http.MethodPatch, "pendiente"), map[string]string{"borrador": "pendiente", "pendiente": "pendiente"}},
		{"editar a borrador", editar(http.MethodPut, "borrador"), map[string]string{"borrador": "borrador", "pendiente": "borrador"}},
		{"editar a aprobada", editar(http.MethodPatch, "aprobada"), map[string]string{"borrador": "aprobada", "pendiente": "aprobada"}},
		{"editar a recibida", editar(http.MethodPut, "recibida"), map[string]string{"borrador": "recibida", "pendiente": "recibida"}},
		{"editar a cancelada", editar(http.MethodPatch, "cancelada"), map[string]string{"borrador": "cancelada", "pendiente": "cancelada"}},
	}
	for _, from := range estados {
		for _, a := range actions {
			t.Run(from+" "+a.name, func(t *testing.T) {
				id := f.create(f.orden())
				f.to(id, from)
				r := f.dar(id, a.paso)
				to, allowed := a.to[from]
				if !allowed {
					testenv.Expect422(t, r, "estado")
					msg := r.FieldErrors("estado")[0]
					if !strings.Contains(msg, "orden") && !strings.Contains(msg, "órdenes") {
						t.Errorf("message %q", msg)
					}
					to = from
				} else if r.Status != http.StatusOK || testenv.Str(r.JSON, "message") == "" {
					t.Fatalf("%d %s", r.Status, r.Raw)
				}
				show := f.do(http.MethodGet, ordenPath(id), nil)
				if got := testenv.Str(show.JSON, "data.estado"); got != to {
					t.Errorf("estado %q, want %q", got, to)
				}
				stamps := map[string]string{"aprobada": "aprobado_en", "recibida": "recibido_en", "cancelada": "cancelado_en"}
				if allowed && stamps[to] != "" && to != from && testenv.Str(show.JSON, "data."+stamps[to]) == "" {
					t.Errorf("%s not set: %s", stamps[to], show.Raw)
				}
			})
		}
	}
	// The texts of the refusals.
	id := f.create(f.orden())
	if r := f.dar(id, aprobar); r.FieldErrors("estado")[0] != "Solo se pueden aprobar órdenes en estado pendiente (estado actual: borrador)." {
		t.Errorf("aprobar from borrador: %s", r.Raw)
	}
	if r := f.do(http.MethodPost, ordenPath(id, "recibir"), nil); r.FieldErrors("estado")[0] != "Solo se pueden recibir órdenes aprobadas (estado actual: borrador)." {
		t.Errorf("recibir from borrador: %s", r.Raw)
	}
	f.to(id, "recibida")
	if r := f.dar(id, cancelar); r.FieldErrors("estado")[0] != "No se puede cancelar una orden de compra recibida." {
		t.Errorf("cancelar from recibida: %s", r.Raw)
	}
	if r := f.do(http.MethodPost, ordenPath(id, "recibir"), nil); r.FieldErrors("estado")[0] != "La orden de compra ya fue recibida por completo." {
		t.Errorf("recibir twice: %s", r.Raw)
	}
	// A refused receipt wrote nothing: one entry, one payable.
	if n := testenv.Column[int64](t, e, `select count(*) from movimientos_inventario where orden_compra_id = $1`, id)[0]; n != 1 {
		t.Errorf("%d inventory entries", n)
	}
	if n := testenv.Column[int64](t, e, `select count(*) from cuentas_por_pagar where orden_compra_id = $1`, id)[0]; n != 1 {
		t.Errorf("%d payables", n)
	}
}

func TestReceiptRules(t *testing.T) {
	e, f := nuevo(t)
	f2 := setup(t, e, 2)
	a, b := f.productos[2], f.productos[3]
	aprobada := func(lineas ...map[string]any) (int64, []int64) {
		t.Helper()
		id := f.create(f.orden(lineas...))
		f.to(id, "aprobada")
		r := f.do(http.MethodGet, ordenPath(id), nil)
		var ds []int64
		for i := 0; i < testenv.Len(r.JSON, "data.detalles"); i++ {
			ds = append(ds, int64(testenv.Num(r.JSON, "data.detalles."+itoa(int64(i))+".id")))
		}
		return id, ds
	}
	recibir := func(id int64, body any) testenv.Resp {
		t.Helper()
		return f.do(http.MethodPost, ordenPath(id, "recibir"), body)
	}
	stock := func(producto int64) string {
		return testenv.Scalar[string](t, e, `select coalesce(sum(cantidad_disponible), 0)::numeric(12,3)::text from inventarios where producto_id = $1`, producto)
	}

	t.Run("refusals name the line and write nothing", func(t *testing.T) {
		id, ds := aprobada(linea(a, 10, 5), linea(b, 4, 5))
		otra, otros := aprobada(linea(a, 1, 1))
		_ = otra
		cases := []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"more than ordered by detalle_id", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": "10.001"}}}, "detalles.0.cantidad"},
			{"more than ordered by producto_id", map[string]any{"detalles": []any{map[string]any{"producto_id": b, "cantidad": 5}}}, "detalles.0.cantidad"},
			{"more than ordered over two lines of a receipt", map[string]any{"detalles": []any{
				map[string]any{"detalle_id": ds[1], "cantidad": 3}, map[string]any{"producto_id": b, "cantidad": 2}}}, "detalles.1.cantidad"},
			{"a line of another order", map[string]any{"detalles": []any{map[string]any{"detalle_id": otros[0], "cantidad": 1}}}, "detalles.0.detalle_id"},
			{"a product not in the order", map[string]any{"detalles": []any{map[string]any{"producto_id": f.productos[0], "cantidad": 1}}}, "detalles.0.producto_id"},
			{"neither detalle_id nor producto_id", map[string]any{"detalles": []any{map[string]any{"cantidad": 1}}}, "detalles.0.detalle_id"},
			{"detalle and product disagree", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "producto_id": b, "cantidad": 1}}}, "detalles.0.producto_id"},
			{"cantidad zero", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 0}}}, "detalles.0.cantidad"},
			{"cantidad missing", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0]}}}, "detalles.0.cantidad"},
			{"lote over 100", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 1, "lote": strings.Repeat("L", 101)}}}, "detalles.0.lote"},
			{"fecha_vencimiento invalid", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 1, "fecha_vencimiento": "31/12/2027"}}}, "detalles.0.fecha_vencimiento"},
			{"costo_unitario negative", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 1, "costo_unitario": -1}}}, "detalles.0.costo_unitario"},
			{"costo_unitario with 5 decimals", map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 1, "costo_unitario": "1.00001"}}}, "detalles.0.costo_unitario"},
			{"an empty list", map[string]any{"detalles": []any{}}, "detalles"},
			{"a line that is not an object", map[string]any{"detalles": []any{"x"}}, "detalles.0"},
			{"the alias lineas reports under lineas", map[string]any{"lineas": []any{map[string]any{"detalle_id": ds[0], "cantidad": 11}}}, "lineas.0.cantidad"},
			{"almacen_id of another company", map[string]any{"almacen_id": f2.almacen}, "almacen_id"},
			{"almacen_id unknown", map[string]any{"almacen_id": 999999}, "almacen_id"},
			{"almacen_id required when the order has none", map[string]any{}, "almacen_id"},
			{"almacen_id not a number", map[string]any{"almacen_id": "principal"}, "almacen_id"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				body := c.body
				if _, ok := body["almacen_id"]; !ok && c.field != "almacen_id" {
					body = testenv.With(body, "almacen_id", f.almacen)
				}
				testenv.Expect422(t, recibir(id, body), c.field)
			})
		}
		r := f.do(http.MethodGet, ordenPath(id), nil)
		if testenv.Str(r.JSON, "data.estado") != "aprobada" || testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") != 0 ||
			testenv.Len(r.JSON, "data.entradas_inventario") != 0 || stock(a) != "0.000" || stock(b) != "0.000" {
			t.Errorf("refused receipts changed the order or the stock: %s", r.Raw)
		}
	})

	t.Run("partial receipts add up and the last one completes the order", func(t *testing.T) {
		id, ds := aprobada(linea(a, 10, 5), linea(b, 4, 5))
		before := stock(a)
		r := recibir(id, map[string]any{"almacen_id": f.almacen, "detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 8}}})
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") != 8 || testenv.Str(r.JSON, "data.estado") != "aprobada" {
			t.Fatalf("first: %d %s", r.Status, r.Raw)
		}
		testenv.Expect422(t, recibir(id, map[string]any{"detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 3}}}), "detalles.0.cantidad")
		// The order remembers the warehouse of the first receipt.
		r = recibir(id, map[string]any{"lineas": []any{map[string]any{"detalle_id": ds[0], "cantidad": 2}, map[string]any{"producto_id": b, "cantidad": 3}}})
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.detalles.0.cantidad_pendiente") != 0 || testenv.Num(r.JSON, "data.detalles.1.cantidad_pendiente") != 1 ||
			testenv.Str(r.JSON, "data.estado") != "aprobada" || testenv.Get(r.JSON, "data.cuenta_por_pagar") != nil {
			t.Fatalf("second: %d %s", r.Status, r.Raw)
		}
		r = recibir(id, map[string]any{"detalles": []any{map[string]any{"producto_id": b, "cantidad": 1}}})
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "recibida" || testenv.Len(r.JSON, "data.entradas_inventario") != 3 ||
			testenv.Num(r.JSON, "data.cuenta_por_pagar.monto") != 70 {
			t.Fatalf("last: %d %s", r.Status, r.Raw)
		}
		if got := stock(a); got != addDec(t, e, before, "10") {
			t.Errorf("stock of a: %s (before %s)", got, before)
		}
	})

	t.Run("a product on two lines is received line after line", func(t *testing.T) {
		id, _ := aprobada(linea(a, 2, 5), linea(b, 1, 5), linea(a, 3, 6))
		r := recibir(id, map[string]any{"almacen_id": f.almacen, "detalles": []any{map[string]any{"producto_id": a, "cantidad": 4}}})
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") != 2 || testenv.Num(r.JSON, "data.detalles.2.cantidad_recibida") != 2 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		// Each part entered at its own line's price.
		if testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.0.costo_unitario") != 5 || testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.1.costo_unitario") != 6 {
			t.Errorf("costs: %s", r.Raw)
		}
	})

	t.Run("the order's warehouse is the default and services enter no stock", func(t *testing.T) {
		servicio := testenv.Column[int64](t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta, gestionado_inventario)
			select 1, c.id, u.id, 'Flete', 'servicio', 0, false from categorias_producto c, unidades_medida u
			where c.empresa_id = 1 and u.codigo = 'Unid' returning id`)[0]
		id := f.create(testenv.With(f.orden(linea(a, 1, 5), linea(servicio, 1, 2500)), "almacen_id", f.almacen))
		f.to(id, "pendiente")
		f.dar(id, aprobar)
		r := recibir(id, nil)
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "recibida" || testenv.Len(r.JSON, "data.entradas_inventario.0.detalles") != 1 ||
			testenv.Num(r.JSON, "data.detalles.1.cantidad_recibida") != 1 || testenv.Num(r.JSON, "data.cuenta_por_pagar.monto") != 2505 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		if stock(servicio) != "0.000" {
			t.Errorf("a service entered stock")
		}
	})

	t.Run("the payable is due after the supplier's credit days; a zero total is paid", func(t *testing.T) {
		contado := newProveedor(t, e, 1, 0)
		id := f.create(testenv.With(f.orden(linea(a, 1, 0)), "proveedor_id", contado))
		f.to(id, "recibida")
		r := f.do(http.MethodGet, ordenPath(id), nil)
		hoy := testenv.Scalar[string](t, e, `select ((now() at time zone 'America/Costa_Rica')::date)::text`)
		if testenv.Str(r.JSON, "data.cuenta_por_pagar.fecha_vencimiento") != hoy || testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") != "pagada" ||
			testenv.Num(r.JSON, "data.saldo_pendiente") != 0 {
			t.Errorf("cash supplier, zero total: %s", r.Raw)
		}
	})

	t.Run("the stock of the batch takes the received cost", func(t *testing.T) {
		p := newProductos(t, e, 1, 1, 0)[0]
		id, ds := aprobada(linea(p, 6, "12.50"))
		r := recibir(id, map[string]any{"almacen_id": f.almacen, "detalles": []any{
			map[string]any{"detalle_id": ds[0], "cantidad": 2, "lote": "A1", "fecha_vencimiento": "2027-05-01", "costo_unitario": "11.2525"},
			map[string]any{"detalle_id": ds[0], "cantidad": 4, "lote": "A2"},
		}})
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		got := testenv.Scalar[string](t, e, `select string_agg(lote || '/' || cantidad_disponible::numeric(8,1) || '/' || costo_unitario || '/' || coalesce(fecha_vencimiento::text, '-'), ' ' order by lote)
			from inventarios where producto_id = $1 and almacen_id = $2`, p, f.almacen)
		if got != "A1/2.0/11.2525/2027-05-01 A2/4.0/12.5000/-" {
			t.Errorf("batches: %s", got)
		}
	})

	t.Run("goods received: the order can no longer be cancelled", func(t *testing.T) {
		id, ds := aprobada(linea(a, 5, 1))
		recibir(id, map[string]any{"almacen_id": f.almacen, "detalles": []any{map[string]any{"detalle_id": ds[0], "cantidad": 1}}})
		r := f.dar(id, cancelar)
		testenv.Expect422(t, r, "estado")
		if r.FieldErrors("estado")[0] != "No se puede cancelar una orden de compra con mercadería ya recibida." {
			t.Errorf("message: %s", r.Raw)
		}
	})
}

// addDec adds two decimal texts in PostgreSQL (3 decimals).
func addDec(t *testing.T, e *testenv.Env, a, b string) string {
	return testenv.Scalar[string](t, e, `select ($1::numeric + $2::numeric)::numeric(12,3)::text`, a, b)
}
