package ops_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/testenv"
)

func TestTiempoRealCountsTheCompanysRequestsUsersAndSales(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	vender(t, e, admin)                                         // 201
	e.Get("/api/ventas", admin)                                 // 200
	e.Get("/api/ventas/999999", admin)                          // 404
	e.Get("/api/ventas", e.Admin(2))                            // another company's
	e.Get("/api/usuarios", e.UserWith(t, admin, "sinpermisos")) // 403, a second active user
	// (UserWith made two more requests of company 1: the role and the user.)

	r := e.Get("/api/tiempo-real", admin)
	if r.Status != http.StatusOK {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if r.Header.Get("ETag") != "" || r.Header.Get("Retry-After") != "5" {
		t.Errorf("headers: ETag %q, Retry-After %q", r.Header.Get("ETag"), r.Header.Get("Retry-After"))
	}
	want := map[string]float64{
		"data.solicitudes_ultimo_minuto":     6, // sale, list, 404, role, user, 403
		"data.errores_cliente_ultimo_minuto": 2,
		"data.errores_ultimo_minuto":         0,
		"data.usuarios_activos_5_minutos":    2,
		"data.ventas_ultima_hora":            1,
		"data.intervalo_segundos":            5,
	}
	for path, w := range want {
		if got := testenv.Num(r.JSON, path); got != w {
			t.Errorf("%s = %v, want %v: %s", path, got, w, r.Raw)
		}
	}
	if got := testenv.Str(r.JSON, "data.alcance"); got != "empresa" {
		t.Errorf("alcance %q", got)
	}
	if !strings.Contains(string(r.Raw), `"monto_ventas_ultima_hora":"33900.00"`) && !strings.Contains(string(r.Raw), `"monto_ventas_ultima_hora":33900.00`) {
		t.Errorf("monto_ventas_ultima_hora: %s", r.Raw)
	}
}

func TestTiempoRealRefusesWhatItCannotServe(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	usuario := e.UserWith(t, admin, "soloproductos", "productos.leer")
	cases := []struct {
		name, path, tok string
		status          int
	}{
		{"without a token", "/api/tiempo-real", "", http.StatusUnauthorized},
		{"without ventas.leer", "/api/tiempo-real", usuario, http.StatusForbidden},
		{"an interval below one second", "/api/tiempo-real?intervalo=0", admin, http.StatusUnprocessableEntity},
		{"an interval that is not a number", "/api/tiempo-real?intervalo=x", admin, http.StatusUnprocessableEntity},
		{"an interval over a minute", "/api/tiempo-real?intervalo=61", admin, http.StatusUnprocessableEntity},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Get(c.path, c.tok)
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Raw)
			}
			if c.status == http.StatusUnprocessableEntity {
				testenv.Expect422(t, r, "intervalo")
			}
		})
	}
}

type evento struct {
	nombre, id, retry string
	data              map[string]any
}

// leerEvento reads one Server-Sent Event.
func leerEvento(t *testing.T, sc *bufio.Scanner) evento {
	t.Helper()
	var ev evento
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if ev.nombre != "" {
				return ev
			}
			continue
		}
		k, v, _ := strings.Cut(line, ": ")
		switch k {
		case "event":
			ev.nombre = v
		case "id":
			ev.id = v
		case "retry":
			ev.retry = v
		case "data":
			if err := json.Unmarshal([]byte(v), &ev.data); err != nil {
				t.Fatalf("data is not JSON: %q", v)
			}
		}
	}
	t.Fatalf("stream ended: %v", sc.Err())
	return ev
}

func TestTiempoRealStreamsServerSentEventsThroughTheLocalGateway(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.Server.URL+"/api/tiempo-real?intervalo=1", nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	req.Header.Set("Accept", "text/event-stream")
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if res.Header.Get("ETag") != "" {
		t.Errorf("an event stream with an ETag")
	}
	sc := bufio.NewScanner(res.Body)
	first := leerEvento(t, sc)
	if first.nombre != "tiempo-real" || first.retry != "1000" || first.id == "" {
		t.Fatalf("first event %+v", first)
	}
	if got := time.Since(start); got > 900*time.Millisecond {
		t.Logf("first event after %s", got) // the stream is not buffered until the end
	}
	second := leerEvento(t, sc)
	if second.id == first.id {
		t.Fatalf("the same event twice: %+v", second)
	}
	// The first event's own request is counted by the second.
	if a, b := testenv.Num(first.data, "solicitudes_ultimo_minuto"), testenv.Num(second.data, "solicitudes_ultimo_minuto"); b != a+1 {
		t.Errorf("requests %v then %v, want one more", a, b)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("two events at a one-second interval took %s", time.Since(start))
	}

	// Logging out ends the stream with an error event (each new event is
	// authorized again, as each EventSource reconnection is in AWS).
	if r := e.Call(admin, http.MethodPost, "/api/logout", nil); r.Status != http.StatusOK {
		t.Fatalf("logout %d", r.Status)
	}
	for {
		ev := leerEvento(t, sc)
		if ev.nombre == "error" {
			if testenv.Str(ev.data, "message") == "" {
				t.Errorf("error event without message: %+v", ev)
			}
			break
		}
	}
	if sc.Scan() {
		t.Errorf("the stream goes on after the error: %q", sc.Text())
	}
}

func TestTiempoRealPollingIntervalIsTheClientsChoice(t *testing.T) {
	e := testenv.NewParallel(t)
	r := e.Do(testenv.Req{Method: http.MethodGet, Path: "/api/tiempo-real?intervalo=7", Token: e.Admin(1),
		Headers: map[string]string{"Accept": "application/json"}})
	if r.Status != http.StatusOK || r.Header.Get("Retry-After") != "7" || testenv.Num(r.JSON, "data.intervalo_segundos") != 7 {
		t.Fatalf("%d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.Raw)
	}
}

func TestTiempoRealOfAPlatformAdministratorCountsTheWholeServicesRequests(t *testing.T) {
	e := testenv.NewParallel(t)
	e.Get("/api/ventas", e.Admin(2))
	e.Get("/api/no-existe", "")
	tok := e.PlatformAdmin(1)
	e.Get("/api/tiempo-real", e.Admin(1)) // the same user: a platform administrator too
	r := e.Get("/api/tiempo-real", tok)
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.alcance") != "servicio" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	// Three logins, company 2's list, the unknown path, the company
	// administrator's first reading: six requests.
	if got := testenv.Num(r.JSON, "data.solicitudes_ultimo_minuto"); got != 6 {
		t.Errorf("service-wide requests %v, want 6: %s", got, r.Raw)
	}
	if got := testenv.Num(r.JSON, "data.errores_cliente_ultimo_minuto"); got != 1 {
		t.Errorf("service-wide 4xx %v, want 1: %s", got, r.Raw)
	}
}

// "text/event-stream;q=0" refuses a stream (RFC 9110): the answer is the
// JSON reading, not a stream kept open.
func TestTiempoRealWithEventStreamRefusedAnswersJSON(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.Server.URL+"/api/tiempo-real", nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	req.Header.Set("Accept", "text/event-stream;q=0, application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusOK ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, Content-Type %q, %v", res.StatusCode, res.Header.Get("Content-Type"), err)
	}
}
