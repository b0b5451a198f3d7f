package facturacion_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/testenv"
)

var claveRe = regexp.MustCompile(`^506(\d{2})(\d{2})(\d{2})(\w{12})(\d{20})([123])(\d{8})$`)

func TestClaveAndConsecutivoStructure(t *testing.T) {
	f := setup(t)
	p := f.producto("P", ptr(CABYS), false)
	g := f.Must(http.StatusCreated, http.MethodPost, "/api/v1/hacienda/generar",
		map[string]any{"venta_id": f.vender(venta(f.cliente("112340567"), linea(p, 1, 1000))), "situacion": "2"})
	clave, consecutivo := testenv.Str(g.JSON, "data.clave"), testenv.Str(g.JSON, "data.numero_consecutivo")
	m := claveRe.FindStringSubmatch(clave)
	if m == nil {
		t.Fatalf("clave %q does not have the 50-character structure", clave)
	}
	hoy := f.clk.Now().In(horacr.Zona)
	if want := hoy.Format("02"); m[1] != want {
		t.Errorf("day %s, want %s", m[1], want)
	}
	if want := hoy.Format("01"); m[2] != want {
		t.Errorf("month %s, want %s", m[2], want)
	}
	if want := hoy.Format("06"); m[3] != want {
		t.Errorf("year %s, want %s", m[3], want)
	}
	if m[4] != "003101000001" {
		t.Errorf("issuer %s, want the company's cédula padded to 12 (003101000001)", m[4])
	}
	if m[5] != consecutivo || consecutivo != "00100001010000000001" {
		t.Errorf("consecutivo %s in the clave, %s in the record; want 00100001010000000001", m[5], consecutivo)
	}
	if m[6] != "2" || testenv.Str(g.JSON, "data.situacion") != "2" {
		t.Errorf("situation %s, want 2 (contingencia)", m[6])
	}
	// Asking again returns the same comprobante with 200, not a second one.
	again := f.Must(http.StatusOK, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": testenv.Num(g.JSON, "data.venta_id")})
	if testenv.Num(again.JSON, "data.id") != testenv.Num(g.JSON, "data.id") || testenv.Str(again.JSON, "data.clave") != clave {
		t.Fatalf("second generar: %s", again.Raw)
	}
	// The same sale as a tiquete is another document with its own series.
	tq := f.Must(http.StatusCreated, http.MethodPost, "/api/v1/hacienda/generar",
		map[string]any{"venta_id": testenv.Num(g.JSON, "data.venta_id"), "tipo_documento": "04"})
	if got := testenv.Str(tq.JSON, "data.numero_consecutivo"); got != "00100001040000000001" {
		t.Errorf("tiquete consecutivo %s", got)
	}
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{}, "venta_id"},
		{map[string]any{"venta_id": 999999}, "venta_id"},
		{map[string]any{"venta_id": testenv.Num(g.JSON, "data.venta_id"), "tipo_documento": "03"}, "tipo_documento"},
		{map[string]any{"venta_id": testenv.Num(g.JSON, "data.venta_id"), "tipo_documento": "09"}, "tipo_documento"},
		{map[string]any{"venta_id": testenv.Num(g.JSON, "data.venta_id"), "situacion": "4"}, "situacion"},
		// A factura needs a receiver.
		{map[string]any{"venta_id": f.vender(venta(0, linea(p, 1, 1000)))}, "tipo_documento"},
	} {
		r := f.E.Call(f.Admin, http.MethodPost, "/api/v1/hacienda/generar", c.body)
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors(c.field)) == 0 {
			t.Errorf("generar %v: %d %s", c.body, r.Status, r.Raw)
		}
	}
}

func TestConsecutivosArePerBranchTerminalAndType(t *testing.T) {
	f := setup(t)
	principal := f.Int(`select id from sucursales where empresa_id = 1 and es_principal`)
	norte := int64(testenv.Num(f.Must(http.StatusCreated, http.MethodPost, "/api/sucursales",
		map[string]any{"nombre": "Sucursal Norte", "codigo": "NORTE"}).JSON, "data.id"))
	sinConfigurar := int64(testenv.Num(f.Must(http.StatusCreated, http.MethodPost, "/api/sucursales",
		map[string]any{"nombre": "Sucursal Sur", "codigo": "SUR"}).JSON, "data.id"))
	c := f.Must(http.StatusOK, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"sucursales": []map[string]any{
		{"sucursal_id": principal, "establecimiento": 2, "terminal": 7},
		{"sucursal_id": norte, "establecimiento": 3, "terminal": 1},
	}})
	if testenv.Len(c.JSON, "data.sucursales") != 3 || testenv.Str(c.JSON, "data.sucursales.0.establecimiento") != "002" ||
		testenv.Str(c.JSON, "data.sucursales.0.terminal") != "00007" || testenv.Get(c.JSON, "data.sucursales.2.configurada") != false {
		t.Fatalf("configuración: %s", c.Raw)
	}
	p := f.producto("P", ptr(CABYS), false)
	cl := f.cliente("112340567")
	en := func(sucursal int64, tipo string) string {
		b := venta(cl, linea(p, 1, 1000))
		b["sucursal_id"], b["tipo_comprobante"] = sucursal, tipo
		id := f.generar(f.Admin, f.vender(b))
		return testenv.Str(f.estado(id), "clave")[21:41]
	}
	want := []struct {
		sucursal int64
		tipo     string
		want     string
	}{
		{principal, "factura", "00200007010000000001"},
		{principal, "factura", "00200007010000000002"},
		{norte, "factura", "00300001010000000001"},
		{principal, "tiquete", "00200007040000000001"},
		{norte, "factura", "00300001010000000002"},
		{sinConfigurar, "factura", "00100001010000000001"},
		{principal, "factura", "00200007010000000003"},
	}
	for i, w := range want {
		if got := en(w.sucursal, w.tipo); got != w.want {
			t.Errorf("document %d (%d %s): consecutivo %s, want %s", i, w.sucursal, w.tipo, got, w.want)
		}
	}
	// Bad terminals are refused, each under its field.
	for _, c := range []struct {
		campo string
		body  map[string]any
	}{
		{"sucursales.0.establecimiento", map[string]any{"sucursales": []map[string]any{{"sucursal_id": principal, "establecimiento": 1000, "terminal": 1}}}},
		{"sucursales.0.terminal", map[string]any{"sucursales": []map[string]any{{"sucursal_id": principal, "establecimiento": 1, "terminal": 100000}}}},
		{"sucursales.0.sucursal_id", map[string]any{"sucursales": []map[string]any{{"sucursal_id": f.Int(`select id from sucursales where empresa_id = 2`), "establecimiento": 1, "terminal": 1}}}},
		// The same branch twice (was a 500: one upsert cannot change a row twice).
		{"sucursales.1.sucursal_id", map[string]any{"sucursales": []map[string]any{{"sucursal_id": principal, "establecimiento": 3, "terminal": 1},
			{"sucursal_id": principal, "establecimiento": 4, "terminal": 1}}}},
	} {
		r := f.E.Call(f.Admin, http.MethodPut, "/api/v1/hacienda/configuracion", c.body)
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors(c.campo)) == 0 {
			t.Errorf("%v: %d %s", c.body, r.Status, r.Raw)
		}
	}
}

// Fifty generar calls at once, each for its own sale, get the sequences
// 1..50 of the series: no gap, no duplicate. Ten calls at once for one sale
// create exactly one comprobante.
func TestFiftyConcurrentGenerarCallsAreGapless(t *testing.T) {
	f := setup(t)
	p := f.producto("P", ptr(CABYS), false)
	cl := f.cliente("112340567")
	ventas := make([]int64, 50)
	for i := range ventas {
		ventas[i] = f.vender(venta(cl, linea(p, 1, 1000)))
	}
	rs := testenv.Concurrently(len(ventas), func(i int) testenv.Resp {
		return f.E.Call(f.Admin, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": ventas[i]})
	})
	testenv.Gapless(t, rs, "data.numero_consecutivo", func(n int) string { return "0010000101" + pad10(n) })
	if n := f.Int(`select count(distinct clave) from comprobantes_electronicos`); n != 50 {
		t.Errorf("%d distinct claves", n)
	}

	otra := f.vender(venta(cl, linea(p, 1, 1000)))
	rs = testenv.Concurrently(10, func(int) testenv.Resp {
		return f.E.Call(f.Admin, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": otra})
	})
	created := 0
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = testenv.ID(r)
		if r.Status == http.StatusCreated {
			created++
		}
		if ids[i] != ids[0] || (r.Status != http.StatusCreated && r.Status != http.StatusOK) {
			t.Errorf("call %d: %d id %v (first %v)", i, r.Status, ids[i], ids[0])
		}
	}
	if created != 1 || f.Int(`select count(*) from comprobantes_electronicos where venta_id = $1`, otra) != 1 {
		t.Errorf("%d created for one sale", created)
	}
	if got := testenv.Str(f.estado(ids[0]), "clave")[21:41]; got != "00100001010000000051" {
		t.Errorf("next consecutivo %s, want ...51", got)
	}
}

func pad10(n int) string {
	s := itoa(int64(n))
	for len(s) < 10 {
		s = "0" + s
	}
	return s
}
