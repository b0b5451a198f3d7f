package catalogo_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

const categorias = "/api/categorias-productos"

func TestCategoryCreateShowUpdateAndSoftDelete(t *testing.T) {
	e, admin := testenv.NewAdmin(t)

	r := e.Call(admin, "POST", categorias, obj{"nombre": "  Bebidas  ", "descripcion": "Frías y calientes"})
	if r.Status != http.StatusCreated || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	if testenv.Str(r.JSON, "data.nombre") != "Bebidas" || testenv.Num(r.JSON, "data.empresa_id") != 1 ||
		testenv.Get(r.JSON, "data.activo") != true || testenv.Get(r.JSON, "data.eliminado") != false ||
		testenv.Num(r.JSON, "data.productos_count") != 0 || testenv.Str(r.JSON, "data.creado_en") == "" ||
		testenv.Str(r.JSON, "data.actualizado_en") == "" {
		t.Errorf("created category: %s", r.Raw)
	}
	if _, leaked := testenv.Get(r.JSON, "data").(map[string]any)["busqueda"]; leaked {
		t.Errorf("busqueda column in output: %s", r.Raw)
	}
	path := item(categorias, id)
	if r := e.Get(path, admin); r.Status != 200 || testenv.Str(r.JSON, "data.descripcion") != "Frías y calientes" || testenv.Num(r.JSON, "data.productos_count") != 0 {
		t.Errorf("show: %d %s", r.Status, r.Raw)
	}

	// PUT and PATCH are partial: fields not sent keep their value.
	r = e.Call(admin, "PUT", path, obj{"descripcion": "Solo frías"})
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Bebidas" || testenv.Str(r.JSON, "data.descripcion") != "Solo frías" || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("PUT descripcion: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin, "PATCH", path, obj{"nombre": "Bebidas frías", "activo": false})
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Bebidas frías" || testenv.Str(r.JSON, "data.descripcion") != "Solo frías" || testenv.Get(r.JSON, "data.activo") != false {
		t.Fatalf("PATCH nombre: %d %s", r.Status, r.Raw)
	}
	// null (or a blank string) clears an optional field.
	r = e.Call(admin, "PATCH", path, obj{"descripcion": nil})
	if r.Status != 200 || testenv.Get(r.JSON, "data.descripcion") != nil || testenv.Str(r.JSON, "data.nombre") != "Bebidas frías" {
		t.Fatalf("PATCH descripcion null: %d %s", r.Status, r.Raw)
	}
	e.Call(admin, "PATCH", path, obj{"descripcion": "x"})
	if r := e.Call(admin, "PATCH", path, obj{"descripcion": "  "}); r.Status != 200 || testenv.Get(r.JSON, "data.descripcion") != nil {
		t.Fatalf("PATCH descripcion blank: %d %s", r.Status, r.Raw)
	}
	// Keeping its own name is not a duplicate.
	if r := e.Call(admin, "PUT", path, obj{"nombre": "BEBIDAS FRÍAS"}); r.Status != 200 {
		t.Errorf("renaming to its own name in other case: %d %s", r.Status, r.Raw)
	}
	// An empty update changes nothing and succeeds.
	if r := e.Call(admin, "PATCH", path, obj{}); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "BEBIDAS FRÍAS" {
		t.Errorf("empty PATCH: %d %s", r.Status, r.Raw)
	}

	r = e.Call(admin, "DELETE", path, nil)
	if r.Status != 200 || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, admin); r.Status != 404 || testenv.Str(r.JSON, "message") == "" {
		t.Errorf("show after delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(categorias+"?per_page=100", admin); slices.Contains(testenv.IDs(r), id) || testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("list after delete: %s", r.Raw)
	}
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		if r := e.Call(admin, m, path, obj{"nombre": "Otra"}); r.Status != 404 {
			t.Errorf("%s of a deleted category: %d %s", m, r.Status, r.Raw)
		}
	}
	if tag := e.Exec(`update categorias_producto set nombre = nombre where id = $1 and eliminado and not activo`, id); tag.RowsAffected() != 1 {
		t.Errorf("the row was not kept and flagged")
	}
	// Its name is free again.
	e.Create(t, admin, categorias, obj{"nombre": "Bebidas frías"})
	// Ids that name nothing.
	for _, p := range []string{categorias + "/999999", categorias + "/0", categorias + "/abc"} {
		if r := e.Get(p, admin); r.Status != 404 {
			t.Errorf("GET %s: %d", p, r.Status)
		}
	}
}

func TestCategoryValidation(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	existing := e.Create(t, admin, categorias, obj{"nombre": "Lácteos"})
	e.ExpectRefused(t, admin, []testenv.Rechazo{
		{"nombre is required", "POST", categorias, obj{"descripcion": "x"}, "nombre", ""},
		{"nombre cannot be blank", "POST", categorias, obj{"nombre": "   "}, "nombre", ""},
		{"nombre cannot be null", "POST", categorias, obj{"nombre": nil}, "nombre", ""},
		{"nombre must be text", "POST", categorias, obj{"nombre": 12}, "nombre", ""},
		{"nombre max 255", "POST", categorias, obj{"nombre": strings.Repeat("a", 256)}, "nombre", ""},
		{"nombre unique in the company (seeded)", "POST", categorias, obj{"nombre": "General"}, "nombre", ""},
		{"nombre unique ignoring case", "POST", categorias, obj{"nombre": "GENERAL"}, "nombre", ""},
		{"nombre unique on update", "PATCH", item(categorias, existing), obj{"nombre": "general"}, "nombre", ""},
		{"nombre cannot be cleared on update", "PUT", item(categorias, existing), obj{"nombre": nil}, "nombre", ""},
		{"descripcion max 1000", "POST", categorias, obj{"nombre": "X", "descripcion": strings.Repeat("d", 1001)}, "descripcion", ""},
		{"activo must be boolean", "POST", categorias, obj{"nombre": "Y", "activo": "quizás"}, "activo", ""},
		{"activo cannot be null", "PATCH", item(categorias, existing), obj{"activo": nil}, "activo", ""},
	})
	if r := e.Get(categorias, admin); testenv.Num(r.JSON, "total") != 2 {
		t.Errorf("a refused category was stored: %s", r.Raw)
	}
	if r := e.Get(item(categorias, existing), admin); testenv.Str(r.JSON, "data.nombre") != "Lácteos" {
		t.Errorf("a refused update was stored: %s", r.Raw)
	}
	// Malformed bodies.
	if r := e.Call(admin, "POST", categorias, "{no es json"); r.Status != 400 {
		t.Errorf("malformed JSON: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, "POST", categorias, "[1,2]"); r.Status != 400 {
		t.Errorf("array body: %d %s", r.Status, r.Raw)
	}
}

func TestCategoryNameIsUniquePerCompany(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	// Both demo companies have their own "General".
	if generalCategory(t, e, admin1) == generalCategory(t, e, admin2) {
		t.Fatal("both companies share the seeded category")
	}
	e.Create(t, admin1, categorias, obj{"nombre": "Ferretería"})
	id2 := e.Create(t, admin2, categorias, obj{"nombre": "Ferretería"})
	testenv.Expect422(t, e.Call(admin1, "POST", categorias, obj{"nombre": "ferretería"}), "nombre")
	testenv.Expect422(t, e.Call(admin2, "POST", categorias, obj{"nombre": "FERRETERÍA"}), "nombre")
	// Deleting company 2's frees the name in company 2 only.
	if r := e.Call(admin2, "DELETE", item(categorias, id2), nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	e.Create(t, admin2, categorias, obj{"nombre": "Ferretería"})
	testenv.Expect422(t, e.Call(admin1, "POST", categorias, obj{"nombre": "Ferretería"}), "nombre")
	// Empresa_id in the body is not a field: the tenant is always used.
	r := e.Call(admin2, "POST", categorias, obj{"nombre": "Intrusa", "empresa_id": 1})
	if r.Status != 201 || testenv.Num(r.JSON, "data.empresa_id") != 2 {
		t.Errorf("empresa_id in body: %d %s", r.Status, r.Raw)
	}
}

func TestCategoryProductCountAndDeleteRefusedWhileInUse(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cat := e.Create(t, admin, categorias, obj{"nombre": "Granos"})
	otra := e.Create(t, admin, categorias, obj{"nombre": "Vacía"})
	unid := unitID(t, e, admin, "Unid")
	var prods []int
	for i, n := range []string{"Arroz", "Frijoles", "Lentejas"} {
		body := producto(cat, unid, n)
		if i == 2 {
			body["activo"] = false // inactive products still count
		}
		prods = append(prods, e.Create(t, admin, productos, body))
	}
	count := func(id int) float64 {
		t.Helper()
		show := testenv.Num(e.Get(item(categorias, id), admin).JSON, "data.productos_count")
		list := e.Get(categorias+"?per_page=100&sort=nombre", admin)
		for i := 0; i < testenv.Len(list.JSON, "data"); i++ {
			if int(testenv.Num(list.JSON, at(i, "id"))) == id {
				if got := testenv.Num(list.JSON, at(i, "productos_count")); got != show {
					t.Errorf("list count %v != show count %v", got, show)
				}
			}
		}
		return show
	}
	if n := count(cat); n != 3 {
		t.Errorf("productos_count: %v", n)
	}
	if n := count(otra); n != 0 {
		t.Errorf("productos_count of an empty category: %v", n)
	}
	// A deleted product no longer counts.
	e.Call(admin, "DELETE", item(productos, prods[0]), nil)
	if n := count(cat); n != 2 {
		t.Errorf("productos_count after deleting a product: %v", n)
	}
	// A category with live products cannot be deleted.
	r := e.Call(admin, "DELETE", item(categorias, cat), nil)
	testenv.Expect422(t, r, "categoria")
	if r := e.Get(item(categorias, cat), admin); r.Status != 200 {
		t.Errorf("refused delete removed the category: %d", r.Status)
	}
	// Moving the products away (or deleting them) frees it.
	e.Call(admin, "PATCH", item(productos, prods[1]), obj{"categoria_id": otra})
	e.Call(admin, "DELETE", item(productos, prods[2]), nil)
	if n := count(otra); n != 1 {
		t.Errorf("productos_count after moving a product: %v", n)
	}
	if r := e.Call(admin, "DELETE", item(categorias, cat), nil); r.Status != 200 {
		t.Errorf("delete of a category without live products: %d %s", r.Status, r.Raw)
	}
	// A product cannot be filed under the deleted category.
	testenv.Expect422(t, e.Call(admin, "POST", productos, producto(cat, unid, "Maíz")), "categoria_id")
}

func TestCategoryPermissions(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	id := e.Create(t, admin, categorias, obj{"nombre": "Permisos"})
	path := item(categorias, id)
	sinModulo := e.UserWith(t, e.Admin(1), "SinCategorias", everyPermissionBut("categorias_producto")...)
	lector := e.UserWith(t, e.Admin(1), "LectorCategorias", "categorias_producto.leer")
	// The predefined Usuario role reads categories.
	checkAccess(t, e, obj{"nombre": "Cambiada"}, append(moduleAccess(sinModulo, lector, categorias, path),
		access{"no token", "", "GET", categorias, 401}))
	if r := e.Get(path, admin); testenv.Str(r.JSON, "data.nombre") != "Permisos" {
		t.Errorf("a forbidden call changed the category: %s", r.Raw)
	}
}

func TestAnotherCompanyCannotSeeChangeOrDeleteCategories(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	id := e.Create(t, admin1, categorias, obj{"nombre": "Privada", "descripcion": "de la empresa 1"})
	path := item(categorias, id)
	r := e.Get(categorias+"?per_page=100", admin2)
	if slices.Contains(testenv.IDs(r), id) || testenv.Num(r.JSON, "total") != 1 || strings.Contains(string(r.Raw), "Privada") {
		t.Errorf("company 2 lists company 1's category: %s", r.Raw)
	}
	if r := e.Get(categorias+"?search=privada", admin2); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("company 2 finds company 1's category: %s", r.Raw)
	}
	for _, m := range []string{"GET", "PUT", "PATCH", "DELETE"} {
		if r := e.Call(admin2, m, path, obj{"nombre": "Hackeada"}); r.Status != 404 {
			t.Errorf("%s by company 2: %d %s", m, r.Status, r.Raw)
		}
	}
	if r := e.Get(path, admin1); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Privada" {
		t.Errorf("company 1's category changed: %d %s", r.Status, r.Raw)
	}
}
