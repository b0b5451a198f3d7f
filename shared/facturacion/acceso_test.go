package facturacion_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/testenv"
)

// userWith creates a user of company 1 with a new role holding perms and
// returns its token.
func (f *fx) userWith(nombre string, perms ...string) string {
	f.T.Helper()
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/roles", map[string]any{"nombre": "Rol " + nombre, "permisos": perms})
	return f.userWithRole(nombre, testenv.Str(r.JSON, "data.slug"))
}

func (f *fx) userWithRole(nombre, slug string) string {
	f.T.Helper()
	email := strings.ToLower(nombre) + "@demo.cr"
	f.Must(http.StatusCreated, http.MethodPost, "/api/usuarios", map[string]any{
		"nombre": "Prueba", "apellidos": nombre, "email": email, "password": "Segura123!", "roles": []string{slug}})
	return f.E.Login(email, "Segura123!")
}

type op struct {
	name, method, path string
	body               any
	perm               string
}

func (f *fx) operaciones(id, venta int64) []op {
	return []op{
		{"configuracion.show", http.MethodGet, "/api/v1/hacienda/configuracion", nil, "facturacion_electronica.leer"},
		{"configuracion.update", http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"ambiente": "staging"}, "facturacion_electronica.actualizar"},
		{"generar", http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": venta}, "facturacion_electronica.crear"},
		{"index", http.MethodGet, "/api/v1/hacienda", nil, "facturacion_electronica.leer"},
		{"estadisticas", http.MethodGet, "/api/v1/hacienda/estadisticas", nil, "facturacion_electronica.leer"},
		{"show", http.MethodGet, ruta(id, ""), nil, "facturacion_electronica.leer"},
		{"estado", http.MethodGet, ruta(id, "estado"), nil, "facturacion_electronica.leer"},
		{"generar-xml", http.MethodPost, ruta(id, "generar-xml"), nil, "facturacion_electronica.crear"},
		{"firmar", http.MethodPost, ruta(id, "firmar"), nil, "facturacion_electronica.crear"},
		{"enviar", http.MethodPost, ruta(id, "enviar"), nil, "facturacion_electronica.crear"},
	}
}

func TestEveryRouteChecksItsPermission(t *testing.T) {
	f := setup(t)
	venta, id := f.comprobante()
	ops := f.operaciones(id, venta)

	none := f.userWith("sinfe", "ventas.leer", "clientes.leer")
	for _, o := range ops {
		if r := f.E.Call(none, o.method, o.path, o.body); r.Status != http.StatusForbidden || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("%s without facturacion_electronica: %d %s", o.name, r.Status, r.Raw)
		}
	}
	reader := f.userWith("lectorfe", "facturacion_electronica.leer")
	for _, o := range ops {
		r := f.E.Call(reader, o.method, o.path, o.body)
		if (o.perm == "facturacion_electronica.leer") != (r.Status == http.StatusOK) || (o.perm != "facturacion_electronica.leer" && r.Status != http.StatusForbidden) {
			t.Errorf("%s as reader: %d %s", o.name, r.Status, r.Raw)
		}
	}
	for i, o := range ops {
		if o.perm == "facturacion_electronica.leer" {
			continue
		}
		tok := f.userWith("escritorfe"+itoa(int64(i)), o.perm)
		if r := f.E.Call(tok, o.method, o.path, o.body); r.Status == http.StatusForbidden || r.Status >= 500 {
			t.Errorf("%s with %s: %d %s", o.name, o.perm, r.Status, r.Raw)
		}
	}
	// Predefined roles: a Vendedor issues documents but cannot change the
	// settings; a Contador can.
	vendedor := f.userWithRole("vendedorfe", "vendedor")
	if r := f.E.Call(vendedor, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"ambiente": "staging"}); r.Status != http.StatusForbidden {
		t.Errorf("vendedor PUT configuracion: %d", r.Status)
	}
	if r := f.E.Call(vendedor, http.MethodGet, "/api/v1/hacienda", nil); r.Status != http.StatusOK {
		t.Errorf("vendedor list: %d", r.Status)
	}
	contador := f.userWithRole("contadorfe", "contador")
	if r := f.E.Call(contador, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"ambiente": "staging"}); r.Status != http.StatusOK {
		t.Errorf("contador PUT configuracion: %d %s", r.Status, r.Raw)
	}
	if r := f.E.Call("", http.MethodGet, "/api/v1/hacienda", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.Status)
	}
}

func TestAnotherCompanyCannotSeeOrTouchTheComprobantes(t *testing.T) {
	f := setup(t)
	venta, id := f.comprobante()
	f.emitir(f.Admin, id)
	admin2 := f.E.Admin(2)

	for _, q := range []string{"/api/v1/hacienda", "/api/v1/hacienda?venta_id=" + itoa(venta)} {
		if r := f.E.Must(f.T, http.StatusOK, admin2, http.MethodGet, q, nil); testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("company 2 %s: %s", q, r.Raw)
		}
	}
	if r := f.E.Must(f.T, http.StatusOK, admin2, http.MethodGet, "/api/v1/hacienda/estadisticas", nil); testenv.Num(r.JSON, "data.total") != 0 {
		t.Errorf("company 2 statistics: %s", r.Raw)
	}
	c := f.E.Must(f.T, http.StatusOK, admin2, http.MethodGet, "/api/v1/hacienda/configuracion", nil)
	if testenv.Get(c.JSON, "data.configurada") != false || testenv.Get(c.JSON, "data.certificado") != nil ||
		testenv.Str(c.JSON, "data.emisor.numero_identificacion") != "3101000002" {
		t.Errorf("company 2 settings: %s", c.Raw)
	}
	for _, o := range f.operaciones(id, venta) {
		if !strings.Contains(o.path, "/"+itoa(id)) {
			continue
		}
		if r := f.E.Call(admin2, o.method, o.path, o.body); r.Status != http.StatusNotFound {
			t.Errorf("company 2 %s: %d %s", o.name, r.Status, r.Raw)
		}
	}
	if r := f.E.Call(admin2, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": venta}); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("venta_id")) == 0 {
		t.Errorf("company 2 generar for company 1's sale: %d %s", r.Status, r.Raw)
	}
	// Company 1's comprobante is untouched.
	if e := testenv.Str(f.estado(id), "estado"); e != "signed" || f.q.Len() != 0 {
		t.Errorf("company 1's comprobante changed: %s", e)
	}
}

func TestListFiltersAndStatistics(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	p := f.producto("P", ptr(CABYS), false)
	cl := f.cliente("112340567")
	v1 := f.vender(venta(cl, linea(p, 1, 1000)))
	a := f.generar(f.Admin, v1)
	f.emitir(f.Admin, a)
	b := venta(0, linea(p, 1, 500))
	b["tipo_comprobante"] = "tiquete"
	f.generar(f.Admin, f.vender(b))
	f.generar(f.Admin, v1, "tipo_documento", "04")
	hoy := f.clk.Now().In(horacr.Zona).Format("2006-01-02")
	cases := []struct {
		q     string
		total float64
	}{
		{"", 3},
		{"?estado=signed", 1},
		{"?estado=pending", 2},
		{"?tipo_documento=04", 2},
		{"?venta_id=" + itoa(v1), 2},
		{"?fecha_inicio=" + hoy + "&fecha_fin=" + hoy, 3},
		{"?fecha_inicio=2020-01-01&fecha_fin=2020-12-31", 0},
		{"?per_page=1&page=2", 3},
	}
	for _, c := range cases {
		r := f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda"+c.q, nil)
		if testenv.Num(r.JSON, "total") != c.total {
			t.Errorf("%s: total %v, want %v", c.q, testenv.Num(r.JSON, "total"), c.total)
		}
	}
	if r := f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda?per_page=1&page=2", nil); testenv.Len(r.JSON, "data") != 1 || testenv.Num(r.JSON, "last_page") != 3 {
		t.Errorf("pagination: %s", r.Raw)
	}
	for _, q := range []string{"?estado=aceptado", "?tipo_documento=05", "?fecha_inicio=21-11-2026", "?venta_id=x", "?fecha_inicio=2026-12-01&fecha_fin=2026-11-01"} {
		if r := f.E.Call(f.Admin, http.MethodGet, "/api/v1/hacienda"+q, nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", q, r.Status)
		}
	}
	s := f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda/estadisticas", nil)
	if testenv.Num(s.JSON, "data.total") != 3 || testenv.Num(s.JSON, "data.por_estado.pending") != 2 || testenv.Num(s.JSON, "data.por_estado.signed") != 1 ||
		testenv.Num(s.JSON, "data.por_estado.accepted") != 0 || testenv.Num(s.JSON, "data.por_tipo.01") != 1 || testenv.Num(s.JSON, "data.por_tipo.04") != 2 ||
		testenv.Num(s.JSON, "data.por_tipo.03") != 0 {
		t.Errorf("statistics: %s", s.Raw)
	}
	// The detail carries the XML documents; the list does not.
	l := f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda?estado=signed", nil)
	if strings.Contains(string(l.Raw), "xml_firmado") || testenv.Get(l.JSON, "data.0.firmado") != true {
		t.Errorf("list item: %s", l.Raw)
	}
	if r := f.E.Call(f.Admin, http.MethodGet, "/api/v1/hacienda/999999", nil); r.Status != http.StatusNotFound {
		t.Errorf("unknown id: %d", r.Status)
	}
}
