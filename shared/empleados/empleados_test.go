package empleados_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func path(id int) string { return fmt.Sprintf("/api/empleados/%d", id) }

func TestEmpleadoCRUDWithNormalizedFieldsAndDefaults(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	body := testenv.With(empleado("1-0987-0654"), "email", " Ana.Mora@Correo.CR ", "telefono", "+506 8888-7777",
		"cuenta_iban", "CR05 0152 0200 1026 2840 66", "departamento", "Operaciones", "hijos", 2, "conyuge", true,
		"jornada", "mixta", "tipo_pago", "quincenal")
	r := e.Call(admin, http.MethodPost, "/api/empleados", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if got := testenv.Str(r.JSON, "message"); got != "Empleado creado correctamente." {
		t.Errorf("message %q", got)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	want := map[string]any{
		"identificacion": "109870654", "email": "ana.mora@correo.cr", "telefono": "88887777",
		"cuenta_iban": "CR05015202001026284066", "salario_base": 650000.0, "hijos": 2.0, "conyuge": true,
		"jornada": "mixta", "tipo_pago": "quincenal", "estado": "activo", "activo": true, "nombre_completo": "Ana Mora Solís",
		"fecha_salida": nil, "usuario_id": nil, "sucursal_id": nil, "empresa_id": 1.0,
	}
	show := e.Get(path(id), admin)
	for _, resp := range []testenv.Resp{r, show} {
		for k, v := range want {
			if got := testenv.Get(resp.JSON, "data."+k); got != v {
				t.Errorf("data.%s = %#v, want %#v", k, got, v)
			}
		}
	}
	if got := testenv.Exact(t, show.Raw, "data.salario_base"); got != "650000.00" {
		t.Errorf("salario_base %s, want the decimal 650000.00", got)
	}

	// Defaults of the optional fields.
	r = e.Call(admin, http.MethodPost, "/api/empleados", empleado("109870655"))
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	for k, v := range map[string]any{"tipo_pago": "mensual", "jornada": "diurna", "estado": "activo", "hijos": 0.0, "conyuge": false} {
		if got := testenv.Get(r.JSON, "data."+k); got != v {
			t.Errorf("default %s = %#v, want %#v", k, got, v)
		}
	}
	otro := int(testenv.Num(r.JSON, "data.id"))

	r = e.Call(admin, http.MethodPatch, path(id), map[string]any{"estado": "vacaciones", "salario_base": 700000.5, "cuenta_iban": nil})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.estado") != "vacaciones" || testenv.Get(r.JSON, "data.cuenta_iban") != nil ||
		testenv.Exact(t, r.Raw, "data.salario_base") != "700000.50" {
		t.Fatalf("patch: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin, http.MethodPut, path(id), testenv.With(empleado("109870654"), "puesto", "Supervisor"))
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.puesto") != "Supervisor" {
		t.Fatalf("put: %d %s", r.Status, r.Raw)
	}

	// Delete: gone from show and list, and its identification is free again.
	if r = e.Call(admin, http.MethodDelete, path(id), nil); r.Status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r = e.Get(path(id), admin); r.Status != http.StatusNotFound {
		t.Errorf("show after delete: %d", r.Status)
	}
	if ids := testenv.IDs(e.Get("/api/empleados?per_page=100", admin)); slices.Contains(ids, id) || !slices.Contains(ids, otro) {
		t.Errorf("list after delete: %v", ids)
	}
	e.Create(t, admin, "/api/empleados", empleado("109870654"))
}

func TestEmpleadoEdadYAntiguedadCountToTodayInCostaRica(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	h := testenv.HoyCR()
	// Hired on the 1st of the month 2 years and 3 months ago: seniority is
	// exactly 2 years, 3 months and (today's day - 1) days.
	ingreso := time.Date(h.Year()-2, h.Month()-3, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name                string
		nacimiento, ingreso time.Time
		salida              *time.Time
		edad                int
		anios, meses, dias  int
	}{
		{"in service", h.AddDate(-40, 0, -1), ingreso, nil, 40, 2, 3, h.Day() - 1},
		{"birthday tomorrow", h.AddDate(-40, 0, 1), ingreso, nil, 39, 2, 3, h.Day() - 1},
		{"birthday today", h.AddDate(-25, 0, 0), ingreso, nil, 25, 2, 3, h.Day() - 1},
		{"left: counts to fecha_salida", time.Date(1980, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2020, 1, 15, 0, 0, 0, 0, time.UTC),
			ptr(time.Date(2023, 3, 20, 0, 0, 0, 0, time.UTC)), EdadHoy(h, time.Date(1980, 6, 1, 0, 0, 0, 0, time.UTC)), 3, 2, 5},
		{"exit date ahead: counts to today", h.AddDate(-30, 0, -1), ingreso, ptr(h.AddDate(0, 1, 0)), 30, 2, 3, h.Day() - 1},
		{"hired in the future: zero", h.AddDate(-30, 0, -1), h.AddDate(0, 0, 10), nil, 30, 0, 0, 0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := testenv.With(empleado(fmt.Sprintf("2%08d", i)), "fecha_nacimiento", dia(c.nacimiento), "fecha_ingreso", dia(c.ingreso))
			if c.salida != nil {
				body["fecha_salida"] = dia(*c.salida)
			}
			id := e.Create(t, admin, "/api/empleados", body)
			for _, r := range []testenv.Resp{e.Get(path(id), admin), e.Get("/api/empleados?per_page=1&search="+fmt.Sprintf("2%08d", i), admin)} {
				pre := "data."
				if testenv.Len(r.JSON, "data") == 1 {
					pre = "data.0."
				}
				got := []float64{testenv.Num(r.JSON, pre+"edad"), testenv.Num(r.JSON, pre+"antiguedad.anios"),
					testenv.Num(r.JSON, pre+"antiguedad.meses"), testenv.Num(r.JSON, pre+"antiguedad.dias")}
				want := []float64{float64(c.edad), float64(c.anios), float64(c.meses), float64(c.dias)}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("edad, años, meses, días = %v, want %v (%s)", got, want, r.Raw)
				}
			}
		})
	}
}

func ptr(t time.Time) *time.Time { return &t }

// EdadHoy is the age today of someone born on n (test's own arithmetic).
func EdadHoy(h, n time.Time) int {
	a := h.Year() - n.Year()
	if h.Month() < n.Month() || (h.Month() == n.Month() && h.Day() < n.Day()) {
		a--
	}
	return a
}

func TestEmpleadoValidation(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	admin2 := e.Admin(2)
	e.Create(t, admin, "/api/empleados", empleado("109870654"))
	h := testenv.HoyCR()
	ingreso := h.AddDate(-1, 0, 0)
	// A user of company 2 only, and the admin of company 1 linked once.
	ajeno := e.Create(t, admin2, "/api/usuarios", map[string]any{"nombre": "Dos", "email": "dos@demo2.cr", "password": "Segura123!"})
	var propio int
	testenv.Scan(t, e, `select min(usuario_id) from membresias where empresa_id = 1`, nil, &propio)
	e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870600"), "usuario_id", propio))
	var sucursalAjena int
	testenv.Scan(t, e, `select id from sucursales where empresa_id = 2 limit 1`, nil, &sucursalAjena)

	e.ExpectInvalid(t, admin, http.MethodPost, "/api/empleados", []testenv.Invalid{
		{"nombre required", testenv.With(empleado("109870601"), "nombre", ""), "nombre"},
		{"apellidos required", testenv.With(empleado("109870601"), "apellidos", nil), "apellidos"},
		{"puesto required", testenv.With(empleado("109870601"), "puesto", " "), "puesto"},
		{"identificacion required", testenv.With(empleado(""), "identificacion", nil), "identificacion"},
		{"fisica of 8 digits", empleado("10987065"), "identificacion"},
		{"fisica all zeros", empleado("000000000"), "identificacion"},
		{"fisica starting with 0", empleado("010987065"), "identificacion"},
		{"dimex all zeros", testenv.With(empleado("000000000000"), "tipo_identificacion", "dimex"), "identificacion"},
		{"nite all zeros", testenv.With(empleado("0000000000"), "tipo_identificacion", "nite"), "identificacion"},
		{"juridica not starting with 3", testenv.With(empleado("4101123456"), "tipo_identificacion", "juridica"), "identificacion"},
		{"dimex of 10 digits", testenv.With(empleado("1234567890"), "tipo_identificacion", "dimex"), "identificacion"},
		{"unknown tipo_identificacion", testenv.With(empleado("109870601"), "tipo_identificacion", "pasaporte"), "tipo_identificacion"},
		{"duplicate identificacion (normalized)", empleado("1-0987-0654"), "identificacion"},
		{"fecha_nacimiento required", testenv.With(empleado("109870601"), "fecha_nacimiento", nil), "fecha_nacimiento"},
		{"fecha_nacimiento not a date", testenv.With(empleado("109870601"), "fecha_nacimiento", "20-01-1990"), "fecha_nacimiento"},
		{"under 15 at hiring (one day short)", testenv.With(empleado("109870601"), "fecha_ingreso", dia(ingreso),
			"fecha_nacimiento", dia(ingreso.AddDate(-15, 0, 1))), "fecha_nacimiento"},
		{"born after hiring", testenv.With(empleado("109870601"), "fecha_ingreso", dia(ingreso),
			"fecha_nacimiento", dia(ingreso.AddDate(0, 0, 1))), "fecha_nacimiento"},
		{"born after today (hired 15 years later)", testenv.With(empleado("109870601"), "fecha_nacimiento", dia(h.AddDate(0, 0, 1)),
			"fecha_ingreso", dia(h.AddDate(16, 0, 0))), "fecha_nacimiento"},
		{"fecha_ingreso required", testenv.With(empleado("109870601"), "fecha_ingreso", nil), "fecha_ingreso"},
		{"fecha_salida before fecha_ingreso", testenv.With(empleado("109870601"), "fecha_ingreso", dia(ingreso),
			"fecha_salida", dia(ingreso.AddDate(0, 0, -1))), "fecha_salida"},
		{"salario_base zero", testenv.With(empleado("109870601"), "salario_base", 0), "salario_base"},
		{"salario_base negative", testenv.With(empleado("109870601"), "salario_base", "-1.00"), "salario_base"},
		{"salario_base three decimals", testenv.With(empleado("109870601"), "salario_base", "1000.005"), "salario_base"},
		{"salario_base required", testenv.With(empleado("109870601"), "salario_base", nil), "salario_base"},
		{"tipo_pago unknown", testenv.With(empleado("109870601"), "tipo_pago", "diario"), "tipo_pago"},
		{"jornada unknown", testenv.With(empleado("109870601"), "jornada", "parcial"), "jornada"},
		{"estado unknown", testenv.With(empleado("109870601"), "estado", "despedido"), "estado"},
		{"hijos negative", testenv.With(empleado("109870601"), "hijos", -1), "hijos"},
		{"hijos not an integer", testenv.With(empleado("109870601"), "hijos", 1.5), "hijos"},
		{"conyuge not a boolean", testenv.With(empleado("109870601"), "conyuge", "si"), "conyuge"},
		{"email invalid", testenv.With(empleado("109870601"), "email", "ana@"), "email"},
		{"telefono invalid", testenv.With(empleado("109870601"), "telefono", "1234"), "telefono"},
		{"IBAN bad check digits", testenv.With(empleado("109870601"), "cuenta_iban", "CR05015202001026284067"), "cuenta_iban"},
		{"IBAN not Costa Rican", testenv.With(empleado("109870601"), "cuenta_iban", "DE89370400440532013000"), "cuenta_iban"},
		{"IBAN short", testenv.With(empleado("109870601"), "cuenta_iban", "CR0501520200102628406"), "cuenta_iban"},
		{"usuario of another company", testenv.With(empleado("109870601"), "usuario_id", ajeno), "usuario_id"},
		{"usuario that does not exist", testenv.With(empleado("109870601"), "usuario_id", 999999), "usuario_id"},
		{"usuario already linked", testenv.With(empleado("109870601"), "usuario_id", propio), "usuario_id"},
		{"sucursal of another company", testenv.With(empleado("109870601"), "sucursal_id", sucursalAjena), "sucursal_id"},
	})

	// The message of the minimum age names it.
	r := e.Call(admin, http.MethodPost, "/api/empleados", testenv.With(empleado("109870601"), "fecha_ingreso", dia(ingreso),
		"fecha_nacimiento", dia(ingreso.AddDate(-14, 0, 0))))
	if msgs := r.FieldErrors("fecha_nacimiento"); len(msgs) == 0 || !strings.Contains(msgs[0], "15 años") {
		t.Errorf("minimum age message: %s", r.Raw)
	}
	// Exactly 15 on the hiring day is allowed.
	e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870602"), "fecha_ingreso", dia(ingreso),
		"fecha_nacimiento", dia(ingreso.AddDate(-15, 0, 0))))
	// Partial updates are checked against the stored values.
	id := e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870603"), "fecha_ingreso", dia(ingreso)))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path(id), map[string]any{"fecha_salida": dia(ingreso.AddDate(0, 0, -1))}), "fecha_salida")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path(id), map[string]any{"fecha_nacimiento": dia(h.AddDate(-10, 0, 0))}), "fecha_nacimiento")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path(id), map[string]any{"tipo_identificacion": "juridica"}), "identificacion")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path(id), map[string]any{"usuario_id": propio}), "usuario_id")
	// A user freed by a deleted employee can be linked again.
	var linked int
	testenv.Scan(t, e, `select id from empleados where usuario_id = $1`, []any{propio}, &linked)
	if r := e.Call(admin, http.MethodDelete, path(linked), nil); r.Status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, http.MethodPatch, path(id), map[string]any{"usuario_id": propio}); r.Status != http.StatusOK ||
		testenv.Num(r.JSON, "data.usuario.id") != float64(propio) {
		t.Errorf("link freed user: %d %s", r.Status, r.Raw)
	}
}

func TestEmpleadoFilters(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	var suc int
	testenv.Scan(t, e, `select id from sucursales where empresa_id = 1 limit 1`, nil, &suc)
	a := e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870611"), "nombre", "Álvaro", "puesto", "Chofer", "departamento", "Transporte", "sucursal_id", suc))
	b := e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870612"), "nombre", "Beatriz", "puesto", "Cajera", "departamento", "Ventas", "estado", "vacaciones"))
	c := e.Create(t, admin, "/api/empleados", testenv.With(empleado("109870613"), "nombre", "Carlos", "puesto", "Chofer", "departamento", "Transporte", "activo", false, "estado", "inactivo"))
	for _, fc := range []struct {
		query string
		want  []int
	}{
		{"puesto=Chofer", []int{a, c}},
		{"estado=vacaciones", []int{b}},
		{"departamento=Transporte", []int{a, c}},
		{fmt.Sprintf("sucursal_id=%d", suc), []int{a}},
		{"search=alvaro", []int{a}},
		{"search=109870612", []int{b}},
		{"activos=true", []int{a, b}},
		{"activos=false", []int{c}},
		{"puesto=Chofer&activos=true", []int{a}},
		// NUL and invalid UTF-8 cannot be SQL text: they match nothing (was a 500).
		{"puesto=%00", nil},
		{"departamento=Trans%FFporte", nil},
	} {
		t.Run(fc.query, func(t *testing.T) {
			r := e.Get("/api/empleados?per_page=100&"+fc.query, admin)
			if got := testenv.IDs(r); fmt.Sprint(got) != fmt.Sprint(fc.want) {
				t.Errorf("got %v, want %v (%s)", got, fc.want, r.Raw)
			}
		})
	}
	for _, q := range []string{"estado=despedido", "sucursal_id=x", "activos=quizas"} {
		t.Run("bad "+q, func(t *testing.T) {
			if r := e.Get("/api/empleados?"+q, admin); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d %s", q, r.Status, r.Raw)
			}
		})
	}
}

func TestEmpleadoPermissions(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	e.ExpectPermissions(t, admin, testenv.Recurso{Path: "/api/empleados", Modulo: "empleados", ID: e.Create(t, admin, "/api/empleados", empleado("109870621")),
		Crear: empleado("109870622"), Cambio: map[string]any{"puesto": "X"}, Otro: "ventas.leer"})
}

func TestEmpleadoOfAnotherCompanyIsNotFound(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	id := e.Create(t, admin1, "/api/empleados", empleado("109870631"))
	e.ExpectIsolation(t, admin2, testenv.Recurso{Path: "/api/empleados", ID: id, Cambio: map[string]any{"puesto": "Otro"}, Completo: empleado("109870631")})
	// Unchanged, not deleted; and company 2 may use the same identification.
	r := e.Get(path(id), admin1)
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.puesto") != "Chofer" {
		t.Errorf("company 1's employee changed: %d %s", r.Status, r.Raw)
	}
	e.Create(t, admin2, "/api/empleados", empleado("109870631"))
}

func TestEmpleadosExportCSV(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	e.Create(t, admin, "/api/empleados", empleado("109870641"))
	r := e.Get("/api/empleados?formato=csv", admin)
	if r.Status != http.StatusOK {
		t.Fatalf("csv export: %d %.300s", r.Status, r.Raw)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.Raw, []byte("\ufeff")))).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v, %d rows: %s", err, len(rows), r.Raw)
	}
	col := slices.Index(rows[0], "identificacion")
	sal := slices.Index(rows[0], "salario_base")
	if col < 0 || sal < 0 || rows[1][col] != "109870641" || rows[1][sal] != "650000.00" {
		t.Errorf("csv rows %v", rows)
	}
}
