package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/inventario"
)

// dataset is what the load runs over: company 1's seeded products,
// customers and principal warehouse.
type dataset struct {
	productos []int64
	clientes  []int64
	almacen   int64
}

// seedDataset adds the reproducible bench data to demo company 1: 1,000
// products (BENCH-0001..1000, fixed prices), 200 customers and a processed
// opening entry with 10,000,000 units of every product, so that the sales
// of a run never run out of stock. Created the same way on every run (the
// database is created afresh), then analyzed.
func seedDataset(ctx context.Context, adminURL string, nProductos, nClientes int) (dataset, error) {
	var ds dataset
	pool, err := db.Open(ctx, db.Options{URL: adminURL, MaxConns: 1})
	if err != nil {
		return ds, err
	}
	defer pool.Close()
	err = pool.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
		var admin int64
		if err := tx.QueryRow(ctx, `select id from usuarios where lower(email) = 'admin@demo.cr'`).Scan(&admin); err != nil {
			return fmt.Errorf("admin: %w", err)
		}
		if err := tx.QueryRow(ctx, `select id from almacenes where empresa_id = 1 and es_principal and not eliminado`).Scan(&ds.almacen); err != nil {
			return fmt.Errorf("almacén: %w", err)
		}
		var categoria int64
		if err := tx.QueryRow(ctx, `insert into categorias_producto (empresa_id, nombre, descripcion)
			values (1, 'Prueba de carga', 'Productos de make bench-load') returning id`).Scan(&categoria); err != nil {
			return fmt.Errorf("categoría: %w", err)
		}
		rows, _ := tx.Query(ctx, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, codigo_cabys, nombre, codigo,
				tipo, precio_compra, precio_venta, stock_minimo, gestionado_inventario)
			select 1, $2::bigint, (select id from unidades_medida where codigo = 'Unid' and not eliminado),
				(select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = '08'),
				'2391000000000', 'Producto de prueba ' || lpad(g::text, 4, '0'), 'BENCH-' || lpad(g::text, 4, '0'),
				'producto', (100 + g)::numeric, (150 + g * 3)::numeric + 0.50, 5, true
			from generate_series(1, $1::int) g
			returning id`, nProductos, categoria)
		if ds.productos, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return fmt.Errorf("productos: %w", err)
		}
		rows, _ = tx.Query(ctx, `insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, email, telefono, provincia, dias_credito, limite_credito)
			select 1, 'fisica', (500000000 + g)::text, 'Cliente', 'Prueba ' || g, 'cliente' || g || '@bench.ejemplo.cr', '8800' || lpad(g::text, 4, '0'),
				'San José', 30, 100000000
			from generate_series(1, $1::int) g
			returning id`, nClientes)
		if ds.clientes, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return fmt.Errorf("clientes: %w", err)
		}
		lineas := make([]inventario.Linea, len(ds.productos))
		for i, id := range ds.productos {
			lineas[i] = inventario.Linea{ProductoID: id, Cantidad: decimal.NewFromInt(10_000_000), CostoUnitario: decimal.NewFromInt(int64(100 + i))}
		}
		obs := "Inventario de la prueba de carga."
		y, m, d := time.Now().UTC().Add(-6 * time.Hour).Date()
		_, err := inventario.Crear(ctx, tx, inventario.Movimiento{
			Clase: inventario.Entrada, Tipo: "Ajuste Positivo", AlmacenID: ds.almacen, UsuarioID: admin,
			Fecha: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Observaciones: &obs, Lineas: lineas, Procesar: true,
		})
		if err != nil {
			return fmt.Errorf("inventario: %w", err)
		}
		return nil
	})
	if err != nil {
		return ds, err
	}
	// Statistics now, as a database in use has them: otherwise the first
	// plans of the load are made for empty tables (a list's page then reads
	// ~1,000 buffers instead of ~130) until autovacuum's analyze, which
	// comes at a moment of its own within the first minute, so that two
	// runs measured different plans.
	_, err = pool.Pool.Exec(ctx, `analyze`)
	return ds, err
}
