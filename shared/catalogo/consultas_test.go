package catalogo_test

import (
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
