package catalogo_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

const productos = "/api/productos"

// producto is the smallest valid product body.
func producto(categoria, unidad int, nombre string) obj {
	return obj{"categoria_id": categoria, "unidad_medida_id": unidad, "nombre": nombre, "tipo": "producto", "precio_venta": 1000}
}

// fixture is what product tests of one environment share.
type fixture struct {
	e          *testenv.Env
	admin      string // company 1
	admin2     string // company 2
	cat, cat2  int    // "General" of companies 1 and 2
	unid, kg   int
	marca      int
	iva        int // tipos_impuesto: IVA 13 %
	proveedor  int // of company 1
	proveedor2 int // of company 2
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := testenv.NewParallel(t)
	f := &fixture{e: e, admin: e.Admin(1), admin2: e.Admin(2)}
	f.cat, f.cat2 = generalCategory(t, e, f.admin), generalCategory(t, e, f.admin2)
	f.unid, f.kg = unitID(t, e, f.admin, "Unid"), unitID(t, e, f.admin, "Kg")
	f.marca = e.Create(t, f.admin, marcas, obj{"nombre": "Dos Pinos"})
	r := e.Get("/api/tipos-impuesto?codigo_tarifa_iva=08", f.admin)
	if testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("IVA 13%%: %s", r.Raw)
	}
	f.iva = int(testenv.Num(r.JSON, "data.0.id"))
	for c, dst := range map[int]*int{1: &f.proveedor, 2: &f.proveedor2} {
		*dst = insertID(t, e, `insert into proveedores (empresa_id, nombre, nit_ruc) values ($1, 'Distribuidora', '3101123456') returning id`, c)
	}
	return f
}

// insertID runs owner SQL returning one id (INSERT ... RETURNING id).
func insertID(t testing.TB, e *testenv.Env, sql string, args ...any) int {
	t.Helper()
	return testenv.Scalar[int](t, e, sql, args...)
}

func TestProductCreateWithEveryField(t *testing.T) {
	f := newFixture(t)
	e := f.e
	r := e.Call(f.admin, "POST", productos, obj{
		"categoria_id": f.cat, "unidad_medida_id": f.kg, "marca_id": f.marca, "tipo_impuesto_id": f.iva,
		"proveedor_predeterminado_id": f.proveedor, "cabys_id": 42, "codigo_cabys": "2399999000000",
		"nombre": "  Leche entera 1 L ", "codigo": "LEC-001", "codigo_barras": "7441001234567", "descripcion": "Leche de vaca",
		"tipo": "producto", "precio_compra": "2000.5", "precio_venta": 3500, "stock_minimo": 5, "stock_maximo": 50,
		"imagen_url": "https://cdn.demo.cr/leche.png", "activo": true,
	})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	checks := map[string]string{
		"data.empresa_id": "1", "data.nombre": `"Leche entera 1 L"`, "data.codigo": `"LEC-001"`, "data.codigo_barras": `"7441001234567"`,
		"data.tipo": `"producto"`, "data.precio_venta": "3500.00", "data.precio_compra": "2000.50", "data.stock_minimo": "5",
		"data.stock_maximo": "50", "data.gestionado_inventario": "true", "data.activo": "true", "data.eliminado": "false",
		"data.codigo_cabys": `"2399999000000"`, "data.cabys_id": "42", "data.imagen_url": `"https://cdn.demo.cr/leche.png"`,
		"data.stock_total": "0.0000", "data.unidad_medida.simbolo": `"Kg"`, "data.unidad_medida.abreviatura": `"Kg"`,
		"data.categoria.id": strconv.Itoa(f.cat), "data.categoria.nombre": `"General"`,
		"data.unidad_medida.id": strconv.Itoa(f.kg), "data.unidad_medida.codigo": `"Kg"`, "data.unidad_medida.nombre": `"Kilogramo"`,
		"data.marca.id": strconv.Itoa(f.marca), "data.marca.nombre": `"Dos Pinos"`,
		"data.tipo_impuesto.id": strconv.Itoa(f.iva), "data.tipo_impuesto.porcentaje": "13.00",
		"data.proveedor_predeterminado_id": strconv.Itoa(f.proveedor),
	}
	for path, want := range checks {
		if got := testenv.Exact(t, r.Raw, path); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if strings.Contains(string(r.Raw), "busqueda") {
		t.Errorf("busqueda column in output: %s", r.Raw)
	}
	// The show answers the same record.
	id := int(testenv.Num(r.JSON, "data.id"))
	s := e.Get(item(productos, id), f.admin)
	if s.Status != 200 || testenv.Exact(t, s.Raw, "data.precio_venta") != "3500.00" || testenv.Str(s.JSON, "data.marca.nombre") != "Dos Pinos" ||
		testenv.Str(s.JSON, "data.unidad_medida.abreviatura") != "Kg" || testenv.Exact(t, s.Raw, "data.stock_total") != "0.0000" {
		t.Errorf("show: %d %s", s.Status, s.Raw)
	}
	// And so does the list.
	l := e.Get(productos, f.admin)
	if testenv.Num(l.JSON, "total") != 1 || testenv.Exact(t, l.Raw, "data.0.precio_compra") != "2000.50" || testenv.Str(l.JSON, "data.0.categoria.nombre") != "General" {
		t.Errorf("list: %s", l.Raw)
	}
}

func TestProductDefaults(t *testing.T) {
	f := newFixture(t)
	e := f.e
	r := e.Call(f.admin, "POST", productos, producto(f.cat, f.unid, "Mínimo"))
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	for path, want := range map[string]string{
		"data.precio_venta": "1000.00", "data.precio_compra": "0.00", "data.stock_minimo": "0", "data.stock_maximo": "null",
		"data.gestionado_inventario": "true", "data.activo": "true", "data.marca": "null", "data.tipo_impuesto": "null",
		"data.codigo": "null", "data.imagen_url": "null", "data.stock_total": "0.0000", "data.proveedor_predeterminado_id": "null",
	} {
		if got := testenv.Exact(t, r.Raw, path); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	// gestionado_inventario follows tipo unless sent.
	for _, c := range []struct {
		tipo string
		sent any
		want bool
	}{
		{"servicio", nil, false},
		{"producto", nil, true},
		{"servicio", true, true},
		{"producto", false, false},
		{"servicio", "0", false},
	} {
		body := producto(f.cat, f.unid, "Gestión "+c.tipo)
		body["tipo"] = c.tipo
		if c.sent != nil {
			body["gestionado_inventario"] = c.sent
		}
		r := e.Call(f.admin, "POST", productos, body)
		if r.Status != 201 || testenv.Get(r.JSON, "data.gestionado_inventario") != c.want {
			t.Errorf("tipo %s, sent %v: %d %s", c.tipo, c.sent, r.Status, r.Raw)
		}
	}
	// Changing tipo later does not silently change gestionado_inventario.
	id := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Luego servicio"))
	if r := e.Call(f.admin, "PATCH", item(productos, id), obj{"tipo": "servicio"}); r.Status != 200 || testenv.Get(r.JSON, "data.gestionado_inventario") != true {
		t.Errorf("PATCH tipo: %d %s", r.Status, r.Raw)
	}
}

func TestProductValidation(t *testing.T) {
	f := newFixture(t)
	e := f.e
	e.Create(t, f.admin, productos, func() obj { b := producto(f.cat, f.unid, "Existente"); b["codigo"] = "DUP-1"; return b }())
	deletedCat := e.Create(t, f.admin, categorias, obj{"nombre": "Borrada"})
	e.Call(f.admin, "DELETE", item(categorias, deletedCat), nil)
	deletedBrand := e.Create(t, f.admin, marcas, obj{"nombre": "Marca borrada"})
	e.Call(e.PlatformAdmin(1), "DELETE", item(marcas, deletedBrand), nil)
	deletedSupplier := insertID(t, e, `insert into proveedores (empresa_id, nombre, eliminado, activo) values (1, 'Ido', true, false) returning id`)
	with := func(kv ...any) obj { return testenv.With(producto(f.cat, f.unid, "Válido"), kv...) }
	cases := []testenv.Invalid{
		{"categoria_id is required", with("categoria_id", testenv.Absent), "categoria_id"},
		{"categoria_id cannot be null", with("categoria_id", nil), "categoria_id"},
		{"categoria_id must be an integer", with("categoria_id", "uno"), "categoria_id"},
		{"categoria_id must be positive", with("categoria_id", 0), "categoria_id"},
		{"categoria_id must exist", with("categoria_id", 999999), "categoria_id"},
		{"categoria_id of another company", with("categoria_id", f.cat2), "categoria_id"},
		{"categoria_id deleted", with("categoria_id", deletedCat), "categoria_id"},
		{"unidad_medida_id is required", with("unidad_medida_id", testenv.Absent), "unidad_medida_id"},
		{"unidad_medida_id must exist", with("unidad_medida_id", 999999), "unidad_medida_id"},
		{"unidad_medida_id must be an integer", with("unidad_medida_id", 1.5), "unidad_medida_id"},
		{"marca_id must exist", with("marca_id", 999999), "marca_id"},
		{"marca_id deleted", with("marca_id", deletedBrand), "marca_id"},
		{"marca_id must be an integer", with("marca_id", "x"), "marca_id"},
		{"tipo_impuesto_id must exist", with("tipo_impuesto_id", 999999), "tipo_impuesto_id"},
		{"proveedor_predeterminado_id must exist", with("proveedor_predeterminado_id", 999999), "proveedor_predeterminado_id"},
		{"proveedor_predeterminado_id of another company", with("proveedor_predeterminado_id", f.proveedor2), "proveedor_predeterminado_id"},
		{"proveedor_predeterminado_id deleted", with("proveedor_predeterminado_id", deletedSupplier), "proveedor_predeterminado_id"},
		{"nombre is required", with("nombre", testenv.Absent), "nombre"},
		{"nombre cannot be blank", with("nombre", " "), "nombre"},
		{"nombre max 255", with("nombre", strings.Repeat("n", 256)), "nombre"},
		{"codigo max 50", with("codigo", strings.Repeat("c", 51)), "codigo"},
		{"codigo unique in the company", with("codigo", "DUP-1"), "codigo"},
		{"codigo_barras max 100", with("codigo_barras", strings.Repeat("7", 101)), "codigo_barras"},
		{"descripcion max 1000", with("descripcion", strings.Repeat("d", 1001)), "descripcion"},
		{"tipo is required", with("tipo", testenv.Absent), "tipo"},
		{"tipo must be producto or servicio", with("tipo", "bien"), "tipo"},
		{"tipo is case-sensitive", with("tipo", "Producto"), "tipo"},
		{"precio_venta is required", with("precio_venta", testenv.Absent), "precio_venta"},
		{"precio_venta cannot be null", with("precio_venta", nil), "precio_venta"},
		{"precio_venta cannot be blank", with("precio_venta", ""), "precio_venta"},
		{"precio_venta must be >= 0", with("precio_venta", -0.01), "precio_venta"},
		{"precio_venta at most 2 decimals", with("precio_venta", 10.123), "precio_venta"},
		{"precio_venta at most 2 decimals as string", with("precio_venta", "10.125"), "precio_venta"},
		{"precio_venta must be numeric", with("precio_venta", "abc"), "precio_venta"},
		{"precio_venta not a boolean", with("precio_venta", true), "precio_venta"},
		{"precio_venta not an exponent", with("precio_venta", "1e3"), "precio_venta"},
		{"precio_venta not a thousands separator", with("precio_venta", "1,500.00"), "precio_venta"},
		{"precio_venta too large", with("precio_venta", "10000000000000000"), "precio_venta"},
		{"precio_compra must be >= 0", with("precio_compra", "-1"), "precio_compra"},
		{"precio_compra at most 2 decimals", with("precio_compra", 0.001), "precio_compra"},
		{"precio_compra must be numeric", with("precio_compra", []int{1}), "precio_compra"},
		{"stock_minimo must be >= 0", with("stock_minimo", -1), "stock_minimo"},
		{"stock_minimo must be an integer", with("stock_minimo", 1.5), "stock_minimo"},
		{"stock_minimo must be numeric", with("stock_minimo", "muchos"), "stock_minimo"},
		{"stock_minimo fits an integer column", with("stock_minimo", 2147483648), "stock_minimo"},
		{"stock_maximo must be >= 0", with("stock_maximo", -5), "stock_maximo"},
		{"stock_maximo fits an integer column", with("stock_maximo", "99999999999"), "stock_maximo"},
		{"stock_maximo >= stock_minimo", with("stock_minimo", 10, "stock_maximo", 9), "stock_maximo"},
		{"codigo_cabys must have 13 digits (12)", with("codigo_cabys", "239999900000"), "codigo_cabys"},
		{"codigo_cabys must have 13 digits (14)", with("codigo_cabys", "23999990000001"), "codigo_cabys"},
		{"codigo_cabys digits only", with("codigo_cabys", "239999900000A"), "codigo_cabys"},
		{"codigo_cabys as a number is not text", with("codigo_cabys", 2399999000000), "codigo_cabys"},
		{"cabys_id must be positive", with("cabys_id", 0), "cabys_id"},
		{"imagen_url must be a URL", with("imagen_url", "no es una url"), "imagen_url"},
		{"imagen_url must be http(s)", with("imagen_url", "ftp://cdn.demo.cr/x.png"), "imagen_url"},
		{"imagen_url needs a host", with("imagen_url", "https://"), "imagen_url"},
		{"imagen_url max 500", with("imagen_url", "https://cdn.demo.cr/"+strings.Repeat("x", 490)), "imagen_url"},
		{"gestionado_inventario must be boolean", with("gestionado_inventario", "quizás"), "gestionado_inventario"},
		{"activo must be boolean", with("activo", 7), "activo"},
	}
	e.ExpectInvalid(t, f.admin, "POST", productos, cases)
	// Every error of a body is reported at once.
	r := e.Call(f.admin, "POST", productos, obj{"precio_venta": -1, "tipo": "x"})
	for _, field := range []string{"categoria_id", "unidad_medida_id", "nombre", "tipo", "precio_venta"} {
		if len(r.FieldErrors(field)) == 0 {
			t.Errorf("errors[%s] missing: %s", field, r.Raw)
		}
	}
	if r := e.Get(productos, f.admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("a refused product was stored: %s", r.Raw)
	}
}

func TestProductDecimals(t *testing.T) {
	f := newFixture(t)
	e := f.e
	for _, c := range []struct {
		sent any
		want string
	}{
		{3500, "3500.00"},
		{"3500", "3500.00"},
		{" 1500.5 ", "1500.50"},
		{10.1, "10.10"},
		{"0", "0.00"},
		{0.99, "0.99"},
		{"10.500", "10.50"}, // trailing zeros are not extra decimals
		{"9999999999999999.99", "9999999999999999.99"},
	} {
		body := producto(f.cat, f.unid, fmt.Sprint("Precio ", c.sent))
		body["precio_venta"], body["precio_compra"] = c.sent, c.sent
		r := e.Call(f.admin, "POST", productos, body)
		if r.Status != 201 {
			t.Errorf("precio %v: %d %s", c.sent, r.Status, r.Raw)
			continue
		}
		if got := testenv.Exact(t, r.Raw, "data.precio_venta"); got != c.want {
			t.Errorf("precio_venta %v -> %s, want %s", c.sent, got, c.want)
		}
		if got := testenv.Exact(t, r.Raw, "data.precio_compra"); got != c.want {
			t.Errorf("precio_compra %v -> %s, want %s", c.sent, got, c.want)
		}
	}
}

func TestProductUpdatesArePartialAndNullClears(t *testing.T) {
	f := newFixture(t)
	e := f.e
	full := obj{
		"categoria_id": f.cat, "unidad_medida_id": f.kg, "marca_id": f.marca, "tipo_impuesto_id": f.iva,
		"proveedor_predeterminado_id": f.proveedor, "cabys_id": 7, "codigo_cabys": "2399999000000", "nombre": "Queso",
		"codigo": "QSO", "codigo_barras": "123", "descripcion": "Turrialba", "tipo": "producto", "precio_compra": 1500,
		"precio_venta": 2500, "stock_minimo": 2, "stock_maximo": 20, "imagen_url": "https://cdn.demo.cr/q.png",
	}
	id := e.Create(t, f.admin, productos, full)
	path := item(productos, id)
	otraCat := e.Create(t, f.admin, categorias, obj{"nombre": "Quesos"})

	r := e.Call(f.admin, "PATCH", path, obj{"precio_venta": "2750.5"})
	if r.Status != 200 || testenv.Exact(t, r.Raw, "data.precio_venta") != "2750.50" || testenv.Str(r.JSON, "data.nombre") != "Queso" ||
		testenv.Exact(t, r.Raw, "data.precio_compra") != "1500.00" || testenv.Str(r.JSON, "data.marca.nombre") != "Dos Pinos" || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("PATCH precio_venta: %d %s", r.Status, r.Raw)
	}
	r = e.Call(f.admin, "PUT", path, obj{"nombre": "Queso fresco", "categoria_id": otraCat})
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Queso fresco" || testenv.Str(r.JSON, "data.categoria.nombre") != "Quesos" ||
		testenv.Str(r.JSON, "data.codigo") != "QSO" || testenv.Exact(t, r.Raw, "data.precio_venta") != "2750.50" || testenv.Exact(t, r.Raw, "data.stock_maximo") != "20" {
		t.Fatalf("PUT partial: %d %s", r.Status, r.Raw)
	}
	// null clears every optional field.
	clear := obj{"marca_id": nil, "tipo_impuesto_id": nil, "proveedor_predeterminado_id": nil, "cabys_id": nil, "codigo_cabys": nil,
		"codigo": nil, "codigo_barras": nil, "descripcion": nil, "stock_maximo": nil, "imagen_url": nil}
	r = e.Call(f.admin, "PATCH", path, clear)
	if r.Status != 200 {
		t.Fatalf("PATCH nulls: %d %s", r.Status, r.Raw)
	}
	for k := range clear {
		if v := testenv.Get(r.JSON, "data."+k); v != nil {
			t.Errorf("%s not cleared: %v", k, v)
		}
	}
	for _, rel := range []string{"marca", "tipo_impuesto"} {
		if v := testenv.Get(r.JSON, "data."+rel); v != nil {
			t.Errorf("relation %s after clearing its id: %v", rel, v)
		}
	}
	if testenv.Str(r.JSON, "data.nombre") != "Queso fresco" || testenv.Exact(t, r.Raw, "data.precio_venta") != "2750.50" {
		t.Errorf("PATCH nulls touched other fields: %s", r.Raw)
	}
	// Optional fields with a default go back to it.
	r = e.Call(f.admin, "PATCH", path, obj{"precio_compra": nil, "stock_minimo": nil})
	if r.Status != 200 || testenv.Exact(t, r.Raw, "data.precio_compra") != "0.00" || testenv.Exact(t, r.Raw, "data.stock_minimo") != "0" {
		t.Errorf("PATCH precio_compra/stock_minimo null: %d %s", r.Status, r.Raw)
	}
	// Required fields cannot be cleared.
	for _, k := range []string{"categoria_id", "unidad_medida_id", "nombre", "tipo", "precio_venta"} {
		for _, m := range []string{"PUT", "PATCH"} {
			testenv.Expect422(t, e.Call(f.admin, m, path, obj{k: nil}), k)
		}
	}
	testenv.Expect422(t, e.Call(f.admin, "PATCH", path, obj{"gestionado_inventario": nil}), "gestionado_inventario")
	// Updates validate what they send, like creates.
	testenv.Expect422(t, e.Call(f.admin, "PATCH", path, obj{"categoria_id": f.cat2}), "categoria_id")
	testenv.Expect422(t, e.Call(f.admin, "PATCH", path, obj{"proveedor_predeterminado_id": f.proveedor2}), "proveedor_predeterminado_id")
	testenv.Expect422(t, e.Call(f.admin, "PUT", path, obj{"precio_venta": "1.001"}), "precio_venta")
	testenv.Expect422(t, e.Call(f.admin, "PUT", path, obj{"codigo_cabys": "123"}), "codigo_cabys")
	testenv.Expect422(t, e.Call(f.admin, "PATCH", path, obj{"imagen_url": "javascript:alert(1)"}), "imagen_url")
	testenv.Expect422(t, e.Call(f.admin, "PATCH", path, obj{"tipo": "bien"}), "tipo")
	if r := e.Get(path, f.admin); testenv.Exact(t, r.Raw, "data.precio_venta") != "2750.50" || testenv.Str(r.JSON, "data.tipo") != "producto" {
		t.Errorf("a refused update was stored: %s", r.Raw)
	}
}

func TestProductStockLimits(t *testing.T) {
	f := newFixture(t)
	e := f.e
	body := producto(f.cat, f.unid, "Stock")
	body["stock_minimo"], body["stock_maximo"] = 5, 5 // equal is fine
	id := e.Create(t, f.admin, productos, body)
	path := item(productos, id)
	cases := []struct {
		name string
		body obj
		ok   bool
	}{
		{"raise both together", obj{"stock_minimo": 10, "stock_maximo": 30}, true},
		{"minimum above the stored maximum", obj{"stock_minimo": 31}, false},
		{"maximum below the stored minimum", obj{"stock_maximo": 9}, false},
		{"maximum equal to the minimum", obj{"stock_maximo": 10}, true},
		{"both sent, inverted", obj{"stock_minimo": 8, "stock_maximo": 7}, false},
		{"maximum cleared", obj{"stock_maximo": nil}, true},
		{"any minimum without a maximum", obj{"stock_minimo": 1000}, true},
		{"maximum below it again", obj{"stock_maximo": 999}, false},
		{"minimum back to its default, maximum small", obj{"stock_minimo": nil, "stock_maximo": 1}, true},
		{"maximum zero", obj{"stock_maximo": 0}, true},
		{"largest integer", obj{"stock_minimo": 2147483647, "stock_maximo": nil}, true},
		{"back to zero", obj{"stock_minimo": 0, "stock_maximo": 0}, true},
	}
	for _, c := range cases {
		r := e.Call(f.admin, "PATCH", path, c.body)
		if c.ok && r.Status != 200 {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
		}
		if !c.ok {
			if r.Status != 422 || len(r.FieldErrors("stock_maximo")) == 0 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
			}
		}
	}
	if r := e.Get(path, f.admin); testenv.Exact(t, r.Raw, "data.stock_minimo") != "0" || testenv.Exact(t, r.Raw, "data.stock_maximo") != "0" {
		t.Errorf("final limits: %s", r.Raw)
	}
}

func TestProductCodeIsUniquePerCompanyAndFreedBySoftDelete(t *testing.T) {
	f := newFixture(t)
	e := f.e
	with := func(cat int, codigo string) obj {
		b := producto(cat, f.unid, "Código "+codigo)
		b["codigo"] = codigo
		return b
	}
	a := e.Create(t, f.admin, productos, with(f.cat, "A-1"))
	b := e.Create(t, f.admin, productos, with(f.cat, "B-1"))
	testenv.Expect422(t, e.Call(f.admin, "POST", productos, with(f.cat, "A-1")), "codigo")
	testenv.Expect422(t, e.Call(f.admin, "POST", productos, with(f.cat, " A-1 ")), "codigo") // trimmed before the check
	// Another company may use the same code.
	e.Create(t, f.admin2, productos, with(f.cat2, "A-1"))
	// Keeping its own code is not a duplicate; taking another's is.
	if r := e.Call(f.admin, "PUT", item(productos, a), obj{"codigo": "A-1", "nombre": "Renombrado"}); r.Status != 200 {
		t.Errorf("keeping its own code: %d %s", r.Status, r.Raw)
	}
	testenv.Expect422(t, e.Call(f.admin, "PATCH", item(productos, b), obj{"codigo": "A-1"}), "codigo")
	// Products without code do not collide.
	e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Sin código 1"))
	e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Sin código 2"))
	// Soft delete frees the code.
	if r := e.Call(f.admin, "DELETE", item(productos, a), nil); r.Status != 200 || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	c := e.Create(t, f.admin, productos, with(f.cat, "A-1"))
	if c == a {
		t.Errorf("the deleted product came back")
	}
	if r := e.Call(f.admin, "PATCH", item(productos, b), obj{"codigo": "A-1"}); r.Status != 422 {
		t.Errorf("code of the new live product: %d %s", r.Status, r.Raw)
	}
}

func TestProductSoftDelete(t *testing.T) {
	f := newFixture(t)
	e := f.e
	id := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Efímero"))
	keep := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Permanente"))
	path := item(productos, id)
	if r := e.Call(f.admin, "DELETE", path, nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, f.admin); r.Status != 404 || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("show after delete: %d %s", r.Status, r.Raw)
	}
	for _, q := range []string{"", "?search=efimero", "?activos=0", "?per_page=100"} {
		if r := e.Get(productos+q, f.admin); slices.Contains(testenv.IDs(r), id) {
			t.Errorf("list %q shows the deleted product: %s", q, r.Raw)
		}
	}
	if r := e.Get(productos, f.admin); testenv.Num(r.JSON, "total") != 1 || !slices.Contains(testenv.IDs(r), keep) {
		t.Errorf("list after delete: %s", r.Raw)
	}
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		if r := e.Call(f.admin, m, path, obj{"nombre": "Revivido"}); r.Status != 404 {
			t.Errorf("%s of a deleted product: %d %s", m, r.Status, r.Raw)
		}
	}
	if tag := e.Exec(`update productos set nombre = nombre where id = $1 and eliminado and not activo and nombre = 'Efímero'`, id); tag.RowsAffected() != 1 {
		t.Errorf("the row was not kept and flagged")
	}
}

func TestProductStockTotalSumsInventories(t *testing.T) {
	f := newFixture(t)
	e := f.e
	id := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Con existencias"))
	otro := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Sin existencias"))
	principal := insertID(t, e, `select id from almacenes where empresa_id = 1 and es_principal`)
	segundo := insertID(t, e, `insert into almacenes (empresa_id, sucursal_id, nombre, codigo)
		select 1, id, 'Bodega Norte', 'NORTE' from sucursales where empresa_id = 1 and es_principal returning id`)
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, cantidad_disponible, costo_unitario) values
		(1, $1, $3, 'L1', 10.5, 100), (1, $1, $3, 'L2', 2, 100), (1, $2, $3, null, 4.25, 90)`, principal, segundo, id)
	// A deleted inventory row does not count.
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, eliminado, activo) values (1, $1, $2, 1000, true, false)`, segundo, id)
	want := 16.75
	stock := func(r testenv.Resp, path string) float64 {
		t.Helper()
		v, err := strconv.ParseFloat(testenv.Exact(t, r.Raw, path), 64)
		if err != nil {
			t.Fatalf("%s: %v in %s", path, err, r.Raw)
		}
		return v
	}
	if r := e.Get(item(productos, id), f.admin); stock(r, "data.stock_total") != want {
		t.Errorf("show stock_total: %s", r.Raw)
	}
	if r := e.Get(item(productos, id), f.admin); testenv.Exact(t, r.Raw, "data.stock_total") != "16.7500" {
		t.Errorf("stock_total keeps the quantity scale: %s", r.Raw)
	}
	if r := e.Get(item(productos, otro), f.admin); testenv.Exact(t, r.Raw, "data.stock_total") != "0.0000" {
		t.Errorf("stock_total without inventory: %s", r.Raw)
	}
	r := e.Get(productos+"?sort=id", f.admin)
	if stock(r, "data.0.stock_total") != want || stock(r, "data.1.stock_total") != 0 {
		t.Errorf("list stock_total: %s", r.Raw)
	}
	// Each write answers the fresh total too.
	if r := e.Call(f.admin, "PATCH", item(productos, id), obj{"nombre": "Con existencias (2)"}); stock(r, "data.stock_total") != want {
		t.Errorf("update answer stock_total: %s", r.Raw)
	}
	// Company 2 stock of its own product is not mixed in.
	id2 := e.Create(t, f.admin2, productos, producto(f.cat2, f.unid, "De la empresa 2"))
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible)
		select 2, a.id, $1, 7 from almacenes a where a.empresa_id = 2 and a.es_principal`, id2)
	if r := e.Get(item(productos, id2), f.admin2); stock(r, "data.stock_total") != 7 {
		t.Errorf("company 2 stock_total: %s", r.Raw)
	}
	if r := e.Get(item(productos, id), f.admin); stock(r, "data.stock_total") != want {
		t.Errorf("company 1 stock_total after company 2's stock: %s", r.Raw)
	}
}

func TestProductListFiltersSearchSortAndPages(t *testing.T) {
	f := newFixture(t)
	e := f.e
	bebidas := e.Create(t, f.admin, categorias, obj{"nombre": "Bebidas"})
	otraMarca := e.Create(t, f.admin, marcas, obj{"nombre": "Britt"})
	mk := func(kv obj) int {
		b := producto(f.cat, f.unid, "")
		for k, v := range kv {
			b[k] = v
		}
		return e.Create(t, f.admin, productos, b)
	}
	cafe := mk(obj{"nombre": "Café molido", "codigo": "CAF-01", "categoria_id": bebidas, "marca_id": otraMarca, "precio_venta": 4500})
	te := mk(obj{"nombre": "Té verde", "codigo": "TE-01", "categoria_id": bebidas, "descripcion": "Infusión sin café", "precio_venta": 1200})
	leche := mk(obj{"nombre": "Leche", "codigo": "LEC-01", "codigo_barras": "7441001", "marca_id": f.marca, "precio_venta": 900})
	envio := mk(obj{"nombre": "Envío a domicilio", "tipo": "servicio", "codigo": "SRV-ENV", "precio_venta": 2000})
	viejo := mk(obj{"nombre": "Producto descontinuado", "codigo": "OLD", "activo": false, "precio_venta": 10})
	// Company 2's café never appears.
	e.Create(t, f.admin2, productos, producto(f.cat2, f.unid, "Café de la empresa 2"))

	for _, c := range []struct {
		query string
		want  []int // in id order
	}{
		{"", []int{cafe, te, leche, envio, viejo}},
		{"search=cafe", []int{cafe, te}}, // name, and description of the tea
		{"search=CAFÉ", []int{cafe, te}},
		{"search=Cafe+molido", []int{cafe}},
		{"search=caf-01", []int{cafe}},   // codigo
		{"search=7441001", []int{leche}}, // codigo_barras
		{"search=infusion", []int{te}},   // descripcion
		{"search=ENVIO", []int{envio}},
		{"search=inexistente", nil},
		{"categoria_id=" + strconv.Itoa(bebidas), []int{cafe, te}},
		{"categoria_id=" + strconv.Itoa(f.cat), []int{leche, envio, viejo}},
		{"categoria_id=" + strconv.Itoa(f.cat2), nil},
		{"tipo=servicio", []int{envio}},
		{"tipo=producto", []int{cafe, te, leche, viejo}},
		{"marca_id=" + strconv.Itoa(f.marca), []int{leche}},
		{"marca_id=" + strconv.Itoa(otraMarca), []int{cafe}},
		{"activos=1", []int{cafe, te, leche, envio}},
		{"activos=0", []int{viejo}},
		{"activos=true&tipo=producto&categoria_id=" + strconv.Itoa(f.cat), []int{leche}},
		{"search=cafe&categoria_id=" + strconv.Itoa(bebidas) + "&marca_id=" + strconv.Itoa(otraMarca), []int{cafe}},
		{"empresa_id=2", []int{cafe, te, leche, envio, viejo}}, // the tenant decides, not the query
	} {
		r := e.Get(productos+"?sort=id&"+c.query, f.admin)
		if r.Status != 200 || fmt.Sprint(testenv.IDs(r)) != fmt.Sprint(c.want) || int(testenv.Num(r.JSON, "total")) != len(c.want) {
			t.Errorf("%s: want %v, got %d %v %s", c.query, c.want, r.Status, testenv.IDs(r), r.Raw)
		}
	}
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"sort=precio_venta", []int{viejo, leche, te, envio, cafe}},
		{"sort=precio_venta&order=desc", []int{cafe, envio, te, leche, viejo}},
		{"sort=codigo", []int{cafe, leche, viejo, envio, te}},
		{"sort=nombre&order=asc", []int{cafe, envio, leche, viejo, te}},
		{"sort=id&order=desc", []int{viejo, envio, leche, te, cafe}},
		{"sort=creado_en", []int{cafe, te, leche, envio, viejo}},
		{"sort=precio_venta&per_page=2&page=2", []int{te, envio}},
		{"sort=precio_venta&per_page=2&page=3", []int{cafe}},
		{"sort=precio_venta&per_page=2&page=4", nil},
	} {
		r := e.Get(productos+"?"+c.query, f.admin)
		if r.Status != 200 || fmt.Sprint(testenv.IDs(r)) != fmt.Sprint(c.want) {
			t.Errorf("%s: want %v, got %d %v", c.query, c.want, r.Status, testenv.IDs(r))
		}
	}
	r := e.Get(productos+"?per_page=2&page=2", f.admin)
	if testenv.Num(r.JSON, "total") != 5 || testenv.Num(r.JSON, "per_page") != 2 || testenv.Num(r.JSON, "current_page") != 2 ||
		testenv.Num(r.JSON, "last_page") != 3 || testenv.Num(r.JSON, "from") != 3 || testenv.Num(r.JSON, "to") != 4 {
		t.Errorf("page meta: %s", r.Raw)
	}
	if r := e.Get(productos, f.admin); testenv.Num(r.JSON, "per_page") != 15 {
		t.Errorf("default per_page: %s", r.Raw)
	}
	for _, c := range []struct{ query, field string }{
		{"tipo=bien", "tipo"},
		{"tipo=Servicio", "tipo"},
		{"categoria_id=abc", "categoria_id"},
		{"marca_id=1.5", "marca_id"},
		{"activos=quizas", "activos"},
		{"sort=costo", "sort"},
		{"sort=busqueda", "sort"},
		{"order=random", "order"},
		{"per_page=101", "per_page"},
		{"per_page=0", "per_page"},
		{"page=0", "page"},
		{"page=x", "page"},
	} {
		testenv.Expect422(t, e.Get(productos+"?"+c.query, f.admin), c.field)
	}
	if r := e.Get(productos+"?search="+url.QueryEscape("%"), f.admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("search %% is a wildcard: %s", r.Raw)
	}
}

func TestProductPermissions(t *testing.T) {
	f := newFixture(t)
	e := f.e
	id := e.Create(t, f.admin, productos, producto(f.cat, f.unid, "Protegido"))
	path := item(productos, id)
	sinModulo := e.UserWith(t, e.Admin(1), "SinProductos", everyPermissionBut("productos")...)
	lector := e.UserWith(t, e.Admin(1), "LectorProductos", "productos.leer")
	editor := e.UserWith(t, e.Admin(1), "EditorProductos", "productos.actualizar")
	vendedor := func() string {
		e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: f.admin, Body: obj{
			"nombre": "Vera", "apellidos": "Vende", "email": "vera@demo.cr", "password": "Segura123!", "roles": []string{"vendedor"}}})
		return e.Login("vera@demo.cr", "Segura123!")
	}()
	body := producto(f.cat, f.unid, "Nuevo")
	cases := append(moduleAccess(sinModulo, lector, productos, path), []access{
		{"editor without leer", editor, "GET", path, 403},
		{"editor without leer", editor, "PATCH", path, 200},
		{"editor without leer", editor, "DELETE", path, 403},
		{"vendedor", vendedor, "GET", productos, 200},
		{"vendedor", vendedor, "POST", productos, 403},
		{"anonymous", "", "GET", productos, 401},
		{"anonymous", "", "POST", productos, 401},
	}...)
	checkAccess(t, e, body, cases)
	if r := e.Get(productos, f.admin); testenv.Num(r.JSON, "total") != 1 || testenv.Str(r.JSON, "data.0.nombre") != "Nuevo" {
		// The editor's PATCH renamed it; nothing else was created or deleted.
		t.Errorf("after the permission checks: %s", r.Raw)
	}
}

func TestAnotherCompanyCannotSeeChangeOrDeleteProducts(t *testing.T) {
	f := newFixture(t)
	e := f.e
	body := producto(f.cat, f.unid, "Secreto de la casa")
	body["codigo"], body["precio_venta"] = "SEC-1", 777
	id := e.Create(t, f.admin, productos, body)
	path := item(productos, id)
	r := e.Get(productos+"?per_page=100", f.admin2)
	if r.Status != 200 || testenv.Num(r.JSON, "total") != 0 || strings.Contains(string(r.Raw), "Secreto") {
		t.Errorf("company 2 lists company 1's product: %s", r.Raw)
	}
	for _, q := range []string{"search=secreto", "categoria_id=" + strconv.Itoa(f.cat), "search=SEC-1"} {
		if r := e.Get(productos+"?"+q, f.admin2); testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("company 2 finds company 1's product with %s: %s", q, r.Raw)
		}
	}
	for _, c := range []struct {
		method string
		body   any
	}{
		{"GET", nil},
		{"PUT", obj{"nombre": "Robado"}},
		{"PATCH", obj{"precio_venta": 1}},
		{"PATCH", obj{"categoria_id": f.cat2}},
		{"DELETE", nil},
	} {
		if r := e.Call(f.admin2, c.method, path, c.body); r.Status != 404 || testenv.Str(r.JSON, "message") == "" {
			t.Errorf("%s by company 2: %d %s", c.method, r.Status, r.Raw)
		}
	}
	r = e.Get(path, f.admin)
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Secreto de la casa" || testenv.Exact(t, r.Raw, "data.precio_venta") != "777.00" {
		t.Errorf("company 1's product changed: %d %s", r.Status, r.Raw)
	}
	// Naming company 1 does not help company 2's admin.
	if r := e.Do(testenv.Req{Method: "GET", Path: path, Token: f.admin2, Headers: map[string]string{"X-Empresa-Id": "1"}}); r.Status != 403 {
		t.Errorf("X-Empresa-Id of a foreign company: %d %s", r.Status, r.Raw)
	}
	// Company 2 cannot point its products at company 1's category or supplier,
	// and the body's empresa_id is ignored.
	testenv.Expect422(t, e.Call(f.admin2, "POST", productos, producto(f.cat, f.unid, "X")), "categoria_id")
	b2 := producto(f.cat2, f.unid, "Suyo")
	b2["proveedor_predeterminado_id"] = f.proveedor
	testenv.Expect422(t, e.Call(f.admin2, "POST", productos, b2), "proveedor_predeterminado_id")
	b2["proveedor_predeterminado_id"] = f.proveedor2
	b2["empresa_id"] = 1
	b2["codigo"] = "SEC-1" // company 1's code, free in company 2
	r = e.Call(f.admin2, "POST", productos, b2)
	if r.Status != 201 || testenv.Num(r.JSON, "data.empresa_id") != 2 || testenv.Num(r.JSON, "data.proveedor_predeterminado_id") != float64(f.proveedor2) {
		t.Errorf("company 2's own product: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(productos, f.admin); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company 1 sees company 2's product: %s", r.Raw)
	}
}
