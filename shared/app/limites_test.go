package app_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestGeneralRateLimitCountsPerUserAndCompanyWithHeaders(t *testing.T) {
	// An hour's window: a test never straddles its end.
	e, admin := testenv.NewAdmin(t, testenv.Limite("general", 3, time.Hour))
	otro := e.UserWith(t, admin, "lector", "productos.leer")
	// UserWith made two calls with the admin's token.
	fin := time.Now().Truncate(time.Hour).Add(time.Hour).Unix()
	r := e.Call(admin, http.MethodGet, "/api/productos", nil)
	if r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "3" || r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("third request: %d limit=%q remaining=%q", r.Status, r.Header.Get("X-RateLimit-Limit"), r.Header.Get("X-RateLimit-Remaining"))
	}
	reset, err := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset != fin {
		t.Fatalf("X-RateLimit-Reset %q, want the end of the current hour (%d)", r.Header.Get("X-RateLimit-Reset"), fin)
	}
	r = e.Call(admin, http.MethodGet, "/api/productos", nil)
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusTooManyRequests || retry < 1 || retry > 3601 || r.Header.Get("X-RateLimit-Remaining") != "0" ||
		!strings.Contains(testenv.Str(r.JSON, "message"), "Se alcanzó el límite de 3 solicitudes a la API por hora") ||
		r.JSON["success"] != false {
		t.Fatalf("fourth request: %d Retry-After=%q %s", r.Status, r.Header.Get("Retry-After"), r.Raw)
	}
	// Another user of the same company has its own budget.
	r = e.Call(otro, http.MethodGet, "/api/productos", nil)
	if r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != "2" {
		t.Fatalf("another user: %d remaining=%q", r.Status, r.Header.Get("X-RateLimit-Remaining"))
	}
	// Health is not limited (monitors poll it; it must say 503, not 429,
	// when the database is down).
	for range 5 {
		if r = e.Call("", http.MethodGet, "/api/health", nil); r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("health: %d limit=%q", r.Status, r.Header.Get("X-RateLimit-Limit"))
		}
	}
}

func TestRoutesWithoutTokenAreLimitedPerClientAddress(t *testing.T) {
	e := testenv.NewParallel(t, testenv.Limite("general", 2, time.Hour))
	// The catch-all answers unknown paths without a token: counted per address.
	for i, want := range []int{http.StatusNotFound, http.StatusNotFound, http.StatusTooManyRequests} {
		r := e.Call("", http.MethodGet, "/api/no-existe", nil)
		if r.Status != want {
			t.Fatalf("request %d: %d %s", i+1, r.Status, r.Raw)
		}
	}
}

func TestALimitOfZeroTurnsTheClassOff(t *testing.T) {
	e, admin := testenv.NewAdmin(t, testenv.Limite("general", 0, time.Minute))
	for range 5 {
		if r := e.Call(admin, http.MethodGet, "/api/productos", nil); r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("%d limit=%q", r.Status, r.Header.Get("X-RateLimit-Limit"))
		}
	}
}
