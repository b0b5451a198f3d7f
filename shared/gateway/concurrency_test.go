package gateway_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Concurrent requests of two companies must never see each other's
// authorizer context or response bytes.
func TestConcurrentRequestsKeepTheirOwnPrincipalAndBody(t *testing.T) {
	e := testenv.NewParallel(t)
	tokens := map[int]string{1: e.Admin(1), 2: e.Admin(2)}
	want := map[int]string{1: "admin@demo.cr", 2: "admin@demo2.cr"}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for i := 0; i < 80; i++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := e.Get("/api/me", tokens[c])
			if r.Status != 200 || testenv.Str(r.JSON, "email") != want[c] {
				errs <- fmt.Sprintf("company %d got %d %s", c, r.Status, r.Raw)
			}
		}(1 + i%2)
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}
