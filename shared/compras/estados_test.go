package compras_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// SPEC.md: estado is required on create and may be any of the five states;
// PUT/PATCH moves a borrador or pendiente order to any state. Both run what
// the action routes (aprobar, recibir everything, cancelar) do.

// efectos checks the stored order (GET) against what moving it to estado
// must have done: the time stamps, the processed entry of type Compra with
// every line into almacen, the received quantities, the stock, the payable.
func efectos(t *testing.T, f *fixture, id int64, estado string, almacen, producto int64, cantidad float64) {
	t.Helper()
	r := f.e.Must(t, http.StatusOK, f.tok, http.MethodGet, ordenPath(id), nil)
	recibida := estado == "recibida"
	checks := []struct {
		name string
		ok   bool
	}{
		{"estado", testenv.Str(r.JSON, "data.estado") == estado},
		{"aprobado_en", (testenv.Str(r.JSON, "data.aprobado_en") != "") == (estado == "aprobada" || recibida)},
		{"recibido_en", (testenv.Str(r.JSON, "data.recibido_en") != "") == recibida},
		{"cancelado_en", (testenv.Str(r.JSON, "data.cancelado_en") != "") == (estado == "cancelada")},
		{"entradas_inventario", testenv.Len(r.JSON, "data.entradas_inventario") == map[bool]int{true: 1, false: 0}[recibida]},
		{"cantidad_recibida", testenv.Num(r.JSON, "data.detalles.0.cantidad_recibida") == map[bool]float64{true: cantidad, false: 0}[recibida]},
		{"cantidad_pendiente", testenv.Num(r.JSON, "data.detalles.0.cantidad_pendiente") == map[bool]float64{true: 0, false: cantidad}[recibida]},
		{"cuenta_por_pagar", (testenv.Get(r.JSON, "data.cuenta_por_pagar") != nil) == recibida},
	}
	if recibida {
		total := testenv.Num(r.JSON, "data.monto_total")
		checks = append(checks, []struct {
			name string
			ok   bool
		}{
			{"almacen", testenv.Num(r.JSON, "data.almacen.id") == float64(almacen)},
			{"entry tipo", testenv.Str(r.JSON, "data.entradas_inventario.0.tipo") == "Compra"},
			{"entry estado", testenv.Str(r.JSON, "data.entradas_inventario.0.estado") == "Procesada"},
			{"entry almacen", testenv.Num(r.JSON, "data.entradas_inventario.0.almacen_id") == float64(almacen)},
			{"entry proveedor", testenv.Num(r.JSON, "data.entradas_inventario.0.proveedor_id") == testenv.Num(r.JSON, "data.proveedor_id")},
			{"entry line", testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.0.cantidad") == cantidad &&
				testenv.Num(r.JSON, "data.entradas_inventario.0.detalles.0.producto_id") == float64(producto)},
			{"payable monto", total > 0 && testenv.Num(r.JSON, "data.cuenta_por_pagar.monto") == total},
			{"payable saldo", testenv.Num(r.JSON, "data.cuenta_por_pagar.saldo") == total},
			{"payable estado", testenv.Str(r.JSON, "data.cuenta_por_pagar.estado") == "pendiente"},
			{"payable due", testenv.Str(r.JSON, "data.cuenta_por_pagar.fecha_vencimiento") ==
				testenv.Scalar[string](t, f.e, `select ((now() at time zone 'America/Costa_Rica')::date + 30)::text`)},
		}...)
	}
	if estado == "cancelada" {
		checks = append(checks, struct {
			name string
			ok   bool
		}{"saldo_pendiente", testenv.Num(r.JSON, "data.saldo_pendiente") == 0})
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s wrong for %s: %s", c.name, estado, r.Raw)
		}
	}
	// The stock: all of it in that warehouse when received, none otherwise.
	want := "0.000"
	if recibida {
		want = fmt.Sprintf("%.3f", cantidad)
	}
	if got := stockIn(t, f.e, producto, almacen); got != want {
		t.Errorf("stock of %d in %d: %s, want %s", producto, almacen, got, want)
	}
	if got := testenv.Scalar[string](t, f.e, `select coalesce(sum(cantidad_disponible), 0)::numeric(12,3)::text from inventarios where producto_id = $1`, producto); got != want {
		t.Errorf("stock of %d anywhere: %s, want %s", producto, got, want)
	}
	if n := testenv.Column[int64](t, f.e, `select count(*) from cuentas_por_pagar where orden_compra_id = $1`, id)[0]; n != map[bool]int64{true: 1, false: 0}[recibida] {
		t.Errorf("%d payables", n)
	}
}

func stockIn(t *testing.T, e *testenv.Env, producto, almacen int64) string {
	t.Helper()
	return testenv.Scalar[string](t, e, `select coalesce(sum(cantidad_disponible), 0)::numeric(12,3)::text from inventarios where producto_id = $1 and almacen_id = $2`, producto, almacen)
}

// otroAlmacen adds a second, non-principal warehouse to the company.
func otroAlmacen(t *testing.T, f *fixture) int64 {
	t.Helper()
	return testenv.Column[int64](t, f.e, `insert into almacenes (empresa_id, sucursal_id, nombre, codigo)
		select empresa_id, sucursal_id, 'Bodega ' || (select count(*) + 1 from almacenes), 'B' || (select count(*) + 1 from almacenes)
		from almacenes where id = $1 returning id`, f.almacen)[0]
}

func TestCreateInEachStateDoesWhatTheActionsDo(t *testing.T) {
	e, f := nuevo(t)
	bodega := otroAlmacen(t, f)
	for _, estado := range []string{"borrador", "pendiente", "aprobada", "recibida", "cancelada"} {
		for _, conAlmacen := range []bool{false, true} {
			name := estado + " into the principal warehouse"
			if conAlmacen {
				name = estado + " into the order's warehouse"
			}
			t.Run(name, func(t *testing.T) {
				p := newProductos(t, e, 1, 1, 1)[0] // IVA 13%: 4 x 250 = 1000 + 130
				body := testenv.With(f.orden(linea(p, 4, 250)), "estado", estado)
				almacen := f.almacen
				if conAlmacen {
					body, almacen = testenv.With(body, "almacen_id", bodega), bodega
				}
				r := f.do(http.MethodPost, "/api/ordenes-compra", body)
				if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Orden de compra creada correctamente." ||
					testenv.Str(r.JSON, "data.estado") != estado || testenv.Num(r.JSON, "data.monto_total") != 1130 {
					t.Fatalf("%d %s", r.Status, r.Raw)
				}
				efectos(t, f, int64(testenv.Num(r.JSON, "data.id")), estado, almacen, p, 4)
			})
		}
	}
	// A received order is received: the action routes refuse it like any other.
	id := f.create(testenv.With(f.orden(), "estado", "recibida"))
	if r := f.do(http.MethodPost, ordenPath(id, "recibir"), nil); r.Status != http.StatusUnprocessableEntity ||
		r.FieldErrors("estado")[0] != "La orden de compra ya fue recibida por completo." {
		t.Errorf("recibir a created-recibida order: %d %s", r.Status, r.Raw)
	}
	if r := f.dar(id, cancelar); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("cancelar a created-recibida order: %d %s", r.Status, r.Raw)
	}
	// A created-aprobada order goes on with the recibir action.
	id = f.create(testenv.With(f.orden(), "estado", "aprobada"))
	if r := f.dar(id, f.recibir()); r.Status != http.StatusOK ||
		testenv.Str(r.JSON, "data.estado") != "recibida" {
		t.Errorf("recibir a created-aprobada order: %d %s", r.Status, r.Raw)
	}
}

func TestEditFromDraftOrPendingToEachStateDoesWhatTheActionsDo(t *testing.T) {
	e, f := nuevo(t)
	for _, from := range []string{"borrador", "pendiente"} {
		for _, to := range []string{"aprobada", "recibida", "cancelada"} {
			for _, method := range []string{http.MethodPatch, http.MethodPut} {
				t.Run(method+" "+from+" to "+to, func(t *testing.T) {
					p := newProductos(t, e, 1, 1, 1)[0]
					id := f.create(testenv.With(f.orden(linea(p, "2.5", 100)), "estado", from))
					r := f.do(method, ordenPath(id), map[string]any{"estado": to})
					if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != to ||
						testenv.Str(r.JSON, "message") != "Orden de compra actualizada correctamente." {
						t.Fatalf("%d %s", r.Status, r.Raw)
					}
					efectos(t, f, id, to, f.almacen, p, 2.5)
				})
			}
		}
	}

	t.Run("the edit applies first, then the state change", func(t *testing.T) {
		bodega := otroAlmacen(t, f)
		ps := newProductos(t, e, 1, 2, 0)
		viejo, nuevo := ps[0], ps[1]
		id := f.create(testenv.With(f.orden(linea(viejo, 1, 1)), "estado", "pendiente"))
		r := f.do(http.MethodPut, ordenPath(id), map[string]any{"estado": "recibida", "almacen_id": bodega, "observaciones": "Llegó todo",
			"detalles": []any{linea(nuevo, 3, 10)}})
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.observaciones") != "Llegó todo" || testenv.Len(r.JSON, "data.detalles") != 1 ||
			testenv.Num(r.JSON, "data.monto_total") != 30 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		efectos(t, f, id, "recibida", bodega, nuevo, 3)
		if got := stockIn(t, e, viejo, bodega); got != "0.000" {
			t.Errorf("the replaced line entered stock: %s", got)
		}
	})

	t.Run("an edit to the same or an earlier state changes nothing else", func(t *testing.T) {
		id := f.create(testenv.With(f.orden(), "estado", "pendiente"))
		for _, estado := range []string{"pendiente", "borrador", "borrador", "pendiente"} {
			r := f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": estado})
			if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != estado || testenv.Get(r.JSON, "data.aprobado_en") != nil ||
				testenv.Len(r.JSON, "data.entradas_inventario") != 0 {
				t.Fatalf("to %s: %d %s", estado, r.Status, r.Raw)
			}
		}
	})
}

func TestStateIsRequiredAndCheckedOnCreateAndEdit(t *testing.T) {
	_, f := nuevo(t)

	t.Run("an empty body names fecha_orden, estado and detalles", func(t *testing.T) {
		r := f.do(http.MethodPost, "/api/ordenes-compra", map[string]any{})
		testenv.Expect422(t, r, "estado")
		for _, k := range []string{"fecha_orden", "estado", "detalles", "proveedor_id"} {
			msgs := r.FieldErrors(k)
			if len(msgs) != 1 || !strings.Contains(msgs[0], "obligatorio") {
				t.Errorf("errors[%s] = %v: %s", k, msgs, r.Raw)
			}
		}
		if r.FieldErrors("estado")[0] != "El campo estado es obligatorio." {
			t.Errorf("estado message: %v", r.FieldErrors("estado"))
		}
		if r.JSON["success"] != false || testenv.Str(r.JSON, "message") == "" || testenv.Str(r.JSON, "trace_id") == "" {
			t.Errorf("error envelope: %s", r.Raw)
		}
	})

	t.Run("an estado outside the five is refused on create and edit", func(t *testing.T) {
		id := f.create(f.orden())
		for _, v := range []any{"abierta", "APROBADA", "recibido", 3, true, []any{"aprobada"}} {
			testenv.Expect422(t, f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(), "estado", v)), "estado")
			for _, m := range []string{http.MethodPut, http.MethodPatch} {
				testenv.Expect422(t, f.do(m, ordenPath(id), map[string]any{"estado": v}), "estado")
			}
		}
		r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(), "estado", "abierta"))
		if got := r.FieldErrors("estado")[0]; got != "El campo estado debe ser uno de: borrador, pendiente, aprobada, recibida, cancelada." {
			t.Errorf("message %q", got)
		}
		for _, v := range []any{nil, "", " "} {
			testenv.Expect422(t, f.do(http.MethodPatch, ordenPath(id), map[string]any{"estado": v}), "estado")
		}
		if r := f.do(http.MethodGet, ordenPath(id), nil); testenv.Str(r.JSON, "data.estado") != "borrador" {
			t.Errorf("after refused edits: %s", r.Raw)
		}
	})

	t.Run("an order already aprobada, recibida or cancelada is not edited to another state", func(t *testing.T) {
		for _, from := range []string{"aprobada", "recibida", "cancelada"} {
			id := f.create(testenv.With(f.orden(), "estado", from))
			before := f.do(http.MethodGet, ordenPath(id), nil)
			for _, to := range []string{"borrador", "pendiente", "aprobada", "recibida", "cancelada"} {
				for _, m := range []string{http.MethodPut, http.MethodPatch} {
					r := f.do(m, ordenPath(id), map[string]any{"estado": to})
					testenv.Expect422(t, r, "estado")
					if got := r.FieldErrors("estado")[0]; got != "Solo se pueden editar órdenes en estado borrador o pendiente." {
						t.Errorf("%s -> %s: %q", from, to, got)
					}
				}
			}
			if after := f.do(http.MethodGet, ordenPath(id), nil); string(after.Raw) != string(before.Raw) {
				t.Errorf("%s order changed by refused edits:\n%s\n%s", from, before.Raw, after.Raw)
			}
		}
	})
}

// Whatever fails on the way to recibida, nothing of it stays: no order (and
// no number used), no approval, no entry, no stock, no payable.
func TestAFailedMoveToRecibidaLeavesNothing(t *testing.T) {
	e := testenv.NewParallel(t)
	f := setup(t, e, 2)
	p := f.productos[2]
	state := func() string {
		return testenv.Scalar[string](t, e, `select (select count(*) from ordenes_compra where empresa_id = 2)::text
			|| '/' || (select count(*) from detalles_orden_compra where empresa_id = 2)::text
			|| '/' || coalesce((select valor from contadores where empresa_id = 2 and clave = 'OC'), 0)::text
			|| '/' || (select count(*) from ordenes_compra where empresa_id = 2 and aprobado_en is not null)::text
			|| '/' || (select count(*) from movimientos_inventario where empresa_id = 2)::text
			|| '/' || coalesce((select valor from contadores where empresa_id = 2 and clave = 'ENT'), 0)::text
			|| '/' || (select count(*) from cuentas_por_pagar where empresa_id = 2)::text
			|| '/' || coalesce((select sum(cantidad_disponible) from inventarios where empresa_id = 2), 0)::numeric(10,1)::text`)
	}
	pendiente := f.create(testenv.With(f.orden(linea(p, 5, 10)), "estado", "pendiente", "observaciones", "Original"))
	before := state()
	if before != "1/1/1/0/0/0/0/0.0" {
		t.Fatalf("initial state %s", before)
	}
	unchanged := func(t *testing.T) {
		t.Helper()
		if got := state(); got != before {
			t.Errorf("state %s, want %s", got, before)
		}
		r := f.do(http.MethodGet, ordenPath(pendiente), nil)
		if testenv.Str(r.JSON, "data.estado") != "pendiente" || testenv.Str(r.JSON, "data.observaciones") != "Original" ||
			testenv.Get(r.JSON, "data.aprobado_en") != nil || testenv.Get(r.JSON, "data.almacen_id") != nil {
			t.Errorf("the pending order changed: %s", r.Raw)
		}
	}

	t.Run("no principal warehouse", func(t *testing.T) {
		e.Exec(`update almacenes set es_principal = false where empresa_id = 2`)
		defer e.Exec(`update almacenes set es_principal = true where id = $1`, f.almacen)
		r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(linea(p, 5, 10)), "estado", "recibida"))
		testenv.Expect422(t, r, "almacen_id")
		if got := r.FieldErrors("almacen_id")[0]; !strings.Contains(got, "almacén principal") {
			t.Errorf("message %q", got)
		}
		unchanged(t)
		r = f.do(http.MethodPatch, ordenPath(pendiente), map[string]any{"estado": "recibida", "observaciones": "Cambiada"})
		testenv.Expect422(t, r, "almacen_id")
		unchanged(t)
		// Naming a warehouse is the way out; the other moves need none.
		if r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(linea(p, 1, 1)), "estado", "aprobada")); r.Status != http.StatusCreated {
			t.Errorf("aprobada without a principal warehouse: %d %s", r.Status, r.Raw)
		}
		before = state()
	})

	t.Run("the principal warehouse is inactive", func(t *testing.T) {
		e.Exec(`update almacenes set activo = false where id = $1`, f.almacen)
		defer e.Exec(`update almacenes set activo = true where id = $1`, f.almacen)
		r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(linea(p, 5, 10)), "estado", "recibida"))
		testenv.Expect422(t, r, "almacen_id")
		unchanged(t)
		testenv.Expect422(t, f.do(http.MethodPut, ordenPath(pendiente), map[string]any{"estado": "recibida", "observaciones": "Cambiada"}), "almacen_id")
		unchanged(t)
	})

	t.Run("the inventory entry fails in the database", func(t *testing.T) {
		e.Exec(`create function falla_entrada() returns trigger language plpgsql as $$
			begin if new.empresa_id = 2 then raise exception 'falla simulada'; end if; return new; end $$`)
		e.Exec(`create trigger falla_entrada before insert on detalles_movimiento for each row execute function falla_entrada()`)
		defer e.Exec(`drop trigger falla_entrada on detalles_movimiento`)
		r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(linea(p, 5, 10)), "estado", "recibida"))
		interno(t, r, "falla simulada")
		unchanged(t)
		if r := f.do(http.MethodPatch, ordenPath(pendiente), map[string]any{"estado": "recibida", "observaciones": "Cambiada"}); r.Status != http.StatusInternalServerError {
			t.Fatalf("edit: %d %s", r.Status, r.Raw)
		}
		unchanged(t)
	})

	// Afterwards both work, and the numbers follow on with no gap.
	r := f.do(http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(linea(p, 5, 10)), "estado", "recibida"))
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero_orden") != "OC-000003" ||
		testenv.Str(r.JSON, "data.entradas_inventario.0.numero") != "ENT-00000001" {
		t.Fatalf("create after the failures: %d %s", r.Status, r.Raw)
	}
	if r := f.do(http.MethodPatch, ordenPath(pendiente), map[string]any{"estado": "recibida"}); r.Status != http.StatusOK ||
		testenv.Str(r.JSON, "data.estado") != "recibida" {
		t.Fatalf("edit after the failures: %d %s", r.Status, r.Raw)
	}
	if got := stockIn(t, e, p, f.almacen); got != "10.000" {
		t.Errorf("stock %s", got)
	}
}

// Creating an order beyond pendiente does what aprobar, recibir and
// cancelar do, so it needs their permission (compras.actualizar) too; an
// edit needs only the route's compras.actualizar.
func TestCreatingBeyondPendingNeedsComprasActualizar(t *testing.T) {
	e, f := nuevo(t)
	crear := e.UserWith(t, f.tok, "crear", "compras.crear")
	actualizar := e.UserWith(t, f.tok, "actualizar", "compras.actualizar")
	ambos := e.UserWith(t, f.tok, "ambos", "compras.crear", "compras.actualizar")
	for _, c := range []struct {
		tok    string
		estado string
		want   int
	}{
		{crear, "borrador", 201}, {crear, "pendiente", 201},
		{crear, "aprobada", 403}, {crear, "recibida", 403}, {crear, "cancelada", 403},
		{actualizar, "borrador", 403}, {actualizar, "recibida", 403},
		{ambos, "aprobada", 201}, {ambos, "recibida", 201}, {ambos, "cancelada", 201},
	} {
		r := e.Call(c.tok, http.MethodPost, "/api/ordenes-compra", testenv.With(f.orden(), "estado", c.estado))
		if r.Status != c.want || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("create %s: %d, want %d: %s", c.estado, r.Status, c.want, r.Raw)
		}
	}
	if n := testenv.Column[int64](t, e, `select count(*) from ordenes_compra where estado not in ('borrador', 'pendiente')`)[0]; n != 3 {
		t.Errorf("%d orders beyond pendiente, want the 3 of the user holding both", n)
	}
	// compras.actualizar alone moves an order to any state by an edit, with
	// the receipt's entry and payable, no inventario permission needed.
	for _, to := range []string{"aprobada", "recibida", "cancelada"} {
		id := f.create(f.orden())
		r := e.Call(actualizar, http.MethodPatch, ordenPath(id), map[string]any{"estado": to})
		if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != to {
			t.Errorf("edit to %s: %d %s", to, r.Status, r.Raw)
		}
		if r := e.Call(crear, http.MethodPatch, ordenPath(id), map[string]any{"estado": to}); r.Status != http.StatusForbidden {
			t.Errorf("edit by a creator: %d %s", r.Status, r.Raw)
		}
	}
}
