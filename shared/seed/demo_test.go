package seed_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/db/pgtest"
	"github.com/erpcr/erp/shared/seed"
	"github.com/erpcr/erp/shared/testenv"
)

var (
	cabys  = regexp.MustCompile(`^\d{13}$`)
	precio = regexp.MustCompile(`^\d+\.\d\d$`)
)

// The demo records are what the API itself would accept and store.
func TestDemoRecordsPassTheAPIsRules(t *testing.T) {
	for _, p := range seed.DemoProductos {
		if !cabys.MatchString(p.CodigoCabys) || !precio.MatchString(p.PrecioVenta) || !precio.MatchString(p.PrecioCompra) {
			t.Errorf("%s: cabys %q, precios %q %q", p.Codigo, p.CodigoCabys, p.PrecioCompra, p.PrecioVenta)
		}
		if (p.Tipo == "producto") != (len(p.Lotes) > 0) || (p.Tipo != "producto" && p.Tipo != "servicio") {
			t.Errorf("%s: a product has opening stock, a service none", p.Codigo)
		}
	}
	for _, c := range seed.DemoClientes {
		if n, msg, ok := crformat.NormalizeIdentificacion(c.TipoIdentificacion, c.Identificacion); !ok || n != c.Identificacion {
			t.Errorf("%s %s: %s", c.TipoIdentificacion, c.Identificacion, msg)
		}
		if n, ok := crformat.NormalizePhone(c.Telefono); !ok || n != c.Telefono {
			t.Errorf("%s: teléfono %s", c.Identificacion, c.Telefono)
		}
	}
	for _, p := range seed.DemoProveedores {
		if crformat.NormalizeNitRuc(p.NitRuc) != p.NitRuc || crformat.NormalizeEmail(p.Email) != p.Email {
			t.Errorf("%s: %s %s", p.Nombre, p.NitRuc, p.Email)
		}
		if n, ok := crformat.NormalizePhone(p.Telefono); !ok || n != p.Telefono {
			t.Errorf("%s: teléfono %s", p.Nombre, p.Telefono)
		}
	}
}

func TestDemoDataIsRefusedInProduction(t *testing.T) {
	if err := seed.DemoData(context.Background(), "postgres://nadie@127.0.0.1:1/nada", "production"); !errors.Is(err, seed.ErrProduction) {
		t.Fatalf("seed.DemoData: %v", err)
	}
	_, err := app.Prepare(context.Background(), pgtest.NewDB(t), app.PrepareOptions{Env: "production", DemoData: true, DemoPassword: "x", BcryptCost: 4})
	if !errors.Is(err, seed.ErrProduction) {
		t.Fatalf("Prepare: %v", err)
	}
}

func prepareWithDemoData(t *testing.T, adminURL string) {
	t.Helper()
	applied, err := app.Prepare(context.Background(), adminURL, app.PrepareOptions{Env: "test", DemoData: true, DemoPassword: "Otra1234!", BcryptCost: 4})
	if err != nil || len(applied) != 0 {
		t.Fatalf("prepare with demo data: %v %v", applied, err)
	}
}

// snapshot fingerprints every row (timestamps included) of the tables the
// seed writes, so any insert, update or delete shows.
func snapshot(t *testing.T, adminURL string) map[string]string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	out := map[string]string{}
	for _, table := range []string{"empresas", "usuarios", "roles", "sucursales", "almacenes", "configuraciones", "categorias_producto",
		"productos", "clientes", "proveedores", "inventarios", "movimientos_inventario", "detalles_movimiento", "consumos_lote",
		"contadores", "eventos", "unidades_medida", "tipos_impuesto"} {
		row := "to_jsonb(t)"
		if table == "roles" {
			// usuarios.EnsurePredefinedRoles (run by seed.Demo) upserts the
			// predefined roles with "do update set predefinido = true",
			// which touches their actualizado_en on every seed.
			row = "to_jsonb(t) - 'actualizado_en'"
		}
		var fp string
		if err := conn.QueryRow(ctx, fmt.Sprintf(`select count(*) || ':' || coalesce(md5(string_agg((%s)::text, '|' order by (%[1]s)::text)), '') from %s t`, row, table)).Scan(&fp); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		out[table] = fp
	}
	return out
}

// With the demo data on (make run), each demo company has products with
// category, unit, tax type, CABYS and prices, stock in its principal
// warehouse recorded as a processed entry with batches, customers and a
// supplier; seeding again changes nothing, and what the Administrador
// deleted stays deleted.
func TestDemoDataGivesProductsWithStockCustomersAndASupplierOnce(t *testing.T) {
	e := testenv.NewParallel(t)
	// Tests leave the demo data off: the demo companies start empty.
	if r := e.Get("/api/productos", e.Admin(1)); testenv.Num(r.JSON, "total") != 0 {
		t.Fatalf("products before the demo data: %s", r.Raw)
	}
	prepareWithDemoData(t, e.AdminURL)

	stock := map[string]decimal.Decimal{}
	for _, p := range seed.DemoProductos {
		stock[p.Codigo] = decimal.Zero
		for _, l := range p.Lotes {
			stock[p.Codigo] = stock[p.Codigo].Add(decimal.RequireFromString(l.Cantidad))
		}
	}
	for empresa := 1; empresa <= 2; empresa++ {
		admin := e.Admin(empresa)
		get := func(path string) testenv.Resp {
			t.Helper()
			r := e.Get(path, admin)
			if r.Status != http.StatusOK {
				t.Fatalf("empresa %d: GET %s: %d %s", empresa, path, r.Status, r.Raw)
			}
			return r
		}
		r := get("/api/productos?per_page=100&sort=id&order=asc")
		if int(testenv.Num(r.JSON, "total")) != len(seed.DemoProductos) {
			t.Fatalf("empresa %d: productos %s", empresa, r.Raw)
		}
		// Stable ids on a fresh database: company 1 first, in the order of the lists.
		off := int64((empresa - 1) * len(seed.DemoProductos))
		for i, p := range seed.DemoProductos {
			pre := fmt.Sprintf("data.%d.", i)
			if testenv.Str(r.JSON, pre+"codigo") != p.Codigo || int64(testenv.Num(r.JSON, pre+"id")) != off+int64(i)+1 ||
				testenv.Str(r.JSON, pre+"categoria.nombre") != p.Categoria || testenv.Str(r.JSON, pre+"unidad_medida.codigo") != p.Unidad ||
				testenv.Str(r.JSON, pre+"tipo_impuesto.codigo_tarifa_iva") != p.TarifaIVA || testenv.Str(r.JSON, pre+"codigo_cabys") != p.CodigoCabys ||
				testenv.Num(r.JSON, pre+"precio_venta") != decimal.RequireFromString(p.PrecioVenta).InexactFloat64() ||
				testenv.Num(r.JSON, pre+"precio_compra") != decimal.RequireFromString(p.PrecioCompra).InexactFloat64() ||
				testenv.Str(r.JSON, pre+"tipo") != p.Tipo {
				t.Errorf("empresa %d: producto %d: %v", empresa, i, testenv.Get(r.JSON, fmt.Sprintf("data.%d", i)))
			}
			got, err := decimal.NewFromString(fmt.Sprint(testenv.Get(r.JSON, pre+"stock_total")))
			if err != nil || !got.Equal(stock[p.Codigo]) || (p.Tipo == "producto" && !got.IsPositive()) {
				t.Errorf("empresa %d: %s stock_total %v, want %s", empresa, p.Codigo, testenv.Get(r.JSON, pre+"stock_total"), stock[p.Codigo])
			}
		}
		r = get("/api/clientes?per_page=100&sort=id&order=asc")
		if int(testenv.Num(r.JSON, "total")) != len(seed.DemoClientes) {
			t.Fatalf("empresa %d: clientes %s", empresa, r.Raw)
		}
		for i, c := range seed.DemoClientes {
			if testenv.Str(r.JSON, fmt.Sprintf("data.%d.identificacion", i)) != c.Identificacion ||
				int(testenv.Num(r.JSON, fmt.Sprintf("data.%d.id", i))) != (empresa-1)*len(seed.DemoClientes)+i+1 {
				t.Errorf("empresa %d: cliente %d: %v", empresa, i, testenv.Get(r.JSON, fmt.Sprintf("data.%d", i)))
			}
		}
		r = get("/api/proveedores")
		if int(testenv.Num(r.JSON, "total")) != len(seed.DemoProveedores) || testenv.Str(r.JSON, "data.0.nit_ruc") != seed.DemoProveedores[0].NitRuc ||
			int(testenv.Num(r.JSON, "data.0.id")) != empresa {
			t.Errorf("empresa %d: proveedores %s", empresa, r.Raw)
		}
		// The stock is one processed entry with batches in the principal warehouse (id = company on a fresh database).
		r = get("/api/inventario/entradas")
		if testenv.Num(r.JSON, "total") != 1 || testenv.Str(r.JSON, "data.0.numero") != "ENT-00000001" ||
			testenv.Str(r.JSON, "data.0.estado") != "Procesada" || testenv.Str(r.JSON, "data.0.tipo") != "Ajuste Positivo" ||
			int(testenv.Num(r.JSON, "data.0.almacen_id")) != empresa {
			t.Errorf("empresa %d: entradas %s", empresa, r.Raw)
		}
		r = get(fmt.Sprintf("/api/inventario/existencias?almacen_id=%d&lotes=1&per_page=100", empresa))
		if int(testenv.Num(r.JSON, "total")) != len(seed.DemoProductos)-1 {
			t.Errorf("empresa %d: existencias %s", empresa, r.Raw)
		}
	}

	// Seeding again changes nothing.
	before := snapshot(t, e.AdminURL)
	prepareWithDemoData(t, e.AdminURL)
	if after := snapshot(t, e.AdminURL); fmt.Sprint(after) != fmt.Sprint(before) {
		for k := range before {
			if before[k] != after[k] {
				t.Errorf("second seed changed %s: %s -> %s", k, before[k], after[k])
			}
		}
	}

	// What the Administrador deleted stays deleted.
	admin := e.Admin(1)
	for _, path := range []string{"/api/productos/5", "/api/clientes/1", "/api/proveedores/1"} {
		if r := e.Do(testenv.Req{Method: http.MethodDelete, Path: path, Token: admin}); r.Status != http.StatusOK {
			t.Fatalf("DELETE %s: %d %s", path, r.Status, r.Raw)
		}
	}
	before = snapshot(t, e.AdminURL)
	prepareWithDemoData(t, e.AdminURL)
	if after := snapshot(t, e.AdminURL); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("seeding after deletes changed the data")
	}

	// The stock is the domain's: a sale from the principal warehouse takes it
	// FIFO by expiry from the seeded batches.
	r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/ventas", Token: admin, Body: map[string]any{
		"fecha_venta": "2026-11-21", "tipo_comprobante": "factura", "cliente_id": 2, "almacen_id": 1,
		"detalles": []any{map[string]any{"producto_id": 1, "cantidad": 70, "precio_unitario": 1350}},
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("sale from the demo stock: %d %s", r.Status, r.Raw)
	}
	r = e.Get("/api/inventario/existencias?almacen_id=1&producto_id=1&lotes=1", admin)
	if testenv.Num(r.JSON, "data.0.cantidad_disponible") != 30 || testenv.Len(r.JSON, "data.0.lotes") != 1 ||
		testenv.Str(r.JSON, "data.0.lotes.0.lote") != "ARZ-2602" {
		t.Errorf("stock after selling 70 of 100: %s", r.Raw)
	}
}
