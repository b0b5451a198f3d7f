package eventos_test

import (
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// The outbox is listed to the tenant's Administrador only, newest first,
// filtered by type, and never shows another company's events.
func TestEventListIsAdministratorOnlyPerTenantAndFiltered(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	crear := func(tok, ident string) {
		r := e.Do(testenv.Req{Method: "POST", Path: "/api/clientes", Token: tok, Body: map[string]any{
			"tipo_identificacion": "fisica", "identificacion": ident, "nombre": "Cliente " + ident}})
		if r.Status != 201 {
			t.Fatalf("cliente: %d %s", r.Status, r.Raw)
		}
	}
	crear(admin1, "111111111")
	crear(admin1, "222222222")
	crear(admin2, "333333333")

	r := e.Get("/api/eventos?tipo=ClienteCreadoEvent", admin1)
	if r.Status != 200 || testenv.Num(r.JSON, "total") != 2 {
		t.Fatalf("company 1 events: %d %s", r.Status, r.Raw)
	}
	if testenv.Str(r.JSON, "data.0.payload.identificacion") != "222222222" || testenv.Num(r.JSON, "data.0.empresa_id") != 1 ||
		testenv.Str(r.JSON, "data.0.id") == "" || testenv.Str(r.JSON, "data.0.ocurrido_en") == "" {
		t.Errorf("newest first, with id, tenant and payload: %s", r.Raw)
	}
	if r := e.Get("/api/eventos?tipo=VentaCreadaEvent", admin1); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("type filter: %s", r.Raw)
	}
	// A type PostgreSQL text cannot hold matches nothing (it was a 500).
	for _, tipo := range []string{"%00", "%ff", "Cliente%00CreadoEvent"} {
		if r := e.Get("/api/eventos?tipo="+tipo, admin1); r.Status != 200 || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("tipo=%s: %d %s", tipo, r.Status, r.Raw)
		}
	}
	if r := e.Get("/api/eventos", admin2); testenv.Num(r.JSON, "total") != 1 || testenv.Str(r.JSON, "data.0.payload.identificacion") != "333333333" {
		t.Errorf("company 2 sees: %s", r.Raw)
	}

	// A role with every business permission but not Administrador is refused.
	e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin1, Body: map[string]any{
		"nombre": "Gerente", "email": "gerente@demo.cr", "password": "Segura123!", "roles": []string{"gerente"}}})
	gerente := e.Login("gerente@demo.cr", "Segura123!")
	if r := e.Get("/api/eventos", gerente); r.Status != 403 || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("gerente listing events: %d %s", r.Status, r.Raw)
	}
}
