package catalogo_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/testenv"
)

const (
	marcas   = "/api/marcas"
	unidades = "/api/unidades-medida"
)

func TestBrandCreateShowUpdateAndSoftDelete(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.PlatformAdmin(1)
	r := e.Call(admin, "POST", marcas, obj{"nombre": "Dos Pinos", "descripcion": "Lácteos"})
	if r.Status != 201 || testenv.Str(r.JSON, "message") == "" || testenv.Str(r.JSON, "data.nombre") != "Dos Pinos" ||
		testenv.Get(r.JSON, "data.activo") != true || testenv.Get(r.JSON, "data.creado_en") == nil {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if _, tenant := testenv.Get(r.JSON, "data").(map[string]any)["empresa_id"]; tenant {
		t.Errorf("a brand is global, yet it has empresa_id: %s", r.Raw)
	}
	id := int(testenv.Num(r.JSON, "data.id"))
	path := item(marcas, id)
	if r := e.Call(admin, "PUT", path, obj{"descripcion": "Leche y helados"}); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Dos Pinos" || testenv.Str(r.JSON, "data.descripcion") != "Leche y helados" {
		t.Errorf("PUT partial: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, "PATCH", path, obj{"descripcion": nil, "activo": false}); r.Status != 200 || testenv.Get(r.JSON, "data.descripcion") != nil || testenv.Get(r.JSON, "data.activo") != false || testenv.Str(r.JSON, "data.nombre") != "Dos Pinos" {
		t.Errorf("PATCH null: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, "PATCH", path, obj{"nombre": "dos pinos"}); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "dos pinos" {
		t.Errorf("renaming to its own name in other case: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, "DELETE", path, nil); r.Status != 200 || testenv.Str(r.JSON, "message") == "" {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(path, admin); r.Status != 404 {
		t.Errorf("show after delete: %d", r.Status)
	}
	if r := e.Get(marcas+"?search=pinos", admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("list after delete: %s", r.Raw)
	}
	if tag := e.Exec(`update marcas set nombre = nombre where id = $1 and eliminado and not activo`, id); tag.RowsAffected() != 1 {
		t.Errorf("the row was not kept and flagged")
	}
	// The name is free again, globally.
	e.Create(t, e.Admin(2), marcas, obj{"nombre": "Dos Pinos"})
}

func TestBrandValidationAndGlobalUniqueness(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.PlatformAdmin(1), e.Admin(2)
	id := e.Create(t, admin1, marcas, obj{"nombre": "Café Britt"})
	otra := e.Create(t, admin1, marcas, obj{"nombre": "Pozuelo"})
	e.ExpectRefused(t, admin1, []testenv.Rechazo{
		{"nombre is required", "POST", marcas, obj{"descripcion": "x"}, "nombre", ""},
		{"nombre cannot be blank", "POST", marcas, obj{"nombre": ""}, "nombre", ""},
		{"nombre must be text", "POST", marcas, obj{"nombre": true}, "nombre", ""},
		{"nombre max 255", "POST", marcas, obj{"nombre": strings.Repeat("m", 256)}, "nombre", ""},
		{"descripcion max 1000", "POST", marcas, obj{"nombre": "Z", "descripcion": strings.Repeat("d", 1001)}, "descripcion", ""},
		{"activo must be boolean", "POST", marcas, obj{"nombre": "Z", "activo": "x"}, "activo", ""},
		{"nombre unique", "POST", marcas, obj{"nombre": "Café Britt"}, "nombre", ""},
		{"nombre unique ignoring case", "POST", marcas, obj{"nombre": "CAFÉ BRITT"}, "nombre", ""},
		{"nombre unique on update", "PATCH", item(marcas, otra), obj{"nombre": "Café Britt"}, "nombre", ""},
		{"nombre cannot be cleared", "PUT", item(marcas, id), obj{"nombre": nil}, "nombre", ""},
	})
	t.Run("nombre unique across companies", func(t *testing.T) {
		testenv.Expect422(t, e.Call(admin2, "POST", marcas, obj{"nombre": "café britt"}), "nombre")
	})
	if r := e.Get(marcas, admin2); testenv.Num(r.JSON, "total") != 2 {
		t.Errorf("brands: %s", r.Raw)
	}
}

func TestBrandsAndUnitsAreGlobal(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	marca := e.Create(t, admin1, marcas, obj{"nombre": "Numar"})
	unidad := e.Create(t, admin1, unidades, obj{"codigo": "Hz", "nombre": "Hercio", "abreviatura": "Hz"})
	// Company 2 sees what company 1 created; its Administrador may not
	// change it (a change reaches every company), a platform administrator may.
	for _, p := range []string{item(marcas, marca), item(unidades, unidad)} {
		if r := e.Get(p, admin2); r.Status != 200 {
			t.Errorf("company 2 GET %s: %d %s", p, r.Status, r.Raw)
		}
		for _, m := range []string{"PUT", "PATCH", "DELETE"} {
			if r := e.Call(admin2, m, p, obj{"descripcion": "Cambiada por la empresa 2"}); r.Status != 403 || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("company 2's Administrador %s %s: %d %s", m, p, r.Status, r.Raw)
			}
		}
	}
	plataforma := e.PlatformAdmin(1)
	if r := e.Get(marcas+"?search=numar", admin2); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company 2 list of brands: %s", r.Raw)
	}
	if r := e.Get(unidades+"?codigo=Hz", admin2); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("company 2 list of units: %s", r.Raw)
	}
	if r := e.Call(plataforma, "PATCH", item(marcas, marca), obj{"descripcion": "Aceites"}); r.Status != 200 {
		t.Errorf("a platform administrator editing a brand: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(item(marcas, marca), admin2); testenv.Str(r.JSON, "data.descripcion") != "Aceites" {
		t.Errorf("company 2 does not see the edit: %s", r.Raw)
	}
	// Both companies can use them in their products.
	for _, tok := range []string{admin1, admin2} {
		body := producto(generalCategory(t, e, tok), unidad, "Con marca global")
		body["marca_id"] = marca
		r := e.Call(tok, "POST", productos, body)
		if r.Status != 201 || testenv.Str(r.JSON, "data.marca.nombre") != "Numar" || testenv.Str(r.JSON, "data.unidad_medida.codigo") != "Hz" {
			t.Errorf("product with global brand and unit: %d %s", r.Status, r.Raw)
		}
	}
}

func TestGlobalCatalogsAreChangedOnlyByPlatformAdministrators(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	marca := e.Create(t, admin, marcas, obj{"nombre": "Tío Pelón"})
	unidad := e.Create(t, admin, unidades, obj{"codigo": "Lx", "nombre": "Lux", "abreviatura": "lx"})
	// Every permission but not the Administrador role: product rights let
	// it add to a catalog, never change what every company shares.
	casiAdmin := e.UserWith(t, e.Admin(1), "CasiAdmin", everyPermissionBut()...)
	// No permission at all.
	nadie := e.UserWith(t, e.Admin(1), "SinPermisos")
	for i, who := range []struct {
		name   string
		tok    string
		create int
	}{{"Administrador of a company", admin, 201}, {"every permission but not Administrador", casiAdmin, 201}, {"no permission", nadie, 403}} {
		for _, res := range []struct {
			base string
			id   int
			body obj
		}{
			{marcas, marca, obj{"nombre": fmt.Sprintf("Otra marca %d", i)}},
			{unidades, unidad, obj{"codigo": []string{"Lm", "Cd", "A"}[i], "nombre": fmt.Sprintf("Unidad %d", i), "abreviatura": fmt.Sprintf("u%d", i)}},
		} {
			cases := []struct {
				method, path string
				want         int
			}{
				{"GET", res.base, 200},
				{"GET", item(res.base, res.id), 200},
				{"POST", res.base, who.create},
				{"PUT", item(res.base, res.id), 403},
				{"PATCH", item(res.base, res.id), 403},
				{"DELETE", item(res.base, res.id), 403},
			}
			for _, c := range cases {
				t.Run(who.name+" "+c.method+" "+c.path, func(t *testing.T) {
					r := e.Call(who.tok, c.method, c.path, res.body)
					if r.Status != c.want {
						t.Errorf("%d %s", r.Status, r.Raw)
					}
					if c.want == 403 && testenv.Str(r.JSON, "message") == "" {
						t.Errorf("403 without message: %s", r.Raw)
					}
				})
			}
		}
	}
	if r := e.Get(item(marcas, marca), admin); r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Tío Pelón" {
		t.Errorf("a forbidden call changed the brand: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(unidades+"?codigo=A", admin); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("a forbidden call created a unit: %s", r.Raw)
	}
	// The platform flag works from any company, and only for its holder.
	plataforma := e.PlatformAdmin(2)
	if r := e.Call(plataforma, "PATCH", item(marcas, marca), obj{"nombre": "Tío Pelón S.A."}); r.Status != 200 {
		t.Errorf("platform administrator renaming a brand: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(plataforma, "DELETE", item(unidades, unidad), nil); r.Status != 200 {
		t.Errorf("platform administrator deleting a unit: %d %s", r.Status, r.Raw)
	}
	// Without a token, nothing.
	for _, p := range []string{marcas, unidades} {
		if r := e.Get(p, ""); r.Status != 401 {
			t.Errorf("GET %s without token: %d", p, r.Status)
		}
	}
}

func TestSeededUnitsCarryOfficialCodesAndSimbolo(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(2)
	r := e.Get(unidades+"?per_page=100&sort=codigo", admin)
	if r.Status != 200 || int(testenv.Num(r.JSON, "total")) != len(seed.Unidades) {
		t.Fatalf("seeded units: %d %s", r.Status, r.Raw)
	}
	for i := 0; i < testenv.Len(r.JSON, "data"); i++ {
		codigo, simbolo := testenv.Str(r.JSON, at(i, "codigo")), testenv.Str(r.JSON, at(i, "simbolo"))
		if simbolo == "" || simbolo != testenv.Str(r.JSON, at(i, "abreviatura")) {
			t.Errorf("unit %s: simbolo %q, abreviatura %q", codigo, simbolo, testenv.Str(r.JSON, at(i, "abreviatura")))
		}
	}
	kg := unitID(t, e, admin, "Kg")
	r = e.Get(item(unidades, kg), admin)
	if r.Status != 200 || testenv.Str(r.JSON, "data.codigo") != "Kg" || testenv.Str(r.JSON, "data.nombre") != "Kilogramo" ||
		testenv.Str(r.JSON, "data.simbolo") != "Kg" || testenv.Str(r.JSON, "data.tipo") != "masa" {
		t.Errorf("show Kg: %d %s", r.Status, r.Raw)
	}
	checkTotals(t, e, admin, unidades, []total{
		{"codigo=Kg", 1},
		{"codigo=kg", 0}, // codes are case-sensitive
		{"tipo=masa", 5},
		{"tipo=servicio", 8},
		{"tipo=nada", 0},
		{"search=kilogramo", 1},
		{"search=" + url.QueryEscape("metro cubico"), 1}, // Metro cúbico
		{"search=DIA", 1}, // Día
		{"search=servicios", 3},
	})
	if r := e.Get(unidades+"?sort=nombre&per_page=2", admin); testenv.Str(r.JSON, "data.0.nombre") != "Activo virtual" {
		t.Errorf("sort nombre: %s", r.Raw)
	}
	checkRefused(t, e, admin, unidades, "sort=tipo", "order=up", "per_page=0")
}

func TestUnitValidation(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.PlatformAdmin(1)
	unit := func(codigo, abrev string) obj {
		return obj{"codigo": codigo, "nombre": "Prueba " + codigo, "abreviatura": abrev}
	}
	kw := e.Create(t, admin, unidades, unit("Kw", "kW"))
	e.ExpectRefused(t, admin, []testenv.Rechazo{
		{"codigo is required", "POST", unidades, obj{"nombre": "X", "abreviatura": "x"}, "codigo", ""},
		{"nombre is required", "POST", unidades, obj{"codigo": "Wb", "abreviatura": "Wb"}, "nombre", ""},
		{"abreviatura is required", "POST", unidades, obj{"codigo": "Wb", "nombre": "Weber"}, "abreviatura", ""},
		{"an unofficial code", "POST", unidades, unit("XYZ", "xyz"), "codigo", "debe ser uno de"},
		{"official codes are case-sensitive: kg", "POST", unidades, unit("kg", "kg2"), "codigo", "debe ser uno de"},
		{"official codes are case-sensitive: KW", "POST", unidades, unit("KW", "KW"), "codigo", "debe ser uno de"},
		{"official codes are case-sensitive: ml", "POST", unidades, unit("ml", "ml"), "codigo", "debe ser uno de"},
		{"code with spaces inside", "POST", unidades, unit("K g", "k g"), "codigo", "debe ser uno de"},
		{"Kg is official, and taken", "POST", unidades, unit("Kg", "kilo"), "codigo", "Ya existe"},
		{"abreviatura taken", "POST", unidades, unit("Wb", "Kg"), "abreviatura", "Ya existe"},
		{"abreviatura max 20", "POST", unidades, unit("Wb", strings.Repeat("w", 21)), "abreviatura", ""},
		{"nombre max 255", "POST", unidades, obj{"codigo": "Wb", "nombre": strings.Repeat("n", 256), "abreviatura": "Wb"}, "nombre", ""},
		{"tipo max 50", "POST", unidades, obj{"codigo": "Wb", "nombre": "Weber", "abreviatura": "Wb", "tipo": strings.Repeat("t", 51)}, "tipo", ""},
		{"descripcion max 1000", "POST", unidades, obj{"codigo": "Wb", "nombre": "Weber", "abreviatura": "Wb", "descripcion": strings.Repeat("d", 1001)}, "descripcion", ""},
		{"update to an unofficial code", "PATCH", item(unidades, kw), obj{"codigo": "kw"}, "codigo", "debe ser uno de"},
		{"update to a taken code", "PUT", item(unidades, kw), obj{"codigo": "Unid"}, "codigo", "Ya existe"},
		{"update to a taken abreviatura", "PATCH", item(unidades, kw), obj{"abreviatura": "Unid"}, "abreviatura", "Ya existe"},
		{"codigo cannot be cleared", "PATCH", item(unidades, kw), obj{"codigo": nil}, "codigo", ""},
		{"abreviatura cannot be cleared", "PATCH", item(unidades, kw), obj{"abreviatura": ""}, "abreviatura", ""},
		{"the ohm is U+2126, not the Greek omega", "POST", unidades, unit("\u03a9", "ohmios"), "codigo", "debe ser uno de"},
	})
	if r := e.Get(unidades, admin); int(testenv.Num(r.JSON, "total")) != len(seed.Unidades)+1 {
		t.Errorf("a refused unit was stored: %s", r.Raw)
	}
	// Official codes of every shape are accepted, exactly as Hacienda spells them.
	for _, c := range [][2]string{{"m/s²", "m/s2"}, {"°C", "grados C"}, {"J/(kg·K)", "J/kgK"}, {"\u2126", "ohm"}, {"´´", "seg arco"}} {
		r := e.Call(admin, "POST", unidades, unit(c[0], c[1]))
		if r.Status != 201 || testenv.Str(r.JSON, "data.codigo") != c[0] || testenv.Str(r.JSON, "data.simbolo") != c[1] || testenv.Str(r.JSON, "data.tipo") != "unidad" {
			t.Errorf("official code %q: %d %s", c[0], r.Status, r.Raw)
		}
	}
	// Abbreviations are unique as written: "kw" is not "kW".
	e.Create(t, admin, unidades, unit("W", "kw"))
}

func TestUnitUpdateAndDelete(t *testing.T) {
	e := testenv.NewParallel(t)
	admin1, admin2 := e.PlatformAdmin(1), e.PlatformAdmin(2)
	id := e.Create(t, admin1, unidades, obj{"codigo": "Pa", "nombre": "Pascal", "abreviatura": "Pa", "tipo": "presion", "descripcion": "Presión"})
	path := item(unidades, id)
	r := e.Call(admin1, "PUT", path, obj{"nombre": "Pascales"})
	if r.Status != 200 || testenv.Str(r.JSON, "data.nombre") != "Pascales" || testenv.Str(r.JSON, "data.codigo") != "Pa" || testenv.Str(r.JSON, "data.tipo") != "presion" {
		t.Errorf("PUT partial: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin1, "PATCH", path, obj{"abreviatura": "Pa.", "descripcion": nil})
	if r.Status != 200 || testenv.Str(r.JSON, "data.simbolo") != "Pa." || testenv.Get(r.JSON, "data.descripcion") != nil || testenv.Str(r.JSON, "data.nombre") != "Pascales" {
		t.Errorf("PATCH abreviatura: %d %s", r.Status, r.Raw)
	}
	// tipo is optional with a default: null puts it back.
	r = e.Call(admin1, "PATCH", path, obj{"tipo": nil})
	if r.Status != 200 || testenv.Str(r.JSON, "data.tipo") != "unidad" {
		t.Errorf("PATCH tipo null: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin1, "PATCH", path, obj{"codigo": "N"})
	if r.Status != 200 || testenv.Str(r.JSON, "data.codigo") != "N" {
		t.Errorf("PATCH to another official code: %d %s", r.Status, r.Raw)
	}

	// A unit used by live products cannot be deleted, whichever company uses it.
	usada := e.Create(t, admin1, unidades, obj{"codigo": "Np", "nombre": "Neper", "abreviatura": "Np"})
	prod := e.Create(t, admin2, productos, producto(generalCategory(t, e, admin2), usada, "Producto de la empresa 2"))
	testenv.Expect422(t, e.Call(admin1, "DELETE", item(unidades, usada), nil), "unidad_medida")
	testenv.Expect422(t, e.Call(admin2, "DELETE", item(unidades, usada), nil), "unidad_medida")
	if r := e.Get(item(unidades, usada), admin1); r.Status != 200 {
		t.Errorf("refused delete removed the unit: %d", r.Status)
	}
	// And, of course, when the caller's own company uses it.
	kg := unitID(t, e, admin1, "Kg")
	e.Create(t, admin1, productos, producto(generalCategory(t, e, admin1), kg, "Azúcar"))
	testenv.Expect422(t, e.Call(admin1, "DELETE", item(unidades, kg), nil), "unidad_medida")
	// A seeded unit nobody uses can be deleted like any other, and its
	// official code (and abbreviation) can be given to a new unit later.
	if r := e.Call(admin2, "DELETE", item(unidades, unitID(t, e, admin1, "Oz")), nil); r.Status != 200 {
		t.Errorf("delete of an unused seeded unit: %d %s", r.Status, r.Raw)
	}
	r = e.Call(admin1, "POST", unidades, obj{"codigo": "Oz", "nombre": "Onza avoirdupois", "abreviatura": "oz"})
	if r.Status != 201 || testenv.Str(r.JSON, "data.nombre") != "Onza avoirdupois" || testenv.Str(r.JSON, "data.simbolo") != "oz" ||
		testenv.Str(r.JSON, "data.tipo") != "unidad" || testenv.Get(r.JSON, "data.activo") != true || testenv.Get(r.JSON, "data.descripcion") != nil {
		t.Errorf("re-creating a deleted official code: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(unidades+"?codigo=Oz", admin2); testenv.Num(r.JSON, "total") != 1 || testenv.Str(r.JSON, "data.0.abreviatura") != "oz" {
		t.Errorf("units with code Oz: %s", r.Raw)
	}
	testenv.Expect422(t, e.Call(admin1, "POST", unidades, obj{"codigo": "Oz", "nombre": "Otra onza", "abreviatura": "oz2"}), "codigo")
	e.Call(admin1, "DELETE", item(unidades, unitID(t, e, admin1, "Qq")), nil)
	e.Create(t, admin1, unidades, obj{"codigo": "Rad", "nombre": "Radián", "abreviatura": "Qq"})
	// Once its products are deleted, it can go.
	e.Call(admin2, "DELETE", item(productos, prod), nil)
	if r := e.Call(admin1, "DELETE", item(unidades, usada), nil); r.Status != 200 {
		t.Fatalf("delete of an unused unit: %d %s", r.Status, r.Raw)
	}
	if r := e.Get(item(unidades, usada), admin1); r.Status != 404 {
		t.Errorf("show after delete: %d", r.Status)
	}
	if r := e.Get(unidades+"?codigo=Np", admin1); testenv.Num(r.JSON, "total") != 0 {
		t.Errorf("list after delete: %s", r.Raw)
	}
	// A deleted unit cannot be given to a product.
	testenv.Expect422(t, e.Call(admin1, "POST", productos, producto(generalCategory(t, e, admin1), usada, "X")), "unidad_medida_id")
	if r := e.Call(admin1, "DELETE", path, nil); r.Status != 200 {
		t.Errorf("delete: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin1, "PATCH", path, obj{"nombre": "x"}); r.Status != http.StatusNotFound {
		t.Errorf("PATCH of a deleted unit: %d", r.Status)
	}
}

func TestReseedingKeepsDeletedUnitsDeleted(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.PlatformAdmin(1)
	if r := e.Call(admin, "DELETE", item(unidades, unitID(t, e, admin, "Oz")), nil); r.Status != 200 {
		t.Fatalf("delete Oz: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, "DELETE", item(unidades, unitID(t, e, admin, "Qq")), nil); r.Status != 200 {
		t.Fatalf("delete Qq: %d %s", r.Status, r.Raw)
	}
	// A custom unit takes the abbreviation of the deleted Qq.
	e.Create(t, admin, unidades, obj{"codigo": "Rad", "nombre": "Radián", "abreviatura": "Qq"})
	applied, err := app.Prepare(context.Background(), e.AdminURL, app.PrepareOptions{Env: "test", Demo: true, DemoPassword: "Otra1234!", BcryptCost: 4})
	if err != nil || len(applied) != 0 {
		t.Fatalf("second prepare: %v %v", applied, err)
	}
	for _, c := range []string{"Oz", "Qq"} {
		if r := e.Get(unidades+"?codigo="+c, admin); testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("the seed brought %s back: %s", c, r.Raw)
		}
	}
	if r := e.Get(unidades, admin); int(testenv.Num(r.JSON, "total")) != len(seed.Unidades)-1 {
		t.Errorf("units after re-seeding: %s", r.Raw)
	}
}
