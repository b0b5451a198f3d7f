package facturacion_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/testenv"
)

// A sale goes through generar, generar-xml, firmar and enviar, and the
// simulator accepts it within its delay: the submission is queued (202),
// the worker sends it (sent), polls every 30 s on the test's clock and
// records the acceptance with the decoded MensajeHacienda; the outbox gets
// FacturaEmitidaEvent and the sale shows its factura_electronica.
func TestASaleIsInvoicedSignedSentAndAcceptedWithinTheSimulatorsDelay(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	p := f.producto("CAF", ptr(CABYS), false)
	s := f.producto("SRV", ptr("8311100000000"), true)
	cl := f.cliente("112340567")
	venta := f.vender(venta(cl, linea(p, 2, "1500.00", "descuento", 100), linea(s, 1, 5000)))

	g := f.Must(http.StatusCreated, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": venta})
	id := int64(testenv.Num(g.JSON, "data.id"))
	if testenv.Str(g.JSON, "data.estado") != facturacion.Pendiente || testenv.Str(g.JSON, "data.tipo_documento") != "01" {
		t.Fatalf("generar: %s", g.Raw)
	}
	x := f.Must(http.StatusOK, http.MethodPost, ruta(id, "generar-xml"), nil)
	xml := testenv.Str(x.JSON, "data.xml_original")
	if !strings.Contains(xml, "<FacturaElectronica") || !strings.Contains(xml, testenv.Str(g.JSON, "data.clave")) ||
		testenv.Str(x.JSON, "data.estado") != facturacion.Pendiente || testenv.Num(x.JSON, "data.total_comprobante") != 8927 {
		t.Fatalf("generar-xml: %s", x.Raw)
	}
	fi := f.Must(http.StatusOK, http.MethodPost, ruta(id, "firmar"), nil)
	if testenv.Str(fi.JSON, "data.estado") != facturacion.Firmado || !strings.Contains(testenv.Str(fi.JSON, "data.xml_firmado"), "ds:Signature") {
		t.Fatalf("firmar: %s", fi.Raw)
	}

	en := f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)
	if testenv.Get(en.JSON, "data.envio_en_curso") != true || f.q.Len() != 1 {
		t.Fatalf("enviar: %s (queue %d)", en.Raw, f.q.Len())
	}
	// Asking again while queued: 202, nothing queued twice.
	f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)

	f.drain()
	st := f.estado(id)
	if testenv.Str(st, "estado") != facturacion.Enviado || testenv.Str(st, "ind_estado") != "recibido" || testenv.Str(st, "proxima_consulta_en") == "" {
		t.Fatalf("after the worker: %v", st)
	}
	if _, ok := f.sim.Comprobante(testenv.Str(g.JSON, "data.clave")); !ok {
		t.Fatal("the simulator did not receive the document")
	}

	estado, polls := f.esperarFinal(id, 10)
	if estado != facturacion.Aceptado {
		t.Fatalf("final state %s after %d polls: %v", estado, polls, f.estado(id))
	}
	// 30 s rhythm: decided at Demora, seen at the first poll at or after it.
	if want := int(Demora / facturacion.IntervaloConsulta); polls != want {
		t.Errorf("accepted after %d polls, want %d", polls, want)
	}
	d := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil)
	if testenv.Str(d.JSON, "data.mensaje_hacienda") != "1" || !strings.Contains(testenv.Str(d.JSON, "data.xml_respuesta"), "MensajeHacienda") ||
		testenv.Str(d.JSON, "data.detalle_mensaje") == "" || testenv.Str(d.JSON, "data.respondido_en") == "" ||
		testenv.Str(d.JSON, "data.ind_estado") != "aceptado" || testenv.Get(d.JSON, "data.envio_en_curso") != false {
		t.Fatalf("detail: %s", d.Raw)
	}
	if f.q.Len() != 0 {
		t.Errorf("work left in the queue after the final state: %d", f.q.Len())
	}
	ev := f.Must(http.StatusOK, http.MethodGet, "/api/eventos?tipo=FacturaEmitidaEvent", nil)
	if testenv.Num(ev.JSON, "total") != 1 || testenv.Str(ev.JSON, "data.0.payload.clave") != testenv.Str(g.JSON, "data.clave") ||
		testenv.Str(ev.JSON, "data.0.payload.estado") != facturacion.Aceptado {
		t.Fatalf("outbox: %s", ev.Raw)
	}
	v := f.Must(http.StatusOK, http.MethodGet, "/api/ventas/"+itoa(venta), nil)
	if testenv.Num(v.JSON, "data.factura_electronica.id") != float64(id) || testenv.Str(v.JSON, "data.factura_electronica.estado") != facturacion.Aceptado ||
		testenv.Str(v.JSON, "data.factura_electronica.clave") != testenv.Str(g.JSON, "data.clave") {
		t.Fatalf("sale output: %s", v.Raw)
	}
	l := f.Must(http.StatusOK, http.MethodGet, "/api/ventas", nil)
	if testenv.Str(l.JSON, "data.0.factura_electronica.estado") != facturacion.Aceptado {
		t.Errorf("sale list: %s", l.Raw)
	}

	// Anything after accepted is a 422 under estado.
	for _, paso := range []string{"generar-xml", "firmar", "enviar"} {
		r := f.E.Call(f.Admin, http.MethodPost, ruta(id, paso), nil)
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("estado")) == 0 {
			t.Errorf("%s after accepted: %d %s", paso, r.Status, r.Raw)
		}
	}
}

func TestStepsOutOfOrderAre422UnderEstado(t *testing.T) {
	f := setup(t)
	_, id := f.comprobante()
	for _, c := range []struct{ paso, msg string }{
		{"firmar", "generar-xml"},
		{"enviar", "generar-xml"},
	} {
		r := f.E.Call(f.Admin, http.MethodPost, ruta(id, c.paso), nil)
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("estado")) == 0 || !strings.Contains(r.FieldErrors("estado")[0], c.msg) {
			t.Errorf("%s before generar-xml: %d %s", c.paso, r.Status, r.Raw)
		}
	}
	f.Must(http.StatusOK, http.MethodPost, ruta(id, "generar-xml"), nil)
	r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "enviar"), nil)
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(r.FieldErrors("estado"), " "), "firme") {
		t.Errorf("enviar before firmar: %d %s", r.Status, r.Raw)
	}
	f.Must(http.StatusOK, http.MethodPost, ruta(id, "firmar"), nil)
	// Generating the XML again drops the signature.
	x := f.Must(http.StatusOK, http.MethodPost, ruta(id, "generar-xml"), nil)
	if testenv.Str(x.JSON, "data.estado") != facturacion.Pendiente || testenv.Get(x.JSON, "data.xml_firmado") != nil {
		t.Errorf("generar-xml after firmar: %s", x.Raw)
	}
	f.Must(http.StatusOK, http.MethodPost, ruta(id, "firmar"), nil)
	f.Must(http.StatusAccepted, http.MethodPost, ruta(id, "enviar"), nil)
	// While the submission is queued, the document cannot change.
	for _, paso := range []string{"generar-xml", "firmar"} {
		if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, paso), nil); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("estado")) == 0 {
			t.Errorf("%s while queued: %d %s", paso, r.Status, r.Raw)
		}
	}
	f.drain()
	// Once Hacienda has it, neither.
	for _, paso := range []string{"generar-xml", "firmar", "enviar"} {
		if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, paso), nil); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("estado")) == 0 {
			t.Errorf("%s after sent: %d %s", paso, r.Status, r.Raw)
		}
	}
}

// The simulator rejects a document whose signature it does not accept:
// rejected, with Hacienda's message stored, and no FacturaEmitidaEvent.
func TestARejectedDocumentKeepsHaciendasMessage(t *testing.T) {
	f := setup(t, opciones{sim: func(o *simulador.Opciones) {
		o.VerificarFirma = func([]byte) error { return errors.New("La firma del documento no tiene el Policy Id") }
	}})
	_, id := f.comprobante()
	f.emitir(f.Admin, id)
	f.enviar(id)
	if e, _ := f.esperarFinal(id, 10); e != facturacion.Rechazado {
		t.Fatalf("state %s", e)
	}
	d := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil)
	if testenv.Str(d.JSON, "data.mensaje_hacienda") != "3" || !strings.Contains(testenv.Str(d.JSON, "data.detalle_mensaje"), "Policy Id") ||
		!strings.Contains(testenv.Str(d.JSON, "data.xml_respuesta"), "MensajeHacienda") {
		t.Fatalf("rejected detail: %s", d.Raw)
	}
	st := f.estado(id)
	if testenv.Get(st, "final") != true || !strings.Contains(testenv.Str(st, "detalle_mensaje"), "Policy Id") {
		t.Errorf("estado: %v", st)
	}
	if n := f.Int(`select count(*) from eventos where tipo = 'FacturaEmitidaEvent'`); n != 0 {
		t.Errorf("%d FacturaEmitidaEvent for a rejected document", n)
	}
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "enviar"), nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("enviar after rejected: %d", r.Status)
	}
}

// Hacienda may answer in ISO-8859-1: a Latin-1 X-Error-Cause and a Latin-1
// MensajeHacienda are recorded as text (the comprobante ends in error or
// rejected with Hacienda's words) instead of being refused by the database
// and retried for ever.
func TestHaciendasLatin1AnswersAreRecorded(t *testing.T) {
	f := setup(t, opciones{sim: func(o *simulador.Opciones) {
		o.VerificarFirma = func([]byte) error { return errors.New("La cédula del certificado no es la del emisor") }
	}})
	f.configurar(f.Admin)
	id := f.firmado()
	causa := "El n\xfamero de c\xe9dula del receptor no es v\xe1lido"
	f.causa400.Store(&causa)
	f.enviar(id)
	if st := f.estado(id); testenv.Str(st, "estado") != facturacion.Error ||
		!strings.Contains(testenv.Str(st, "ultimo_error"), "El número de cédula del receptor no es válido") || f.q.Len() != 0 {
		t.Fatalf("after a Latin-1 400: %v (queue %d)", st, f.q.Len())
	}

	f.causa400.Store(nil)
	f.latin1.Store(true)
	id = f.firmado()
	f.enviar(id)
	if e, _ := f.esperarFinal(id, 10); e != facturacion.Rechazado {
		t.Fatalf("state %s: %v", e, f.estado(id))
	}
	d := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil)
	if x := testenv.Str(d.JSON, "data.xml_respuesta"); !strings.Contains(x, `encoding="UTF-8"`) || !strings.Contains(x, "cédula") ||
		!strings.Contains(testenv.Str(d.JSON, "data.detalle_mensaje"), "La cédula del certificado no es la del emisor") {
		t.Fatalf("rejected detail: %s", d.Raw)
	}
}

// An ind-estado Hacienda does not document (or longer than its column) is
// kept as far as it fits and polling goes on, instead of the worker's write
// being refused and the poll retried for ever.
func TestAnUnknownIndEstadoKeepsPolling(t *testing.T) {
	f := setup(t)
	f.configurar(f.Admin)
	id := f.firmado()
	raro := "en-cola-de-validaci\u00f3n-interna-de-hacienda"
	f.indEstado.Store(&raro)
	f.enviar(id)
	f.clk.Avanzar(facturacion.IntervaloConsulta)
	f.drain()
	st := f.estado(id)
	if testenv.Str(st, "estado") != facturacion.Enviado || testenv.Str(st, "ind_estado") != "en-cola-de-validació" || testenv.Num(st, "consultas") != 1 {
		t.Fatalf("after an unknown ind-estado: %v", st)
	}
	f.indEstado.Store(nil)
	if e, _ := f.esperarFinal(id, 10); e != facturacion.Aceptado {
		t.Fatalf("state %s", e)
	}
}
