package catalogo_test

import (
	"net/url"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Lists and shows load relations and counts for the whole page at once: the
// number of database round trips does not depend on the page size. Not
// parallel inside: the environment's query counter is shared.
func TestListsAndShowsDoAConstantNumberOfRoundTrips(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	// 120 categories, brands and products, every product with a brand, a tax
	// rate, a unit and stock in the principal warehouse: more rows than the
	// largest page, each with every relation and count filled.
	e.Exec(`insert into marcas (nombre) select 'Marca ' || g from generate_series(1, 120) g`)
	e.Exec(`insert into categorias_producto (empresa_id, nombre) select 1, 'Categoría ' || g from generate_series(1, 120) g`)
	e.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, marca_id, tipo_impuesto_id, nombre, codigo, tipo, precio_venta)
		select 1, c.id, (select id from unidades_medida where codigo = 'Unid'), m.id, (select min(id) from tipos_impuesto),
		       'Producto ' || c.nombre, 'P-' || c.id, 'producto', 1000
		from categorias_producto c join marcas m on m.nombre = replace(c.nombre, 'Categoría', 'Marca')
		where c.empresa_id = 1`)
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible)
		select 1, a.id, p.id, 3 from productos p, almacenes a where a.empresa_id = 1 and a.es_principal and p.empresa_id = 1`)
	for _, path := range []string{productos, categorias, marcas, unidades} {
		// Warm up (the token's first use is recorded once).
		e.RoundTrips(t, path, admin)
		small := e.RoundTrips(t, path+"?per_page=10", admin)
		large := e.RoundTrips(t, path+"?per_page=100", admin)
		if small != large {
			t.Errorf("%s: per_page=10 -> %d round trips, per_page=100 -> %d", path, small, large)
		}
		if r := e.Get(path+"?per_page=100", admin); testenv.Len(r.JSON, "data") <= 10 {
			t.Fatalf("%s: fixture too small: %d rows", path, testenv.Len(r.JSON, "data"))
		}
		filtered := e.RoundTrips(t, path+"?per_page=100&search=a&sort=id&order=desc", admin)
		if filtered != large {
			t.Errorf("%s: search and sort change the round trips: %d vs %d", path, filtered, large)
		}
		t.Logf("%s: %d round trips per list request (authorizer included)", path, large)
	}
	r := e.Get(productos+"?per_page=100", admin)
	if testenv.Num(r.JSON, "data.99.stock_total") != 3 || testenv.Str(r.JSON, "data.99.marca.nombre") == "" ||
		testenv.Str(r.JSON, "data.99.categoria.nombre") == "" || testenv.Get(r.JSON, "data.99.tipo_impuesto") == nil {
		t.Errorf("relations and counts of the last row: %v", testenv.Get(r.JSON, "data.99"))
	}
	if r := e.Get(categorias+"?per_page=100&sort=id&order=desc", admin); testenv.Num(r.JSON, "data.99.productos_count") != 1 {
		t.Errorf("productos_count of a page row: %v", testenv.Get(r.JSON, "data.99"))
	}
	// A show costs the same whether the record has its relations or not.
	full := int(testenv.Num(r.JSON, "data.0.id"))
	bare := e.Create(t, admin, productos, producto(generalCategory(t, e, admin), unitID(t, e, admin, "Unid"), "Sin relaciones"))
	fullProduct := int(testenv.Num(e.Get(productos+"?per_page=1", admin).JSON, "data.0.id"))
	e.RoundTrips(t, item(productos, bare), admin)
	if a, b := e.RoundTrips(t, item(productos, fullProduct), admin), e.RoundTrips(t, item(productos, bare), admin); a != b {
		t.Errorf("product show: %d round trips with relations, %d without", a, b)
	}
	if a, b := e.RoundTrips(t, item(categorias, full), admin), e.RoundTrips(t, item(categorias, generalCategory(t, e, admin)), admin); a != b {
		t.Errorf("category show: %d vs %d round trips", a, b)
	}
}

// Categories and brands list alike: search over name and description,
// accent- and case-insensitive with LIKE wildcards taken literally, the
// activos filter, sort and pages, and bad parameters refused (422). Each
// gets the same four records; the seeded "General" category is a fifth.
func TestCatalogListsSearchFilterSortAndPage(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	fixtures := []obj{
		{"nombre": "Café y Té", "descripcion": "Bebidas calientes"},
		{"nombre": "Panadería", "descripcion": "Pan artesanal con café"},
		{"nombre": "Limpieza", "activo": false},
		{"nombre": "Útiles escolares"},
	}
	for _, c := range []struct {
		path    string
		totals  []total
		refused []string
	}{
		{categorias, []total{
			{"search=cafe", 2}, // name and description, accent-insensitive
			{"search=CAFÉ", 2},
			{"search=" + url.QueryEscape("café y té"), 1},
			{"search=utiles", 1},
			{"search=ÚTILES", 1},
			{"search=artesanal", 1},
			{"search=nada-parecido", 0},
			{"search=%25", 0}, // a literal %, not a wildcard
			{"search=_", 0},
			{"activos=1", 4},
			{"activos=false", 1},
			{"activos=true&search=limpieza", 0},
		}, []string{"per_page=101", "per_page=0", "per_page=x", "page=0", "page=-1", "sort=busqueda", "sort=empresa_id", "order=up", "activos=quizas"}},
		{marcas, []total{
			{"", 4},
			{"search=cafe", 2},
			{"search=" + url.QueryEscape("CAFÉ Y TÉ"), 1},
			{"search=utiles", 1},
			{"search=artesanal", 1},
			{"activos=0", 1},
			{"activos=1", 3},
		}, []string{"sort=descripcion", "order=sideways", "per_page=1000", "activos=x"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			for _, b := range fixtures {
				e.Create(t, admin, c.path, b)
			}
			checkTotals(t, e, admin, c.path, c.totals)
			checkRefused(t, e, admin, c.path, c.refused...)
		})
	}
	r := e.Get(categorias, admin)
	if r.Status != 200 || testenv.Num(r.JSON, "total") != 5 || testenv.Num(r.JSON, "per_page") != 15 ||
		testenv.Num(r.JSON, "current_page") != 1 || testenv.Num(r.JSON, "last_page") != 1 || testenv.Len(r.JSON, "data") != 5 {
		t.Errorf("default list: %s", r.Raw)
	}
	r = e.Get(categorias+"?sort=nombre&order=desc", admin)
	if testenv.Str(r.JSON, "data.0.nombre") != "Útiles escolares" {
		t.Errorf("sort nombre desc: %s", r.Raw)
	}
	r = e.Get(categorias+"?sort=nombre", admin)
	if testenv.Str(r.JSON, "data.0.nombre") != "Café y Té" {
		t.Errorf("sort nombre asc: %s", r.Raw)
	}
	r = e.Get(categorias+"?sort=id&order=desc&per_page=2&page=2", admin)
	if testenv.Len(r.JSON, "data") != 2 || testenv.Num(r.JSON, "last_page") != 3 || testenv.Num(r.JSON, "from") != 3 ||
		testenv.Num(r.JSON, "to") != 4 || testenv.Num(r.JSON, "current_page") != 2 || testenv.Str(r.JSON, "data.0.nombre") != "Panadería" {
		t.Errorf("categories, page 2 of 3: %s", r.Raw)
	}
	if r := e.Get(categorias+"?per_page=2&page=9", admin); testenv.Len(r.JSON, "data") != 0 || testenv.Num(r.JSON, "total") != 5 || testenv.Get(r.JSON, "from") != nil {
		t.Errorf("categories, page past the end: %s", r.Raw)
	}
	if r := e.Get(marcas+"?sort=nombre&activos=1&per_page=1", admin); testenv.Str(r.JSON, "data.0.nombre") != "Café y Té" || testenv.Num(r.JSON, "last_page") != 3 {
		t.Errorf("brands, sort nombre: %s", r.Raw)
	}
	if r := e.Get(marcas+"?sort=id&order=desc&per_page=3&page=2", admin); testenv.Len(r.JSON, "data") != 1 || testenv.Str(r.JSON, "data.0.nombre") != "Café y Té" {
		t.Errorf("brands, page 2: %s", r.Raw)
	}
}
