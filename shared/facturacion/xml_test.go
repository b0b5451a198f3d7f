package facturacion_test

import (
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/hacienda/esquemas/esquemastest"
	"github.com/erpcr/erp/shared/testenv"
)

// xmlsec1 verifies the XML signature with the signer's certificate.
func xmlsec1(t *testing.T, xml string, certPEM []byte) {
	t.Helper()
	bin, err := exec.LookPath("xmlsec1")
	if err != nil {
		t.Skip("xmlsec1 is not installed (apt-get install xmlsec1); the signature was NOT verified externally")
	}
	dir := t.TempDir()
	doc, cert := filepath.Join(dir, "firmado.xml"), filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(doc, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cert, certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--verify", "--pubkey-cert-pem", cert,
		"--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties", doc).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("xmlsec1 --verify: %v\n%s", err, out)
	}
}

// The signed factura (in colones and in dollars), tiquete, credit note and
// debit note validate against the 2026 XSDs with xmllint and their
// signatures verify with xmlsec1; the note
// carries InformacionReferencia to the original document.
func TestSignedDocumentsValidateWithXmllintAndVerifyWithXmlsec1(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: certificado(t).Cert.Raw})
	p := f.producto("P", ptr(CABYS), false)
	s := f.producto("S", ptr("8311100000000"), true)
	cl := f.cliente("112340567")
	factura := f.vender(venta(cl, linea(p, "2.5", "1234.56", "descuento", "10.00"), linea(s, 1, 5000, "porcentaje_impuesto", 4)))
	fe := f.generar(f.Admin, factura)
	f.emitir(f.Admin, fe)
	b := venta(0, linea(p, 1, 999))
	b["tipo_comprobante"] = "tiquete"
	te := f.generar(f.Admin, f.vender(b))
	f.emitir(f.Admin, te)
	nb := venta(cl, linea(p, 1, "1234.56"))
	nb["tipo_comprobante"], nb["venta_referencia_id"], nb["codigo_referencia"], nb["razon_referencia"] = "nota_credito", factura, "06", "Devolución de mercancía"
	nc := f.generar(f.Admin, f.vender(nb))
	f.emitir(f.Admin, nc)
	db := venta(cl, linea(s, 1, "250.00"))
	db["tipo_comprobante"], db["venta_referencia_id"], db["codigo_referencia"], db["razon_referencia"] = "nota_debito", factura, "10", "Intereses moratorios"
	nd := f.generar(f.Admin, f.vender(db))
	f.emitir(f.Admin, nd)
	usd := venta(cl, linea(s, 2, "75.50"))
	usd["moneda"], usd["tipo_cambio"] = "USD", "512.34"
	fusd := f.generar(f.Admin, f.vender(usd))
	f.emitir(f.Admin, fusd)

	for _, c := range []struct {
		id   int64
		raiz string
	}{{fe, "FacturaElectronica"}, {te, "TiqueteElectronico"}, {nc, "NotaCreditoElectronica"}, {nd, "NotaDebitoElectronica"}, {fusd, "FacturaElectronica"}} {
		t.Run(c.raiz, func(t *testing.T) {
			d := f.Must(http.StatusOK, http.MethodGet, ruta(c.id, ""), nil)
			firmado := testenv.Str(d.JSON, "data.xml_firmado")
			if !strings.Contains(firmado, "<"+c.raiz) {
				t.Fatalf("signed XML: %.200s", firmado)
			}
			esquemastest.Exigir(t, c.raiz, []byte(firmado))
			xmlsec1(t, firmado, certPEM)
		})
	}
	xu := testenv.Str(f.Must(http.StatusOK, http.MethodGet, ruta(fusd, ""), nil).JSON, "data.xml_original")
	for _, want := range []string{"<CodigoMoneda>USD</CodigoMoneda>", "<TipoCambio>512.34"} {
		if !strings.Contains(xu, want) {
			t.Errorf("dollar invoice XML lacks %s", want)
		}
	}
	x := testenv.Str(f.Must(http.StatusOK, http.MethodGet, ruta(nc, ""), nil).JSON, "data.xml_original")
	claveFE := testenv.Str(f.estado(fe), "clave")
	for _, want := range []string{"<InformacionReferencia>", "<TipoDocIR>01</TipoDocIR>", "<Numero>" + claveFE + "</Numero>",
		"<Codigo>06</Codigo>", "<Razon>Devolución de mercancía</Razon>"} {
		if !strings.Contains(x, want) {
			t.Errorf("credit note XML lacks %s", want)
		}
	}
}

func TestGenerarXMLRefusesWhatHaciendaWouldReject(t *testing.T) {
	f := setup(t)
	p := f.producto("P", ptr(CABYS), false)
	sin := f.producto("SIN", nil, false)
	cl := f.cliente("112340567")

	// Without settings: the missing pieces are named.
	id := f.generar(f.Admin, f.vender(venta(cl, linea(p, 1, 1000))))
	r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("configuracion.codigo_actividad")) == 0 || len(r.FieldErrors("configuracion.emisor")) == 0 {
		t.Fatalf("no settings: %d %s", r.Status, r.Raw)
	}
	f.configurar(f.Admin)

	// A product without CABYS: 422 naming the line.
	id = f.generar(f.Admin, f.vender(venta(cl, linea(p, 1, 1000), linea(sin, 1, 500))))
	r = f.E.Call(f.Admin, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("detalles.1.codigo_cabys")) == 0 ||
		!strings.Contains(r.FieldErrors("detalles.1.codigo_cabys")[0], "línea 2") {
		t.Fatalf("missing CABYS: %d %s", r.Status, r.Raw)
	}
	if testenv.Get(f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil).JSON, "data.xml_original") != nil {
		t.Error("a refused XML was stored")
	}

	// The XML's TotalComprobante must equal the sale's monto_total.
	v := f.vender(venta(cl, linea(p, 1, 1000)))
	id = f.generar(f.Admin, v)
	f.E.Exec(`update ventas set monto_total = monto_total + 1 where id = $1`, v)
	r = f.E.Call(f.Admin, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("monto_total")) == 0 {
		t.Fatalf("total mismatch: %d %s", r.Status, r.Raw)
	}

	// A rate that is not one of Hacienda's.
	id = f.generar(f.Admin, f.vender(venta(cl, linea(p, 1, 1000, "porcentaje_impuesto", 7))))
	r = f.E.Call(f.Admin, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("detalles.0.porcentaje_impuesto")) == 0 {
		t.Fatalf("7 %% IVA: %d %s", r.Status, r.Raw)
	}

	// A credit note whose original has no comprobante.
	orig := f.vender(venta(cl, linea(p, 1, 1000)))
	nb := venta(cl, linea(p, 1, 100))
	nb["tipo_comprobante"], nb["venta_referencia_id"], nb["codigo_referencia"], nb["razon_referencia"] = "nota_credito", orig, "02", "Corrige monto"
	id = f.generar(f.Admin, f.vender(nb))
	r = f.E.Call(f.Admin, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("venta_referencia_id")) == 0 {
		t.Fatalf("note without original comprobante: %d %s", r.Status, r.Raw)
	}
}

func TestSigningAndSendingNeedTheCompanysCertificateAndCredentials(t *testing.T) {
	f := setup(t)
	p := f.producto("P", ptr(CABYS), false)
	f.Must(http.StatusOK, http.MethodPut, "/api/v1/hacienda/configuracion", map[string]any{
		"codigo_actividad": "4711.1",
		"emisor":           map[string]any{"provincia": "1", "canton": "01", "distrito": "01", "otras_senas": "Avenida Central", "correo_electronico": "fe@demo.cr"},
	})
	id := f.generar(f.Admin, f.vender(venta(f.cliente("112340567"), linea(p, 1, 1000))))
	f.Must(http.StatusOK, http.MethodPost, ruta(id, "generar-xml"), nil)
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "firmar"), nil); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("certificado")) == 0 {
		t.Fatalf("firmar without a certificate: %d %s", r.Status, r.Raw)
	}
	id2 := certificado(t)
	f.Must(http.StatusOK, http.MethodPut, "/api/v1/hacienda/configuracion",
		map[string]any{"certificado": base64.StdEncoding.EncodeToString(id2.Modern), "pin": pinCertificado})
	f.Must(http.StatusOK, http.MethodPost, ruta(id, "firmar"), nil)
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "enviar"), nil); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("configuracion")) == 0 {
		t.Fatalf("enviar without credentials: %d %s", r.Status, r.Raw)
	}
	// Five years later the certificate has expired.
	f.clk.Avanzar(5 * 365 * 24 * time.Hour)
	if g := f.Must(http.StatusOK, http.MethodGet, "/api/v1/hacienda/configuracion", nil); testenv.Get(g.JSON, "data.certificado.vencido") != true {
		t.Errorf("expired certificate not flagged: %s", g.Raw)
	}
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "firmar"), nil); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(strings.Join(r.FieldErrors("certificado"), " "), "vigente") {
		t.Fatalf("firmar with an expired certificate: %d %s", r.Status, r.Raw)
	}
}
