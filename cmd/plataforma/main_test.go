package main

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

func TestFlagGrantsAndRemovesGlobalCatalogChanges(t *testing.T) {
	e := testenv.New(t)
	admin := e.Admin(1)
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/marcas", Token: admin, Body: map[string]any{"nombre": "Sardimar"}})
	if r.Status != 201 {
		t.Fatalf("create brand: %d %s", r.Status, r.Raw)
	}
	path := fmt.Sprintf("/api/marcas/%.0f", testenv.Num(r.JSON, "data.id"))
	patch := func() int {
		return e.Do(testenv.Req{Method: "PATCH", Path: path, Token: admin, Body: map[string]any{"descripcion": "Atún"}}).Status
	}
	if s := patch(); s != 403 {
		t.Fatalf("before the flag: %d", s)
	}
	t.Setenv("DATABASE_URL", e.AdminURL)
	if err := run(context.Background(), "ADMIN@demo.cr", true); err != nil {
		t.Fatal(err)
	}
	if s := patch(); s != 200 {
		t.Errorf("with the flag, the same token: %d", s)
	}
	if err := run(context.Background(), testenv.Admin1, false); err != nil {
		t.Fatal(err)
	}
	if s := patch(); s != 403 {
		t.Errorf("after removing the flag: %d", s)
	}
	if err := run(context.Background(), "nadie@demo.cr", true); err == nil {
		t.Error("an unknown e-mail should fail")
	}
}
