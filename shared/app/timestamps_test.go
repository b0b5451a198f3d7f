package app_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

// canonicalTimestamp is RFC 3339 in UTC as time.RFC3339Nano prints it: `Z`,
// and a fraction without trailing zeros (no dot when none is left).
var canonicalTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$`)

var dateOnly = regexp.MustCompile(`^\d{4}-\d\d-\d\d$`)

// checkTimestamps walks a decoded body and fails on any value of a
// timestamp key (…_en, …_at, fecha…) that is a string in another format
// (fecha… keys may also hold dates). It returns how many timestamps it saw.
func checkTimestamps(t *testing.T, what string, v any, path string) int {
	t.Helper()
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			s, isString := e.(string)
			tsKey := strings.HasSuffix(k, "_en") || strings.HasSuffix(k, "_at") || strings.HasPrefix(k, "fecha")
			switch {
			case tsKey && isString && canonicalTimestamp.MatchString(s):
				n++
			case tsKey && isString && strings.HasPrefix(k, "fecha") && dateOnly.MatchString(s):
			case tsKey && isString:
				t.Errorf("%s: %s%s = %q is not RFC 3339 UTC with Z", what, path, k, s)
			default:
				n += checkTimestamps(t, what, e, path+k+".")
			}
		}
	case []any:
		for i, e := range x {
			n += checkTimestamps(t, what, e, fmt.Sprintf("%s%d.", path, i))
		}
	}
	return n
}

// Every response prints timestamps one way, whether the row was built as
// JSON by PostgreSQL (master data, purchase orders) or scanned into Go
// (users, sales): RFC 3339, UTC, `Z`. Even with a database whose default
// time zone is Costa Rica's and a process whose local zone is Costa Rica's.
func TestTimestampsHaveOneFormatEverywhere(t *testing.T) {
	// Not parallel: it changes the process's local zone while it runs.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("America/Costa_Rica", -6*60*60)

	e := testenv.New(t)
	// New sessions of this database default to Costa Rica time; the pool
	// asks for UTC at connection start.
	e.Exec(`do $$ begin execute format('alter database %I set timezone = %L', current_database(), 'America/Costa_Rica'); end $$`)
	admin := e.Admin(1)
	do := func(method, path string, body any) testenv.Resp {
		t.Helper()
		r := e.Do(testenv.Req{Method: method, Path: path, Body: body, Token: admin, Headers: map[string]string{"X-Empresa-Id": "1"}})
		if r.Status != http.StatusOK && r.Status != http.StatusCreated {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Raw)
		}
		return r
	}

	prod := do(http.MethodPost, "/api/productos", map[string]any{"categoria_id": 1, "unidad_medida_id": 1, "nombre": "Café molido",
		"codigo": "TS-01", "tipo": "producto", "precio_venta": "3500", "tipo_impuesto_id": 1})
	prodID := int(testenv.Num(prod.JSON, "data.id"))
	prov := do(http.MethodPost, "/api/proveedores", map[string]any{"nombre": "Distribuidora del Sur", "nit_ruc": "3101123456"})
	provID := int(testenv.Num(prov.JSON, "data.id"))
	venta := do(http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-11-21", "tipo_comprobante": "factura",
		"detalles": []any{map[string]any{"producto_id": prodID, "cantidad": 1, "precio_unitario": 3500}}})
	orden := do(http.MethodPost, "/api/ordenes-compra", map[string]any{"proveedor_id": provID, "fecha_orden": "2026-11-21", "estado": "borrador",
		"detalles": []any{map[string]any{"producto_id": prodID, "cantidad": 2, "precio_unitario": 1000}}})

	var creados []string
	for _, c := range []struct{ what, path string }{
		{"producto (PostgreSQL JSON)", fmt.Sprintf("/api/productos/%d", prodID)},
		{"sucursales (PostgreSQL JSON)", "/api/sucursales"},
		{"usuario (Go)", "/api/usuarios/1"},
		{"venta (Go)", fmt.Sprintf("/api/ventas/%d", int(testenv.Num(venta.JSON, "data.id")))},
		{"orden de compra (PostgreSQL JSON)", fmt.Sprintf("/api/ordenes-compra/%d", int(testenv.Num(orden.JSON, "data.id")))},
	} {
		r := do(http.MethodGet, c.path, nil)
		if n := checkTimestamps(t, c.what, r.JSON, ""); n == 0 {
			t.Errorf("%s: no timestamp in %s", c.what, r.Raw)
		}
		creado := testenv.Str(r.JSON, "data.creado_en")
		if creado == "" {
			creado = testenv.Str(r.JSON, "data.0.creado_en")
		}
		if !canonicalTimestamp.MatchString(creado) {
			t.Errorf("%s: creado_en = %q", c.what, creado)
		}
		if strings.Contains(string(r.Raw), `+00:00"`) || strings.Contains(string(r.Raw), `-06:00"`) {
			t.Errorf("%s: an offset is left in %s", c.what, r.Raw)
		}
		creados = append(creados, c.what+": "+creado)
	}
	t.Logf("creado_en:\n  %s", strings.Join(creados, "\n  "))

	// The instant is kept: a sale created now is stamped now.
	ts, err := time.Parse(time.RFC3339Nano, testenv.Str(do(http.MethodGet, fmt.Sprintf("/api/ventas/%d", int(testenv.Num(venta.JSON, "data.id"))), nil).JSON, "data.creado_en"))
	if err != nil || time.Since(ts).Abs() > 5*time.Minute {
		t.Errorf("sale creado_en %v (%v) is not now", ts, err)
	}
}
