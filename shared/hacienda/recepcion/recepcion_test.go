package recepcion_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/recepcion"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/testenv/reloj"
)

// The PostgreSQL limiter of the repo plugs into LimitadorCompartido.
var _ recepcion.Contador = (*ratelimit.Limiter)(nil)

func nuevoReloj() *reloj.Reloj { return reloj.En(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)) }

var cred = recepcion.Credenciales{Usuario: "cpj-3-101-154998@stag.comprobanteselectronicos.go.cr", Clave: "secreto"}

const claveEjemplo = "50601012600310115499800100001010000514161100514161"

func envioEjemplo() recepcion.Envio {
	return recepcion.Envio{
		Clave:          claveEjemplo,
		Fecha:          time.Date(2026, 1, 1, 1, 17, 8, 0, time.FixedZone("CST", -6*3600)),
		Emisor:         recepcion.Identificacion{Tipo: "02", Numero: "3101154998"},
		Receptor:       &recepcion.Identificacion{Tipo: "02", Numero: "3101007186"},
		ComprobanteXML: []byte("<FacturaElectronica/>"),
	}
}

// idp is a handcrafted Keycloak token endpoint that counts grants.
type idp struct {
	mu        sync.Mutex
	grants    []string
	n         int
	expiresIn int
	refreshIn int
	fallos    int // answer 503 this many times first
}

func (i *idp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	i.mu.Lock()
	if i.fallos > 0 {
		i.fallos--
		i.mu.Unlock()
		w.WriteHeader(503)
		return
	}
	i.grants = append(i.grants, r.PostForm.Get("grant_type"))
	i.n++
	n := i.n
	i.mu.Unlock()
	if r.PostForm.Get("grant_type") == "password" && r.PostForm.Get("password") != cred.Clave {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"error":"invalid_grant","error_description":"Invalid user credentials"}`)
		return
	}
	exp, rexp := i.expiresIn, i.refreshIn
	if exp == 0 {
		exp = 300
	}
	if rexp == 0 {
		rexp = 1800
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"access_token":"tok%d","expires_in":%d,"refresh_token":"ref%d","refresh_expires_in":%d,"token_type":"bearer"}`, n, exp, n, rexp)
}

func (i *idp) Grants() []string {
	i.mu.Lock()
	defer i.mu.Unlock()
	return append([]string(nil), i.grants...)
}

// api is a handcrafted recepción endpoint: responder answers attempt n (1-based).
type api struct {
	mu        sync.Mutex
	n         int
	tokens    []string
	headers   []http.Header
	cuerpos   [][]byte
	responder func(n int, w http.ResponseWriter, r *http.Request)
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	a.mu.Lock()
	a.n++
	n := a.n
	a.tokens = append(a.tokens, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	a.headers = append(a.headers, r.Header.Clone())
	a.cuerpos = append(a.cuerpos, b)
	a.mu.Unlock()
	a.responder(n, w, r)
}

func (a *api) Llamadas() int { a.mu.Lock(); defer a.mu.Unlock(); return a.n }

type prueba struct {
	reloj  *reloj.Reloj
	idp    *idp
	api    *api
	srv    *httptest.Server
	c      *recepcion.Cliente
	limite *contador
}

// contador is a Limitador that counts calls per company.
type contador struct {
	mu  sync.Mutex
	por map[int64]int
	err error
}

func (c *contador) Esperar(ctx context.Context, empresaID int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.por == nil {
		c.por = map[int64]int{}
	}
	c.por[empresaID]++
	return c.err
}

func (c *contador) De(id int64) int { c.mu.Lock(); defer c.mu.Unlock(); return c.por[id] }

func nuevaPrueba(t *testing.T, responder func(n int, w http.ResponseWriter, r *http.Request), ajustar ...func(*recepcion.Config)) *prueba {
	t.Helper()
	p := &prueba{reloj: nuevoReloj(), idp: &idp{}, api: &api{responder: responder}, limite: &contador{}}
	mux := http.NewServeMux()
	mux.Handle("/idp/token", p.idp)
	mux.Handle("/recepcion/v1/", p.api)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	cfg := recepcion.Config{
		TokenURL:  p.srv.URL + "/idp/token",
		ClientID:  "api-stag",
		BaseURL:   p.srv.URL + "/recepcion/v1/",
		Now:       p.reloj.Now,
		Dormir:    p.reloj.Dormir,
		Limitador: p.limite,
	}
	for _, f := range ajustar {
		f(&cfg)
	}
	p.c = recepcion.Nuevo(cfg)
	return p
}

func acepta(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(202) }

func TestEnviarCuerpoYCabeceras(t *testing.T) {
	p := nuevaPrueba(t, acepta, func(c *recepcion.Config) {
		c.Encabezados = func(ctx context.Context) http.Header {
			return http.Header{"X-Trace-Id": {ctx.Value(ctxTraza{}).(string)}}
		}
	})
	ctx := context.WithValue(context.Background(), ctxTraza{}, "abc123")
	e := envioEjemplo()
	e.CallbackURL = "https://erp.example/cb"
	if err := p.c.Enviar(ctx, 1, cred, e); err != nil {
		t.Fatal(err)
	}
	var b map[string]any
	if err := json.Unmarshal(p.api.cuerpos[0], &b); err != nil {
		t.Fatal(err)
	}
	if b["clave"] != claveEjemplo || b["fecha"] != "2026-01-01T01:17:08-06:00" || b["comprobanteXml"] != "PEZhY3R1cmFFbGVjdHJvbmljYS8+" || b["callbackUrl"] != "https://erp.example/cb" {
		t.Fatalf("body: %v", b)
	}
	if em := b["emisor"].(map[string]any); em["tipoIdentificacion"] != "02" || em["numeroIdentificacion"] != "3101154998" {
		t.Fatalf("emisor: %v", em)
	}
	if _, ok := b["consecutivoReceptor"]; ok {
		t.Fatal("consecutivoReceptor must be omitted")
	}
	h := p.api.headers[0]
	if h.Get("X-Trace-Id") != "abc123" || h.Get("Authorization") != "Bearer tok1" || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		t.Fatalf("headers: %v", h)
	}

	// Receptor nil is omitted; an incomplete Envio is not sent.
	e.Receptor = nil
	_ = p.c.Enviar(ctx, 1, cred, e)
	if strings.Contains(string(p.api.cuerpos[1]), "receptor") {
		t.Fatalf("receptor not omitted: %s", p.api.cuerpos[1])
	}
	e.Clave = "123"
	if err := p.c.Enviar(ctx, 1, cred, e); !errors.Is(err, recepcion.ErrEnvioInvalido) || p.api.Llamadas() != 2 {
		t.Fatalf("invalid envio: %v (%d calls)", err, p.api.Llamadas())
	}
}

type ctxTraza struct{}

func TestTokenEnCacheYRefrescoAntesDeExpirar(t *testing.T) {
	p := nuevaPrueba(t, acepta)
	p.idp.expiresIn, p.idp.refreshIn = 300, 600
	ctx := context.Background()
	enviar := func() {
		t.Helper()
		if err := p.c.Enviar(ctx, 7, cred, envioEjemplo()); err != nil {
			t.Fatal(err)
		}
	}
	enviar()
	enviar()
	if g := p.idp.Grants(); len(g) != 1 || g[0] != "password" {
		t.Fatalf("grants: %v", g)
	}
	// 269 s: still before expiry minus the 30 s margin.
	p.reloj.Avanzar(269 * time.Second)
	enviar()
	if g := p.idp.Grants(); len(g) != 1 {
		t.Fatalf("grants at 269s: %v", g)
	}
	// 270 s: inside the margin -> refresh_token grant.
	p.reloj.Avanzar(time.Second)
	enviar()
	if g := p.idp.Grants(); len(g) != 2 || g[1] != "refresh_token" {
		t.Fatalf("grants at 270s: %v", g)
	}
	if p.api.tokens[3] != "tok2" {
		t.Fatalf("token used: %v", p.api.tokens)
	}
	// The refresh token (600 s from t=270, minus margin) is also expired at
	// t=270+571: password grant again.
	p.reloj.Avanzar(571 * time.Second)
	enviar()
	if g := p.idp.Grants(); len(g) != 3 || g[2] != "password" {
		t.Fatalf("grants after refresh expiry: %v", g)
	}
	// Another company has its own session.
	if err := p.c.Enviar(ctx, 8, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if g := p.idp.Grants(); len(g) != 4 || g[3] != "password" {
		t.Fatalf("grants for company 8: %v", g)
	}
}

func TestCredencialesRechazadas(t *testing.T) {
	p := nuevaPrueba(t, acepta)
	err := p.c.Enviar(context.Background(), 1, recepcion.Credenciales{Usuario: "x", Clave: "mala"}, envioEjemplo())
	if !errors.Is(err, recepcion.ErrCredenciales) || !strings.Contains(err.Error(), "Invalid user credentials") {
		t.Fatalf("err = %v", err)
	}
	if p.api.Llamadas() != 0 {
		t.Fatal("API called without a token")
	}
}

func TestIdPCaidoSeReintenta(t *testing.T) {
	p := nuevaPrueba(t, acepta)
	p.idp.fallos = 2
	if err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if e := p.reloj.Esperas(); len(e) != 2 || e[0] != time.Second || e[1] != 2*time.Second {
		t.Fatalf("waits: %v", e)
	}
}

func TestNoAutorizadoRenuevaYReintentaUnaVez(t *testing.T) {
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(401)
			return
		}
		w.WriteHeader(202)
	})
	if err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if g := p.idp.Grants(); len(g) != 2 || g[1] != "password" {
		t.Fatalf("grants: %v", g)
	}
	if p.api.tokens[0] != "tok1" || p.api.tokens[1] != "tok2" {
		t.Fatalf("tokens: %v", p.api.tokens)
	}

	// Always 401: one re-login, then *Rechazo{401}.
	q := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Error-Cause", "Token inválido")
		w.WriteHeader(401)
	})
	err := q.c.Enviar(context.Background(), 1, cred, envioEjemplo())
	var rz *recepcion.Rechazo
	if !errors.As(err, &rz) || rz.Estado != 401 || q.api.Llamadas() != 2 || len(q.idp.Grants()) != 2 {
		t.Fatalf("err = %v, calls %d, grants %v", err, q.api.Llamadas(), q.idp.Grants())
	}
}

func TestDuplicadoEsRecibido(t *testing.T) {
	for _, causa := range []string{
		"El comprobante " + claveEjemplo + " ya fue recibido anteriormente.",
		"XML ya existe en nuestras bases de datos",
	} {
		p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Error-Cause", causa)
			w.WriteHeader(400)
		})
		if err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo()); err != nil {
			t.Fatalf("%q: %v", causa, err)
		}
	}
}

func TestErrorDeValidacionEsRechazo(t *testing.T) {
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Error-Cause", "El campo fecha no es válido")
		w.Header().Set("validation-exception", "fecha")
		w.WriteHeader(400)
	})
	err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo())
	var rz *recepcion.Rechazo
	if !errors.As(err, &rz) || rz.Estado != 400 || rz.Causa != "El campo fecha no es válido" || rz.Validacion != "fecha" {
		t.Fatalf("err = %#v", err)
	}
	if p.api.Llamadas() != 1 || errors.Is(err, recepcion.ErrTemporal) {
		t.Fatal("a 400 must not be retried")
	}

	// 403 (credentials of another emisor) with the cause in the body.
	q := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(403)
		_, _ = io.WriteString(w, "emisor no autorizado")
	})
	err = q.c.Enviar(context.Background(), 1, cred, envioEjemplo())
	if !errors.As(err, &rz) || rz.Estado != 403 || rz.Causa != "emisor no autorizado" {
		t.Fatalf("403: %v", err)
	}
}

func TestErrores5xxSeReintentanConEsperaCreciente(t *testing.T) {
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	err := p.c.Enviar(context.Background(), 3, cred, envioEjemplo())
	if !errors.Is(err, recepcion.ErrTemporal) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v", err)
	}
	if p.api.Llamadas() != 4 {
		t.Fatalf("calls = %d, want 1 + 3 retries", p.api.Llamadas())
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	if got := p.reloj.Esperas(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	// The limiter is consulted for every attempt.
	if p.limite.De(3) != 4 {
		t.Fatalf("limiter calls = %d", p.limite.De(3))
	}

	// Recovers within the retries.
	q := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n < 3 {
			w.WriteHeader(502)
			return
		}
		w.WriteHeader(201)
	})
	if err := q.c.Enviar(context.Background(), 1, cred, envioEjemplo()); err != nil || q.api.Llamadas() != 3 {
		t.Fatalf("err = %v, calls %d", err, q.api.Llamadas())
	}
}

func TestErrorDeRedEsTemporal(t *testing.T) {
	p := nuevaPrueba(t, acepta)
	muerto := httptest.NewServer(http.NotFoundHandler())
	muerto.Close()
	c := recepcion.Nuevo(recepcion.Config{
		TokenURL: p.srv.URL + "/idp/token", ClientID: "api-stag", BaseURL: muerto.URL,
		Now: p.reloj.Now, Dormir: p.reloj.Dormir, Reintentos: 2,
	})
	err := c.Enviar(context.Background(), 1, cred, envioEjemplo())
	if !errors.Is(err, recepcion.ErrTemporal) {
		t.Fatalf("err = %v", err)
	}
	if got := p.reloj.Esperas(); len(got) != 2 || got[0] != time.Second || got[1] != 2*time.Second {
		t.Fatalf("waits = %v", got)
	}
}

func TestRatelimitRemainingCeroEsperaHastaReset(t *testing.T) {
	var reset int64
	p := nuevaPrueba(t, nil)
	reset = p.reloj.Now().Add(42 * time.Second).Unix()
	var vistos []time.Time
	p.api.responder = func(n int, w http.ResponseWriter, r *http.Request) {
		vistos = append(vistos, p.reloj.Now())
		w.Header().Set("X-Ratelimit-Limit", "60")
		if n == 1 {
			w.Header().Set("X-Ratelimit-Remaining", "0")
		} else {
			w.Header().Set("X-Ratelimit-Remaining", "59")
		}
		w.Header().Set("X-Ratelimit-Reset", strconv.FormatInt(reset, 10))
		w.WriteHeader(202)
	}
	ctx := context.Background()
	if err := p.c.Enviar(ctx, 1, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if len(p.reloj.Esperas()) != 0 {
		t.Fatal("no wait expected before the first call")
	}
	// Another company is not held back.
	if err := p.c.Enviar(ctx, 2, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if len(p.reloj.Esperas()) != 0 {
		t.Fatalf("company 2 waited: %v", p.reloj.Esperas())
	}
	p.reloj.Avanzar(2 * time.Second)
	if err := p.c.Enviar(ctx, 1, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if got := p.reloj.Esperas(); len(got) != 1 || got[0] != 40*time.Second {
		t.Fatalf("waits = %v, want [40s]", got)
	}
	if last := vistos[len(vistos)-1]; last.Unix() < reset {
		t.Fatalf("call at %v before reset %v", last.Unix(), reset)
	}
	// Remaining > 0 clears the pause.
	if err := p.c.Enviar(ctx, 1, cred, envioEjemplo()); err != nil || len(p.reloj.Esperas()) != 1 {
		t.Fatalf("err %v waits %v", err, p.reloj.Esperas())
	}
	if p.api.Llamadas() != 4 {
		t.Fatalf("calls = %d", p.api.Llamadas())
	}
}

func TestDemasiadasSolicitudesRespetaRetryAfter(t *testing.T) {
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			return
		}
		w.WriteHeader(202)
	})
	if err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo()); err != nil {
		t.Fatal(err)
	}
	if got := p.reloj.Esperas(); len(got) != 1 || got[0] != 7*time.Second {
		t.Fatalf("waits = %v", got)
	}
}

func TestLimitadorConsultadoPorSolicitud(t *testing.T) {
	p := nuevaPrueba(t, acepta)
	ctx := context.Background()
	_ = p.c.Enviar(ctx, 5, cred, envioEjemplo())
	_ = p.c.Enviar(ctx, 5, cred, envioEjemplo())
	_ = p.c.Enviar(ctx, 6, cred, envioEjemplo())
	if p.limite.De(5) != 2 || p.limite.De(6) != 1 {
		t.Fatalf("limiter: %v", p.limite.por)
	}
	// A limiter that refuses (e.g. ctx deadline) stops the call.
	p.limite.err = context.DeadlineExceeded
	err := p.c.Enviar(ctx, 5, cred, envioEjemplo())
	if !errors.Is(err, recepcion.ErrTemporal) || !errors.Is(err, context.DeadlineExceeded) || p.api.Llamadas() != 3 {
		t.Fatalf("err = %v, calls %d", err, p.api.Llamadas())
	}
}

func TestLimitadorEnMemoria60PorMinuto(t *testing.T) {
	r := nuevoReloj()
	l := recepcion.NuevoLimitador(60, time.Minute, r.Now, r.Dormir)
	ctx := context.Background()
	for i := 0; i < 60; i++ {
		r.Avanzar(100 * time.Millisecond)
		if err := l.Esperar(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.Esperas()) != 0 {
		t.Fatalf("waited within budget: %v", r.Esperas())
	}
	// Another company has its own budget.
	if err := l.Esperar(ctx, 2); err != nil || len(r.Esperas()) != 0 {
		t.Fatal("company 2 waited")
	}
	// The 61st waits until the first leaves the window (t0+0.1s+60s).
	if err := l.Esperar(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := r.Esperas(); len(got) != 1 || got[0] != time.Minute-5900*time.Millisecond {
		t.Fatalf("waits = %v", got)
	}
	// A wait that is cancelled gives its slot back: the next caller gets
	// the same slot, not the one after it.
	l.Dormir = func(ctx context.Context, d time.Duration) error { return context.Canceled }
	var pedida time.Duration
	if err := l.Esperar(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	l.Dormir = func(ctx context.Context, d time.Duration) error { pedida = d; return nil }
	if err := l.Esperar(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// Now = t0+60.1s; the 2nd reservation (t0+0.2s) frees at t0+60.2s.
	if pedida != 100*time.Millisecond {
		t.Fatalf("wait = %v", pedida)
	}
}

type contadorFijo struct{ n, max int }

func (c *contadorFijo) Hit(ctx context.Context, key string) (bool, int, error) {
	c.n++
	return c.n > c.max, 3, nil
}

func TestLimitadorCompartido(t *testing.T) {
	r := nuevoReloj()
	l := recepcion.LimitadorCompartido(&contadorFijo{max: 2}, r.Dormir)
	if err := l.Esperar(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if got := r.Esperas(); len(got) != 2 || got[0] != 3*time.Second {
		t.Fatalf("waits = %v", got)
	}
}

func TestConsultarNoEncontrado(t *testing.T) {
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method != "GET" || r.URL.Path != "/recepcion/v1/recepcion/"+claveEjemplo {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		w.Header().Set("X-Error-Cause", "no indexado")
		w.WriteHeader(404)
	})
	_, err := p.c.Consultar(context.Background(), 1, cred, claveEjemplo)
	if !errors.Is(err, recepcion.ErrNoEncontrado) || p.api.Llamadas() != 1 {
		t.Fatalf("err = %v", err)
	}
}

// --- against the simulator ----------------------------------------------

func muestra(t *testing.T) ([]byte, string) {
	t.Helper()
	dir := os.Getenv("HACIENDA_SAMPLES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "hacienda", "samples")
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
	if len(m) == 0 {
		t.Skipf("no hay muestras firmadas en %s", dir)
	}
	b, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	return b, strings.TrimSuffix(filepath.Base(m[0]), ".xml")
}

func TestContraElSimulador(t *testing.T) {
	doc, clave := muestra(t)
	r := nuevoReloj()
	sim, err := simulador.Nuevo(simulador.Opciones{
		Demora: 20 * time.Second, Now: r.Now, TTLToken: 300 * time.Second,
		Usuarios: map[string]string{cred.Usuario: cred.Clave}, Entorno: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	var mu sync.Mutex
	grants := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		if strings.HasSuffix(q.URL.Path, "/token") {
			_ = q.ParseForm()
			mu.Lock()
			grants[q.PostForm.Get("grant_type")]++
			mu.Unlock()
		}
		sim.ServeHTTP(w, q)
	}))
	t.Cleanup(srv.Close)
	c := recepcion.Nuevo(recepcion.Config{
		TokenURL: srv.URL + "/auth/realms/rut-stag/protocol/openid-connect/token",
		ClientID: "api-stag",
		BaseURL:  srv.URL + "/recepcion/v1",
		Now:      r.Now, Dormir: r.Dormir,
	})
	ctx := context.Background()

	if _, err := c.Consultar(ctx, 1, cred, clave); !errors.Is(err, recepcion.ErrNoEncontrado) {
		t.Fatalf("before: %v", err)
	}
	e := recepcion.Envio{
		Clave: clave, Fecha: r.Now(), Emisor: recepcion.Identificacion{Tipo: "02", Numero: strings.TrimLeft(clave[9:21], "0")},
		ComprobanteXML: doc,
	}
	if err := c.Enviar(ctx, 1, cred, e); err != nil {
		t.Fatal(err)
	}
	// Duplicate: received.
	if err := c.Enviar(ctx, 1, cred, e); err != nil {
		t.Fatalf("duplicate: %v", err)
	}
	// A malformed body: *Rechazo with the simulator's X-Error-Cause.
	bad := e
	bad.Emisor.Tipo = "99"
	var rz *recepcion.Rechazo
	if err := c.Enviar(ctx, 1, cred, bad); !errors.As(err, &rz) || rz.Estado != 400 || !strings.Contains(rz.Causa, "tipoIdentificacion") {
		t.Fatalf("bad body: %v", err)
	}

	est, err := c.Consultar(ctx, 1, cred, clave)
	if err != nil || est.IndEstado != "recibido" || est.Final() || est.RespuestaXML != nil {
		t.Fatalf("t=0: %+v %v", est, err)
	}
	r.Avanzar(10 * time.Second)
	if est, _ := c.Consultar(ctx, 1, cred, clave); est.IndEstado != "procesando" {
		t.Fatalf("t=10: %+v", est)
	}
	r.Avanzar(10 * time.Second)
	est, err = c.Consultar(ctx, 1, cred, clave)
	if err != nil || est.IndEstado != "aceptado" || !est.Final() {
		t.Fatalf("t=20: %s %s %v", est.IndEstado, est.RespuestaXML, err)
	}
	m, err := recepcion.LeerMensaje(est.RespuestaXML)
	if err != nil || !m.Aceptado() || m.Clave != clave || m.EstadoMensaje != "Aceptado" {
		t.Fatalf("mensaje: %+v %v", m, err)
	}
	if grants["password"] != 1 || grants["refresh_token"] != 0 {
		t.Fatalf("grants: %v", grants)
	}
	// The simulator's token expires at 300 s; the client refreshes at 270 s.
	r.Avanzar(255 * time.Second)
	if _, err := c.Consultar(ctx, 1, cred, clave); err != nil {
		t.Fatal(err)
	}
	if grants["refresh_token"] != 1 {
		t.Fatalf("grants: %v", grants)
	}
}

func TestLeerMensaje(t *testing.T) {
	x := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<MensajeHacienda xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda">
<Clave>` + claveEjemplo + `</Clave><NombreEmisor>Emergencias M&#233;dicas</NombreEmisor>
<TipoIdentificacionEmisor>02</TipoIdentificacionEmisor><NumeroCedulaEmisor>3101154998</NumeroCedulaEmisor>
<Mensaje>3</Mensaje><EstadoMensaje>Rechazado</EstadoMensaje>
<DetalleMensaje>Este comprobante fue recibido en el ambiente de pruebas.&#13;El comprobante electrónico tiene los siguientes errores: [ La firma del documento no tiene el Policy Id ]</DetalleMensaje>
<MontoTotalImpuesto>3393.60000</MontoTotalImpuesto><TotalFactura>88233.60000</TotalFactura>
<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature></MensajeHacienda>`)
	m, err := recepcion.LeerMensaje(x)
	if err != nil {
		t.Fatal(err)
	}
	if m.Clave != claveEjemplo || m.NombreEmisor != "Emergencias Médicas" || m.Mensaje != 3 || !m.Rechazado() ||
		m.DetalleMensaje != "Este comprobante fue recibido en el ambiente de pruebas.\nEl comprobante electrónico tiene los siguientes errores: [ La firma del documento no tiene el Policy Id ]" ||
		m.MontoTotalImpuesto != "3393.60000" || m.TotalFactura != "88233.60000" {
		t.Fatalf("%+v", m)
	}
	if _, err := recepcion.LeerMensaje([]byte(`<FacturaElectronica/>`)); err == nil {
		t.Fatal("other root accepted")
	}
	if _, err := recepcion.LeerMensaje([]byte(`<MensajeHacienda><Mensaje>2</Mensaje></MensajeHacienda>`)); err == nil {
		t.Fatal("Mensaje 2 accepted")
	}
	if _, err := recepcion.LeerMensaje([]byte(`<MensajeHacienda>`)); err == nil {
		t.Fatal("truncated accepted")
	}
}
