package transporte_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestRutaCRUDWithParadasHorariosAndBuses(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	r := e.Call(admin, http.MethodPost, "/api/rutas", testenv.With(ruta(" r-101 "), "nombre", "  San José   - Cartago "))
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	if testenv.Str(r.JSON, "data.codigo") != "R-101" || testenv.Str(r.JSON, "data.nombre") != "San José - Cartago" {
		t.Errorf("normalized: %s", r.Raw)
	}
	if got := testenv.Exact(t, r.Raw, "data.tarifa"); got != `655.00` {
		t.Errorf("tarifa %s", got)
	}
	// Stops by order with exact coordinates; departures Monday first.
	if got := testenv.Exact(t, r.Raw, "data.paradas"); got != `[{"latitud":9.935000,"longitud":-84.091000,"nombre":"Terminal","orden":1},{"latitud":9.864123,"longitud":-83.919000,"nombre":"Cartago centro","orden":2}]` {
		t.Errorf("paradas %s", got)
	}
	if got := testenv.Exact(t, r.Raw, "data.horarios"); got != `[{"dia_semana":"lunes","hora_salida":"05:15"},{"dia_semana":"martes","hora_salida":"06:30"}]` {
		t.Errorf("horarios %s", got)
	}

	// The show lists the route's buses (not deleted ones, not other routes').
	b1 := e.Create(t, admin, "/api/buses", testenv.With(bus("SJB 101"), "ruta_id", id, "numero_unidad", "01"))
	b2 := e.Create(t, admin, "/api/buses", testenv.With(bus("SJB 102"), "ruta_id", id, "numero_unidad", "02"))
	b3 := e.Create(t, admin, "/api/buses", testenv.With(bus("SJB 103"), "ruta_id", id, "numero_unidad", "03"))
	e.Create(t, admin, "/api/buses", bus("SJB 104"))
	if r := e.Call(admin, http.MethodDelete, busPath(b3), nil); r.Status != http.StatusOK {
		t.Fatalf("delete bus: %d %s", r.Status, r.Raw)
	}
	show := e.Get(rutaPath(id), admin)
	if show.Status != http.StatusOK || testenv.Len(show.JSON, "data.buses") != 2 ||
		testenv.Num(show.JSON, "data.buses.0.id") != float64(b1) || testenv.Num(show.JSON, "data.buses.1.id") != float64(b2) ||
		testenv.Str(show.JSON, "data.buses.0.placa") != "SJB 101" {
		t.Errorf("show buses: %s", show.Raw)
	}
	list := e.Get("/api/rutas?per_page=100", admin)
	if testenv.Num(list.JSON, "data.0.buses_count") != 2 || testenv.Len(list.JSON, "data.0.paradas") != 2 {
		t.Errorf("list: %s", list.Raw)
	}

	// A PATCH without the lists keeps them; sent lists replace them.
	r = e.Call(admin, http.MethodPatch, rutaPath(id), map[string]any{"tarifa": 700})
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data.paradas") != 2 || testenv.Exact(t, r.Raw, "data.tarifa") != "700.00" {
		t.Fatalf("patch: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin, http.MethodPatch, rutaPath(id), map[string]any{
		"paradas": []any{
			map[string]any{"orden": 2, "nombre": "B", "latitud": 0, "longitud": 0},
			map[string]any{"orden": 1, "nombre": "A", "latitud": -90, "longitud": 180},
			map[string]any{"orden": 3, "nombre": "C", "latitud": 90, "longitud": -180},
		},
		"horarios": []any{},
	})
	if r.Status != http.StatusOK || fmt.Sprint(testenv.Strs(testenv.Resp{JSON: map[string]any{"data": testenv.Get(r.JSON, "data.paradas")}}, "nombre")) != "[A B C]" ||
		testenv.Len(r.JSON, "data.horarios") != 0 {
		t.Fatalf("replace lists: %d %s", r.Status, r.Raw)
	}
	if n := testenv.Scalar[int64](t, e, `select count(*) from ruta_paradas where ruta_id = $1`, id); n != 3 {
		t.Errorf("%d stored stops, want 3", n)
	}
	r = e.Call(admin, http.MethodPut, rutaPath(id), testenv.With(ruta("R-101"), "paradas", nil, "destino", "Paraíso"))
	if r.Status != http.StatusOK || testenv.Len(r.JSON, "data.paradas") != 0 || testenv.Len(r.JSON, "data.horarios") != 2 ||
		testenv.Str(r.JSON, "data.destino") != "Paraíso" {
		t.Fatalf("put: %d %s", r.Status, r.Raw)
	}

	// A route with buses cannot be deleted; without them it can.
	testenv.Expect422(t, e.Call(admin, http.MethodDelete, rutaPath(id), nil), "id")
	for _, b := range []int{b1, b2} {
		if r := e.Call(admin, http.MethodPatch, busPath(b), map[string]any{"ruta_id": nil}); r.Status != http.StatusOK {
			t.Fatalf("unassign: %d %s", r.Status, r.Raw)
		}
	}
	if r := e.Call(admin, http.MethodDelete, rutaPath(id), nil); r.Status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(rutaPath(id), admin); r.Status != http.StatusNotFound {
		t.Errorf("show after delete: %d", r.Status)
	}
	// Its code is free again.
	e.Create(t, admin, "/api/rutas", ruta("R-101"))
}

func TestRutaWritesItsListsInConstantRoundTrips(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	conParadas := func(codigo string, n int) map[string]any {
		ps := make([]any, n)
		hs := make([]any, n)
		for i := range n {
			ps[i] = map[string]any{"orden": i + 1, "nombre": fmt.Sprintf("P%d", i+1), "latitud": 9.9, "longitud": -84}
			hs[i] = map[string]any{"dia_semana": "lunes", "hora_salida": fmt.Sprintf("%02d:%02d", i/60, i%60)}
		}
		return testenv.With(ruta(codigo), "paradas", ps, "horarios", hs)
	}
	cost := func(body map[string]any) int64 {
		before := e.Queries.Load()
		e.Create(t, admin, "/api/rutas", body)
		return e.Queries.Load() - before
	}
	small, large := cost(conParadas("A", 2)), cost(conParadas("B", 150))
	if small != large {
		t.Errorf("create with 2 stops: %d round trips, with 150: %d", small, large)
	}
	var id int
	testenv.Scan(t, e, `select id from rutas where codigo = 'B'`, nil, &id)
	if n := testenv.Scalar[int64](t, e, `select count(*) from ruta_paradas where ruta_id = $1`, id); n != 150 {
		t.Errorf("%d stops stored", n)
	}
	if a, b := e.RoundTrips(t, "/api/rutas/"+fmt.Sprint(id), admin), e.RoundTrips(t, "/api/rutas?per_page=100", admin); a == 0 || b == 0 {
		t.Errorf("round trips %d %d", a, b)
	}
}

func TestRutaValidation(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	e.Create(t, admin, "/api/rutas", ruta("R-1"))
	parada := func(orden any, lat, lon any) map[string]any {
		return map[string]any{"orden": orden, "nombre": "P", "latitud": lat, "longitud": lon}
	}
	conParadas := func(ps ...any) map[string]any { return testenv.With(ruta("R-2"), "paradas", ps) }
	conHorarios := func(hs ...any) map[string]any { return testenv.With(ruta("R-2"), "horarios", hs) }
	h := func(dia, hora any) map[string]any { return map[string]any{"dia_semana": dia, "hora_salida": hora} }
	e.ExpectInvalid(t, admin, http.MethodPost, "/api/rutas", []testenv.Invalid{
		{"codigo required", testenv.With(ruta(""), "codigo", nil), "codigo"},
		{"codigo taken (normalized)", ruta(" r-1"), "codigo"},
		{"nombre required", testenv.With(ruta("R-2"), "nombre", " "), "nombre"},
		{"origen required", testenv.With(ruta("R-2"), "origen", testenv.Absent), "origen"},
		{"destino required", testenv.With(ruta("R-2"), "destino", nil), "destino"},
		{"distancia zero", testenv.With(ruta("R-2"), "distancia_km", 0), "distancia_km"},
		{"duracion zero", testenv.With(ruta("R-2"), "duracion_estimada_min", 0), "duracion_estimada_min"},
		{"duracion not an integer", testenv.With(ruta("R-2"), "duracion_estimada_min", 4.5), "duracion_estimada_min"},
		{"tarifa negative", testenv.With(ruta("R-2"), "tarifa", -1), "tarifa"},
		{"tarifa three decimals", testenv.With(ruta("R-2"), "tarifa", "1.005"), "tarifa"},
		{"paradas not a list", testenv.With(ruta("R-2"), "paradas", "Terminal"), "paradas"},
		{"parada not an object", conParadas("Terminal"), "paradas.0"},
		{"parada without nombre", conParadas(map[string]any{"orden": 1, "latitud": 0, "longitud": 0}), "paradas.0.nombre"},
		{"parada without orden", conParadas(map[string]any{"nombre": "P", "latitud": 0, "longitud": 0}), "paradas.0.orden"},
		{"orden zero", conParadas(parada(0, 0, 0)), "paradas.0.orden"},
		{"orden repeated", conParadas(parada(1, 0, 0), parada(1, 0, 0)), "paradas.1.orden"},
		{"orden not consecutive", conParadas(parada(1, 0, 0), parada(3, 0, 0)), "paradas.1.orden"},
		{"orden not starting at 1", conParadas(parada(2, 0, 0)), "paradas.0.orden"},
		{"latitud above 90", conParadas(parada(1, 90.000001, 0)), "paradas.0.latitud"},
		{"latitud below -90", conParadas(parada(1, 0, 0), parada(2, -91, 0)), "paradas.1.latitud"},
		{"longitud above 180", conParadas(parada(1, 0, 180.5)), "paradas.0.longitud"},
		{"longitud below -180", conParadas(parada(1, 0, -181)), "paradas.0.longitud"},
		{"latitud not a number", conParadas(parada(1, "norte", 0)), "paradas.0.latitud"},
		{"latitud seven decimals", conParadas(parada(1, "9.1234567", 0)), "paradas.0.latitud"},
		{"horarios not a list", testenv.With(ruta("R-2"), "horarios", map[string]any{}), "horarios"},
		{"dia_semana unknown", conHorarios(h("monday", "06:00")), "horarios.0.dia_semana"},
		{"dia_semana missing", conHorarios(map[string]any{"hora_salida": "06:00"}), "horarios.0.dia_semana"},
		{"hora_salida 24:00", conHorarios(h("lunes", "05:00"), h("lunes", "24:00")), "horarios.1.hora_salida"},
		{"hora_salida without minutes", conHorarios(h("lunes", "6")), "horarios.0.hora_salida"},
		{"departure repeated", conHorarios(h("lunes", "06:00"), h("lunes", "06:00")), "horarios.1.hora_salida"},
	})
	// Nothing of the refused routes was written.
	if n := testenv.Scalar[int64](t, e, `select count(*) from rutas where codigo = 'R-2'`); n != 0 {
		t.Errorf("%d refused routes stored", n)
	}
	// The same weekday at another time, and another weekday at the same time, are fine.
	e.Create(t, admin, "/api/rutas", testenv.With(ruta("R-3"), "horarios", []any{h("lunes", "06:00"), h("lunes", "07:00"), h("martes", "06:00")}))
}

func TestRutaPermissionsAndTenantIsolation(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	r1 := testenv.Recurso{Path: "/api/rutas", Modulo: "rutas", ID: e.Create(t, admin1, "/api/rutas", ruta("R-1")),
		Crear: ruta("R-9"), Cambio: map[string]any{"tarifa": 1, "paradas": []any{}}, Completo: ruta("R-1"), Otro: "buses.leer"}
	e.ExpectPermissions(t, admin1, r1)
	e.ExpectIsolation(t, admin2, r1)
	id := r1.ID
	r := e.Get(rutaPath(id), admin1)
	if r.Status != http.StatusOK || testenv.Exact(t, r.Raw, "data.tarifa") != "655.00" || testenv.Len(r.JSON, "data.paradas") != 2 {
		t.Errorf("company 1's route changed: %s", r.Raw)
	}
	// Company 2 may use the same code.
	e.Create(t, admin2, "/api/rutas", ruta("R-1"))
}
