package terceros_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// persona is a valid física customer body.
func persona(ident string) map[string]any {
	return map[string]any{"tipo_identificacion": "fisica", "identificacion": ident, "nombre": "Ana", "apellidos": "Mora"}
}

func TestCreateClienteReturnsNormalizedDataAndComputedFields(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	r := e.Call(admin, http.MethodPost, "/api/clientes", map[string]any{
		"tipo_identificacion": "fisica", "identificacion": "1-0234-0567",
		"nombre": "José", "apellidos": "Mora Solís", "email": "  Jose.Mora@Correo.CR ",
		"telefono": "+506 8888-7777", "celular": "2222-3333", "direccion": "San Pedro, 200 m norte",
		"provincia": "San José", "canton": "Montes de Oca", "distrito": "San Pedro", "codigo_postal": "11501",
		"limite_credito": 1500.5, "dias_credito": 30, "observaciones": "Cliente frecuente",
	})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if got := testenv.Str(r.JSON, "message"); got != "Cliente creado correctamente." {
		t.Errorf("message %q", got)
	}
	want := map[string]any{
		"identificacion": "102340567", "nombre_completo": "José Mora Solís", "tipo_identificacion_descripcion": "Cédula física",
		"email": "jose.mora@correo.cr", "telefono": "88887777", "celular": "22223333", "tipo_identificacion": "fisica",
		"provincia": "San José", "codigo_postal": "11501", "observaciones": "Cliente frecuente",
		"limite_credito": 1500.5, "dias_credito": float64(30), "empresa_id": float64(1),
		"razon_social": nil, "nombre_comercial": nil, "activo": true,
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	show := e.Get(itemPath("clientes", id), admin)
	for _, resp := range []testenv.Resp{r, show} {
		for k, v := range want {
			if got := testenv.Get(resp.JSON, "data."+k); got != v {
				t.Errorf("data.%s = %#v, want %#v", k, got, v)
			}
		}
	}
	// The stored row holds the normalized forms (not only the output).
	if tag := e.Exec(`update clientes set id = id where id = $1 and identificacion = '102340567' and telefono = '88887777'
		and celular = '22223333' and email = 'jose.mora@correo.cr'`, id); tag.RowsAffected() != 1 {
		t.Errorf("stored values are not normalized")
	}
	// Defaults of the optional numbers.
	r = e.Call(admin, http.MethodPost, "/api/clientes", persona("102340568"))
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.limite_credito") != 0 || testenv.Num(r.JSON, "data.dias_credito") != 0 {
		t.Errorf("defaults: %d %s", r.Status, r.Raw)
	}
}

func TestClienteIdentificacionFormats(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cases := []struct {
		name, tipo, ident string
		stored            string // "" = refused under identificacion
		msg               string // part of the message when refused
	}{
		{"fisica 9 digits", "fisica", "102340567", "102340567", ""},
		{"fisica with dashes", "fisica", "1-0234-0568", "102340568", ""},
		{"fisica with spaces", "fisica", " 1 0234 0569 ", "102340569", ""},
		{"fisica 8 digits", "fisica", "10234056", "", "9 dígitos"},
		{"fisica 10 digits", "fisica", "1023405670", "", "9 dígitos"},
		{"fisica with a letter", "fisica", "1-0234-056A", "", "9 dígitos"},
		{"fisica with dots", "fisica", "1.0234.0567", "", "9 dígitos"},
		{"fisica only dashes", "fisica", "---", "", "9 dígitos"},
		{"fisica all zeros", "fisica", "000000000", "", "no comenzar con 0"},
		{"fisica all zeros with dashes", "fisica", "0-0000-0000", "", "no comenzar con 0"},
		{"fisica starting with 0 (no province 0)", "fisica", "012340567", "", "no comenzar con 0"},
		{"juridica all zeros", "juridica", "0000000000", "", "comenzar con 3"},
		{"juridica 10 digits with dashes", "juridica", "3-101-123456", "3101123456", ""},
		{"juridica 10 digits", "juridica", "3101123457", "3101123457", ""},
		{"juridica not starting with 3", "juridica", "4-101-123456", "", "comenzar con 3"},
		{"juridica 9 digits", "juridica", "310112345", "", "10 dígitos"},
		{"juridica 11 digits", "juridica", "31011234567", "", "10 dígitos"},
		{"dimex 11 digits", "dimex", "12345678901", "12345678901", ""},
		{"dimex 12 digits", "dimex", "123456789012", "123456789012", ""},
		{"dimex 10 digits", "dimex", "1234567890", "", "11 o 12"},
		{"dimex 13 digits", "dimex", "1234567890123", "", "11 o 12"},
		{"dimex all zeros", "dimex", "00000000000", "", "no comenzar con 0"},
		{"dimex starting with 0", "dimex", "023456789012", "", "no comenzar con 0"},
		{"nite 10 digits", "nite", "4000-123456", "4000123456", ""},
		{"nite 9 digits", "nite", "400012345", "", "10 dígitos"},
		{"nite 11 digits", "nite", "40001234567", "", "10 dígitos"},
		{"nite all zeros", "nite", "000-000-0000", "", "no ser todo ceros"},
		{"nite may start with 0", "nite", "0001234567", "0001234567", ""},
		{"extranjero alphanumeric upper-cased", "extranjero", "ab12345", "AB12345", ""},
		{"extranjero 20 characters", "extranjero", "P1234567890123456789", "P1234567890123456789", ""},
		{"extranjero 21 characters", "extranjero", "P12345678901234567890", "", "hasta 20"},
		{"extranjero with a dash", "extranjero", "AB-123", "", "alfanumérica"},
		{"extranjero with a space", "extranjero", "AB 123", "", "alfanumérica"},
		{"extranjero with an accent", "extranjero", "ÑANDÚ1", "", "alfanumérica"},
		{"identificacion over 50 characters", "extranjero", strings.Repeat("A", 51), "", "50"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Call(admin, http.MethodPost, "/api/clientes", testenv.With(persona(c.ident), "tipo_identificacion", c.tipo))
			if c.stored == "" {
				testenv.Expect422(t, r, "identificacion")
				if msg := strings.Join(r.FieldErrors("identificacion"), " "); !strings.Contains(msg, c.msg) {
					t.Errorf("message %q does not state the format (%q)", msg, c.msg)
				}
				return
			}
			if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.identificacion") != c.stored {
				t.Fatalf("%d %s, want identificacion %s", r.Status, r.Raw, c.stored)
			}
		})
	}
}

func TestClienteTipoIdentificacionDescripcionAndNombreCompleto(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cases := []struct {
		name        string
		body        map[string]any
		descripcion string
		completo    any
	}{
		{"fisica joins nombre and apellidos", map[string]any{"tipo_identificacion": "fisica", "identificacion": "111111111",
			"nombre": "María", "apellidos": "Jiménez Rojas"}, "Cédula física", "María Jiménez Rojas"},
		{"fisica without apellidos", map[string]any{"tipo_identificacion": "fisica", "identificacion": "111111112",
			"nombre": "María"}, "Cédula física", "María"},
		{"fisica ignores razon_social when it has a name", map[string]any{"tipo_identificacion": "fisica", "identificacion": "111111113",
			"nombre": "Luis", "apellidos": "Vega", "razon_social": "Luis Vega S.A."}, "Cédula física", "Luis Vega"},
		{"fisica with only razon_social falls back to it", map[string]any{"tipo_identificacion": "fisica", "identificacion": "111111114",
			"razon_social": "Soda La Esquina"}, "Cédula física", "Soda La Esquina"},
		{"juridica is its razon_social", map[string]any{"tipo_identificacion": "juridica", "identificacion": "3101000001",
			"razon_social": "Distribuidora Central S.A.", "nombre_comercial": "DisCentral"}, "Cédula jurídica", "Distribuidora Central S.A."},
		{"juridica prefers razon_social over nombre", map[string]any{"tipo_identificacion": "juridica", "identificacion": "3101000002",
			"nombre": "Contacto", "razon_social": "Ferretería Sur S.A."}, "Cédula jurídica", "Ferretería Sur S.A."},
		{"juridica without razon_social uses nombre", map[string]any{"tipo_identificacion": "juridica", "identificacion": "3101000003",
			"nombre": "Ferretería Norte"}, "Cédula jurídica", "Ferretería Norte"},
		{"dimex", map[string]any{"tipo_identificacion": "dimex", "identificacion": "155800000001",
			"nombre": "John", "apellidos": "Smith"}, "DIMEX", "John Smith"},
		{"nite", map[string]any{"tipo_identificacion": "nite", "identificacion": "4000000001",
			"nombre": "Pedro"}, "NITE", "Pedro"},
		{"extranjero", map[string]any{"tipo_identificacion": "extranjero", "identificacion": "X123",
			"nombre": "Hans", "apellidos": "Müller"}, "Extranjero no domiciliado", "Hans Müller"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/clientes", c.body)
			id := int(testenv.Num(r.JSON, "data.id"))
			list := e.Get("/api/clientes?per_page=1&search="+url.QueryEscape(c.body["identificacion"].(string)), admin)
			for name, resp := range map[string]testenv.Resp{"create": r, "show": e.Get(itemPath("clientes", id), admin)} {
				if got := testenv.Str(resp.JSON, "data.tipo_identificacion_descripcion"); got != c.descripcion {
					t.Errorf("%s: descripcion %q, want %q", name, got, c.descripcion)
				}
				if got := testenv.Get(resp.JSON, "data.nombre_completo"); got != c.completo {
					t.Errorf("%s: nombre_completo %#v, want %#v", name, got, c.completo)
				}
			}
			if testenv.Str(list.JSON, "data.0.nombre_completo") != c.completo || testenv.Str(list.JSON, "data.0.tipo_identificacion_descripcion") != c.descripcion {
				t.Errorf("list row lacks the computed fields: %s", list.Raw)
			}
		})
	}
	// nombre_completo follows updates.
	id := e.Create(t, admin, "/api/clientes", persona("222222221"))
	r := e.Call(admin, http.MethodPatch, itemPath("clientes", id), map[string]any{"apellidos": "Mora Vargas"})
	if testenv.Str(r.JSON, "data.nombre_completo") != "Ana Mora Vargas" {
		t.Errorf("after update: %s", r.Raw)
	}
	r = e.Call(admin, http.MethodPatch, itemPath("clientes", id), map[string]any{
		"tipo_identificacion": "juridica", "identificacion": "3-102-000009", "razon_social": "Ana Mora Ltda."})
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.nombre_completo") != "Ana Mora Ltda." ||
		testenv.Str(r.JSON, "data.tipo_identificacion_descripcion") != "Cédula jurídica" {
		t.Errorf("after becoming juridica: %d %s", r.Status, r.Raw)
	}
}

func TestClienteValidationRules(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	base := persona("109990000")
	cases := []testenv.Invalid{
		{"tipo_identificacion is required", testenv.With(base, "tipo_identificacion", testenv.Absent), "tipo_identificacion"},
		{"tipo_identificacion null", testenv.With(base, "tipo_identificacion", nil), "tipo_identificacion"},
		{"tipo_identificacion blank", testenv.With(base, "tipo_identificacion", " "), "tipo_identificacion"},
		{"tipo_identificacion unknown", testenv.With(base, "tipo_identificacion", "pasaporte"), "tipo_identificacion"},
		{"tipo_identificacion is lower case", testenv.With(base, "tipo_identificacion", "FISICA"), "tipo_identificacion"},
		{"tipo_identificacion not a string", testenv.With(base, "tipo_identificacion", 1), "tipo_identificacion"},
		{"identificacion is required", testenv.With(base, "identificacion", testenv.Absent), "identificacion"},
		{"identificacion null", testenv.With(base, "identificacion", nil), "identificacion"},
		{"identificacion blank", testenv.With(base, "identificacion", ""), "identificacion"},
		{"identificacion not a string", testenv.With(base, "identificacion", 109990000), "identificacion"},
		{"nombre required without razon_social", testenv.With(base, "nombre", testenv.Absent), "nombre"},
		{"nombre blank without razon_social", testenv.With(base, "nombre", "   "), "nombre"},
		{"nombre null without razon_social", testenv.With(base, "nombre", nil, "razon_social", nil), "nombre"},
		{"apellidos max 255", testenv.With(base, "apellidos", strings.Repeat("a", 256)), "apellidos"},
		{"nombre_comercial max 255", testenv.With(base, "nombre_comercial", strings.Repeat("a", 256)), "nombre_comercial"},
		{"email without domain dot", testenv.With(base, "email", "ana@correo"), "email"},
		{"email with a display name", testenv.With(base, "email", "Ana <ana@correo.cr>"), "email"},
		{"telefono starting with 9", testenv.With(base, "telefono", "9888-7777"), "telefono"},
		{"telefono 7 digits", testenv.With(base, "telefono", "8888-777"), "telefono"},
		{"telefono 9 digits", testenv.With(base, "telefono", "8888-77770"), "telefono"},
		{"telefono with letters", testenv.With(base, "telefono", "8888-ABCD"), "telefono"},
		{"telefono with another country code", testenv.With(base, "telefono", "+1 8888-7777"), "telefono"},
		{"celular starting with 0", testenv.With(base, "celular", "+506 0888 7777"), "celular"},
		{"observaciones max 2000", testenv.With(base, "observaciones", strings.Repeat("o", 2001)), "observaciones"},
		{"provincia max 100", testenv.With(base, "provincia", strings.Repeat("p", 101)), "provincia"},
		{"codigo_postal max 20", testenv.With(base, "codigo_postal", strings.Repeat("1", 21)), "codigo_postal"},
		{"limite_credito negative cents", testenv.With(base, "limite_credito", "-0.01"), "limite_credito"},
		{"limite_credito boolean", testenv.With(base, "limite_credito", true), "limite_credito"},
		{"limite_credito too large", testenv.With(base, "limite_credito", "100000000000000000"), "limite_credito"},
		{"dias_credito not a number", testenv.With(base, "dias_credito", "treinta"), "dias_credito"},
		{"activo null", testenv.With(base, "activo", nil), "activo"},
	}
	e.ExpectInvalid(t, admin, http.MethodPost, "/api/clientes", cases)
	t.Run("every failing field is reported at once", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/clientes", map[string]any{
			"tipo_identificacion": "fisica", "identificacion": "12", "email": "x", "telefono": "1", "limite_credito": -5, "dias_credito": -1})
		for _, f := range []string{"identificacion", "nombre", "email", "telefono", "limite_credito", "dias_credito"} {
			if len(r.FieldErrors(f)) == 0 {
				t.Errorf("no errors[%s]: %s", f, r.Raw)
			}
		}
	})
	t.Run("messages are Spanish and name the field", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/clientes", testenv.With(base, "telefono", "123", "nombre", testenv.Absent))
		if msg := strings.Join(r.FieldErrors("telefono"), ""); !strings.Contains(msg, "telefono") || !strings.Contains(msg, "8 dígitos") {
			t.Errorf("telefono message %q", msg)
		}
		if msg := strings.Join(r.FieldErrors("nombre"), ""); !strings.Contains(msg, "obligatorio") {
			t.Errorf("nombre message %q", msg)
		}
	})
	accepted := []struct {
		name  string
		body  map[string]any
		field string
		want  any
	}{
		{"razon_social instead of nombre", testenv.With(base, "identificacion", "109990001", "nombre", testenv.Absent, "razon_social", "Soda Tica"), "razon_social", "Soda Tica"},
		{"nombre 255", testenv.With(base, "identificacion", "109990002", "nombre", strings.Repeat("ñ", 255)), "nombre", strings.Repeat("ñ", 255)},
		{"direccion 500", testenv.With(base, "identificacion", "109990003", "direccion", strings.Repeat("d", 500)), "direccion", strings.Repeat("d", 500)},
		{"observaciones 2000", testenv.With(base, "identificacion", "109990004", "observaciones", strings.Repeat("o", 2000)), "observaciones", strings.Repeat("o", 2000)},
		{"limite_credito 0", testenv.With(base, "identificacion", "109990005", "limite_credito", 0), "limite_credito", float64(0)},
		{"limite_credito as a string", testenv.With(base, "identificacion", "109990006", "limite_credito", "2500.75"), "limite_credito", 2500.75},
		{"limite_credito 1 decimal", testenv.With(base, "identificacion", "109990007", "limite_credito", 99.9), "limite_credito", 99.9},
		{"limite_credito trailing zero decimals", testenv.With(base, "identificacion", "109990008", "limite_credito", "10.500"), "limite_credito", 10.5},
		{"dias_credito 0", testenv.With(base, "identificacion", "109990009", "dias_credito", 0), "dias_credito", float64(0)},
		{"dias_credito as a string", testenv.With(base, "identificacion", "109990010", "dias_credito", "45"), "dias_credito", float64(45)},
		{"telefono +506 without space", testenv.With(base, "identificacion", "109990011", "telefono", "+50622223333"), "telefono", "22223333"},
		{"telefono 506 group", testenv.With(base, "identificacion", "109990012", "telefono", "506 7000 1234"), "telefono", "70001234"},
		{"celular plain", testenv.With(base, "identificacion", "109990013", "celular", "60001234"), "celular", "60001234"},
		{"blank optional is null", testenv.With(base, "identificacion", "109990014", "email", "  ", "telefono", ""), "email", nil},
		{"null optional is null", testenv.With(base, "identificacion", "109990015", "direccion", nil, "limite_credito", nil, "dias_credito", nil), "direccion", nil},
		{"activo false", testenv.With(base, "identificacion", "109990016", "activo", false), "activo", false},
		{"email upper case is lower-cased", testenv.With(base, "identificacion", "109990017", "email", "ANA@CORREO.CR"), "email", "ana@correo.cr"},
	}
	for _, c := range accepted {
		t.Run("accepts "+c.name, func(t *testing.T) {
			r := e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/clientes", c.body)
			if got := testenv.Get(r.JSON, "data."+c.field); got != c.want {
				t.Errorf("data.%s = %#v, want %#v", c.field, got, c.want)
			}
		})
	}
}

func TestClienteRefusedCreateStoresNothing(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	r := e.Call(admin, http.MethodPost, "/api/clientes", testenv.With(persona("109990000"), "email", "malo"))
	testenv.Expect422(t, r, "email")
	if r := e.Get("/api/clientes", admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("a refused customer was stored: %s", r.Raw)
	}
}

func TestClienteIdentificacionIsUniquePerCompany(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	first := e.Create(t, admin1, "/api/clientes", persona("102340567"))

	// The same number, however it is typed, is taken in company 1.
	for _, ident := range []string{"102340567", "1-0234-0567", " 1 0234 0567 "} {
		r := e.Call(admin1, http.MethodPost, "/api/clientes", persona(ident))
		testenv.Expect422(t, r, "identificacion")
		if msg := r.FieldErrors("identificacion")[0]; msg != "Ya existe un cliente con esa identificación en esta empresa." {
			t.Errorf("duplicate message %q", msg)
		}
	}
	// Another company may register it.
	other := e.Create(t, admin2, "/api/clientes", persona("1-0234-0567"))
	// Updates: taking another customer's number is refused; keeping one's own is fine.
	second := e.Create(t, admin1, "/api/clientes", persona("102340568"))
	testenv.Expect422(t, e.Call(admin1, http.MethodPatch, itemPath("clientes", second), map[string]any{"identificacion": "1-0234-0567"}), "identificacion")
	testenv.Expect422(t, e.Call(admin1, http.MethodPut, itemPath("clientes", second), map[string]any{"identificacion": "102340567"}), "identificacion")
	if r := e.Call(admin1, http.MethodPatch, itemPath("clientes", first), map[string]any{"identificacion": "1-0234-0567", "nombre": "Ana María"}); r.Status != http.StatusOK {
		t.Errorf("re-sending its own identificacion: %d %s", r.Status, r.Raw)
	}
	// Company 2's record is unaffected by company 1's rules and vice versa.
	if r := e.Call(admin2, http.MethodPatch, itemPath("clientes", other), map[string]any{"identificacion": "102340567"}); r.Status != http.StatusOK {
		t.Errorf("company 2 keeping the number: %d %s", r.Status, r.Raw)
	}
	// After a soft delete the number is free again.
	if r := e.Call(admin1, http.MethodDelete, itemPath("clientes", first), nil); r.Status != http.StatusOK {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	again := e.Create(t, admin1, "/api/clientes", persona("1-0234-0567"))
	if again == first {
		t.Errorf("the deleted record was reused")
	}
	if r := e.Call(admin1, http.MethodPatch, itemPath("clientes", second), map[string]any{"identificacion": "102340567"}); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("the re-created number is taken again: %d %s", r.Status, r.Raw)
	}
	// Extranjero IDs collide regardless of case (stored upper-cased).
	e.Create(t, admin1, "/api/clientes", testenv.With(persona("ab123"), "tipo_identificacion", "extranjero"))
	testenv.Expect422(t, e.Call(admin1, http.MethodPost, "/api/clientes", testenv.With(persona("AB123"), "tipo_identificacion", "extranjero")), "identificacion")
}

func TestClienteChangingTipoRevalidatesIdentificacion(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	id := e.Create(t, admin, "/api/clientes", persona("102340567"))
	path := itemPath("clientes", id)
	cases := []struct {
		name   string
		body   map[string]any
		ok     bool
		ident  string // stored identificacion afterwards
		tipo   string
		field  string
		reason string
	}{
		{"fisica number is not a juridica", map[string]any{"tipo_identificacion": "juridica"}, false, "102340567", "fisica", "identificacion", "10 dígitos"},
		{"fisica number is not a dimex", map[string]any{"tipo_identificacion": "dimex"}, false, "102340567", "fisica", "identificacion", "11 o 12"},
		{"fisica number is not a nite", map[string]any{"tipo_identificacion": "nite"}, false, "102340567", "fisica", "identificacion", "10 dígitos"},
		{"an unknown tipo is refused on tipo", map[string]any{"tipo_identificacion": "otro"}, false, "102340567", "fisica", "tipo_identificacion", "uno de"},
		{"digits are a valid extranjero", map[string]any{"tipo_identificacion": "extranjero"}, true, "102340567", "extranjero", "", ""},
		{"back to fisica", map[string]any{"tipo_identificacion": "fisica"}, true, "102340567", "fisica", "", ""},
		{"tipo and identificacion together", map[string]any{"tipo_identificacion": "juridica", "identificacion": "3-101-000001"}, true, "3101000001", "juridica", "", ""},
		{"identificacion alone is checked against the stored tipo", map[string]any{"identificacion": "102340567"}, false, "3101000001", "juridica", "identificacion", "comenzar con 3"},
		{"identificacion alone valid for the stored tipo", map[string]any{"identificacion": "3-101-000002"}, true, "3101000002", "juridica", "", ""},
		{"juridica number is a valid nite", map[string]any{"tipo_identificacion": "nite"}, true, "3101000002", "nite", "", ""},
		{"nite with a new number of another format", map[string]any{"tipo_identificacion": "dimex", "identificacion": "12345678901"}, true, "12345678901", "dimex", "", ""},
		{"dimex number is not a fisica", map[string]any{"tipo_identificacion": "fisica"}, false, "12345678901", "dimex", "identificacion", "9 dígitos"},
		{"other fields alone do not re-check", map[string]any{"nombre": "Ana Lucía"}, true, "12345678901", "dimex", "", ""},
	}
	// Sequential: each case starts from the previous one's state.
	for _, c := range cases {
		r := e.Call(admin, http.MethodPatch, path, c.body)
		if c.ok && r.Status != http.StatusOK {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
		}
		if !c.ok {
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(r.FieldErrors(c.field), " "), c.reason) {
				t.Errorf("%s: %d %s, want 422 on %s mentioning %q", c.name, r.Status, r.Raw, c.field, c.reason)
			}
		}
		show := e.Get(path, admin)
		if testenv.Str(show.JSON, "data.identificacion") != c.ident || testenv.Str(show.JSON, "data.tipo_identificacion") != c.tipo {
			t.Errorf("%s: stored %s/%s, want %s/%s", c.name, testenv.Str(show.JSON, "data.tipo_identificacion"),
				testenv.Str(show.JSON, "data.identificacion"), c.tipo, c.ident)
		}
	}
	// Re-validation also checks uniqueness of the (re-normalized) number.
	e.Create(t, admin, "/api/clientes", testenv.With(persona("X77"), "tipo_identificacion", "extranjero"))
	other := e.Create(t, admin, "/api/clientes", testenv.With(persona("x77"+"1"), "tipo_identificacion", "extranjero"))
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, itemPath("clientes", other), map[string]any{"identificacion": "x77"}), "identificacion")
}

func TestClienteUpdateIsPartialAndNullClears(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	full := map[string]any{
		"tipo_identificacion": "fisica", "identificacion": "102340567", "nombre": "José", "apellidos": "Mora",
		"razon_social": "JM Servicios", "nombre_comercial": "JM", "email": "jose@correo.cr", "telefono": "22223333",
		"celular": "88887777", "direccion": "Cartago", "provincia": "Cartago", "canton": "Central", "distrito": "Oriental",
		"codigo_postal": "30101", "limite_credito": 1000, "dias_credito": 15, "observaciones": "Nota",
	}
	id, path := partialUpdate(t, e, admin, "clientes", full, "celular", "+506 6000-1111", "60001111", "Cliente actualizado correctamente.")
	// An empty body changes nothing.
	if r := e.Call(admin, http.MethodPatch, path, map[string]any{}); r.Status != http.StatusOK || testenv.Str(r.JSON, "data.nombre") != "José" {
		t.Errorf("empty body: %d %s", r.Status, r.Raw)
	}
	// Unknown and read-only keys are ignored.
	r := e.Call(admin, http.MethodPatch, path, map[string]any{"empresa_id": 2, "id": 999, "eliminado": true, "nombre_completo": "X"})
	if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.empresa_id") != 1 || int(testenv.Num(r.JSON, "data.id")) != id || testenv.Get(r.JSON, "data.eliminado") != false {
		t.Errorf("read-only keys: %d %s", r.Status, r.Raw)
	}
	// Validation on update is partial but complete for what is sent.
	for field, body := range map[string]map[string]any{
		"email":          {"email": "malo"},
		"telefono":       {"telefono": "1111-2222"},
		"limite_credito": {"limite_credito": -1},
		"dias_credito":   {"dias_credito": "x"},
		"observaciones":  {"observaciones": strings.Repeat("o", 2001)},
		"identificacion": {"identificacion": ""},
		"activo":         {"activo": nil},
	} {
		testenv.Expect422(t, e.Call(admin, http.MethodPatch, path, body), field)
	}
	testenv.Expect422(t, e.Call(admin, http.MethodPut, path, map[string]any{"tipo_identificacion": nil}), "tipo_identificacion")

	// null (or blank) clears the optional fields; the credit numbers go back to 0.
	clear := map[string]any{"apellidos": nil, "nombre_comercial": nil, "email": nil, "telefono": "", "celular": nil,
		"direccion": nil, "provincia": nil, "canton": nil, "distrito": nil, "codigo_postal": nil, "observaciones": nil,
		"limite_credito": nil, "dias_credito": nil}
	r = clearOptional(t, e, admin, path, clear)
	if testenv.Str(r.JSON, "data.nombre_completo") != "José" {
		t.Errorf("nombre_completo after clearing apellidos: %s", r.Raw)
	}
	// nombre may be cleared only while razon_social is there.
	r = e.Call(admin, http.MethodPatch, path, map[string]any{"nombre": nil})
	if r.Status != http.StatusOK || testenv.Get(r.JSON, "data.nombre") != nil || testenv.Str(r.JSON, "data.nombre_completo") != "JM Servicios" {
		t.Errorf("clearing nombre with razon_social: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path, map[string]any{"razon_social": nil}), "nombre")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path, map[string]any{"razon_social": "  "}), "nombre")
	if r := e.Call(admin, http.MethodPatch, path, map[string]any{"razon_social": nil, "nombre": "José"}); r.Status != http.StatusOK ||
		testenv.Get(r.JSON, "data.razon_social") != nil {
		t.Errorf("swapping razon_social for nombre: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, e.Call(admin, http.MethodPut, path, map[string]any{"nombre": ""}), "nombre")
	// Deactivate and reactivate.
	if r := e.Call(admin, http.MethodPatch, path, map[string]any{"activo": false}); testenv.Get(r.JSON, "data.activo") != false {
		t.Errorf("deactivate: %s", r.Raw)
	}
	if r := e.Call(admin, http.MethodPut, path, map[string]any{"activo": "true"}); testenv.Get(r.JSON, "data.activo") != true {
		t.Errorf("reactivate: %s", r.Raw)
	}
}

func TestClienteListFilters(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	mk := func(body map[string]any) int { return e.Create(t, admin, "/api/clientes", body) }
	jose := mk(map[string]any{"tipo_identificacion": "fisica", "identificacion": "102340567", "nombre": "José", "apellidos": "Núñez Solís", "email": "pepe@correo.cr"})
	maria := mk(map[string]any{"tipo_identificacion": "fisica", "identificacion": "205550123", "nombre": "MARÍA", "apellidos": "Pérez"})
	soda := mk(map[string]any{"tipo_identificacion": "juridica", "identificacion": "3101777777", "razon_social": "Soda El Cañón S.A.", "email": "ventas@canon.cr"})
	dimex := mk(map[string]any{"tipo_identificacion": "dimex", "identificacion": "155812345678", "nombre": "Jose", "apellidos": "Smith", "activo": false})
	ext := mk(map[string]any{"tipo_identificacion": "extranjero", "identificacion": "PA100200", "nombre": "Ana", "nombre_comercial": "Importadora Panamá"})
	deleted := mk(map[string]any{"tipo_identificacion": "fisica", "identificacion": "109998888", "nombre": "José Borrado"})
	e.Call(admin, http.MethodDelete, itemPath("clientes", deleted), nil)
	// Company 2 has a José too.
	e.Create(t, e.Admin(2), "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "102340567", "nombre": "José"})

	cases := []filterCase{
		{"no filter", "", []int{jose, maria, soda, dimex, ext}},
		{"search is accent-insensitive", "search=jose", []int{jose, dimex}},
		{"search with an accent finds unaccented", "search=Jos%C3%A9", []int{jose, dimex}},
		{"search is case-insensitive", "search=JOSE", []int{jose, dimex}},
		{"search lower finds upper with accent", "search=maria", []int{maria}},
		{"search upper accented finds accented", "search=MAR%C3%8DA", []int{maria}},
		{"search by apellidos", "search=solis", []int{jose}},
		{"search by apellidos with ñ", "search=nunez", []int{jose}},
		{"search by razon_social", "search=canon", []int{soda}},
		{"search by razon_social with ñ", "search=ca%C3%B1%C3%B3n", []int{soda}},
		{"search by identificacion", "search=3101777", []int{soda}},
		{"search by identificacion part", "search=0555", []int{maria}},
		{"search by extranjero identificacion lower", "search=pa100", []int{ext}},
		{"search by email", "search=pepe@correo", []int{jose}},
		{"search by nombre_comercial", "search=panama", []int{ext}},
		{"search across two fields", "search=jose+nunez", []int{jose}},
		{"search with no match", "search=zzz", nil},
		{"search with a percent is literal", "search=%25", nil},
		{"search with an underscore is literal", "search=_", nil},
		{"blank search is no filter", "search=+", []int{jose, maria, soda, dimex, ext}},
		{"tipo_identificacion fisica", "tipo_identificacion=fisica", []int{jose, maria}},
		{"tipo_identificacion juridica", "tipo_identificacion=juridica", []int{soda}},
		{"tipo_identificacion dimex", "tipo_identificacion=dimex", []int{dimex}},
		{"tipo_identificacion nite", "tipo_identificacion=nite", nil},
		{"tipo_identificacion extranjero", "tipo_identificacion=extranjero", []int{ext}},
		{"activos=1", "activos=1", []int{jose, maria, soda, ext}},
		{"activos=true", "activos=true", []int{jose, maria, soda, ext}},
		{"activos=0", "activos=0", []int{dimex}},
		{"activos=false", "activos=false", []int{dimex}},
		{"search and activos", "search=jose&activos=1", []int{jose}},
		{"search and tipo", "search=jose&tipo_identificacion=dimex", []int{dimex}},
		{"all three", "search=jose&tipo_identificacion=dimex&activos=1", nil},
	}
	checkFilters(t, e, admin, "/api/clientes", cases)
	for _, q := range []string{"tipo_identificacion=pasaporte", "tipo_identificacion=FISICA"} {
		testenv.Expect422(t, e.Get("/api/clientes?"+q, admin), "tipo_identificacion")
	}
}
