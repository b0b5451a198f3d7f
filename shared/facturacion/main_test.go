package facturacion_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/firma/firmatest"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/testenv"
	"github.com/erpcr/erp/shared/testenv/reloj"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Secrets of the tests' companies; no response and no log line may carry them.
const (
	usuarioHacienda = "cpj-3-101-000001@stag.comprobanteselectronicos.go.cr"
	claveHacienda   = "ClaveSecretaDeHacienda#2026"
	pinCertificado  = "PinSecreto1234"
)

// certificado is the tests' signing identity, generated once per process.
func certificado(t *testing.T) firmatest.Identidad {
	t.Helper()
	id, err := firmatest.Compartida("3-101-000001", pinCertificado)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// bufferSeguro is a log sink safe for concurrent writes.
type bufferSeguro struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *bufferSeguro) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *bufferSeguro) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// fx is one test's stack: a fresh database, the local gateway, the
// simulator on the same clock, the in-process queue and every log line.
type fx struct {
	*testenv.Fixture
	clk    *reloj.Reloj
	q      *queue.Local
	sim    *simulador.Simulador
	svc    *facturacion.Service
	logs   *bufferSeguro
	fallos atomic.Int32 // next POST /recepcion answered 503 this many times
	serie  atomic.Int64 // unique suffixes of fixtures
	// causa400, when set, answers every POST /recepcion 400 with this X-Error-Cause.
	causa400 atomic.Pointer[string]
	// latin1 re-encodes the MensajeHacienda of GET /recepcion/{clave} in
	// ISO-8859-1, as Hacienda's servers may send it.
	latin1 atomic.Bool
	// indEstado, when set, replaces the ind-estado of GET /recepcion/{clave}.
	indEstado atomic.Pointer[string]
}

// opciones adjust the simulator and the configuration of a test.
type opciones struct {
	sim func(*simulador.Opciones)
	cfg func(*config.Config)
}

// Demora is the simulator's decision delay in these tests.
const Demora = 60 * time.Second

func setup(t *testing.T, o ...opciones) *fx {
	t.Helper()
	f := &fx{clk: reloj.En(time.Now().Truncate(time.Second)), logs: &bufferSeguro{}}
	log := slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	so := simulador.Opciones{
		Demora: Demora, Now: f.clk.Now, Usuarios: map[string]string{usuarioHacienda: claveHacienda},
		VerificarFirma: firma.Verificar, Entorno: "test", Log: log,
	}
	for _, x := range o {
		if x.sim != nil {
			x.sim(&so)
		}
	}
	sim, err := simulador.Nuevo(so)
	if err != nil {
		t.Fatal(err)
	}
	f.sim = sim
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/recepcion") {
			if f.fallos.Load() > 0 {
				f.fallos.Add(-1)
				http.Error(w, "servicio no disponible", http.StatusServiceUnavailable)
				return
			}
			if c := f.causa400.Load(); c != nil {
				w.Header().Set("X-Error-Cause", *c)
				w.WriteHeader(http.StatusBadRequest)
				return
			}
		}
		if r.Method == http.MethodGet && (f.latin1.Load() || f.indEstado.Load() != nil) {
			reescribir(w, r, sim, f.latin1.Load(), f.indEstado.Load())
			return
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e := testenv.NewParallel(t, func(c *config.Config) {
		c.Hacienda.SimuladorURL = srv.URL
		c.Limites = map[string]config.Limite{"hacienda": {Max: 10, Ventana: time.Hour}}
		for _, x := range o {
			if x.cfg != nil {
				x.cfg(c)
			}
		}
	})
	// Every log line of the stack goes to f.logs: rebuild the gateway with
	// that logger (the handlers capture it when they are built).
	e.Deps.Log = log
	gw, err := e.Deps.Gateway()
	if err != nil {
		t.Fatal(err)
	}
	e.Server.Close()
	e.Server = httptest.NewServer(gw)
	f.Fixture = testenv.FixtureOf(t, e)
	f.svc = e.Deps.Hacienda()
	f.q = queue.NewLocal(f.clk.Now)
	f.q.Log = log
	f.svc.Now, f.svc.Queue, f.svc.Log = f.clk.Now, f.q, log
	f.svc.Dormir = func(ctx context.Context, d time.Duration) error { f.clk.Avanzar(d); return ctx.Err() }
	return f
}

// reescribir answers r with sim's answer changed as Hacienda's may come:
// with latin1 its respuesta-xml (a MensajeHacienda) re-encoded in
// ISO-8859-1 and declared so; with ind its ind-estado replaced.
func reescribir(w http.ResponseWriter, r *http.Request, sim http.Handler, latin1 bool, ind *string) {
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, r)
	var body map[string]any
	if json.Unmarshal(rec.Body.Bytes(), &body) == nil {
		if ind != nil {
			body["ind-estado"] = *ind
		}
		if x, ok := body["respuesta-xml"].(string); ok && latin1 {
			if raw, err := base64.StdEncoding.DecodeString(x); err == nil {
				var l1 []byte
				for _, c := range strings.Replace(string(raw), `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1) {
					l1 = append(l1, byte(c))
				}
				body["respuesta-xml"] = base64.StdEncoding.EncodeToString(l1)
			}
		}
		b, _ := json.Marshal(body)
		rec.Body = bytes.NewBuffer(b)
	}
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// enviar submits a signed comprobante (202) and runs the worker on what
// is due.
func (f *fx) enviar(id int64) {
	f.T.Helper()
	f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)
	f.drain()
}

// drain runs the worker on every due message.
func (f *fx) drain() int {
	f.T.Helper()
	n, err := f.q.Drain(context.Background(), f.svc.Procesar)
	if err != nil {
		f.T.Fatalf("worker: %v", err)
	}
	return n
}

// configurar gives company 1 a complete invoicing configuration through
// the API (certificate, PIN, credentials, activity, issuer address).
func (f *fx) configurar(tok string) testenv.Resp {
	f.T.Helper()
	id := certificado(f.T)
	return f.E.Must(f.T, http.StatusOK, tok, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{
		"ambiente": "staging", "usuario": usuarioHacienda, "clave": claveHacienda,
		"certificado": base64.StdEncoding.EncodeToString(id.Modern), "pin": pinCertificado,
		"codigo_actividad": "4711.1", "proveedor_sistemas": "3101000001",
		"emisor": map[string]any{
			"nombre_comercial": "Demo", "provincia": "1", "canton": "01", "distrito": "01",
			"otras_senas": "Avenida Central, calle 1", "telefono": "2222-3333", "correo_electronico": "facturas@demo.cr",
		},
	})
}

// producto inserts a product of company 1 with a CABYS code (nil: none)
// and the 13 % IVA; it returns its id.
func (f *fx) producto(codigo string, cabys *string, servicio bool) int64 {
	f.T.Helper()
	tipo, unidad := "producto", "Unid"
	if servicio {
		tipo, unidad = "servicio", "Sp"
	}
	return f.Int(`insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo,
			precio_venta, gestionado_inventario, codigo_cabys)
		select 1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'),
			'Producto ' || $1, $1, $2, 1000, false, $4
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = $3 returning id`,
		codigo, tipo, unidad, cabys)
}

// cliente inserts a customer (persona física) of company 1.
func (f *fx) cliente(ident string) int64 {
	f.T.Helper()
	return f.Int(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, email, telefono)
		values (1, 'fisica', $1, 'María', 'Rojas Vargas', 'maria@correo.cr', '88887777') returning id`, ident)
}

func ptr[T any](v T) *T { return &v }

// CABYS is a valid-looking 13-digit code.
const CABYS = "4399000000000"

// vender records a sale through the API and returns its id.
func (f *fx) vender(body map[string]any) int64 {
	f.T.Helper()
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", body)
	return int64(testenv.Num(r.JSON, "data.id"))
}

// venta is a sale body: a factura with the given lines.
func venta(cliente int64, lineas ...map[string]any) map[string]any {
	b := map[string]any{"fecha_venta": "2026-11-21", "tipo_comprobante": "factura", "detalles": lineas, "forma_pago_id": 1}
	if cliente > 0 {
		b["cliente_id"] = cliente
	}
	return b
}

// linea is a line body.
var linea = testenv.Linea

// generar creates the comprobante of a sale and returns its id.
func (f *fx) generar(tok string, ventaID int64, extra ...any) int64 {
	f.T.Helper()
	body := map[string]any{"venta_id": ventaID}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	r := f.E.Must(f.T, http.StatusCreated, tok, http.MethodPost, "/api/v1/hacienda/generar", body)
	return int64(testenv.Num(r.JSON, "data.id"))
}

func ruta(id int64, paso string) string {
	p := "/api/v1/hacienda/" + strconv.FormatInt(id, 10)
	if paso != "" {
		p += "/" + paso
	}
	return p
}

// emitir takes a comprobante through generar-xml and firmar.
func (f *fx) emitir(tok string, id int64) {
	f.T.Helper()
	f.E.Must(f.T, http.StatusOK, tok, http.MethodPost, ruta(id, "generar-xml"), nil)
	f.E.Must(f.T, http.StatusOK, tok, http.MethodPost, ruta(id, "firmar"), nil)
}

// estado reads a comprobante's state through the API.
func (f *fx) estado(id int64) map[string]any {
	f.T.Helper()
	r := f.Must(http.StatusOK, http.MethodGet, ruta(id, "estado"), nil)
	d, _ := r.JSON["data"].(map[string]any)
	return d
}

// esperarFinal advances the clock by the polling interval and runs the
// worker until the comprobante reaches a final state; it returns the state
// and how many polls it took.
func (f *fx) esperarFinal(id int64, maxPolls int) (string, int) {
	f.T.Helper()
	for i := 1; i <= maxPolls; i++ {
		f.clk.Avanzar(facturacion.IntervaloConsulta)
		f.drain()
		if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Enviado && e != facturacion.Firmado {
			return e, i
		}
	}
	return testenv.Str(f.estado(id), "estado"), maxPolls
}

func itoa(n int64) string { return fmt.Sprint(n) }

// comprobante configures company 1, sells one line of a CABYS product to a
// customer and generates the sale's comprobante, the start of most flows;
// it returns the sale and the comprobante.
func (f *fx) comprobante() (ventaID, id int64) {
	f.T.Helper()
	f.configurar(f.Admin)
	p := f.producto("P", ptr(CABYS), false)
	ventaID = f.vender(venta(f.cliente("112340567"), linea(p, 1, 1000)))
	return ventaID, f.generar(f.Admin, ventaID)
}
