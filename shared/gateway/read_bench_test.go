package gateway_test

import (
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// BenchmarkReadProductos is one product list page (15 of 100 products, with
// their relations and aggregates) and one product show, end to end through
// the local gateway as make bench-load sends them: the client, HTTP, the
// event, the authorizer, the function and PostgreSQL, in one process. Run
// with -benchmem: allocations and bytes per request are the figures of
// issue 17 to compare (times depend on the shared machine); round trips
// and statements per request are reported too.
func BenchmarkReadProductos(b *testing.B) {
	e := testenv.New(b)
	tok := e.Admin(1)
	e.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, codigo_cabys, nombre, codigo,
			tipo, precio_compra, precio_venta, stock_minimo, gestionado_inventario)
		select 1, (select id from categorias_producto where empresa_id = 1 limit 1), (select id from unidades_medida where codigo = 'Unid'),
			(select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'),
			'2391000000000', 'Producto de prueba ' || lpad(g::text, 4, '0'), 'BENCH-' || lpad(g::text, 4, '0'),
			'producto', (100 + g)::numeric, (150 + g * 3)::numeric + 0.50, 5, true
		from generate_series(1, 100) g`)
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
		select 1, a.id, p.id, 1000, 500 from almacenes a, productos p where a.empresa_id = 1 and a.es_principal and p.empresa_id = 1`)
	id := testenv.Scalar[int64](b, e, `select min(id) from productos where empresa_id = 1 and codigo like 'BENCH-%'`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, c := range []struct{ name, path string }{
		{"list", "/api/productos?per_page=15"},
		{"show", "/api/productos/" + strconv.FormatInt(id, 10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, err := http.NewRequest(http.MethodGet, e.Server.URL+c.path, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Accept", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			get := func() {
				res, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("%s: status %d", c.path, res.StatusCode)
				}
			}
			get() // warm: prepared statements, pooled connections
			rt, st := e.Queries.Load(), e.Statements.Load()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				get()
			}
			b.StopTimer()
			b.ReportMetric(float64(e.Queries.Load()-rt)/float64(b.N), "roundtrips/op")
			b.ReportMetric(float64(e.Statements.Load()-st)/float64(b.N), "statements/op")
		})
	}
}
