package programados_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// 2026-03-02 is a Monday.
const lunes = "2026-03-02 12:00"

func TestScheduledReportsCRUDComputesTheNextRunInCostaRicaTime(t *testing.T) {
	f := setup(t, lunes)
	r := f.ok(http.StatusCreated, f.call(f.admin, "POST", base, semanal()))
	id := int64(testenv.Num(r.JSON, "data.id"))
	// Wednesday 08:00 in Costa Rica is 14:00 UTC.
	if got, want := testenv.Str(r.JSON, "data.proxima_ejecucion"), "2026-03-04T14:00:00Z"; got != want {
		t.Fatalf("proxima_ejecucion %s, want %s", got, want)
	}
	for path, want := range map[string]string{"data.frecuencia": "semanal", "data.hora": "08:00", "data.formato": "pdf",
		"data.parametros.agrupar": "cliente", "data.parametros.fecha_fin": "2026-03-31", "data.destinatarios.1": "contabilidad@demo.cr"} {
		if got := testenv.Str(r.JSON, path); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	if testenv.Num(r.JSON, "data.dia_semana") != 3 || testenv.Get(r.JSON, "data.dia_mes") != nil || testenv.Get(r.JSON, "data.ultima_ejecucion") != nil {
		t.Errorf("days or last run: %s", r.Raw)
	}

	show := f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin))
	if testenv.Str(show.JSON, "data.nombre") != "Ventas semanales" {
		t.Fatalf("show: %s", show.Raw)
	}

	// A rename keeps the next run; a new hour moves it.
	f.reloj.Fijar(cr("2026-03-03 09:00"))
	r = f.ok(http.StatusOK, f.call(f.admin, "PATCH", ruta(id), map[string]any{"nombre": "Ventas por cliente"}))
	if testenv.Str(r.JSON, "data.proxima_ejecucion") != "2026-03-04T14:00:00Z" || testenv.Str(r.JSON, "data.nombre") != "Ventas por cliente" {
		t.Fatalf("rename: %s", r.Raw)
	}
	r = f.ok(http.StatusOK, f.call(f.admin, "PATCH", ruta(id), map[string]any{"hora": "06:15"}))
	if got := testenv.Str(r.JSON, "data.proxima_ejecucion"); got != "2026-03-04T12:15:00Z" {
		t.Fatalf("new hour: proxima_ejecucion %s", got)
	}
	// Monthly: dia_semana is dropped with the weekly frequency; day 31
	// from 3 March is 31 March.
	r = f.ok(http.StatusOK, f.call(f.admin, "PATCH", ruta(id), map[string]any{"frecuencia": "mensual", "dia_mes": 31}))
	if testenv.Get(r.JSON, "data.dia_semana") != nil || testenv.Str(r.JSON, "data.proxima_ejecucion") != "2026-03-31T12:15:00Z" {
		t.Fatalf("monthly: %s", r.Raw)
	}
	// PUT replaces the whole schedule (daily); inactive has no next run.
	r = f.ok(http.StatusOK, f.call(f.admin, "PUT", ruta(id), testenv.With(semanal(), "frecuencia", "diaria", "dia_semana", testenv.Absent,
		"formato", "csv", "activo", false)))
	if testenv.Get(r.JSON, "data.proxima_ejecucion") != nil || testenv.Get(r.JSON, "data.dia_mes") != nil || testenv.Str(r.JSON, "data.formato") != "csv" {
		t.Fatalf("put inactive: %s", r.Raw)
	}
	r = f.ok(http.StatusOK, f.call(f.admin, "PATCH", ruta(id), map[string]any{"activo": true}))
	if got := testenv.Str(r.JSON, "data.proxima_ejecucion"); got != "2026-03-04T14:00:00Z" {
		t.Fatalf("reactivated daily at 08:00 on the 3rd at 09:00: proxima_ejecucion %s, want the 4th", got)
	}

	list := f.ok(http.StatusOK, f.e.Get(base+"?frecuencia=diaria", f.admin))
	if ids := testenv.IDs(list); len(ids) != 1 || int64(ids[0]) != id {
		t.Fatalf("list: %s", list.Raw)
	}
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base+"?frecuencia=semanal", f.admin))); len(ids) != 0 {
		t.Fatalf("filtered list: %v", ids)
	}

	// The list exports as any list does.
	csv := f.ok(http.StatusOK, f.e.Get(base+"?formato=csv", f.admin))
	if !strings.Contains(string(csv.Raw), "Ventas semanales,ventas,cliente") || !strings.Contains(string(csv.Raw), "proxima_ejecucion") {
		t.Fatalf("csv export: %s", csv.Raw)
	}

	f.ok(http.StatusOK, f.call(f.admin, "DELETE", ruta(id), nil))
	f.ok(http.StatusNotFound, f.e.Get(ruta(id), f.admin))
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base, f.admin))); len(ids) != 0 {
		t.Fatalf("deleted still listed: %v", ids)
	}
}

func TestScheduledReportsRefuseBadFieldsWithSpanishMessages(t *testing.T) {
	f := setup(t, lunes)
	once := make([]string, 11)
	for i := range once {
		once[i] = "u" + string(rune('a'+i)) + "@demo.cr"
	}
	f.e.ExpectInvalid(t, f.admin, "POST", base, []testenv.Invalid{
		{Name: "unknown tipo", Body: semanal("tipo", "ventas-imaginarias"), Field: "tipo"},
		{Name: "missing tipo", Body: semanal("tipo", testenv.Absent), Field: "tipo"},
		{Name: "period backwards", Body: semanal("parametros", map[string]any{"fecha_inicio": "2026-03-31", "fecha_fin": "2026-03-01"}), Field: "parametros.fecha_fin"},
		{Name: "missing required parameter", Body: semanal("parametros", map[string]any{"fecha_fin": "2026-03-31"}), Field: "parametros.fecha_inicio"},
		{Name: "bad grouping", Body: semanal("parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "agrupar": "planeta"}), Field: "parametros.agrupar"},
		{Name: "parameter of another report", Body: semanal("parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "cuenta_id": 1}), Field: "parametros.cuenta_id"},
		{Name: "parametros not an object", Body: semanal("parametros", []string{"x"}), Field: "parametros"},
		{Name: "weekly without dia_semana", Body: semanal("dia_semana", testenv.Absent), Field: "dia_semana"},
		{Name: "dia_semana 8", Body: semanal("dia_semana", 8), Field: "dia_semana"},
		{Name: "monthly without dia_mes", Body: semanal("frecuencia", "mensual", "dia_semana", testenv.Absent), Field: "dia_mes"},
		{Name: "dia_mes 32", Body: semanal("frecuencia", "mensual", "dia_semana", testenv.Absent, "dia_mes", 32), Field: "dia_mes"},
		{Name: "daily with dia_semana", Body: semanal("frecuencia", "diaria"), Field: "dia_semana"},
		{Name: "unknown frequency", Body: semanal("frecuencia", "anual"), Field: "frecuencia"},
		{Name: "eleven recipients", Body: semanal("destinatarios", once), Field: "destinatarios"},
		{Name: "bad e-mail", Body: semanal("destinatarios", []string{"ok@demo.cr", "no-es-correo"}), Field: "destinatarios.1"},
		{Name: "hour 24:00", Body: semanal("hora", "24:00"), Field: "hora"},
		{Name: "hour without minutes", Body: semanal("hora", "8"), Field: "hora"},
		{Name: "hour 8:00", Body: semanal("hora", "8:00"), Field: "hora"},
		{Name: "unknown format", Body: semanal("formato", "docx"), Field: "formato"},
		{Name: "missing nombre", Body: semanal("nombre", testenv.Absent), Field: "nombre"},
	})

	// The parameters' messages are the report's own.
	rep := f.e.Get("/api/reportes/ventas?fecha_inicio=2026-03-31&fecha_fin=2026-03-01", f.admin)
	prog := f.call(f.admin, "POST", base, semanal("parametros", map[string]any{"fecha_inicio": "2026-03-31", "fecha_fin": "2026-03-01"}))
	if a, b := rep.FieldErrors("fecha_fin"), prog.FieldErrors("parametros.fecha_fin"); len(a) == 0 || !slices.Equal(a, b) {
		t.Fatalf("report says %q, schedule says %q", a, b)
	}
	// Spanish, and the same checks on an update (merged with the row).
	if m := prog.FieldErrors("parametros.fecha_fin"); !strings.Contains(m[0], "posterior o igual") {
		t.Fatalf("message: %q", m)
	}
	id := f.crear(f.admin, semanal())
	testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{"dia_semana": nil}), "dia_semana")
	testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{"tipo": "balanza-comprobacion"}), "parametros.agrupar")
	testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{"nombre": nil}), "nombre")
	antes := f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin)).Raw
	for _, c := range []struct{ campo, valor string }{{"nombre", "   "}, {"hora", ""}, {"frecuencia", " "}, {"formato", ""}, {"tipo", ""}} {
		// A blank required field is refused on an update, not ignored as if absent.
		testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{c.campo: c.valor}), c.campo)
	}
	if despues := f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin)).Raw; string(despues) != string(antes) {
		t.Errorf("a refused update changed the schedule:\n%s\n%s", antes, despues)
	}
}

// The ids among the parametros must name rows of the company, as the
// report's route requires when it runs: another company's product or
// warehouse, an unknown branch or account are refused when the schedule is
// written (with the route's messages), not at every run.
func TestScheduledReportsRefuseParametersNamingRowsTheCompanyDoesNotHave(t *testing.T) {
	f := setup(t, lunes)
	otro := func(tabla string) int64 {
		return testenv.Scalar[int64](t, f.e, `select id from `+tabla+` where empresa_id = 2 order by id limit 1`)
	}
	producto2 := testenv.FixtureOf(t, f.e).Producto(testenv.Prod{Empresa: 2, Codigo: "P2", Precio: "10"})
	kardex := func(params map[string]any) map[string]any {
		return semanal("tipo", "kardex", "formato", "csv", "parametros", params)
	}
	cuenta2 := otro("cuentas_contables")
	f.e.ExpectInvalid(t, f.admin, "POST", base, []testenv.Invalid{
		{Name: "another company's warehouse", Body: semanal("tipo", "inventario-valorizado", "formato", "csv",
			"parametros", map[string]any{"almacen_id": otro("almacenes")}), Field: "parametros.almacen_id"},
		{Name: "another company's category", Body: semanal("tipo", "inventario-valorizado", "formato", "csv",
			"parametros", map[string]any{"categoria_id": otro("categorias_producto")}), Field: "parametros.categoria_id"},
		{Name: "an unknown product", Body: kardex(map[string]any{"producto_id": 999999}), Field: "parametros.producto_id"},
		{Name: "another company's product", Body: kardex(map[string]any{"producto_id": producto2}), Field: "parametros.producto_id"},
		{Name: "another company's branch", Body: semanal("tipo", "balanza-comprobacion", "formato", "csv",
			"parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "sucursal_id": otro("sucursales")}),
			Field: "parametros.sucursal_id"},
		{Name: "another company's account", Body: semanal("tipo", "libro-mayor", "formato", "csv",
			"parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "cuenta_id": cuenta2}),
			Field: "parametros.cuenta_id"},
	})
	// The messages are the route's.
	rep := f.e.Get(fmt.Sprintf("/api/reportes/libro-mayor?fecha_inicio=2026-03-01&fecha_fin=2026-03-31&cuenta_id=%d", cuenta2), f.admin)
	prog := f.call(f.admin, "POST", base, semanal("tipo", "libro-mayor", "formato", "csv",
		"parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "cuenta_id": cuenta2}))
	if a, b := rep.FieldErrors("cuenta_id"), prog.FieldErrors("parametros.cuenta_id"); len(a) == 0 || !slices.Equal(a, b) {
		t.Fatalf("report says %q, schedule says %q", a, b)
	}
	// The company's own rows pass, on create and on an update.
	almacen := testenv.Scalar[int64](t, f.e, `select id from almacenes where empresa_id = 1 order by id limit 1`)
	id := f.crear(f.admin, semanal("tipo", "inventario-valorizado", "formato", "csv", "parametros", map[string]any{"almacen_id": almacen}))
	testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{"parametros": map[string]any{"almacen_id": otro("almacenes")}}),
		"parametros.almacen_id")
}

func TestScheduledReportsNeedTheReportsPermission(t *testing.T) {
	f := setup(t, lunes)
	compras := f.e.UserWith(t, f.admin, "compras", "compras.leer")
	nadie := f.e.UserWith(t, f.admin, "nadie")
	ventasID := f.crear(f.admin, semanal())

	// A user may not schedule a report it cannot read.
	r := f.call(compras, "POST", base, semanal())
	if r.Status != http.StatusForbidden || !strings.Contains(testenv.Str(r.JSON, "message"), "ventas.leer") {
		t.Fatalf("schedule ventas with compras.leer: %d %s", r.Status, r.Raw)
	}
	f.ok(http.StatusForbidden, f.call(nadie, "POST", base, semanal()))
	// It may schedule the one it can (the payables' aging).
	propio := f.crear(compras, map[string]any{"nombre": "CxP", "tipo": "antiguedad-cuentas-por-pagar", "frecuencia": "diaria",
		"hora": "07:00", "formato": "excel"})

	// It sees only the schedules of reports it can read.
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base, compras))); len(ids) != 1 || int64(ids[0]) != propio {
		t.Fatalf("compras lists %v", ids)
	}
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base, f.admin))); len(ids) != 2 {
		t.Fatalf("admin lists %v", ids)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", ruta(ventasID)}, {"PATCH", ruta(ventasID)}, {"PUT", ruta(ventasID)}, {"DELETE", ruta(ventasID)},
		{"GET", ruta(ventasID, "/ejecuciones")}, {"GET", ruta(ventasID, "/ejecuciones/1/archivo")},
	} {
		body := map[string]any{}
		if c.method == "PUT" {
			body = semanal()
		}
		if r := f.call(compras, c.method, c.path, body); r.Status != http.StatusForbidden {
			t.Errorf("%s %s by compras: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	// Nor can it move its own schedule to a report it cannot read.
	f.ok(http.StatusForbidden, f.call(compras, "PATCH", ruta(propio), map[string]any{"tipo": "antiguedad-cuentas-por-cobrar"}))
	// Without any report permission the list is empty, not an error.
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base, nadie))); len(ids) != 0 {
		t.Fatalf("nadie lists %v", ids)
	}
}

func TestScheduledReportsOfAnotherCompanyAreNotFound(t *testing.T) {
	f := setup(t, lunes)
	id := f.crear(f.admin, semanal())
	f.barrerA("2026-03-04 08:00", 1, "runs")
	eid := int64(testenv.Num(f.ejecuciones(id)[0], "id"))
	otra := f.e.Admin(2)
	for _, c := range []struct{ method, path string }{
		{"GET", ruta(id)}, {"PATCH", ruta(id)}, {"PUT", ruta(id)}, {"DELETE", ruta(id)},
		{"GET", ruta(id, "/ejecuciones")}, {"GET", ruta(id, "/ejecuciones/", itoa(eid), "/archivo")},
	} {
		body := map[string]any{"nombre": "Ajeno"}
		if c.method == "PUT" {
			body = semanal()
		}
		if r := f.call(otra, c.method, c.path, body); r.Status != http.StatusNotFound {
			t.Errorf("%s %s by company 2: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	if ids := testenv.IDs(f.ok(http.StatusOK, f.e.Get(base, otra))); len(ids) != 0 {
		t.Fatalf("company 2 lists %v", ids)
	}
	// A run of another schedule of the same company is not this one's.
	otro := f.crear(f.admin, semanal("nombre", "Otro"))
	f.ok(http.StatusNotFound, f.e.Get(ruta(otro, "/ejecuciones/", itoa(eid), "/archivo"), f.admin))
	if testenv.Str(f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin)).JSON, "data.nombre") != "Ventas semanales" {
		t.Fatal("company 2 changed the schedule")
	}
}
