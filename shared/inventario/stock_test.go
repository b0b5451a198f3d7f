package inventario_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// stockFixture gives company 1 a product with stock_minimo 5 in the principal warehouse.
func stockFixture(t *testing.T, e *testenv.Env) (almacen, producto int64) {
	e.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, codigo, tipo, precio_venta, stock_minimo)
		select 1, c.id, u.id, 'Arroz', 'ARZ', 'producto', 1000, 5 from categorias_producto c, unidades_medida u
		where c.empresa_id = 1 and u.codigo = 'Unid'`)
	pool := e.Deps.DB
	err := pool.WithTx(context.Background(), db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
		if err := tx.QueryRow(context.Background(), `select id from almacenes where empresa_id = 1 and es_principal`).Scan(&almacen); err != nil {
			return err
		}
		return tx.QueryRow(context.Background(), `select id from productos where empresa_id = 1 and codigo = 'ARZ'`).Scan(&producto)
	})
	if err != nil {
		t.Fatal(err)
	}
	return almacen, producto
}

func TestExitsConsumeBatchesFirstExpiringFirstAndRecordTheirCost(t *testing.T) {
	e := testenv.New(t)
	almacen, producto := stockFixture(t, e)
	ctx := context.Background()
	late, early := time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	var salida int64
	err := e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
		_, err := inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Entrada, Tipo: "Compra", AlmacenID: almacen, Procesar: true,
			Lineas: []inventario.Linea{
				{ProductoID: producto, Cantidad: dec("10"), CostoUnitario: dec("500"), Lote: "B", FechaVencimiento: &late},
				{ProductoID: producto, Cantidad: dec("4"), CostoUnitario: dec("450"), Lote: "A", FechaVencimiento: &early},
			}})
		if err != nil {
			return err
		}
		salida, err = inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Salida, Tipo: "Venta", AlmacenID: almacen, Procesar: true,
			Lineas: []inventario.Linea{{ProductoID: producto, Cantidad: dec("10")}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []inventario.Linea
	_ = e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
		lines, err = inventario.Consumido(ctx, tx, salida)
		return err
	})
	if len(lines) != 2 || lines[0].Lote != "A" || !lines[0].Cantidad.Equal(dec("4")) || !lines[0].CostoUnitario.Equal(dec("450")) ||
		lines[1].Lote != "B" || !lines[1].Cantidad.Equal(dec("6")) || !lines[1].CostoUnitario.Equal(dec("500")) {
		t.Fatalf("consumed %+v", lines)
	}
	// 4 left, under stock_minimo 5: a low-stock event was written.
	r := e.Get("/api/productos/"+itoa(producto), e.Admin(1))
	if got := testenv.Get(r.JSON, "data.stock_total"); got != 4.0 {
		t.Errorf("stock_total %v", got)
	}
	var eventos int
	_ = e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
		return tx.QueryRow(ctx, `select count(*) from eventos where tipo = 'InventarioBajoEvent'`).Scan(&eventos)
	})
	if eventos != 1 {
		t.Errorf("low-stock events: %d", eventos)
	}
}

func TestAnExitBeyondStockFailsOnItsLineAndWritesNothing(t *testing.T) {
	e := testenv.New(t)
	almacen, producto := stockFixture(t, e)
	ctx := context.Background()
	_ = e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
		_, err := inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Entrada, Tipo: "Compra", AlmacenID: almacen, Procesar: true,
			Lineas: []inventario.Linea{{ProductoID: producto, Cantidad: dec("3"), CostoUnitario: dec("100")}}})
		return err
	})
	err := e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
		_, err := inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Salida, Tipo: "Venta", AlmacenID: almacen, Procesar: true,
			Lineas: []inventario.Linea{{ProductoID: producto, Cantidad: dec("1")}, {ProductoID: producto, Cantidad: dec("5")}}})
		return err
	})
	var falta *inventario.FaltaStock
	if !errors.As(err, &falta) || falta.Linea != 1 || !falta.Disponible.Equal(dec("2")) {
		t.Fatalf("err = %v (%+v)", err, falta)
	}
}

func TestMovementRoundTripsDoNotGrowWithLines(t *testing.T) {
	e := testenv.New(t)
	almacen, producto := stockFixture(t, e)
	ctx := context.Background()
	count := func(n int) int64 {
		lines := make([]inventario.Linea, n)
		for i := range lines {
			lines[i] = inventario.Linea{ProductoID: producto, Cantidad: dec("1"), CostoUnitario: dec("10"), Lote: "L" + itoa(int64(i))}
		}
		before := e.Queries.Load()
		err := e.Deps.DB.WithTx(ctx, db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
			if _, err := inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Entrada, Tipo: "Compra", AlmacenID: almacen, Procesar: true, Lineas: lines}); err != nil {
				return err
			}
			_, err := inventario.Crear(ctx, tx, inventario.Movimiento{Clase: inventario.Salida, Tipo: "Venta", AlmacenID: almacen, Procesar: true, Lineas: lines})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return e.Queries.Load() - before
	}
	if one, fifty := count(1), count(50); one != fifty {
		t.Errorf("round trips: 1 line %d, 50 lines %d", one, fifty)
	}
}

func itoa(n int64) string { return decimal.NewFromInt(n).String() }
