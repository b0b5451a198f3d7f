package transporte_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestBusCRUDWithRouteAndDriver(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	rutaID := e.Create(t, admin, "/api/rutas", ruta("R-1"))
	chofer := empleado(t, e, admin, "109870654")
	r := e.Call(admin, http.MethodPost, "/api/buses", testenv.With(bus("sjb-12345"), "ruta_id", rutaID, "chofer_id", chofer,
		"vencimiento_revision_tecnica", enDias(10), "vencimiento_seguro", enDias(-3)))
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	for k, v := range map[string]any{"placa": "SJB 12345", "estado": "disponible", "ruta.codigo": "R-1", "chofer.identificacion": "109870654",
		"dias_para_revision_tecnica": 10.0, "dias_para_seguro": -3.0, "capacidad_pasajeros": 45.0, "anio": 2018.0} {
		if got := testenv.Get(r.JSON, "data."+k); got != v {
			t.Errorf("data.%s = %#v, want %#v", k, got, v)
		}
	}
	r = e.Call(admin, http.MethodPatch, busPath(id), map[string]any{"estado": "en_servicio", "marca": "Volvo"})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "en_servicio" || testenv.Str(r.JSON, "data.marca") != "Volvo" {
		t.Fatalf("patch: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin, http.MethodPut, busPath(id), testenv.With(bus("AB 1234"), "chofer_id", nil))
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.placa") != "AB 1234" || testenv.Get(r.JSON, "data.chofer") != nil {
		t.Fatalf("put: %d %s", r.Status, r.Raw)
	}
	// A driver of a bus cannot be deleted.
	if r := e.Call(admin, http.MethodPatch, busPath(id), map[string]any{"chofer_id": chofer}); r.Status != http.StatusOK {
		t.Fatalf("driver: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, e.Call(admin, http.MethodDelete, fmt.Sprintf("/api/empleados/%d", chofer), nil), "id")
	if r := e.Call(admin, http.MethodDelete, busPath(id), nil); r.Status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(busPath(id), admin); r.Status != http.StatusNotFound {
		t.Errorf("show after delete: %d", r.Status)
	}
	// The plate is free again, and the driver can now be deleted.
	e.Create(t, admin, "/api/buses", bus("AB-1234"))
	if r := e.Call(admin, http.MethodDelete, fmt.Sprintf("/api/empleados/%d", chofer), nil); r.Status != http.StatusOK {
		t.Errorf("delete driver of a deleted bus: %d %s", r.Status, r.Raw)
	}
}

func TestBusValidation(t *testing.T) {
	e := testenv.NewParallel(t)
	admin, admin2 := e.Admin(1), e.Admin(2)
	e.Create(t, admin, "/api/buses", bus("SJB 12345"))
	inactiva := e.Create(t, admin, "/api/rutas", testenv.With(ruta("R-X"), "activo", false))
	ajena := e.Create(t, admin2, "/api/rutas", ruta("R-1"))
	choferAjeno := empleado(t, e, admin2, "109870654")
	deBaja := empleado(t, e, admin, "109870655", "estado", "inactivo")
	suspendido := empleado(t, e, admin, "109870656", "estado", "suspendido")
	salio := empleado(t, e, admin, "109870657", "fecha_salida", enDias(-1))
	registroInactivo := empleado(t, e, admin, "109870658", "activo", false)
	proximo := strconv.Itoa(testenv.HoyCR().Year() + 1)
	e.ExpectInvalid(t, admin, http.MethodPost, "/api/buses", []testenv.Invalid{
		{"placa required", testenv.With(bus(""), "placa", nil), "placa"},
		{"placa with 4 letters", bus("ABCD 1234"), "placa"},
		{"placa with 7 digits", bus("SJB 1234567"), "placa"},
		{"placa letters after digits", bus("1234 AB"), "placa"},
		{"placa with symbols", bus("AB#1234"), "placa"},
		{"placa taken (normalized)", bus("sjb12345"), "placa"},
		{"anio before 1980", testenv.With(bus("AB 1"), "anio", 1979), "anio"},
		{"anio after next year", testenv.With(bus("AB 1"), "anio", testenv.HoyCR().Year()+2), "anio"},
		{"capacidad zero", testenv.With(bus("AB 1"), "capacidad_pasajeros", 0), "capacidad_pasajeros"},
		{"capacidad required", testenv.With(bus("AB 1"), "capacidad_pasajeros", testenv.Absent), "capacidad_pasajeros"},
		{"estado unknown", testenv.With(bus("AB 1"), "estado", "averiado"), "estado"},
		{"vencimiento not a date", testenv.With(bus("AB 1"), "vencimiento_seguro", "31/12/2027"), "vencimiento_seguro"},
		{"ruta of another company", testenv.With(bus("AB 1"), "ruta_id", ajena), "ruta_id"},
		{"ruta inactive", testenv.With(bus("AB 1"), "ruta_id", inactiva), "ruta_id"},
		{"ruta that does not exist", testenv.With(bus("AB 1"), "ruta_id", 999999), "ruta_id"},
		{"chofer of another company", testenv.With(bus("AB 1"), "chofer_id", choferAjeno), "chofer_id"},
		{"chofer inactivo", testenv.With(bus("AB 1"), "chofer_id", deBaja), "chofer_id"},
		{"chofer suspendido", testenv.With(bus("AB 1"), "chofer_id", suspendido), "chofer_id"},
		{"chofer who left", testenv.With(bus("AB 1"), "chofer_id", salio), "chofer_id"},
		{"chofer record inactive", testenv.With(bus("AB 1"), "chofer_id", registroInactivo), "chofer_id"},
	})
	// Next year's model is accepted; the message names the bounds.
	e.Create(t, admin, "/api/buses", testenv.With(bus("AB 2"), "anio", testenv.HoyCR().Year()+1))
	r := e.Call(admin, http.MethodPost, "/api/buses", testenv.With(bus("AB 3"), "anio", testenv.HoyCR().Year()+2))
	if msgs := r.FieldErrors("anio"); len(msgs) == 0 || !strings.Contains(msgs[0], proximo) {
		t.Errorf("anio message: %s", r.Raw)
	}
	// Company 2 may use the same plate.
	e.Create(t, admin2, "/api/buses", bus("SJB 12345"))
}

func TestBusAssignmentRequiresServiceAndACurrentTechnicalReview(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	rutaID := e.Create(t, admin, "/api/rutas", ruta("R-1"))
	e.ExpectInvalid(t, admin, http.MethodPost, "/api/buses", []testenv.Invalid{
		{"out of service", testenv.With(bus("AB 1"), "ruta_id", rutaID, "estado", "fuera_de_servicio"), "ruta_id"},
		{"review expired yesterday", testenv.With(bus("AB 1"), "ruta_id", rutaID, "vencimiento_revision_tecnica", enDias(-1)), "ruta_id"},
		{"no review recorded", testenv.With(bus("AB 1"), "ruta_id", rutaID, "vencimiento_revision_tecnica", nil), "ruta_id"},
	})
	// A review expiring today is still current; maintenance does not prevent it.
	e.Create(t, admin, "/api/buses", testenv.With(bus("AB 2"), "ruta_id", rutaID, "vencimiento_revision_tecnica", enDias(0), "estado", "mantenimiento"))
	// Out of service without a route is fine; assigning it later is not.
	fuera := e.Create(t, admin, "/api/buses", testenv.With(bus("AB 3"), "estado", "fuera_de_servicio"))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, busPath(fuera), map[string]any{"ruta_id": rutaID}), "ruta_id")
	// A bus on a route cannot go out of service nor get an expired review
	// while it keeps the route; dropping the route in the same request can.
	asignado := e.Create(t, admin, "/api/buses", testenv.With(bus("AB 4"), "ruta_id", rutaID))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, busPath(asignado), map[string]any{"estado": "fuera_de_servicio"}), "ruta_id")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, busPath(asignado), map[string]any{"vencimiento_revision_tecnica": enDias(-5)}), "ruta_id")
	r := e.Call(admin, http.MethodPatch, busPath(asignado), map[string]any{"estado": "fuera_de_servicio", "ruta_id": nil})
	if r.Status != http.StatusOK || testenv.Get(r.JSON, "data.ruta_id") != nil {
		t.Fatalf("out of service without route: %d %s", r.Status, r.Raw)
	}
	// Renewing the review of a bus whose review expired allows the assignment.
	vencido := e.Create(t, admin, "/api/buses", testenv.With(bus("AB 5"), "vencimiento_revision_tecnica", enDias(-30)))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, busPath(vencido), map[string]any{"ruta_id": rutaID}), "ruta_id")
	r = e.Call(admin, http.MethodPatch, busPath(vencido), map[string]any{"ruta_id": rutaID, "vencimiento_revision_tecnica": enDias(365)})
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.ruta.id") != float64(rutaID) {
		t.Fatalf("renewed and assigned: %d %s", r.Status, r.Raw)
	}
	// Once assigned, time passing does not block edits of other fields.
	e.Exec(`update buses set vencimiento_revision_tecnica = current_date - 10 where id = $1`, vencido)
	if r := e.Call(admin, http.MethodPatch, busPath(vencido), map[string]any{"marca": "Scania"}); r.Status != http.StatusOK {
		t.Errorf("edit of an assigned bus whose review expired since: %d %s", r.Status, r.Raw)
	}
}

func TestBusesPorVencerListsDocumentsExpiringWithinNDays(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	mk := func(placa string, revision, seguro any) int {
		return e.Create(t, admin, "/api/buses", testenv.With(bus(placa), "vencimiento_revision_tecnica", revision, "vencimiento_seguro", seguro))
	}
	revision10 := mk("AB 1", enDias(10), enDias(200))
	seguro40 := mk("AB 2", enDias(200), enDias(40))
	lejos := mk("AB 3", enDias(100), enDias(100))
	vencido := mk("AB 4", enDias(-2), enDias(300))
	hoyVence := mk("AB 5", enDias(300), enDias(0))
	mk("AB 6", nil, nil)
	limite30 := mk("AB 7", enDias(30), enDias(31))
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"por_vencer=30", []int{revision10, vencido, hoyVence, limite30}},
		{"por_vencer=45", []int{revision10, seguro40, vencido, hoyVence, limite30}},
		{"por_vencer=0", []int{vencido, hoyVence}},
		{"por_vencer=365", []int{revision10, seguro40, lejos, vencido, hoyVence, limite30}},
		{"por_vencer=30&estado=disponible", []int{revision10, vencido, hoyVence, limite30}},
		{"por_vencer=30&estado=mantenimiento", nil},
	} {
		t.Run(c.query, func(t *testing.T) {
			r := e.Get("/api/buses?per_page=100&"+c.query, admin)
			want := c.want
			if want == nil {
				want = []int{}
			}
			if got := testenv.IDs(r); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("got %v, want %v: %s", got, want, r.Raw)
			}
		})
	}
	for _, q := range []string{"por_vencer=-1", "por_vencer=abc", "por_vencer=3651", "estado=roto"} {
		t.Run("bad "+q, func(t *testing.T) {
			testenv.Expect422(t, e.Get("/api/buses?"+q, admin), strings.SplitN(q, "=", 2)[0])
		})
	}
}

func TestBusPermissionsAndTenantIsolation(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	rutaID := e.Create(t, admin1, "/api/rutas", ruta("R-1"))
	r1 := testenv.Recurso{Path: "/api/buses", Modulo: "buses", ID: e.Create(t, admin1, "/api/buses", testenv.With(bus("AB 1"), "ruta_id", rutaID)),
		Crear: bus("AB 2"), Cambio: map[string]any{"marca": "X"}, Completo: bus("AB 1"), Consulta: "?por_vencer=30", Otro: "rutas.leer"}
	e.ExpectPermissions(t, admin1, r1)
	e.ExpectIsolation(t, admin2, r1)
	id := r1.ID
	// Company 2 cannot put its bus on company 1's route, and does not see
	// company 1's bus in company 1's route... nor the route itself.
	testenv.Expect422(t, e.Call(admin2, http.MethodPost, "/api/buses", testenv.With(bus("AB 9"), "ruta_id", rutaID)), "ruta_id")
	r := e.Get(busPath(id), admin1)
	if r.Status != http.StatusOK || testenv.Get(r.JSON, "data.marca") != "Mercedes-Benz" {
		t.Errorf("company 1's bus changed: %s", r.Raw)
	}
}
