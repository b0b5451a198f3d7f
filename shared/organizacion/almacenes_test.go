package organizacion_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestAlmacenCRUD(t *testing.T) {
	s := newStack(t)
	central := s.principalID(t, "/api/sucursales", s.admin1)
	norte := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Norte", "codigo": "NORTE"})
	r := s.req(http.MethodPost, "/api/almacenes", s.admin1, map[string]any{
		"sucursal_id": central, "nombre": "Bodega de Tránsito", "codigo": "TRANS", "descripcion": "Mercadería en tránsito",
		"ubicacion": "Galerón 3", "empresa_id": 2,
	})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") != "Almacén creado correctamente." {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	path := fmt.Sprintf("/api/almacenes/%d", id)
	for k, want := range map[string]any{
		"empresa_id": float64(1), "sucursal_id": float64(central), "nombre": "Bodega de Tránsito", "codigo": "TRANS",
		"descripcion": "Mercadería en tránsito", "ubicacion": "Galerón 3", "tipo_almacen": "general", "es_principal": false,
		"activo": true, "eliminado": false, "inventarios_count": float64(0), "valor_total_inventario": float64(0),
		"sucursal.id": float64(central), "sucursal.nombre": "Sucursal Central", "sucursal.codigo": "CENTRAL",
		"sucursal.es_principal": true, "empresa.id": float64(1), "empresa.nombre": "Demo S.A.",
	} {
		if got := testenv.Get(r.JSON, "data."+k); got != want {
			t.Errorf("data.%s = %v, want %v", k, got, want)
		}
	}
	if strings.Contains(string(r.Raw), "busqueda") {
		t.Errorf("internal column leaked: %s", r.Raw)
	}
	for _, tipo := range []any{nil, ""} {
		r := s.req(http.MethodPost, "/api/almacenes", s.admin1, map[string]any{"sucursal_id": central, "nombre": "Sin tipo", "tipo_almacen": tipo})
		if r.Status != 201 || testenv.Str(r.JSON, "data.tipo_almacen") != "general" {
			t.Errorf("tipo_almacen %v on create: %d %s", tipo, r.Status, r.Raw)
		}
	}
	if r := s.Get(path, s.admin1); r.Status != 200 || testenv.Str(r.JSON, "data.sucursal.nombre") != "Sucursal Central" || testenv.Num(r.JSON, "data.inventarios_count") != 0 {
		t.Errorf("show: %d %s", r.Status, r.Raw)
	}

	steps := []update{
		{"PUT is partial", "PUT", map[string]any{"nombre": "Bodega Tránsito"},
			map[string]any{"nombre": "Bodega Tránsito", "codigo": "TRANS", "ubicacion": "Galerón 3", "sucursal_id": float64(central)}},
		{"PATCH is partial", "PATCH", map[string]any{"tipo_almacen": "transito"},
			map[string]any{"tipo_almacen": "transito", "nombre": "Bodega Tránsito"}},
		{"null clears optional fields", "PATCH", map[string]any{"descripcion": nil, "codigo": nil},
			map[string]any{"descripcion": nil, "codigo": nil, "ubicacion": "Galerón 3"}},
		{"move to another branch of the company", "PATCH", map[string]any{"sucursal_id": norte},
			map[string]any{"sucursal_id": float64(norte), "sucursal.nombre": "Sucursal Norte", "sucursal.es_principal": false}},
		{"sucursal_id as a numeric string", "PUT", map[string]any{"sucursal_id": fmt.Sprint(central)},
			map[string]any{"sucursal_id": float64(central), "sucursal.nombre": "Sucursal Central"}},
		{"empresa_id cannot be changed", "PATCH", map[string]any{"empresa_id": 2}, map[string]any{"empresa_id": float64(1)}},
		// tipo_almacen is NOT NULL with a default: clearing it restores it.
		{"null restores the default tipo_almacen", "PATCH", map[string]any{"tipo_almacen": nil}, map[string]any{"tipo_almacen": "general"}},
		{"set tipo_almacen", "PUT", map[string]any{"tipo_almacen": "frio"}, map[string]any{"tipo_almacen": "frio"}},
		{"blank restores the default tipo_almacen", "PUT", map[string]any{"tipo_almacen": "  "}, map[string]any{"tipo_almacen": "general"}},
	}
	s.applyUpdates(t, path, "Almacén actualizado correctamente.", steps)
	s.deleteSoftly(t, "almacenes", id, 3, "Almacén eliminado correctamente.", "Almacén no encontrado.")
}

func TestAlmacenValidation(t *testing.T) {
	s := newStack(t)
	central := s.principalID(t, "/api/sucursales", s.admin1)
	ajena := s.principalID(t, "/api/sucursales", s.admin2)
	borrada := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Cerrada"})
	if r := s.req(http.MethodDelete, fmt.Sprintf("/api/sucursales/%d", borrada), s.admin1, nil); r.Status != 200 {
		t.Fatalf("delete branch: %d %s", r.Status, r.Raw)
	}
	principal := fmt.Sprintf("/api/almacenes/%d", s.principalID(t, "/api/almacenes", s.admin1))
	with := func(k string, v any) map[string]any {
		b := map[string]any{"nombre": "Bodega Nueva", "sucursal_id": central}
		b[k] = v
		return b
	}
	const noSucursal = "La sucursal seleccionada no existe en esta empresa."
	cases := []invalid{
		{"sucursal_id is required", "POST", "sucursal_id", "El campo sucursal id es obligatorio.", map[string]any{"nombre": "Bodega"}},
		{"sucursal_id may not be null", "POST", "sucursal_id", "es obligatorio", with("sucursal_id", nil)},
		{"sucursal_id must be an integer", "POST", "sucursal_id", "debe ser un número entero", with("sucursal_id", "abc")},
		{"sucursal_id must be positive", "POST", "sucursal_id", "al menos 1", with("sucursal_id", 0)},
		{"sucursal_id must exist", "POST", "sucursal_id", noSucursal, with("sucursal_id", 999999)},
		{"sucursal_id of another company", "POST", "sucursal_id", noSucursal, with("sucursal_id", ajena)},
		{"sucursal_id of a deleted branch", "POST", "sucursal_id", noSucursal, with("sucursal_id", borrada)},
		{"nombre is required", "POST", "nombre", "El campo nombre es obligatorio.", map[string]any{"sucursal_id": central}},
		{"nombre max 255", "POST", "nombre", "255", with("nombre", strings.Repeat("x", 256))},
		{"codigo max 50", "POST", "codigo", "50", with("codigo", strings.Repeat("x", 51))},
		{"descripcion max 1000", "POST", "descripcion", "1000", with("descripcion", strings.Repeat("x", 1001))},
		{"ubicacion max 500", "POST", "ubicacion", "500", with("ubicacion", strings.Repeat("x", 501))},
		{"tipo_almacen max 50", "POST", "tipo_almacen", "50", with("tipo_almacen", strings.Repeat("x", 51))},
		{"es_principal must be a boolean", "POST", "es_principal", "verdadero o falso", with("es_principal", "sí, claro")},
		{"activo may not be null", "POST", "activo", "verdadero o falso", with("activo", nil)},
		{"update: sucursal_id of another company", "PATCH", "sucursal_id", noSucursal, map[string]any{"sucursal_id": ajena}},
		{"update: sucursal_id of a deleted branch", "PUT", "sucursal_id", noSucursal, map[string]any{"sucursal_id": borrada}},
		{"update: sucursal_id may not be null", "PATCH", "sucursal_id", "es obligatorio", map[string]any{"sucursal_id": nil}},
		{"update: nombre may not be blank", "PUT", "nombre", "es obligatorio", map[string]any{"nombre": "  "}},
	}
	s.checkInvalid(t, "/api/almacenes", principal, cases)
	t.Cleanup(func() {
		r := s.Get("/api/almacenes", s.admin1)
		if testenv.Num(r.JSON, "total") != 1 || testenv.Num(r.JSON, "data.0.sucursal_id") != float64(central) || testenv.Str(r.JSON, "data.0.nombre") != "Almacén Principal" {
			t.Errorf("a refused request changed the warehouses: %s", r.Raw)
		}
	})
}

func TestAlmacenPrincipalIsUniqueAndCannotBeDeleted(t *testing.T) {
	s := newStack(t)
	suc := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Oeste"})
	principalRules(t, s, "/api/almacenes", map[string]any{"nombre": "Bodega Oeste", "sucursal_id": suc},
		"No se puede eliminar el almacén principal. Marque otro almacén como principal primero.")
}

func TestAlmacenInventoryCounts(t *testing.T) {
	s := newStack(t)
	central := s.principalID(t, "/api/sucursales", s.admin1)
	principal := s.principalID(t, "/api/almacenes", s.admin1)
	vacio := s.create(t, "/api/almacenes", s.admin1, map[string]any{"nombre": "Bodega Vacía", "sucursal_id": central})
	// 3.5 * 10.125 + 2 * 0.333 + 1 * 0.005 = 36.1085 -> 36.11 (the sum is
	// rounded once; rounding each line would give 36.12). The deleted row
	// does not count.
	s.stock(1, principal, "3.5", "10.125", false)
	s.stock(1, principal, "2", "0.333", false)
	s.stock(1, principal, "1", "0.005", false)
	s.stock(1, principal, "100", "100", true)
	// Company 2's stock does not leak into company 1's counts.
	s.stock(2, s.principalID(t, "/api/almacenes", s.admin2), "5", "5", false)

	check := func(t *testing.T, r testenv.Resp, prefix string, count, valor float64) {
		t.Helper()
		if got := testenv.Num(r.JSON, prefix+".inventarios_count"); got != count {
			t.Errorf("%s.inventarios_count = %v, want %v: %s", prefix, got, count, r.Raw)
		}
		if got := testenv.Num(r.JSON, prefix+".valor_total_inventario"); got != valor {
			t.Errorf("%s.valor_total_inventario = %v, want %v: %s", prefix, got, valor, r.Raw)
		}
	}
	t.Run("show", func(t *testing.T) {
		check(t, s.Get(fmt.Sprintf("/api/almacenes/%d", principal), s.admin1), "data", 3, 36.11)
		check(t, s.Get(fmt.Sprintf("/api/almacenes/%d", vacio), s.admin1), "data", 0, 0)
	})
	t.Run("list", func(t *testing.T) {
		r := s.Get("/api/almacenes?sort=id", s.admin1)
		check(t, r, "data.0", 3, 36.11)
		check(t, r, "data.1", 0, 0)
		// The value keeps two decimals in the JSON text.
		if !strings.Contains(string(r.Raw), `"valor_total_inventario":36.11`) {
			t.Errorf("valor_total_inventario text: %s", r.Raw)
		}
	})
	t.Run("company 2", func(t *testing.T) {
		check(t, s.Get("/api/almacenes", s.admin2), "data.0", 1, 25)
	})
	t.Run("branch count", func(t *testing.T) {
		if r := s.Get(fmt.Sprintf("/api/sucursales/%d", central), s.admin1); testenv.Num(r.JSON, "data.almacenes_count") != 2 {
			t.Errorf("almacenes_count: %s", r.Raw)
		}
	})
}

func TestAlmacenListFiltersSearchSortAndPages(t *testing.T) {
	s := newStack(t)
	central := s.principalID(t, "/api/sucursales", s.admin1)
	norte := s.create(t, "/api/sucursales", s.admin1, map[string]any{"nombre": "Sucursal Norte"})
	s.create(t, "/api/almacenes", s.admin1, map[string]any{"sucursal_id": norte, "nombre": "Bodega José", "codigo": "BJ-1"})
	s.create(t, "/api/almacenes", s.admin1, map[string]any{"sucursal_id": norte, "nombre": "Cámara Fría", "codigo": "CF-9",
		"descripcion": "Productos REFRIGERADOS", "activo": false})
	s.create(t, "/api/almacenes", s.admin1, map[string]any{"sucursal_id": central, "nombre": "Zona de Carga", "codigo": "AA-0"})
	ajena := s.principalID(t, "/api/sucursales", s.admin2)
	s.create(t, "/api/almacenes", s.admin2, map[string]any{"sucursal_id": ajena, "nombre": "Bodega José Demo Dos"})

	cases := []listCase{
		{"default", "", 4, "Almacén Principal"},
		{"sucursal_id", fmt.Sprintf("sucursal_id=%d", norte), 2, "Bodega José"},
		{"sucursal_id of the central branch", fmt.Sprintf("sucursal_id=%d", central), 2, "Almacén Principal"},
		{"sucursal_id of another company", fmt.Sprintf("sucursal_id=%d", ajena), 0, ""},
		{"sucursal_id and activos", fmt.Sprintf("sucursal_id=%d&activos=0", norte), 1, "Cámara Fría"},
		{"es_principal=1", "es_principal=1", 1, "Almacén Principal"},
		{"es_principal=0", "es_principal=0", 3, "Bodega José"},
		{"activos=1", "activos=1", 3, "Almacén Principal"},
		{"empresa_id of the tenant", "empresa_id=1", 4, "Almacén Principal"},
		{"empresa_id of another company", "empresa_id=2", 0, ""},
		{"search is accent-insensitive", "search=jose", 1, "Bodega José"},
		{"search is case-insensitive", "search=" + url.QueryEscape("CÁMARA"), 1, "Cámara Fría"},
		{"search by descripcion", "search=refrigerados", 1, "Cámara Fría"},
		{"search by codigo", "search=cf-9", 1, "Cámara Fría"},
		{"search with an underscore is literal", "search=bj_1", 0, ""},
		{"sort by nombre desc", "sort=nombre&order=desc", 4, "Zona de Carga"},
		{"sort by codigo", "sort=codigo", 4, "Zona de Carga"},
		{"page 2", "per_page=2&page=2", 4, "Cámara Fría"},
	}
	s.checkList(t, "/api/almacenes", cases)
	s.checkFirstRow(t, "rows carry the nested branch and company", "/api/almacenes?search=jose", map[string]any{
		"sucursal.nombre": "Sucursal Norte", "empresa.nombre": "Demo S.A.", "inventarios_count": 0.0, "valor_total_inventario": 0.0})
	s.checkRefused(t, "/api/almacenes", "sucursal_id=norte", "es_principal=2", "activos=talvez", "empresa_id=x", "sort=ubicacion", "order=abajo", "per_page=500")
}
