package terceros_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func proveedor(nombre, nit string) map[string]any {
	return map[string]any{"nombre": nombre, "nit_ruc": nit}
}

func TestCreateProveedorNormalizesOnSave(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	r := e.Call(admin, http.MethodPost, "/api/proveedores", map[string]any{
		"nombre": "  Distribuidora \t del   Sur\u00a0 ", "razon_social": " Distribuidora   del Sur  S.A. ",
		"nit_ruc": " 3-101-123 456. ", "email": "  Ventas@Sur.CR ", "telefono": "+506 2222-3333", "celular": "8888 7777",
		"contacto_nombre": "  Laura   Castro ", "contacto_telefono": "506-7000-1234", "contacto_email": " Laura@Sur.CR",
		"direccion": "Zona Franca", "pais": "Costa Rica", "provincia": "Heredia", "ciudad": "Belén", "codigo_postal": "40701",
		"dias_credito": 30, "limite_credito": "250000.00",
	})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Proveedor creado correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	want := map[string]any{
		"nombre": "Distribuidora del Sur", "razon_social": "Distribuidora del Sur S.A.", "nit_ruc": "3101123456",
		"email": "ventas@sur.cr", "telefono": "22223333", "celular": "88887777", "contacto_nombre": "Laura Castro",
		"contacto_telefono": "70001234", "contacto_email": "laura@sur.cr", "ciudad": "Belén", "pais": "Costa Rica",
		"dias_credito": float64(30), "limite_credito": float64(250000), "empresa_id": float64(1), "activo": true,
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	show := e.Get(itemPath("proveedores", id), admin)
	for _, resp := range []testenv.Resp{r, show} {
		for k, v := range want {
			if got := testenv.Get(resp.JSON, "data."+k); got != v {
				t.Errorf("data.%s = %#v, want %#v", k, got, v)
			}
		}
	}
	if tag := e.Exec(`update proveedores set id = id where id = $1 and nombre = 'Distribuidora del Sur' and nit_ruc = '3101123456'
		and email = 'ventas@sur.cr' and telefono = '22223333'`, id); tag.RowsAffected() != 1 {
		t.Errorf("stored values are not normalized")
	}
	// Optional fields testenv.Absent: null, credit numbers 0.
	r = e.Call(admin, http.MethodPost, "/api/proveedores", map[string]any{"nombre": "Mínimo"})
	if r.Status != http.StatusCreated || testenv.Get(r.JSON, "data.nit_ruc") != nil || testenv.Num(r.JSON, "data.dias_credito") != 0 ||
		testenv.Num(r.JSON, "data.limite_credito") != 0 || testenv.Get(r.JSON, "data.email") != nil {
		t.Errorf("minimal supplier: %d %s", r.Status, r.Raw)
	}
}

func TestProveedorNormalizationRules(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cases := []struct {
		name, field string
		in          any
		want        any
	}{
		{"nombre trimmed", "nombre", "  Ferretería  ", "Ferretería"},
		{"nombre inner spaces collapsed", "nombre", "Ferretería    El  Clavo", "Ferretería El Clavo"},
		{"nombre tabs and newlines collapsed", "nombre", "Ferretería\t\nEl Clavo", "Ferretería El Clavo"},
		{"nombre non-breaking space collapsed", "nombre", "Ferretería\u00a0El Clavo", "Ferretería El Clavo"},
		{"nombre case kept", "nombre", "FERRETERÍA el Clavo", "FERRETERÍA el Clavo"},
		{"razon_social collapsed", "razon_social", "  Clavos   y  Tornillos   S.A. ", "Clavos y Tornillos S.A."},
		{"nit_ruc dashes removed", "nit_ruc", "3-101-654321", "3101654321"},
		{"nit_ruc spaces removed", "nit_ruc", "3 101 654322", "3101654322"},
		{"nit_ruc dots removed", "nit_ruc", "3.101.654323", "3101654323"},
		{"nit_ruc upper-cased", "nit_ruc", "j-0123-x", "J0123X"},
		{"nit_ruc typographic dash removed", "nit_ruc", "3\u2013101\u2013654324", "3101654324"},
		{"nit_ruc blank is null", "nit_ruc", "   ", nil},
		{"email trimmed and lower-cased", "email", "  COMPRAS@Clavo.CR  ", "compras@clavo.cr"},
		{"contacto_email lower-cased", "contacto_email", "Pedro@Clavo.CR", "pedro@clavo.cr"},
		{"telefono with +506 and dashes", "telefono", "+506 2222-4444", "22224444"},
		{"telefono with (506)", "telefono", "(506) 2222 5555", "22225555"},
		{"celular with dots", "celular", "8888.9999", "88889999"},
		{"contacto_telefono plain", "contacto_telefono", "70005555", "70005555"},
		{"contacto_nombre collapsed", "contacto_nombre", " Pedro   Soto ", "Pedro Soto"},
		{"direccion kept as sent (trimmed)", "direccion", "  Calle 5,  avenida 3 ", "Calle 5,  avenida 3"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{"nombre": fmt.Sprintf("Proveedor %d", i), c.field: c.in}
			r := e.Must(t, http.StatusCreated, admin, http.MethodPost, "/api/proveedores", body)
			if got := testenv.Get(r.JSON, "data."+c.field); got != c.want {
				t.Errorf("create: %s = %#v, want %#v", c.field, got, c.want)
			}
			// The same rule applies on update.
			id := int(testenv.Num(r.JSON, "data.id"))
			e.Call(admin, http.MethodPatch, itemPath("proveedores", id), map[string]any{c.field: nil})
			if c.field == "nombre" {
				e.Call(admin, http.MethodPatch, itemPath("proveedores", id), map[string]any{c.field: "x"})
			}
			r = e.Call(admin, http.MethodPut, itemPath("proveedores", id), map[string]any{c.field: c.in})
			if r.Status != http.StatusOK || testenv.Get(r.JSON, "data."+c.field) != c.want {
				t.Errorf("update: %d %s, want %s = %#v", r.Status, r.Raw, c.field, c.want)
			}
		})
	}
}

func TestProveedorValidationRules(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	base := proveedor("Proveedor", "3101999999")
	cases := []testenv.Invalid{
		{"nombre is required", testenv.With(base, "nombre", testenv.Absent), "nombre"},
		{"nombre null", testenv.With(base, "nombre", nil), "nombre"},
		{"nombre blank", testenv.With(base, "nombre", " \t "), "nombre"},
		{"nit_ruc max 50", testenv.With(base, "nit_ruc", strings.Repeat("1", 51)), "nit_ruc"},
		{"nit_ruc only punctuation", testenv.With(base, "nit_ruc", "- . -"), "nit_ruc"},
		{"nit_ruc all zeros", testenv.With(base, "nit_ruc", "000000000"), "nit_ruc"},
		{"nit_ruc all zeros with dashes", testenv.With(base, "nit_ruc", "0-000-000000"), "nit_ruc"},
		{"nit_ruc not a string", testenv.With(base, "nit_ruc", 3101999999), "nit_ruc"},
		{"contacto_email invalid", testenv.With(base, "contacto_email", "laura"), "contacto_email"},
		{"contacto_telefono invalid", testenv.With(base, "contacto_telefono", "12"), "contacto_telefono"},
		{"contacto_nombre max 255", testenv.With(base, "contacto_nombre", strings.Repeat("c", 256)), "contacto_nombre"},
		{"pais max 100", testenv.With(base, "pais", strings.Repeat("p", 101)), "pais"},
	}
	e.ExpectInvalid(t, admin, http.MethodPost, "/api/proveedores", cases)
	t.Run("phone message names the field", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/proveedores", testenv.With(base, "contacto_telefono", "12"))
		if msg := strings.Join(r.FieldErrors("contacto_telefono"), ""); !strings.Contains(msg, "contacto telefono") {
			t.Errorf("message %q", msg)
		}
	})
	t.Run("nit_ruc of only punctuation is not called required", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/proveedores", testenv.With(base, "nit_ruc", "---"))
		if msg := strings.Join(r.FieldErrors("nit_ruc"), ""); strings.Contains(msg, "obligatorio") {
			t.Errorf("nit_ruc is optional, message %q", msg)
		}
	})
}

func TestProveedorNitRucIsUniquePerCompanyAfterNormalization(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	first := e.Create(t, admin1, "/api/proveedores", proveedor("Uno", "3-101-123456"))
	for _, nit := range []string{"3101123456", "3 101 123456", "3.101.123.456", " 3-101-123456 "} {
		r := e.Call(admin1, http.MethodPost, "/api/proveedores", proveedor("Dos", nit))
		testenv.Expect422(t, r, "nit_ruc")
		if msg := r.FieldErrors("nit_ruc")[0]; msg != "Ya existe un proveedor con ese NIT/RUC en esta empresa." {
			t.Errorf("duplicate message %q", msg)
		}
	}
	// Letters collide regardless of case.
	e.Create(t, admin1, "/api/proveedores", proveedor("Extranjero", "rfc-abc-123"))
	testenv.Expect422(t, e.Call(admin1, http.MethodPost, "/api/proveedores", proveedor("Extranjero 2", "RFCABC123")), "nit_ruc")
	// Another company may use it.
	e.Create(t, admin2, "/api/proveedores", proveedor("Uno en empresa 2", "3101123456"))
	// Suppliers without nit_ruc do not collide.
	e.Create(t, admin1, "/api/proveedores", map[string]any{"nombre": "Sin NIT 1"})
	e.Create(t, admin1, "/api/proveedores", map[string]any{"nombre": "Sin NIT 2", "nit_ruc": nil})
	e.Create(t, admin1, "/api/proveedores", map[string]any{"nombre": "Sin NIT 3", "nit_ruc": ""})
	// Update: taking another's is refused, keeping one's own is fine.
	second := e.Create(t, admin1, "/api/proveedores", proveedor("Dos", "3101000002"))
	testenv.Expect422(t, e.Call(admin1, http.MethodPatch, itemPath("proveedores", second), map[string]any{"nit_ruc": "3.101.123456"}), "nit_ruc")
	if r := e.Call(admin1, http.MethodPut, itemPath("proveedores", first), map[string]any{"nit_ruc": "3101-123456", "nombre": "Uno S.A."}); r.Status != http.StatusOK {
		t.Errorf("re-sending its own nit_ruc: %d %s", r.Status, r.Raw)
	}
	// After a soft delete it is free again.
	e.Call(admin1, http.MethodDelete, itemPath("proveedores", first), nil)
	if r := e.Call(admin1, http.MethodPatch, itemPath("proveedores", second), map[string]any{"nit_ruc": "3-101-123456"}); r.Status != http.StatusOK ||
		testenv.Str(r.JSON, "data.nit_ruc") != "3101123456" {
		t.Errorf("taking a deleted supplier's nit_ruc: %d %s", r.Status, r.Raw)
	}
	e.Create(t, admin1, "/api/proveedores", proveedor("Tres", "3101000002"))
}

func TestProveedorUpdateIsPartialAndNullClears(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	full := map[string]any{
		"nombre": "Lácteos del Valle", "razon_social": "Lácteos del Valle S.A.", "nit_ruc": "3101222333",
		"email": "ventas@lacteos.cr", "telefono": "24445555", "celular": "87776666", "direccion": "San Carlos",
		"pais": "Costa Rica", "provincia": "Alajuela", "ciudad": "Quesada", "codigo_postal": "21001",
		"contacto_nombre": "Carla", "contacto_telefono": "87770000", "contacto_email": "carla@lacteos.cr",
		"dias_credito": 45, "limite_credito": 500000,
	}
	_, path := partialUpdate(t, e, admin, "proveedores", full, "ciudad", "Ciudad Quesada", "Ciudad Quesada", "Proveedor actualizado correctamente.")
	clear := map[string]any{}
	for k := range full {
		if k != "nombre" {
			clear[k] = nil
		}
	}
	clearOptional(t, e, admin, path, clear)
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path, map[string]any{"nombre": nil}), "nombre")
	testenv.Expect422(t, e.Call(admin, http.MethodPut, path, map[string]any{"nombre": "  "}), "nombre")
	testenv.Expect422(t, e.Call(admin, http.MethodPatch, path, map[string]any{"email": "x@"}), "email")
	if r := e.Get(path, admin); testenv.Str(r.JSON, "data.nombre") != "Lácteos del Valle" {
		t.Errorf("refused updates changed the record: %s", r.Raw)
	}
}

func TestProveedorListFilters(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	mk := func(body map[string]any) int { return e.Create(t, admin, "/api/proveedores", body) }
	jose := mk(map[string]any{"nombre": "Distribuidora José", "nit_ruc": "3101000001", "email": "jose@dist.cr"})
	canon := mk(map[string]any{"nombre": "Agrícola", "razon_social": "Agropecuaria El Cañón S.A.", "nit_ruc": "3-101-000002"})
	contacto := mk(map[string]any{"nombre": "Importadora Norte", "contacto_nombre": "María Solís", "activo": false})
	plain := mk(map[string]any{"nombre": "FERRETERIA JOSE", "nit_ruc": "rfc-xyz"})
	deleted := mk(map[string]any{"nombre": "José Eliminado"})
	e.Call(admin, http.MethodDelete, itemPath("proveedores", deleted), nil)
	e.Create(t, e.Admin(2), "/api/proveedores", map[string]any{"nombre": "José de otra empresa"})
	cases := []filterCase{
		{"no filter", "", []int{jose, canon, contacto, plain}},
		{"search accent-insensitive", "search=jose", []int{jose, plain}},
		{"search with accent", "search=JOS%C3%89", []int{jose, plain}},
		{"search razon_social", "search=canon", []int{canon}},
		{"search agricola without accent", "search=agricola", []int{canon}},
		{"search nit_ruc as stored", "search=3101000002", []int{canon}},
		{"search nit_ruc lower-case letters", "search=rfcxyz", []int{plain}},
		{"search email", "search=jose@dist", []int{jose}},
		{"search contacto_nombre", "search=maria+solis", []int{contacto}},
		{"search no match", "search=nada", nil},
		{"activos=1", "activos=1", []int{jose, canon, plain}},
		{"activos=0", "activos=0", []int{contacto}},
		{"search and activos", "search=solis&activos=0", []int{contacto}},
		{"search and activos exclude", "search=solis&activos=1", nil},
	}
	checkFilters(t, e, admin, "/api/proveedores", cases)
}
