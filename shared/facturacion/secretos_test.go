package facturacion_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/testenv"
)

// secretos are the values no response body and no log line may contain.
func secretos(t *testing.T) map[string]string {
	p12 := base64.StdEncoding.EncodeToString(certificado(t).Modern)
	return map[string]string{
		"usuario": usuarioHacienda, "clave": claveHacienda, "pin": pinCertificado,
		"certificado": p12[:64], "certificado (final)": p12[len(p12)-64:],
	}
}

func sinSecretos(t *testing.T, donde string, raw []byte) {
	t.Helper()
	for nombre, s := range secretos(t) {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("%s contains the %s", donde, nombre)
		}
	}
}

func TestSettingsKeepSecretsEncryptedAndNeverShowThem(t *testing.T) {
	f := setup(t)
	id := certificado(t)
	var bodies [][]byte
	keep := func(r testenv.Resp) testenv.Resp { bodies = append(bodies, r.Raw); return r }

	empty := keep(f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda/configuracion", nil))
	if testenv.Get(empty.JSON, "data.configurada") != false || testenv.Get(empty.JSON, "data.certificado") != nil ||
		testenv.Str(empty.JSON, "data.emisor.tipo_identificacion") != "02" || testenv.Str(empty.JSON, "data.emisor.nombre") != "Demo Sociedad Anónima" {
		t.Fatalf("defaults: %s", empty.Raw)
	}

	p12 := base64.StdEncoding.EncodeToString(id.Modern)
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"wrong PIN", map[string]any{"certificado": p12, "pin": "0000"}, "pin"},
		{"certificate without PIN", map[string]any{"certificado": p12}, "pin"},
		{"not base64", map[string]any{"certificado": "%%%no-es-base64%%%", "pin": pinCertificado}, "certificado"},
		{"not a .p12", map[string]any{"certificado": base64.StdEncoding.EncodeToString([]byte("hola, no soy un p12")), "pin": pinCertificado}, "certificado"},
		{"too long", map[string]any{"certificado": strings.Repeat("A", facturacion.MaxCertificado+4), "pin": pinCertificado}, "certificado"},
		{"environment", map[string]any{"ambiente": "sandbox"}, "ambiente"},
		{"activity", map[string]any{"codigo_actividad": "47111"}, "codigo_actividad"},
		{"province", map[string]any{"emisor": map[string]any{"provincia": "8"}}, "emisor.provincia"},
		{"e-mail", map[string]any{"emisor": map[string]any{"correo_electronico": "no-es-correo"}}, "emisor.correo_electronico"},
	}
	for _, c := range cases {
		r := keep(f.E.Call(f.Admin, http.MethodPut, "/api/v1/hacienda/configuracion", c.body))
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors(c.field)) == 0 {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
		}
	}
	if n := f.Int(`select count(*) from hacienda_configuraciones where certificado_cifrado is not null`); n != 0 {
		t.Fatalf("a refused certificate was stored")
	}

	put := keep(f.configurar(f.Admin))
	for _, flag := range []string{"usuario_configurado", "clave_configurada", "certificado_configurado", "pin_configurado", "configurada"} {
		if testenv.Get(put.JSON, "data."+flag) != true {
			t.Errorf("%s is not true: %s", flag, put.Raw)
		}
	}
	g := keep(f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda/configuracion", nil))
	hasta, _ := time.Parse(time.RFC3339, testenv.Str(g.JSON, "data.certificado.valido_hasta"))
	if !strings.Contains(testenv.Str(g.JSON, "data.certificado.sujeto"), "3-101-000001") ||
		testenv.Str(g.JSON, "data.certificado.serie") != id.Cert.SerialNumber.String() ||
		!hasta.Equal(id.Cert.NotAfter) || testenv.Get(g.JSON, "data.certificado.vencido") != false ||
		testenv.Str(g.JSON, "data.codigo_actividad") != "4711.1" || testenv.Str(g.JSON, "data.emisor.telefono") != "22223333" {
		t.Fatalf("settings: %s", g.Raw)
	}
	// A PIN alone is checked against the stored certificate.
	if r := keep(f.E.Call(f.Admin, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{"pin": "9999"})); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("pin")) == 0 {
		t.Errorf("wrong PIN alone: %d %s", r.Status, r.Raw)
	}
	// The legacy .p12 encoding (3DES / RC2-40, HMAC-SHA-1) is read too.
	keep(f.Must(http.StatusOK, http.MethodPut, "/api/v1/hacienda/configuracion",
		map[string]any{"certificado": base64.StdEncoding.EncodeToString(id.Legacy), "pin": pinCertificado}))

	// At rest: ciphertext only.
	conn, err := pgx.Connect(context.Background(), f.E.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var usuario, clave, cert, pin []byte
	if err := conn.QueryRow(context.Background(), `select usuario_cifrado, clave_cifrada, certificado_cifrado, pin_cifrado
		from hacienda_configuraciones where empresa_id = 1`).Scan(&usuario, &clave, &cert, &pin); err != nil {
		t.Fatal(err)
	}
	for nombre, c := range map[string][]byte{"usuario": usuario, "clave": clave, "pin": pin} {
		if len(c) == 0 || bytes.Contains(c, []byte(secretos(t)[nombre])) {
			t.Errorf("%s stored in clear or missing", nombre)
		}
	}
	if bytes.Contains(cert, id.Legacy[:64]) || len(cert) < len(id.Legacy) {
		t.Error("certificate stored in clear")
	}

	// The whole flow, then: no response and no log line carries a secret.
	p := f.producto("P", ptr(CABYS), false)
	venta := f.vender(venta(f.cliente("112340567"), linea(p, 1, 1000)))
	cid := int64(testenv.Num(keep(f.Must(http.StatusCreated, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": venta})).JSON, "data.id"))
	keep(f.Must(http.StatusOK, http.MethodPost, ruta(cid, "generar-xml"), nil))
	keep(f.Must(http.StatusOK, http.MethodPost, ruta(cid, "firmar"), nil))
	keep(f.Must(http.StatusAccepted, http.MethodPost, ruta(cid, "enviar"), nil))
	f.drain()
	if e, _ := f.esperarFinal(cid, 5); e != facturacion.Aceptado {
		t.Fatalf("state %s", e)
	}
	for _, path := range []string{ruta(cid, ""), ruta(cid, "estado"), "/api/v1/hacienda", "/api/v1/hacienda/configuracion", "/api/eventos", "/api/ventas/" + itoa(venta)} {
		keep(f.Must(http.StatusOK, http.MethodGet, path, nil))
	}
	for i, b := range bodies {
		sinSecretos(t, "response "+itoa(int64(i)), b)
	}
	logs := f.logs.String()
	if !strings.Contains(logs, `"path":"/api/v1/hacienda/configuracion"`) {
		t.Fatal("the request logs were not captured")
	}
	sinSecretos(t, "the logs", []byte(logs))
}
