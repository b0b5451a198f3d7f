package catalogo_test

import (
	"flag"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// The product list and show, byte for byte as sent (key order, number
// text, relations, computed stock, the trailing newline): the performance
// work of issue 17 must not change them.
func TestGoldenProductListAndShowBodies(t *testing.T) {
	f := newFixture(t)
	e := f.e
	a := e.Create(t, f.admin, productos, obj{
		"categoria_id": f.cat, "unidad_medida_id": f.kg, "marca_id": f.marca, "tipo_impuesto_id": f.iva,
		"codigo_cabys": "2399999000000", // no supplier: the fixture's supplier ids vary from run to run
		"nombre":       "Leche <entera> & \"fresca\" 1 L", "codigo": "LEC-001", "codigo_barras": "7441001234567", "descripcion": "Leche de vaca\nfresca",
		"tipo": "producto", "precio_compra": "2000.5", "precio_venta": 3500, "stock_minimo": 5, "stock_maximo": 50,
		"imagen_url": "https://cdn.demo.cr/leche.png?a=1&b=2", "activo": true,
	})
	e.Create(t, f.admin, productos, obj{"categoria_id": f.cat, "unidad_medida_id": f.unid, "nombre": "Servicio de entrega", "tipo": "servicio", "precio_venta": "1500.75"})
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, cantidad_disponible, costo_unitario)
		select 1, id, $1, 'L1', 12.5, 2000.5 from almacenes where empresa_id = 1 and es_principal`, a)

	testenv.Golden(t, "productos_list", e.Get(productos+"?per_page=15", f.admin), *update)
	testenv.Golden(t, "productos_show", e.Get(item(productos, a), f.admin), *update)
	testenv.Golden(t, "productos_404", e.Get(item(productos, 99999), f.admin), *update)
	if r := e.Get(item(productos, a), f.admin); r.Status != http.StatusOK || r.Header.Get("ETag") == "" {
		t.Fatalf("show: %d, ETag %q", r.Status, r.Header.Get("ETag"))
	}
}
