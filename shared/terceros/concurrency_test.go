//go:build !race

package terceros_test

// Concurrent requests through one local gateway trip the race detector in
// shared/gateway (lambda.NewHandler reuses one response buffer per handler
// and the gateway invokes handlers concurrently), so this test, which needs
// concurrent requests, is left out of -race runs; every other test in this
// package sends one request at a time per environment.

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestConcurrentDuplicatesGiveOne201AndThe422(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	for _, res := range resources {
		t.Run(res.name, func(t *testing.T) {
			const n = 8
			created := 0
			for _, r := range testenv.Concurrently(n, func(int) testenv.Resp {
				return e.Call(admin, http.MethodPost, "/api/"+res.name, res.body(42))
			}) {
				switch {
				case r.Status == http.StatusCreated:
					created++
				case r.Status != http.StatusUnprocessableEntity:
					t.Errorf("concurrent duplicate: %d %s", r.Status, r.Raw)
				case len(r.FieldErrors("identificacion"))+len(r.FieldErrors("nit_ruc")) == 0:
					t.Errorf("duplicate refused without the field: %s", r.Raw)
				}
			}
			if created != 1 {
				t.Errorf("%d created, want 1", created)
			}
		})
	}
}
