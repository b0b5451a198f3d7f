package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/testenv"
)

// tenantTables lists the tables that carry empresa_id (plus empresas itself).
func tenantTables(t *testing.T, conn *pgx.Conn) []string {
	rows, err := conn.Query(context.Background(), `select table_name from information_schema.columns
		where table_schema = 'public' and column_name = 'empresa_id' order by table_name`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return append(tables, "empresas")
}

func ownerCol(table string) string {
	if table == "empresas" {
		return "id"
	}
	return "empresa_id"
}

func TestRowLevelSecurityHidesOtherCompaniesFromTheApplicationRole(t *testing.T) {
	e := testenv.New(t)
	// Make sure company 2 has rows in every tenant table, so the test can fail.
	admin2 := e.Admin(2)
	e.Do(testenv.Req{Method: "POST", Path: "/api/roles", Token: admin2, Body: map[string]any{"nombre": "Solo Dos", "permisos": []string{"ventas.leer"}}})
	e.Do(testenv.Req{Method: "POST", Path: "/api/usuarios", Token: admin2, Body: map[string]any{
		"nombre": "Dos", "email": "dos@demo2.cr", "password": "Segura123!", "roles": []string{"solo-dos"}}})

	// Rows of both companies in the tables no API of this test writes.
	for _, c := range []int{1, 2} {
		e.Exec(`insert into proveedores (empresa_id, nombre, nit_ruc) values ($1, 'Proveedor', '3101999999')`, c)
		e.Exec(`with w as (insert into webhooks (empresa_id, nombre, url, eventos, secreto_cifrado, secreto_pista)
				values ($1, 'W', 'https://hooks.example.com/', '{*}', '\x00', 'x') returning empresa_id, id),
			en as (insert into webhook_entregas (empresa_id, webhook_id, evento, payload) select empresa_id, id, 'x', '{}' from w returning empresa_id, id)
			insert into webhook_intentos (empresa_id, entrega_id, numero, solicitud_headers, duracion_ms) select empresa_id, id, 1, '{}', 1 from en`, c)
		e.Exec(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre) values ($1, 'fisica', '112345678', 'Cliente')`, c)
		e.Exec(`insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta)
			select $1, c.id, u.id, 'Producto', 'producto', 1000 from categorias_producto c, unidades_medida u
			where c.empresa_id = $1 and u.codigo = 'Unid'`, c)
		e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, cantidad_disponible, costo_unitario)
			select $1, a.id, p.id, 5, 100 from almacenes a, productos p where a.empresa_id = $1 and p.empresa_id = $1`, c)
		e.Exec(`insert into contadores (empresa_id, clave, valor) values ($1, 'FAC', 1)`, c)
		e.Exec(`insert into ventas (empresa_id, usuario_id, numero_comprobante, tipo_comprobante, fecha_venta, estado, cliente_id)
			select $1, u.id, 'FAC-00000001', 'factura', current_date, 'pendiente', cl.id from usuarios u, clientes cl
			where u.empresa_id = $1 and cl.empresa_id = $1 limit 1`, c)
		e.Exec(`insert into detalles_venta (empresa_id, venta_id, linea, producto_id, cantidad, precio_unitario, subtotal, monto_impuesto, total)
			select $1, v.id, 1, p.id, 1, 1000, 1000, 130, 1130 from ventas v, productos p where v.empresa_id = $1 and p.empresa_id = $1`, c)
		e.Exec(`insert into ordenes_compra (empresa_id, proveedor_id, usuario_id, numero_orden, fecha_orden, estado)
			select $1, pr.id, u.id, 'OC-000001', current_date, 'borrador' from proveedores pr, usuarios u
			where pr.empresa_id = $1 and u.empresa_id = $1 limit 1`, c)
		e.Exec(`insert into detalles_orden_compra (empresa_id, orden_compra_id, linea, producto_id, cantidad, precio_unitario, subtotal, monto_impuesto, total)
			select $1, o.id, 1, p.id, 1, 500, 500, 65, 565 from ordenes_compra o, productos p where o.empresa_id = $1 and p.empresa_id = $1`, c)
		e.Exec(`insert into movimientos_inventario (empresa_id, clase, tipo, numero, almacen_id)
			select $1, 'salida', 'Venta', 'SAL-00000001', a.id from almacenes a where a.empresa_id = $1`, c)
		e.Exec(`insert into detalles_movimiento (empresa_id, movimiento_id, linea, producto_id, cantidad)
			select $1, m.id, 1, p.id, 1 from movimientos_inventario m, productos p where m.empresa_id = $1 and p.empresa_id = $1`, c)
		e.Exec(`insert into consumos_lote (empresa_id, detalle_id, inventario_id, cantidad, costo_unitario)
			select $1, d.id, i.id, 1, 100 from detalles_movimiento d, inventarios i where d.empresa_id = $1 and i.empresa_id = $1`, c)
		e.Exec(`insert into cuentas_por_cobrar (empresa_id, venta_id, monto, saldo, fecha_emision, fecha_vencimiento)
			select $1, v.id, 1130, 1130, current_date, current_date + 30 from ventas v where v.empresa_id = $1`, c)
		e.Exec(`insert into cuentas_por_pagar (empresa_id, proveedor_id, orden_compra_id, monto, saldo, fecha_emision, fecha_vencimiento)
			select $1, o.proveedor_id, o.id, 565, 565, current_date, current_date + 30 from ordenes_compra o where o.empresa_id = $1`, c)
		e.Exec(`insert into pagos (empresa_id, cuenta_por_cobrar_id, monto, fecha)
			select $1, x.id, 100, current_date from cuentas_por_cobrar x where x.empresa_id = $1`, c)
		e.Exec(`insert into eventos (empresa_id, tipo, payload) values ($1, 'ClienteCreadoEvent', '{}')`, c)
		e.Exec(`insert into claves_idempotencia (empresa_id, usuario_id, clave, ruta, huella, estado_http, respuesta) values ($1, 1, 'k', 'POST /api/ventas', '\x00', 201, '\x00')`, c)
		e.Exec(`insert into hacienda_configuraciones (empresa_id, ambiente, usuario_cifrado) values ($1, 'staging', '\x01')`, c)
		e.Exec(`insert into hacienda_terminales (empresa_id, sucursal_id, establecimiento, terminal)
			select $1, id, 1, 1 from sucursales where empresa_id = $1 and es_principal`, c)
		e.Exec(`insert into comprobantes_electronicos (empresa_id, venta_id, tipo_documento, clave, numero_consecutivo, fecha_emision)
			select $1, v.id, '01', '506211126' || lpad(v.empresa_id::text, 12, '0') || '00100001010000000001' || '1' || '12345678',
			  '00100001010000000001', now() from ventas v where v.empresa_id = $1`, c)
		e.Exec(`insert into metricas_http (empresa_id, metodo, ruta, estado, solicitudes, cubetas) values ($1, 'GET', '/api/ventas', 200, 1, '{1}')`, c)
		e.Exec(`insert into metricas_recientes (empresa_id, ventana, solicitudes) values ($1, now(), 1)`, c)
		// The chart and configuration come with the company; the sale and
		// payment above were posted when their statements committed.
		e.Exec(`insert into periodos_contables (empresa_id, anio, mes, estado) values ($1, 2020, 1, 'cerrado')`, c)
		e.Exec(`insert into tipos_cambio (empresa_id, fecha, compra, venta) values ($1, current_date, 500, 510)`, c)
		// The sale above fed resumen_ventas_dia and dashboard_versiones at its
		// commit (its lines came in a later statement, so no product rows).
		e.Exec(`insert into resumen_productos_dia (empresa_id, fecha, producto_id, cantidad, monto)
			select $1, current_date, id, 1, 1000 from productos where empresa_id = $1 limit 1`, c)
		e.Exec(`insert into dashboard_cache (empresa_id, clave, version, datos) values ($1, 'x', 0, '{}')`, c)
		// The rate above bumped the company's report cache version (0013).
		e.Exec(`insert into reportes_cache (empresa_id, clave, version, datos, expira_en) values ($1, 'k', 1, '\x00', now())`, c)
		// Treasury (migration 0014): a bank account with a reconciliation
		// and one of its lines, a cash box with a session, a budget.
		e.Exec(`with b as (insert into cuentas_bancarias (empresa_id, banco, numero, iban, cuenta_contable_id)
				select $1, 'Banco', '1', 'CR05015202001026284066', id from cuentas_contables where empresa_id = $1 and codigo = '1.1.02.001'
				returning empresa_id, id),
			r as (insert into conciliaciones_bancarias (empresa_id, cuenta_bancaria_id, fecha_corte, saldo_libros, saldo_estado_cuenta,
				total_conciliado, total_no_conciliado, diferencia) select empresa_id, id, current_date, 0, 0, 0, 0, 0 from b returning empresa_id, id)
			insert into conciliacion_movimientos (empresa_id, conciliacion_id, asiento_linea_id, conciliado, monto)
			select r.empresa_id, r.id, (select min(l.id) from asiento_lineas l where l.empresa_id = r.empresa_id), false, 0 from r`, c)
		e.Exec(`with k as (insert into cajas (empresa_id, sucursal_id, nombre, cuenta_contable_id)
				select $1, s.id, 'Caja', (select cuenta_caja_id from contabilidad_configuracion where empresa_id = $1)
				from sucursales s where s.empresa_id = $1 and s.es_principal returning empresa_id, id)
			insert into caja_sesiones (empresa_id, caja_id, monto_inicial) select empresa_id, id, 0 from k`, c)
		e.Exec(`insert into presupuestos (empresa_id, anio, cuenta_contable_id, montos)
			select $1, 2026, id, array_fill(0::numeric, array[12]) from cuentas_contables where empresa_id = $1 and codigo = '4.1.01.001'`, c)
		// Scheduled reports (migration 0017): a schedule with one run.
		e.Exec(`with r as (insert into reportes_programados (empresa_id, nombre, tipo, frecuencia, hora, formato, proxima_ejecucion, usuario_id)
				select $1, 'Diario', 'ventas', 'diaria', '08:00', 'pdf', now(), (select min(usuario_id) from membresias where empresa_id = $1)
				returning empresa_id, id)
			insert into reporte_ejecuciones (empresa_id, reporte_programado_id, programada_para) select empresa_id, id, now() from r`, c)
		// Employees (migration 0018): one linked to the company's first member.
		e.Exec(`insert into empleados (empresa_id, nombre, apellidos, tipo_identificacion, identificacion, fecha_nacimiento,
				fecha_ingreso, puesto, salario_base, usuario_id)
			select $1, 'Ana', 'Mora', 'fisica', '112345678', '1990-01-01', '2020-01-01', 'Chofer', 500000,
			  (select min(usuario_id) from membresias where empresa_id = $1)`, c)
		// Transport (migration 0019): a route with a stop and a departure,
		// and a bus on it driven by the employee above.
		e.Exec(`with r as (insert into rutas (empresa_id, codigo, nombre, origen, destino) values ($1, 'R1', 'Ruta', 'A', 'B')
				returning empresa_id, id),
			p as (insert into ruta_paradas (empresa_id, ruta_id, orden, nombre, latitud, longitud)
				select empresa_id, id, 1, 'Parada', 9.93, -84.08 from r),
			h as (insert into ruta_horarios (empresa_id, ruta_id, dia_semana, hora_salida) select empresa_id, id, 'lunes', '06:00' from r)
			insert into buses (empresa_id, placa, capacidad_pasajeros, ruta_id, chofer_id)
			select r.empresa_id, 'AB 1234', 40, r.id, (select min(id) from empleados where empresa_id = $1) from r`, c)
		// Payroll (migration 0020): the vacation setting and a planilla with
		// a line of the employee above.
		e.Exec(`insert into nomina_configuracion (empresa_id, porcentaje_vacaciones) values ($1, 4.17)`, c)
		e.Exec(`with p as (insert into planillas (empresa_id, numero, tipo, fecha_inicio, fecha_fin)
				values ($1, 'PLA-000001', 'mensual', '2026-03-01', '2026-03-31') returning empresa_id, id)
			insert into planilla_lineas (empresa_id, planilla_id, empleado_id, salario_base, jornada)
			select p.empresa_id, p.id, (select min(id) from empleados where empresa_id = $1), 500000, 'diurna' from p`, c)
	}

	ctx := context.Background()
	owner, err := pgx.Connect(ctx, e.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	tables := tenantTables(t, owner)
	if len(tables) < 7 {
		t.Fatalf("expected the tenant tables, got %v", tables)
	}
	for _, table := range tables {
		var n int
		if err := owner.QueryRow(ctx, `select count(*) from `+pgx.Identifier{table}.Sanitize()+` where `+ownerCol(table)+` = 2`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("fixture: table %s has no row of company 2", table)
		}
	}

	// The application role: not the owner of anything, no BYPASSRLS, no superuser.
	var super, bypass bool
	var owned int
	if err := owner.QueryRow(ctx, `select rolsuper, rolbypassrls, (select count(*) from pg_tables where tableowner = $1)
		from pg_roles where rolname = $1`, db.AppRole).Scan(&super, &bypass, &owned); err != nil {
		t.Fatal(err)
	}
	if super || bypass || owned != 0 {
		t.Fatalf("erp_app: superuser=%v bypassrls=%v owns %d tables", super, bypass, owned)
	}

	pool, err := db.Open(ctx, db.Options{URL: e.AppURL, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, table := range tables {
		t.Run(table, func(t *testing.T) {
			err := pool.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
				rows, err := tx.Query(ctx, `select * from `+pgx.Identifier{table}.Sanitize())
				if err != nil {
					return err
				}
				defer rows.Close()
				col := -1
				for i, f := range rows.FieldDescriptions() {
					if f.Name == ownerCol(table) {
						col = i
					}
				}
				seen := 0
				for rows.Next() {
					vals, err := rows.Values()
					if err != nil {
						return err
					}
					seen++
					if id, _ := vals[col].(int64); id != 1 {
						t.Errorf("tenant 1 sees a row of company %v in %s: %v", vals[col], table, vals)
					}
				}
				if seen == 0 {
					t.Errorf("tenant 1 sees no row at all in %s (fixture)", table)
				}
				return rows.Err()
			})
			if err != nil {
				t.Fatal(err)
			}
			// With no tenant set, nothing at all is visible.
			err = pool.WithTx(ctx, db.Scope{}, func(tx *db.Tx) error {
				var n int
				if err := tx.QueryRow(ctx, `select count(*) from `+pgx.Identifier{table}.Sanitize()).Scan(&n); err != nil {
					return err
				}
				if n != 0 {
					t.Errorf("without a tenant %d rows of %s are visible", n, table)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}

	// Writing a row of another company is refused by the policy itself.
	err = pool.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `insert into roles (empresa_id, nombre, slug) values (2, 'Intruso', 'intruso')`)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "row-level security") {
		t.Fatalf("insert into company 2 as tenant 1: %v", err)
	}
	// And the application role cannot read tokens at all.
	err = pool.WithTx(ctx, db.Scope{EmpresaID: 1}, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `select * from tokens_acceso`)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("erp_app reading tokens_acceso: %v", err)
	}
}
