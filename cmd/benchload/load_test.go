package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A request in flight when the window opens and answered inside it counts:
// with 4 clients and answers that take 200 ms, the loop does 20 per s,
// and a 1 s window must say so. Counting only the requests sent inside
// the window too (as before) said 16: each client's request in flight at
// either end was lost.
func TestClosedLoopCountsAnswersInsideTheWindow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
	}))
	defer srv.Close()
	s := scenario{name: "slow", want: http.StatusOK, build: func(int, int) (string, string, []byte) { return http.MethodGet, "/", nil }}
	windows := 0
	r := closedLoopWith(context.Background(), client(4), srv.URL, "", s, 4, 300*time.Millisecond, time.Second, func() func() {
		windows++
		return func() {}
	})
	if windows != 1 {
		t.Fatalf("window opened %d times, want 1", windows)
	}
	if r.errors != 0 {
		t.Fatalf("%d errors: %s", r.errors, r.firstError)
	}
	if r.perSecond < 18 || r.perSecond > 22 {
		t.Errorf("throughput %.1f per s, want about 20 (4 clients / 0.2 s)", r.perSecond)
	}
	if r.little < 17 || r.little > 20.5 {
		t.Errorf("clients / mean latency %.1f per s, want about 20", r.little)
	}
}
