package simulador

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/esquemas/esquemastest"
	"github.com/erpcr/erp/shared/hacienda/recepcion"
	"github.com/erpcr/erp/shared/testenv/reloj"
)

func nuevoReloj() *reloj.Reloj { return reloj.En(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)) }

// muestra returns a real signed FacturaElectronica and its clave (its file
// name), or skips.
func muestra(t *testing.T, i int) ([]byte, string) {
	t.Helper()
	dir := os.Getenv("HACIENDA_SAMPLES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "hacienda", "samples")
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
	if len(m) <= i {
		t.Skipf("no hay muestras firmadas en %s", dir)
	}
	b, err := os.ReadFile(m[i])
	if err != nil {
		t.Fatal(err)
	}
	return b, strings.TrimSuffix(filepath.Base(m[i]), ".xml")
}

// emisorDe reads Emisor/Identificacion of a sample.
func emisorDe(t *testing.T, doc []byte) (string, string) {
	t.Helper()
	d, err := leer(doc)
	if err != nil {
		t.Fatal(err)
	}
	return d.emisor.tipo, d.emisor.numero
}

type entorno struct {
	t     *testing.T
	sim   *Simulador
	srv   *httptest.Server
	reloj *reloj.Reloj
}

func nuevoEntorno(t *testing.T, o Opciones) *entorno {
	t.Helper()
	r := nuevoReloj()
	if o.Now == nil {
		o.Now = r.Now
	}
	if o.Entorno == "" {
		o.Entorno = "test"
	}
	s, err := Nuevo(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(func() { srv.Close(); _ = s.Close() })
	return &entorno{t: t, sim: s, srv: srv, reloj: r}
}

func (e *entorno) token(usuario, clave string) string {
	e.t.Helper()
	res, body := e.form(url.Values{"grant_type": {"password"}, "client_id": {"api-stag"}, "username": {usuario}, "password": {clave}})
	if res.StatusCode != 200 {
		e.t.Fatalf("token: %d %s", res.StatusCode, body)
	}
	var rt respuestaToken
	if err := json.Unmarshal(body, &rt); err != nil {
		e.t.Fatal(err)
	}
	return rt.AccessToken
}

func (e *entorno) form(v url.Values) (*http.Response, []byte) {
	e.t.Helper()
	res, err := http.PostForm(e.srv.URL+"/idp/token", v)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func (e *entorno) hacer(metodo, ruta, tok string, body []byte) (*http.Response, []byte) {
	e.t.Helper()
	req, _ := http.NewRequest(metodo, e.srv.URL+ruta, bytes.NewReader(body))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func cuerpo(clave, tipo, numero string, doc []byte) []byte {
	b, _ := json.Marshal(map[string]any{
		"clave":          clave,
		"fecha":          "2026-01-01T01:17:08-06:00",
		"emisor":         map[string]string{"tipoIdentificacion": tipo, "numeroIdentificacion": numero},
		"comprobanteXml": base64.StdEncoding.EncodeToString(doc),
	})
	return b
}

func (e *entorno) estado(tok, clave string) cuerpoEstado {
	e.t.Helper()
	res, b := e.hacer("GET", "/recepcion/"+clave, tok, nil)
	if res.StatusCode != 200 {
		e.t.Fatalf("GET: %d %s (%s)", res.StatusCode, b, res.Header.Get("X-Error-Cause"))
	}
	var c cuerpoEstado
	if err := json.Unmarshal(b, &c); err != nil {
		e.t.Fatal(err)
	}
	return c
}

func mensajeDe(t *testing.T, c cuerpoEstado) (recepcion.Mensaje, []byte) {
	t.Helper()
	x, err := base64.StdEncoding.DecodeString(c.RespuestaXML)
	if err != nil || len(x) == 0 {
		t.Fatalf("respuesta-xml: %v %q", err, c.RespuestaXML)
	}
	m, err := recepcion.LeerMensaje(x)
	if err != nil {
		t.Fatal(err)
	}
	return m, x
}

// validarMH checks a MensajeHacienda against its XSD (when xmllint exists).
func validarMH(t *testing.T, x []byte) {
	t.Helper()
	if !esquemastest.Disponible() {
		t.Log("xmllint no instalado: no se valida el MensajeHacienda")
		return
	}
	esquemastest.Exigir(t, "MensajeHacienda", x)
}

func TestProduccionRechazada(t *testing.T) {
	for _, env := range []string{"production", "Production", "prod"} {
		if _, err := Nuevo(Opciones{Entorno: env}); !errors.Is(err, ErrProduccion) {
			t.Errorf("%s: err = %v", env, err)
		}
	}
	if _, err := Nuevo(Opciones{Entorno: "staging"}); err != nil {
		t.Error(err)
	}
}

func TestIdPConcesionesYExpiracion(t *testing.T) {
	e := nuevoEntorno(t, Opciones{Usuarios: map[string]string{"cpj@stag": "secreto"}, TTLToken: 300 * time.Second, TTLRefresh: 600 * time.Second})

	res, b := e.form(url.Values{"grant_type": {"password"}, "client_id": {"api-stag"}, "username": {"cpj@stag"}, "password": {"mal"}})
	if res.StatusCode != 401 || !strings.Contains(string(b), `"invalid_grant"`) {
		t.Fatalf("bad password: %d %s", res.StatusCode, b)
	}
	res, b = e.form(url.Values{"grant_type": {"client_credentials"}, "client_id": {"api-stag"}})
	if res.StatusCode != 400 || !strings.Contains(string(b), "unsupported_grant_type") {
		t.Fatalf("grant: %d %s", res.StatusCode, b)
	}
	res, b = e.form(url.Values{"grant_type": {"password"}, "username": {"cpj@stag"}, "password": {"secreto"}})
	if res.StatusCode != 401 || !strings.Contains(string(b), "invalid_client") {
		t.Fatalf("no client_id: %d %s", res.StatusCode, b)
	}

	res, b = e.form(url.Values{"grant_type": {"password"}, "client_id": {"api-stag"}, "username": {"cpj@stag"}, "password": {"secreto"}})
	if res.StatusCode != 200 {
		t.Fatalf("password grant: %d %s", res.StatusCode, b)
	}
	var rt respuestaToken
	_ = json.Unmarshal(b, &rt)
	if rt.AccessToken == "" || rt.RefreshToken == "" || rt.ExpiresIn != 300 || rt.RefreshExpiresIn != 600 || rt.TokenType != "bearer" {
		t.Fatalf("token: %+v", rt)
	}

	// The access token works until it expires.
	if res, _ := e.hacer("GET", "/recepcion/"+strings.Repeat("1", 50), rt.AccessToken, nil); res.StatusCode != 404 {
		t.Fatalf("valid token: %d", res.StatusCode)
	}
	e.reloj.Avanzar(300 * time.Second)
	if res, _ := e.hacer("GET", "/recepcion/"+strings.Repeat("1", 50), rt.AccessToken, nil); res.StatusCode != 401 || res.Header.Get("X-Error-Cause") == "" {
		t.Fatalf("expired token: %d", res.StatusCode)
	}

	// The refresh token gives a new access token while it is valid.
	res, b = e.form(url.Values{"grant_type": {"refresh_token"}, "client_id": {"api-stag"}, "refresh_token": {rt.RefreshToken}})
	if res.StatusCode != 200 {
		t.Fatalf("refresh: %d %s", res.StatusCode, b)
	}
	var rt2 respuestaToken
	_ = json.Unmarshal(b, &rt2)
	if res, _ := e.hacer("GET", "/recepcion/"+strings.Repeat("1", 50), rt2.AccessToken, nil); res.StatusCode != 404 {
		t.Fatalf("refreshed token: %d", res.StatusCode)
	}
	res, _ = e.form(url.Values{"grant_type": {"refresh_token"}, "client_id": {"api-prod"}, "refresh_token": {rt.RefreshToken}})
	if res.StatusCode != 401 {
		t.Fatalf("refresh with another client: %d", res.StatusCode)
	}
	e.reloj.Avanzar(300 * time.Second) // 600 s after the first grant
	res, b = e.form(url.Values{"grant_type": {"refresh_token"}, "client_id": {"api-stag"}, "refresh_token": {rt.RefreshToken}})
	if res.StatusCode != 401 || !strings.Contains(string(b), "invalid_grant") {
		t.Fatalf("expired refresh: %d %s", res.StatusCode, b)
	}

	// No token at all.
	if res, _ := e.hacer("POST", "/recepcion", "", []byte(`{}`)); res.StatusCode != 401 {
		t.Fatalf("no token: %d", res.StatusCode)
	}
}

func TestIdPSinUsuariosAceptaCualquierParNoVacio(t *testing.T) {
	e := nuevoEntorno(t, Opciones{})
	e.token("cualquiera", "x")
	res, _ := e.form(url.Values{"grant_type": {"password"}, "client_id": {"api-stag"}, "username": {"alguien"}, "password": {""}})
	if res.StatusCode != 401 {
		t.Fatalf("empty password: %d", res.StatusCode)
	}
}

func TestEnvioValidoRecibidoProcesandoAceptado(t *testing.T) {
	doc, clave := muestra(t, 0)
	e := nuevoEntorno(t, Opciones{Demora: 10 * time.Second})
	tok := e.token("u", "p")
	tipo, num := emisorDe(t, doc)

	res, b := e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, doc))
	if res.StatusCode != 202 {
		t.Fatalf("POST: %d %s %s", res.StatusCode, b, res.Header.Get("X-Error-Cause"))
	}
	if loc := res.Header.Get("Location"); loc != e.srv.URL+"/recepcion/"+clave {
		t.Fatalf("Location = %q", loc)
	}
	for _, h := range []string{"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"} {
		if res.Header.Get(h) == "" {
			t.Errorf("missing %s", h)
		}
	}

	c := e.estado(tok, clave)
	if c.IndEstado != "recibido" || c.RespuestaXML != "" || c.Clave != clave || c.Fecha == "" {
		t.Fatalf("t=0: %+v", c)
	}
	e.reloj.Avanzar(5 * time.Second)
	if c := e.estado(tok, clave); c.IndEstado != "procesando" || c.RespuestaXML != "" {
		t.Fatalf("t=5s: %+v", c)
	}
	e.reloj.Avanzar(5 * time.Second)
	c = e.estado(tok, clave)
	if c.IndEstado != "aceptado" {
		m, _ := mensajeDe(t, c)
		t.Fatalf("t=10s: %s: %s", c.IndEstado, m.DetalleMensaje)
	}
	m, x := mensajeDe(t, c)
	if !m.Aceptado() || m.Clave != clave || m.NumeroCedulaEmisor != num || m.TotalFactura == "" || m.TotalFactura == "0" {
		t.Fatalf("mensaje: %+v", m)
	}
	validarMH(t, x)
	if got, ok := e.sim.Comprobante(clave); !ok || !bytes.Equal(got, doc) {
		t.Fatal("Comprobante no devuelve el XML recibido")
	}

	// Duplicate: 400 with the real cause.
	res, _ = e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, doc))
	if res.StatusCode != 400 || !strings.Contains(res.Header.Get("X-Error-Cause"), "ya fue recibido anteriormente") {
		t.Fatalf("duplicate: %d %q", res.StatusCode, res.Header.Get("X-Error-Cause"))
	}
}

func TestTodasLasMuestrasAceptadasSinDemora(t *testing.T) {
	e := nuevoEntorno(t, Opciones{})
	tok := e.token("u", "p")
	for i := 0; i < 2; i++ {
		doc, clave := muestra(t, i)
		tipo, num := emisorDe(t, doc)
		if res, b := e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, doc)); res.StatusCode != 202 {
			t.Fatalf("POST %s: %d %s", clave, res.StatusCode, b)
		}
		c := e.estado(tok, clave)
		if m, _ := mensajeDe(t, c); c.IndEstado != "aceptado" {
			t.Fatalf("%s: %s: %s", clave, c.IndEstado, m.DetalleMensaje)
		}
	}
}

func TestXMLInvalidoRechazado(t *testing.T) {
	e := nuevoEntorno(t, Opciones{})
	tok := e.token("u", "p")
	clave := "50601012600310115499800100001010000514161100514161"
	res, _ := e.hacer("POST", "/recepcion", tok, cuerpo(clave, "02", "3101154998", []byte("<FacturaElectronica><Clave>")))
	if res.StatusCode != 202 {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	c := e.estado(tok, clave)
	if c.IndEstado != "rechazado" {
		t.Fatalf("estado %s", c.IndEstado)
	}
	m, x := mensajeDe(t, c)
	if !m.Rechazado() || m.EstadoMensaje != "Rechazado" || !strings.Contains(m.DetalleMensaje, "no está bien formado") {
		t.Fatalf("mensaje: %+v", m)
	}
	validarMH(t, x)
}

func TestXSDInvalidoRechazado(t *testing.T) {
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint no instalado")
	}
	doc, clave := muestra(t, 0)
	doc = regexpQuitar(doc, "ProveedorSistemas")
	e := nuevoEntorno(t, Opciones{})
	tok := e.token("u", "p")
	tipo, num := emisorDe(t, doc)
	if res, _ := e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, doc)); res.StatusCode != 202 {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	c := e.estado(tok, clave)
	m, x := mensajeDe(t, c)
	if c.IndEstado != "rechazado" || !strings.Contains(m.DetalleMensaje, "esquema XSD") || !strings.Contains(m.DetalleMensaje, "CodigoActividadEmisor") {
		t.Fatalf("%s: %s", c.IndEstado, m.DetalleMensaje)
	}
	validarMH(t, x)
}

// regexpQuitar removes <name>…</name>.
func regexpQuitar(doc []byte, name string) []byte {
	i := bytes.Index(doc, []byte("<"+name+">"))
	j := bytes.Index(doc, []byte("</"+name+">"))
	return append(append([]byte(nil), doc[:i]...), doc[j+len(name)+3:]...)
}

func TestClaveDistintaRechazada(t *testing.T) {
	doc, clave := muestra(t, 0)
	e := nuevoEntorno(t, Opciones{})
	tok := e.token("u", "p")
	tipo, num := emisorDe(t, doc)
	otra := clave[:49] + string("0123456789"[(int(clave[49]-'0')+1)%10])
	if res, _ := e.hacer("POST", "/recepcion", tok, cuerpo(otra, tipo, num, doc)); res.StatusCode != 202 {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	c := e.estado(tok, otra)
	m, x := mensajeDe(t, c)
	if c.IndEstado != "rechazado" || !strings.Contains(m.DetalleMensaje, "no coincide con la clave enviada") {
		t.Fatalf("%s: %s", c.IndEstado, m.DetalleMensaje)
	}
	validarMH(t, x)
}

func TestEmisorDistintoYFirma(t *testing.T) {
	doc, clave := muestra(t, 0)
	tipo, num := emisorDe(t, doc)
	firmaMala := errors.New("digest mismatch")
	e := nuevoEntorno(t, Opciones{VerificarFirma: func([]byte) error { return firmaMala }})
	tok := e.token("u", "p")
	if res, _ := e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, "3101999999", doc)); res.StatusCode != 202 {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	m, _ := mensajeDe(t, e.estado(tok, clave))
	if !m.Rechazado() || !strings.Contains(m.DetalleMensaje, "emisor") || !strings.Contains(m.DetalleMensaje, "digest mismatch") {
		t.Fatalf("%s", m.DetalleMensaje)
	}
	_ = tipo

	// Without VerificarFirma, a document without ds:Signature is rejected.
	e2 := nuevoEntorno(t, Opciones{ValidarXSD: func(string, []byte) error { return nil }})
	tok = e2.token("u", "p")
	i := bytes.Index(doc, []byte("<ds:Signature"))
	sin := append(append([]byte(nil), doc[:i]...), []byte("</FacturaElectronica>")...)
	e2.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, sin))
	m, _ = mensajeDe(t, e2.estado(tok, clave))
	if !m.Rechazado() || !strings.Contains(m.DetalleMensaje, "no está firmado") {
		t.Fatalf("%s", m.DetalleMensaje)
	}
}

func TestCuerpoMalformadoYNoEncontrado(t *testing.T) {
	e := nuevoEntorno(t, Opciones{})
	tok := e.token("u", "p")
	casos := map[string][]byte{
		"json":   []byte(`{"clave":`),
		"clave":  cuerpo("123", "02", "3101154998", []byte("<x/>")),
		"emisor": cuerpo(strings.Repeat("5", 50), "", "", []byte("<x/>")),
		"tipo":   cuerpo(strings.Repeat("5", 50), "07", "1", []byte("<x/>")),
		"base64": []byte(`{"clave":"` + strings.Repeat("5", 50) + `","fecha":"2026-01-01T00:00:00-06:00","emisor":{"tipoIdentificacion":"02","numeroIdentificacion":"1"},"comprobanteXml":"%%%"}`),
		"fecha":  []byte(`{"clave":"` + strings.Repeat("5", 50) + `","fecha":"ayer","emisor":{"tipoIdentificacion":"02","numeroIdentificacion":"1"},"comprobanteXml":"PHgvPg=="}`),
	}
	for n, b := range casos {
		res, _ := e.hacer("POST", "/recepcion", tok, b)
		if res.StatusCode != 400 || res.Header.Get("X-Error-Cause") == "" || res.Header.Get("X-Ratelimit-Remaining") == "" {
			t.Errorf("%s: %d %q", n, res.StatusCode, res.Header.Get("X-Error-Cause"))
		}
	}
	res, _ := e.hacer("GET", "/recepcion/"+strings.Repeat("9", 50), tok, nil)
	if res.StatusCode != 404 || !strings.Contains(res.Header.Get("X-Error-Cause"), "no ha sido recibido") {
		t.Fatalf("404: %d %q", res.StatusCode, res.Header.Get("X-Error-Cause"))
	}
	if res, _ := e.hacer("DELETE", "/recepcion/x", tok, nil); res.StatusCode != 405 {
		t.Fatalf("DELETE: %d", res.StatusCode)
	}
}

func TestLimiteDeSolicitudes(t *testing.T) {
	e := nuevoEntorno(t, Opciones{Limite: 3})
	tok := e.token("u", "p")
	ruta := "/recepcion/" + strings.Repeat("9", 50)
	for i := 2; i >= 0; i-- {
		res, _ := e.hacer("GET", ruta, tok, nil)
		if res.StatusCode != 404 || res.Header.Get("X-Ratelimit-Remaining") != strconv.Itoa(i) || res.Header.Get("X-Ratelimit-Limit") != "3" {
			t.Fatalf("request %d: %d remaining %s", 3-i, res.StatusCode, res.Header.Get("X-Ratelimit-Remaining"))
		}
	}
	res, _ := e.hacer("GET", ruta, tok, nil)
	reset, _ := strconv.ParseInt(res.Header.Get("X-Ratelimit-Reset"), 10, 64)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || reset != e.reloj.Now().Truncate(time.Minute).Add(time.Minute).Unix() {
		t.Fatalf("over limit: %d %v", res.StatusCode, res.Header)
	}
	e.reloj.Avanzar(time.Minute)
	if res, _ := e.hacer("GET", ruta, tok, nil); res.StatusCode != 404 {
		t.Fatalf("next window: %d", res.StatusCode)
	}
}

func TestMensajeReceptorSeGuardaConConsecutivo(t *testing.T) {
	clave := "50601012600310115499800100001010000514161100514161"
	consec := "00100001050000000001"
	mr := `<?xml version="1.0" encoding="UTF-8"?>
<MensajeReceptor xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeReceptor" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
<Clave>` + clave + `</Clave><NumeroCedulaEmisor>3101154998</NumeroCedulaEmisor><FechaEmisionDoc>2026-01-02T10:00:00-06:00</FechaEmisionDoc>
<Mensaje>1</Mensaje><TotalFactura>100.00</TotalFactura><NumeroCedulaReceptor>3101007186</NumeroCedulaReceptor>
<NumeroConsecutivoReceptor>` + consec + `</NumeroConsecutivoReceptor><ds:Signature/></MensajeReceptor>`
	e := nuevoEntorno(t, Opciones{ValidarXSD: func(string, []byte) error { return nil }})
	tok := e.token("u", "p")
	b, _ := json.Marshal(map[string]any{
		"clave": clave, "fecha": "2026-01-02T10:00:00-06:00",
		"emisor":              map[string]string{"tipoIdentificacion": "02", "numeroIdentificacion": "3101154998"},
		"receptor":            map[string]string{"tipoIdentificacion": "02", "numeroIdentificacion": "3101007186"},
		"consecutivoReceptor": consec,
		"comprobanteXml":      base64.StdEncoding.EncodeToString([]byte(mr)),
	})
	res, _ := e.hacer("POST", "/recepcion", tok, b)
	if res.StatusCode != 202 || !strings.HasSuffix(res.Header.Get("Location"), clave+"-"+consec) {
		t.Fatalf("POST: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	c := e.estado(tok, clave+"-"+consec)
	m, x := mensajeDe(t, c)
	if c.IndEstado != "aceptado" {
		t.Fatalf("%s: %s", c.IndEstado, m.DetalleMensaje)
	}
	if m.NumeroCedulaReceptor != "3101007186" || m.TotalFactura != "100.00" {
		t.Fatalf("%+v", m)
	}
	validarMH(t, x)
}

func TestSinXmllintAdvierteYOmiteXSD(t *testing.T) {
	doc, clave := muestra(t, 0)
	doc = regexpQuitar(doc, "ProveedorSistemas") // XSD-invalid, otherwise fine
	t.Setenv("PATH", t.TempDir())
	var log bytes.Buffer
	e := nuevoEntorno(t, Opciones{Log: slog.New(slog.NewTextHandler(&log, nil))})
	tok := e.token("u", "p")
	tipo, num := emisorDe(t, doc)
	e.hacer("POST", "/recepcion", tok, cuerpo(clave, tipo, num, doc))
	if c := e.estado(tok, clave); c.IndEstado != "aceptado" {
		m, _ := mensajeDe(t, c)
		t.Fatalf("%s: %s", c.IndEstado, m.DetalleMensaje)
	}
	if !strings.Contains(log.String(), "xmllint no está instalado") {
		t.Fatalf("log: %q", log.String())
	}
}
