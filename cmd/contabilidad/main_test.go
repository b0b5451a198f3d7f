package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Sales recorded before the books existed are posted once: the first run
// posts them, the second posts nothing.
func TestBackfillPostsTheHistoryOnce(t *testing.T) {
	e := testenv.New(t)
	admin := e.Admin(1)
	cliente := testenv.Scalar[int64](t, e, `insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos)
		values (1, 'fisica', '101110111', 'Cliente', 'Histórico') returning id`)
	// History without books: the posting triggers off while it is recorded.
	e.Exec(`alter table ventas disable trigger ventas_contabilidad`)
	for i := 0; i < 3; i++ {
		r := e.Call(admin, http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-02-10", "tipo_comprobante": "tiquete",
			"cliente_id": cliente, "detalles": []any{map[string]any{"producto_id": producto(t, e, i), "cantidad": 1, "precio_unitario": 1000}}})
		if r.Status != http.StatusCreated {
			t.Fatalf("sale: %d %s", r.Status, r.Raw)
		}
	}
	e.Exec(`alter table ventas enable trigger ventas_contabilidad`)
	if n := testenv.Scalar[int64](t, e, `select count(*) from asientos_contables`); n != 0 {
		t.Fatalf("%d entries before the backfill", n)
	}
	t.Setenv("DATABASE_URL", e.AdminURL)
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Empresa 1 (") || !strings.Contains(out.String(), "3 asientos contabilizados") ||
		!strings.Contains(out.String(), "AS-2026-000003") || !strings.Contains(out.String(), "Total: 3 asientos") {
		t.Errorf("first run:\n%s", out.String())
	}
	if d := testenv.Scalar[string](t, e, `select (sum(debe) - sum(haber))::text from asiento_lineas`); d != "0.00" {
		t.Errorf("posted lines do not balance: %s", d)
	}
	out.Reset()
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Total: 0 asientos") {
		t.Errorf("second run posted again:\n%s", out.String())
	}
	if n := testenv.Scalar[int64](t, e, `select count(*) from asientos_contables`); n != 3 {
		t.Errorf("%d entries after two runs", n)
	}
}

func producto(t *testing.T, e *testenv.Env, i int) int64 {
	t.Helper()
	return testenv.Scalar[int64](t, e, `insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, codigo, tipo, precio_venta, gestionado_inventario)
		select 1, c.id, u.id, 'Servicio ' || $1::int, 'H-' || $1::int, 'servicio', 1000, false
		from categorias_producto c, unidades_medida u where c.empresa_id = 1 and u.codigo = 'Unid' limit 1 returning id`, i)
}
