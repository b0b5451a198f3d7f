package facturacion_test

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/testenv"
)

// A comprobante Hacienda rejected is replaced by a new one: generar for
// the sale creates (201) a new comprobante with the next consecutivo and a
// new clave (the rejected number is not reused), which goes through the
// whole flow and is accepted; the sale shows the newest comprobante, and
// generar is idempotent again once a live one exists (200, the same one).
func TestARejectedComprobanteIsReplacedByANewOneWithItsOwnClaveAndConsecutivo(t *testing.T) {
	var rechazar atomic.Bool
	rechazar.Store(true)
	f := setup(t, opciones{sim: func(o *simulador.Opciones) {
		o.VerificarFirma = func(x []byte) error {
			if rechazar.Load() {
				return errors.New("La firma del documento no tiene el Policy Id")
			}
			return firma.Verificar(x)
		}
	}})
	ventaID, id := f.comprobante()
	primero := f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil)
	f.emitir(f.Admin, id)
	f.enviar(id)
	if e, _ := f.esperarFinal(id, 10); e != facturacion.Rechazado {
		t.Fatalf("first document: state %s", e)
	}
	v := f.Must(http.StatusOK, http.MethodGet, "/api/ventas/"+itoa(ventaID), nil)
	if testenv.Num(v.JSON, "data.factura_electronica.id") != float64(id) || testenv.Str(v.JSON, "data.factura_electronica.estado") != facturacion.Rechazado {
		t.Fatalf("sale after the rejection: %s", v.Raw)
	}

	rechazar.Store(false)
	// Concurrent generar calls create one replacement; the others get it (200).
	var g testenv.Resp
	creados := 0
	for _, r := range testenv.Concurrently(5, func(int) testenv.Resp {
		return f.E.Call(f.Admin, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": ventaID})
	}) {
		switch r.Status {
		case http.StatusCreated:
			g = r
			creados++
		case http.StatusOK:
		default:
			t.Fatalf("concurrent generar: %d %s", r.Status, r.Raw)
		}
	}
	if creados != 1 {
		t.Fatalf("%d replacements created by 5 concurrent calls, want 1", creados)
	}
	nuevo := int64(testenv.Num(g.JSON, "data.id"))
	clave, consecutivo := testenv.Str(g.JSON, "data.clave"), testenv.Str(g.JSON, "data.numero_consecutivo")
	if nuevo == id || clave == testenv.Str(primero.JSON, "data.clave") || testenv.Str(g.JSON, "data.estado") != facturacion.Pendiente ||
		testenv.Str(g.JSON, "data.tipo_documento") != "01" {
		t.Fatalf("replacement: %s (rejected: %s)", g.Raw, primero.Raw)
	}
	if want := "00100001010000000002"; consecutivo != want || testenv.Str(primero.JSON, "data.numero_consecutivo") != "00100001010000000001" {
		t.Fatalf("consecutivos %s then %s, want ...01 then %s", testenv.Str(primero.JSON, "data.numero_consecutivo"), consecutivo, want)
	}
	if m := claveRe.FindStringSubmatch(clave); m == nil || m[5] != consecutivo {
		t.Fatalf("replacement clave %q does not carry its consecutivo %s", clave, consecutivo)
	}
	// Idempotent again: the live replacement is returned, not a third one.
	again := f.Must(http.StatusOK, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": ventaID})
	if testenv.Num(again.JSON, "data.id") != float64(nuevo) {
		t.Fatalf("generar after the replacement: %s", again.Raw)
	}
	v = f.Must(http.StatusOK, http.MethodGet, "/api/ventas/"+itoa(ventaID), nil)
	if testenv.Num(v.JSON, "data.factura_electronica.id") != float64(nuevo) || testenv.Str(v.JSON, "data.factura_electronica.estado") != facturacion.Pendiente {
		t.Fatalf("sale after the replacement: %s", v.Raw)
	}

	f.emitir(f.Admin, nuevo)
	f.enviar(nuevo)
	if e, _ := f.esperarFinal(nuevo, 10); e != facturacion.Aceptado {
		t.Fatalf("replacement: state %s: %v", e, f.estado(nuevo))
	}
	v = f.Must(http.StatusOK, http.MethodGet, "/api/ventas/"+itoa(ventaID), nil)
	if testenv.Num(v.JSON, "data.factura_electronica.id") != float64(nuevo) || testenv.Str(v.JSON, "data.factura_electronica.estado") != facturacion.Aceptado ||
		testenv.Str(v.JSON, "data.factura_electronica.clave") != clave {
		t.Fatalf("sale after the acceptance: %s", v.Raw)
	}
	if e := testenv.Str(f.estado(id), "estado"); e != facturacion.Rechazado {
		t.Errorf("the rejected document became %s", e)
	}
	// Still one per sale and type once accepted.
	if r := f.Must(http.StatusOK, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": ventaID}); testenv.Num(r.JSON, "data.id") != float64(nuevo) {
		t.Fatalf("generar after the acceptance: %s", r.Raw)
	}
	if n := f.Int(`select count(*) from comprobantes_electronicos where venta_id = $1`, ventaID); n != 2 {
		t.Errorf("%d comprobantes for the sale, want 2", n)
	}
}

// A document Hacienda answered ind-estado "error" is final too, and its
// 422 asks for a new comprobante: generar creates one.
func TestAComprobanteHaciendaAnsweredErrorIsReplacedByANewOne(t *testing.T) {
	f := setup(t)
	ventaID, id := f.comprobante()
	f.emitir(f.Admin, id)
	ind := "error"
	f.indEstado.Store(&ind)
	f.enviar(id)
	if e, _ := f.esperarFinal(id, 10); e != facturacion.Error {
		t.Fatalf("state %s", e)
	}
	if r := f.E.Call(f.Admin, http.MethodPost, ruta(id, "enviar"), nil); r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("estado")) == 0 {
		t.Fatalf("enviar after ind-estado error: %d %s", r.Status, r.Raw)
	}
	f.indEstado.Store(nil)
	g := f.Must(http.StatusCreated, http.MethodPost, "/api/v1/hacienda/generar", map[string]any{"venta_id": ventaID})
	if testenv.Num(g.JSON, "data.id") == float64(id) || testenv.Str(g.JSON, "data.numero_consecutivo") != "00100001010000000002" {
		t.Fatalf("replacement: %s", g.Raw)
	}
	// A credit note of the sale references the replacement, not the
	// refused document, even before the replacement is accepted.
	p := f.Int(`select producto_id from detalles_venta where venta_id = $1`, ventaID)
	nb := venta(f.Int(`select cliente_id from ventas where id = $1`, ventaID), linea(p, 1, 1000))
	nb["tipo_comprobante"], nb["venta_referencia_id"], nb["codigo_referencia"], nb["razon_referencia"] = "nota_credito", ventaID, "01", "Anula la factura"
	nc := f.generar(f.Admin, f.vender(nb))
	x := testenv.Str(f.Must(http.StatusOK, http.MethodPost, ruta(nc, "generar-xml"), nil).JSON, "data.xml_original")
	viejo := testenv.Str(f.Must(http.StatusOK, http.MethodGet, ruta(id, ""), nil).JSON, "data.clave")
	if !strings.Contains(x, "<Numero>"+testenv.Str(g.JSON, "data.clave")+"</Numero>") || strings.Contains(x, viejo) {
		t.Fatalf("the credit note's InformacionReferencia does not name the replacement %s:\n%s", testenv.Str(g.JSON, "data.clave"), x)
	}
}
