package inventario_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestAnotherCompanyCannotSeeUseOrChangeMovements(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	pB := f.producto(t, f.admin2, "PB", 0)
	entrada := f.entrar(t, f.alm, linea(p, 10, "costo_unitario", 5))
	pendiente := f.e.Create(t, f.admin, salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}})
	pendienteEnt := f.e.Create(t, f.admin, entradasPath, obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}})

	// Company 2 lists nothing of company 1.
	for _, path := range []string{entradasPath, salidasPath, existPath, existPath + "?almacen_id=" + fmt.Sprint(f.alm)} {
		r := f.e.Get(path, f.admin2)
		if r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("company 2 GET %s: %d %s", path, r.Status, r.Raw)
		}
	}
	// ... nor shows, processes or cancels its movements: 404.
	for _, c := range []struct{ method, path string }{
		{"GET", item(entradasPath, entrada)}, {"GET", item(salidasPath, pendiente)},
		{"POST", item(salidasPath, pendiente) + "/procesar"}, {"POST", item(salidasPath, pendiente) + "/cancelar"},
		{"POST", item(entradasPath, pendienteEnt) + "/procesar"}, {"POST", item(entradasPath, pendienteEnt) + "/cancelar"},
	} {
		if r := f.e.Call(f.admin2, c.method, c.path, nil); r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("company 2 %s %s: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	// ... nor uses its warehouses or products: 422.
	testenv.Expect422(t, f.e.Call(f.admin2, "POST", entradasPath, obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{linea(pB, 1)}}), "almacen_id")
	testenv.Expect422(t, f.e.Call(f.admin2, "POST", salidasPath, obj{"tipo": "Venta", "almacen_id": f.almB, "detalles": []obj{linea(p, 1)}}), "detalles.0.producto_id")
	testenv.Expect422(t, f.e.Call(f.admin2, "POST", transferPath, obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.almB, "detalles": []obj{linea(pB, 1)}}), "almacen_origen_id")
	testenv.Expect422(t, f.e.Call(f.admin2, "POST", transferPath, obj{"almacen_origen_id": f.almB, "almacen_destino_id": f.alm, "detalles": []obj{linea(pB, 1)}}), "almacen_destino_id")
	// Filtering by company 1's warehouse or product finds nothing.
	if r := f.e.Get(fmt.Sprintf("%s?producto_id=%d", entradasPath, p), f.admin2); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 filtering by company 1's product: %s", r.Raw)
	}
	// Naming company 1 explicitly does not help company 2's administrator.
	if r := f.e.Do(testenv.Req{Method: "GET", Path: item(entradasPath, entrada), Token: f.admin2, Headers: map[string]string{"X-Empresa-Id": "1"}}); r.Status != http.StatusForbidden {
		t.Errorf("X-Empresa-Id of a foreign company: %d", r.Status)
	}
	// Company 1's movements are untouched and company 2 keeps its own numbering.
	if r := f.e.Get(item(salidasPath, pendiente), f.admin); testenv.Str(r.JSON, "data.estado") != "Pendiente" {
		t.Errorf("company 1's exit changed: %s", r.Raw)
	}
	if f.stock(t, f.alm, p) != 10 {
		t.Errorf("company 1's stock changed")
	}
	r := f.e.Call(f.admin2, "POST", entradasPath, obj{"tipo": "Compra", "almacen_id": f.almB, "procesar": true, "detalles": []obj{linea(pB, 3, "costo_unitario", 1)}})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "data.numero") != "ENT-00000001" || testenv.Num(r.JSON, "data.empresa_id") != 2 {
		t.Errorf("company 2's first entry: %d %s", r.Status, r.Raw)
	}
	if r := f.e.Get(existPath, f.admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company 1 sees company 2's stock: %s", r.Raw)
	}
}

func TestPermissions(t *testing.T) {
	f := newFx(t)
	p := f.producto(t, f.admin, "P1", 0)
	f.entrar(t, f.alm, linea(p, 10, "costo_unitario", 5))
	pendiente := f.e.Create(t, f.admin, salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}})
	entrada := obj{"tipo": "Compra", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}}
	transfer := obj{"almacen_origen_id": f.alm, "almacen_destino_id": f.alm2, "detalles": []obj{linea(p, 1)}}

	type call struct {
		method, path string
		body         any
	}
	reads := []call{{"GET", entradasPath, nil}, {"GET", salidasPath, nil}, {"GET", item(salidasPath, pendiente), nil}, {"GET", existPath, nil}}
	creates := []call{{"POST", entradasPath, entrada}, {"POST", salidasPath, obj{"tipo": "Venta", "almacen_id": f.alm, "detalles": []obj{linea(p, 1)}}}}
	changes := []call{{"POST", item(salidasPath, pendiente) + "/procesar", nil}, {"POST", item(salidasPath, pendiente) + "/cancelar", nil}}
	all := append(append(append(append([]call{}, reads...), creates...), changes...), call{"POST", transferPath, transfer})

	expect := func(tok, who string, calls []call, status int) {
		t.Helper()
		for _, c := range calls {
			if r := f.e.Call(tok, c.method, c.path, c.body); r.Status != status || (status >= 400 && testenv.Str(r.JSON, "message") == "") {
				t.Errorf("%s %s %s: %d, want %d: %s", who, c.method, c.path, r.Status, status, r.Raw)
			}
		}
	}
	// Without the module: 403 everywhere (the predefined Usuario role too).
	sin := f.e.UserWith(t, f.admin, "SinInventario", "productos.leer", "almacenes.leer")
	expect(sin, "without inventario", all, http.StatusForbidden)
	f.e.Create(t, f.admin, "/api/usuarios", obj{"nombre": "Básico", "email": "basico@demo.cr", "password": "Segura123!", "roles": []string{"usuario"}})
	expect(f.e.Login("basico@demo.cr", "Segura123!"), "role usuario", all, http.StatusForbidden)
	// Reading only (the predefined Vendedor role holds inventario.leer).
	lector := f.e.UserWith(t, f.admin, "Lector", "inventario.leer")
	expect(lector, "inventario.leer", reads, http.StatusOK)
	expect(lector, "inventario.leer", append(append([]call{}, creates...), changes...), http.StatusForbidden)
	// Recording without approving: pending movements only.
	capturista := f.e.UserWith(t, f.admin, "Capturista", "inventario.leer", "inventario.crear")
	expect(capturista, "inventario.crear", creates, http.StatusCreated)
	expect(capturista, "inventario.crear", changes, http.StatusForbidden)
	procesada := obj{"tipo": "Compra", "almacen_id": f.alm, "procesar": true, "detalles": []obj{linea(p, 1)}}
	if r := f.e.Call(capturista, "POST", entradasPath, procesada); r.Status != http.StatusForbidden || !strings.Contains(testenv.Str(r.JSON, "message"), "inventario.actualizar") {
		t.Errorf("procesar:true without inventario.actualizar: %d %s", r.Status, r.Raw)
	}
	expect(capturista, "inventario.crear", []call{{"POST", transferPath, transfer}}, http.StatusForbidden)
	// Approving without recording.
	aprobador := f.e.UserWith(t, f.admin, "Aprobador", "inventario.actualizar")
	expect(aprobador, "inventario.actualizar", creates, http.StatusForbidden)
	expect(aprobador, "inventario.actualizar", []call{{"POST", item(salidasPath, pendiente) + "/procesar", nil}}, http.StatusOK)
	// The predefined Bodeguero does everything.
	f.e.Create(t, f.admin, "/api/usuarios", obj{"nombre": "Bodega", "email": "bodega@demo.cr", "password": "Segura123!", "roles": []string{"bodeguero"}})
	bodeguero := f.e.Login("bodega@demo.cr", "Segura123!")
	expect(bodeguero, "bodeguero", reads, http.StatusOK)
	expect(bodeguero, "bodeguero", []call{{"POST", entradasPath, procesada}, {"POST", transferPath, transfer}}, http.StatusCreated)
	// No token: 401.
	if r := f.e.Get(entradasPath, ""); r.Status != http.StatusUnauthorized {
		t.Errorf("without a token: %d", r.Status)
	}
}
