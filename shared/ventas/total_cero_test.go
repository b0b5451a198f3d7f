package ventas_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/testenv"
)

// A sale of total 0 whose goods have a cost takes the company's rows at
// COMMIT in the order every sale does: the books' entry counter (its
// exit's cost of sales) before the dashboard's day row; so does its
// cancellation (the goods' return before the dashboard's take-back). It
// posts no entry of its own, so it used to reach the counter only after
// the dashboard (through its movement's posting) and deadlocked with a
// sale committing beside it (1-2 per 80 mixed concurrent requests). Shown
// by holding each row in turn: a sale waiting for the counter holds no
// dashboard row yet, and one waiting for the dashboard's row already
// holds the counter, as a sale of total 100 does.
func TestASaleOfTotalZeroTakesTheBooksCounterBeforeTheDashboardLikeEverySale(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	f.Stock(f.Almacen, p, "10", "25", "", "")
	// The year's counter and the day's summary exist, as on any busy day.
	f.venderOK(testenv.With(venta(linea(p, 1, 100)), "almacen_id", f.Almacen))
	const contador = `select 1 from contadores where empresa_id = 1 and clave = 'asientos:2026' for update`
	const resumen = `select 1 from resumen_ventas_dia where empresa_id = 1 and fecha = '2026-03-15' for update`
	// tomada checks, from a third session, whether the waiting sale holds
	// the row sql locks.
	tomada := func(t *testing.T, sql string, want bool) func(context.Context, pgx.Tx) {
		return func(ctx context.Context, _ pgx.Tx) {
			otra, err := pgx.Connect(ctx, f.E.AdminURL)
			if err != nil {
				t.Fatal(err)
			}
			defer otra.Close(ctx)
			_, err = otra.Exec(ctx, sql+" nowait")
			if held := err != nil && strings.Contains(err.Error(), "55P03"); held != want || (err != nil && !held) {
				t.Errorf("%s: held by the waiting sale = %v, want %v (%v)", sql, held, want, err)
			}
		}
	}
	vender := func(precio int) testenv.Resp {
		return f.Call(http.MethodPost, "/api/ventas", testenv.With(venta(linea(p, 1, precio)), "almacen_id", f.Almacen))
	}
	acciones := []struct {
		nombre string
		// preparar runs before the locks; its result is what hacer acts on.
		preparar func(precio int) int64
		hacer    func(precio int, venta int64) testenv.Resp
		estado   int
	}{
		{"sale", func(int) int64 { return 0 }, func(precio int, _ int64) testenv.Resp { return vender(precio) }, http.StatusCreated},
		{"cancellation", func(precio int) int64 {
			return id(f.venderOK(testenv.With(venta(linea(p, 1, precio)), "almacen_id", f.Almacen)))
		},
			func(_ int, v int64) testenv.Resp {
				return f.Call(http.MethodPut, path("ventas", v), map[string]any{"estado": "anulada"})
			}, http.StatusOK},
	}
	for _, a := range acciones {
		for _, precio := range []int{100, 0} {
			for _, c := range []struct {
				nombre, espera, otra string
				tomada               bool
			}{
				{"waiting for the counter it holds no dashboard row", contador, resumen, false},
				{"waiting for the dashboard it holds the counter", resumen, contador, true},
			} {
				t.Run(a.nombre+"/total "+itoa(int64(precio))+"/"+c.nombre, func(t *testing.T) {
					v := a.preparar(precio)
					r := f.conBloqueo(t, c.espera, nil, "%", tomada(t, c.otra, c.tomada), func() testenv.Resp { return a.hacer(precio, v) })
					if r.Status != a.estado || testenv.Exact(t, r.Raw, "data.monto_total") != itoa(int64(precio))+".00" {
						t.Fatalf("%s: %d %s", a.nombre, r.Status, r.Raw)
					}
				})
			}
		}
	}
	// Every processed movement of a sale (exit or return) is posted once.
	if n := f.Int(`select count(*) from movimientos_inventario m where m.empresa_id = 1 and m.venta_id is not null
		and m.estado = 'Procesada' and (select count(*) from asientos_contables a where a.empresa_id = 1 and a.origen = 'inventario'
		and a.origen_id = m.id) <> 1`); n != 0 {
		t.Errorf("%d movements of sales not posted exactly once", n)
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and origen = 'inventario'`); n < 9 {
		t.Errorf("%d stock entries, want at least the 9 exits'", n)
	}
}
