package app_test

import (
	"context"
	"errors"
	"testing"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/db/pgtest"
	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/testenv"
)

func TestDemoSeedIsRefusedInProduction(t *testing.T) {
	_, err := app.Prepare(context.Background(), pgtest.NewDB(t), app.PrepareOptions{Env: "production", Demo: true, DemoPassword: "x", BcryptCost: 4})
	if !errors.Is(err, seed.ErrProduction) {
		t.Fatalf("err = %v", err)
	}
}

func TestPrepareTwiceChangesNothing(t *testing.T) {
	e := testenv.New(t)
	before := e.Get("/api/roles?per_page=100", e.Admin(1))
	applied, err := app.Prepare(context.Background(), e.AdminURL, app.PrepareOptions{Env: "test", Demo: true, DemoPassword: "Otra1234!", BcryptCost: 4})
	if err != nil || len(applied) != 0 {
		t.Fatalf("second prepare: %v %v", applied, err)
	}
	after := e.Get("/api/roles?per_page=100", e.Admin(1)) // the old password still works
	if testenv.Num(before.JSON, "total") != testenv.Num(after.JSON, "total") || testenv.Num(after.JSON, "total") != 7 {
		t.Fatalf("roles before %v after %v", before.JSON["total"], after.JSON["total"])
	}
}
