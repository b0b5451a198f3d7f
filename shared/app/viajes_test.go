package app_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// The round trips and statements one request costs, end to end (the
// authorizer's included), as the load benchmark of issue 17 counts them:
// a regression guard on counts, never on times. A change that adds a round
// trip to these paths must change this table on purpose.
func TestRoundTripsAndStatementsPerRequest(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	producto := testenv.Scalar[int64](t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo, precio_venta, gestionado_inventario)
		select 1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'), 'Producto', 'P1', 'producto', 1000, true
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' limit 1 returning id`)
	e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
		select 1, id, $1, 1000, 500 from almacenes where empresa_id = 1 and es_principal`, producto)
	almacen := testenv.Scalar[int64](t, e, `select id from almacenes where empresa_id = 1 and es_principal`)
	lineas := make([]any, 5)
	for i := range lineas {
		lineas[i] = map[string]any{"producto_id": producto, "cantidad": 1, "precio_unitario": "1000.00"}
	}
	cases := []struct {
		name                   string
		req                    testenv.Req
		want                   int
		roundTrips, statements int64
	}{
		{"product show", testenv.Req{Method: http.MethodGet, Path: "/api/productos/" + itoa(producto), Token: admin}, http.StatusOK, 2, 6},
		{"product list", testenv.Req{Method: http.MethodGet, Path: "/api/productos?per_page=15", Token: admin}, http.StatusOK, 2, 7},
		// 20 statements: the batches' check-and-lock and the number's
		// update travel with the COMMIT (issue 17: contended locks only in
		// the last round trip); the counter's early lock is gone.
		{"5-line sale", testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: admin, Body: map[string]any{
			"fecha_venta": "2026-11-20", "tipo_comprobante": "factura", "almacen_id": almacen, "detalles": lineas}}, http.StatusCreated, 4, 20},
		{"login", testenv.Req{Method: http.MethodPost, Path: "/api/login", Body: map[string]any{
			"email": testenv.Admin1, "password": testenv.DemoPassword}}, http.StatusOK, 2, 10},
		{"failed login", testenv.Req{Method: http.MethodPost, Path: "/api/login", Body: map[string]any{
			"email": testenv.Admin1, "password": "Incorrecta1!"}}, http.StatusUnauthorized, 1, 8},
		{"me", testenv.Req{Method: http.MethodGet, Path: "/api/me", Token: admin}, http.StatusOK, 2, 10},
	}
	for _, c := range cases {
		// Warm once (prepared statements, caches), then count.
		if r := e.Do(c.req); r.Status != c.want {
			t.Fatalf("%s: %d %s", c.name, r.Status, r.Raw)
		}
		rt, st := e.Queries.Load(), e.Statements.Load()
		if r := e.Do(c.req); r.Status != c.want {
			t.Fatalf("%s: %d %s", c.name, r.Status, r.Raw)
		}
		rt, st = e.Queries.Load()-rt, e.Statements.Load()-st
		if rt != c.roundTrips || st != c.statements {
			t.Errorf("%s: %d round trips and %d statements, want %d and %d", c.name, rt, st, c.roundTrips, c.statements)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
