select estado, usuario_id, empresa_id, permisos, roles, plataforma from auth_autorizar(:s0_1, :s0_2, NULL::bigint, NULL::text);
begin;
select set_config('app.empresa_id', :s2_1, true), set_config('app.usuario_id', :s2_2, true);
select p.id, p.nombre, p.activo, p.gestionado_inventario, coalesce(ti.porcentaje, 0)
		from productos p left join tipos_impuesto ti on ti.id = p.tipo_impuesto_id
		where p.empresa_id = :s3_1 and p.id = any(:s3_2) and not p.eliminado;
select activo, dias_credito from clientes where empresa_id = :s4_1 and id = :s4_2 and not eliminado;
select activo from sucursales where empresa_id = :s5_1 and id = NULL::bigint and not eliminado;
select activo from almacenes where empresa_id = :s6_1 and id = :s6_2 and not eliminado;
select activo from formas_pago where id = NULL::bigint and not eliminado;
select clave, valor = 'true'::jsonb from configuraciones
		where empresa_id = :s8_1 and clave = any(:s8_2) and activo and not eliminado;
select id from almacenes where empresa_id = :s9_1 and es_principal and activo and not eliminado
		order by (sucursal_id = NULL::bigint) desc nulls last, id limit 1;
select estado <> 'anulada', tipo_comprobante from ventas where empresa_id = :s10_1 and id = NULL::bigint and not eliminado;
insert into contadores (empresa_id, clave, valor) values (:s11_1, :s11_2, 1)
		on conflict (empresa_id, clave) do update set valor = contadores.valor + 1, actualizado_en = now()
		returning valor;
with v as (
		  insert into ventas (empresa_id, sucursal_id, cliente_id, usuario_id, forma_pago_id, almacen_id, numero_comprobante,
		    tipo_comprobante, fecha_venta, estado, condicion_venta, observaciones,
		    monto_subtotal, monto_descuentos, monto_impuestos, monto_total,
		    venta_referencia_id, codigo_referencia, razon_referencia, moneda, tipo_cambio, cuenta_bancaria_id, caja_id)
		  values (:s12_1, NULL::bigint, :s12_3, :s12_4, NULL::bigint, :s12_6, :s12_7, :s12_8, :s12_9, :s12_10, :s12_11, NULL::character varying, :s12_13, :s12_14, :s12_15, :s12_16, NULL::bigint, NULL::character varying, NULL::character varying, :s12_30, :s12_31, NULL::bigint, NULL::bigint) returning id
		), d as (
		  insert into detalles_venta (empresa_id, venta_id, linea, producto_id, descripcion, cantidad, precio_unitario, descuento,
		    porcentaje_impuesto, subtotal, monto_impuesto, total)
		  select :s12_1, v.id, x.linea, x.producto, x.descripcion, x.cantidad, x.precio, x.descuento, x.porcentaje, x.subtotal, x.impuesto, x.total
		  from v, unnest(:s12_17::int[], :s12_18::bigint[], :s12_19::text[], :s12_20::numeric[], :s12_21::numeric[], :s12_22::numeric[], :s12_23::numeric[],
		    :s12_24::numeric[], :s12_25::numeric[], :s12_26::numeric[])
		    as x(linea, producto, descripcion, cantidad, precio, descuento, porcentaje, subtotal, impuesto, total)
		)
		select id from v;
insert into cuentas_por_cobrar (empresa_id, cliente_id, venta_id, monto, saldo, fecha_emision, fecha_vencimiento, estado)
		select v.empresa_id, v.cliente_id, v.id, v.monto_total, v.monto_total, v.fecha_venta,
		  v.fecha_venta + least(coalesce(nullif(c.dias_credito, 0), :s13_4), 36500),
		  case when v.monto_total = 0 then 'pagada' else 'pendiente' end
		from ventas v join clientes c on c.empresa_id = v.empresa_id and c.id = v.cliente_id
		where v.empresa_id = :s13_1 and v.condicion_venta = 'credito'
		  and (NULL::bigint::bigint is null or v.id = NULL::bigint) and (:s13_3::text is null or v.numero_comprobante = :s13_3)
		on conflict (empresa_id, venta_id) do nothing;
insert into contadores (empresa_id, clave, valor) values (:s14_1, :s14_2, 1)
		on conflict (empresa_id, clave) do update set valor = contadores.valor + 1, actualizado_en = now()
		returning valor;
with m as (
			insert into movimientos_inventario (empresa_id, clase, tipo, numero, almacen_id, fecha, usuario_id,
				orden_compra_id, venta_id, proveedor_id, cliente_id, movimiento_par_id, observaciones)
			values (:s15_1, :s15_2, :s15_3, :s15_4, :s15_5, :s15_6, :s15_7, NULL::bigint, :s15_9, NULL::bigint, :s15_11, NULL::bigint, :s15_13) returning id),
		d as (
			insert into detalles_movimiento (empresa_id, movimiento_id, linea, producto_id, cantidad, costo_unitario, lote, fecha_vencimiento)
			select :s15_1, m.id, x.linea, x.producto, x.cantidad, x.costo, x.lote, x.vence
			from m, unnest(:s15_14::int[], :s15_15::bigint[], :s15_16::numeric[], :s15_17::numeric[], :s15_18::text[], :s15_19::date[])
			  as x(linea, producto, cantidad, costo, lote, vence)
			returning id, linea)
		select m.id, d.id, d.linea from m left join d on true order by d.linea;
select id, producto_id, cantidad_disponible, costo_unitario from inventarios
		where empresa_id = :s16_1 and almacen_id = :s16_2 and producto_id = any(:s16_3) and not eliminado
		order by producto_id, fecha_vencimiento nulls last, creado_en, id
		for update;
update inventarios i set cantidad_disponible = x.queda
		from unnest(:s17_2::bigint[], :s17_3::numeric[]) as x(id, queda)
		where i.empresa_id = :s17_1 and i.id = x.id and i.cantidad_disponible <> x.queda;
insert into consumos_lote (empresa_id, detalle_id, inventario_id, cantidad, costo_unitario)
		select :s18_1, x.detalle, x.inventario, x.cantidad, x.costo
		from unnest(:s18_2::bigint[], :s18_3::bigint[], :s18_4::numeric[], :s18_5::numeric[]) as x(detalle, inventario, cantidad, costo);
update movimientos_inventario set estado = 'Procesada', procesado_en = now() where empresa_id = :s19_1 and id = :s19_2;
insert into eventos (empresa_id, tipo, payload)
		select :s20_1, :s20_4, jsonb_build_object('producto_id', p.id, 'codigo', p.codigo, 'nombre', p.nombre, 'almacen_id', :s20_2::bigint,
		  'stock_actual', coalesce(s.total, 0), 'stock_minimo', p.stock_minimo)
		from productos p
		left join (select producto_id, sum(cantidad_disponible) total from inventarios
		           where empresa_id = :s20_1 and almacen_id = :s20_2 and not eliminado group by producto_id) s on s.producto_id = p.id
		where p.empresa_id = :s20_1 and p.id = any(:s20_3) and p.gestionado_inventario and coalesce(s.total, 0) < p.stock_minimo;
select v.id, v.empresa_id, v.sucursal_id, v.cliente_id, v.usuario_id, v.forma_pago_id, v.almacen_id,
	v.cuenta_bancaria_id, v.caja_id, v.caja_sesion_id, v.numero_comprobante, v.tipo_comprobante, v.fecha_venta::text, v.estado, v.condicion_venta, v.observaciones, v.moneda, v.tipo_cambio,
	v.monto_subtotal, v.monto_descuentos, v.monto_impuestos, v.monto_total, v.anulado_en,
	v.venta_referencia_id, v.codigo_referencia, v.razon_referencia, v.activo, v.eliminado,
	v.creado_en, v.actualizado_en from ventas v where v.empresa_id = :s21_1 and v.id = :s21_2 and not v.eliminado;
select c.id, c.tipo_identificacion, c.identificacion, case when c.tipo_identificacion = 'fisica' or c.razon_social is null
	then coalesce(nullif(trim(concat_ws(' ', c.nombre, c.apellidos)), ''), c.razon_social) else c.razon_social end, c.email, c.telefono, c.dias_credito
	from clientes c where c.empresa_id = :s22_1 and c.id = any(:s22_2);
select id, nombre, apellidos, email from usuarios where id = any(:s23_1);
select id, nombre, codigo from sucursales where empresa_id = :s24_1 and id = any(NULL::bigint[]);
select id, nombre, codigo from almacenes where empresa_id = :s25_1 and id = any(:s25_2);
select id, codigo, nombre from formas_pago where id = any(NULL::bigint[]);
select venta_id, id, monto, saldo, fecha_vencimiento::text, estado from cuentas_por_cobrar
		where empresa_id = :s27_1 and venta_id = any(:s27_2) and not eliminado;
select distinct on (venta_id) venta_id, id, clave, estado from comprobantes_electronicos
		where empresa_id = :s28_1 and venta_id = any(:s28_2) and not eliminado order by venta_id, id desc;
select d.id, d.venta_id, d.linea, d.producto_id, d.descripcion, d.cantidad, d.precio_unitario, d.descuento,
			d.porcentaje_impuesto, d.subtotal, d.monto_impuesto, d.total,
			p.id, p.codigo, p.nombre, p.tipo, p.gestionado_inventario, p.codigo_cabys
			from detalles_venta d join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
			where d.empresa_id = :s29_1 and d.venta_id = any(:s29_2) order by d.venta_id, d.linea;
insert into eventos (empresa_id, tipo, payload) values (:s30_1, :s30_2, :s30_3::jsonb);
select nullif(current_setting('app.despertar', true), '');
commit;

-- variables:
-- s0_1={{token_id}}
-- s0_2={{token_hash}}
-- s2_1=1
-- s2_2=1
-- s3_1=1
-- s3_2={328,329,330,331,332}
-- s4_1=1
-- s4_2=30
-- s5_1=1
-- s6_1=1
-- s6_2=1
-- s8_1=1
-- s8_2={inventario.descontar_stock_automatico,inventario.permitir_stock_negativo}
-- s9_1=1
-- s10_1=1
-- s11_1=1
-- s11_2=FAC
-- s12_1=1
-- s12_3=30
-- s12_4=1
-- s12_6=1
-- s12_7=FAC-90000108
-- s12_8=factura
-- s12_9=2026-11-25
-- s12_10=pendiente
-- s12_11=credito
-- s12_13=5000
-- s12_14=0
-- s12_15=650
-- s12_16=5650
-- s12_17={1,2,3,4,5}
-- s12_18={328,329,330,331,332}
-- s12_19={"Producto de prueba 0328","Producto de prueba 0329","Producto de prueba 0330","Producto de prueba 0331","Producto de prueba 0332"}
-- s12_20={1,1,1,1,1}
-- s12_21={1000,1000,1000,1000,1000}
-- s12_22={0,0,0,0,0}
-- s12_23={13,13,13,13,13}
-- s12_24={1000,1000,1000,1000,1000}
-- s12_25={130,130,130,130,130}
-- s12_26={1130,1130,1130,1130,1130}
-- s12_30=CRC
-- s12_31=1
-- s13_1=1
-- s13_3=FAC-90000108
-- s13_4=30
-- s14_1=1
-- s14_2=SAL
-- s15_1=1
-- s15_2=salida
-- s15_3=Venta
-- s15_4=SAL-90000108
-- s15_5=1
-- s15_6=2026-11-25
-- s15_7=1
-- s15_9={{venta_id}}
-- s15_11=30
-- s15_13=Venta FAC-90000108
-- s15_14={1,2,3,4,5}
-- s15_15={328,329,330,331,332}
-- s15_16={1,1,1,1,1}
-- s15_17={0,0,0,0,0}
-- s15_18={NULL,NULL,NULL,NULL,NULL}
-- s15_19={NULL,NULL,NULL,NULL,NULL}
-- s16_1=1
-- s16_2=1
-- s16_3={328,329,330,331,332}
-- s17_1=1
-- s17_2={328,329,330,331,332}
-- s17_3={9999999,9999999,9999999,9999999,9999999}
-- s18_1=1
-- s18_2={{detalles_movimiento}}
-- s18_3={328,329,330,331,332}
-- s18_4={1,1,1,1,1}
-- s18_5={427,428,429,430,431}
-- s19_1=1
-- s19_2={{movimiento_id}}
-- s20_1=1
-- s20_2=1
-- s20_3={328,329,330,331,332}
-- s20_4=InventarioBajoEvent
-- s21_1=1
-- s21_2={{venta_id}}
-- s22_1=1
-- s22_2={30}
-- s23_1={1}
-- s24_1=1
-- s25_1=1
-- s25_2={1}
-- s27_1=1
-- s27_2={{{venta_id}}}
-- s28_1=1
-- s28_2={{{venta_id}}}
-- s29_1=1
-- s29_2={{{venta_id}}}
-- s30_1=1
-- s30_2=VentaCreadaEvent
-- s30_3={"id":108,"empresa_id":1,"sucursal_id":null,"cliente_id":30,"usuario_id":1,"forma_pago_id":null,"almacen_id":1,"cuenta_bancaria_id":null,"caja_id":null,"caja_sesion_id":null,"numero_comprobante":"FAC-90000108","tipo_comprobante":"factura","fecha_venta":"2026-11-25","estado":"pendiente","condicion_venta":"credito","observaciones":null,"moneda":"CRC","tipo_cambio":1.00000,"monto_subtotal":5000.00,"monto_descuentos":0.00,"monto_impuestos":650.00,"monto_total":5650.00,"anulado_en":null,"venta_referencia_id":null,"codigo_referencia":null,"razon_referencia":null,"activo":true,"eliminado":false,"creado_en":"2026-11-25T22:53:04.319424Z","actualizado_en":"2026-11-25T22:53:04.319424Z","cliente":{"id":30,"tipo_identificacion":"fisica","identificacion":"500000030","nombre_completo":"Cliente Prueba 30","email":"cliente30@bench.ejemplo.cr","telefono":"88000030","dias_credito":30},"usuario":{"id":1,"nombre":"Administrador","apellidos":"Demo S.A.","email":"admin@demo.cr"},"sucursal":null,"almacen":{"id":1,"nombre":"Almacén Principal","codigo":"PRINCIPAL"},"forma_pago":null,"cuenta_por_cobrar":{"id":108,"monto":5650.00,"saldo":5650.00,"fecha_vencimiento":"2026-12-25","estado":"pendiente"},"detalles":[{"id":536,"venta_id":108,"linea":1,"producto_id":328,"descripcion":"Producto de prueba 0328","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":328,"codigo":"BENCH-0328","nombre":"Producto de prueba 0328","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":537,"venta_id":108,"linea":2,"producto_id":329,"descripcion":"Producto de prueba 0329","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":329,"codigo":"BENCH-0329","nombre":"Producto de prueba 0329","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":538,"venta_id":108,"linea":3,"producto_id":330,"descripcion":"Producto de prueba 0330","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":330,"codigo":"BENCH-0330","nombre":"Producto de prueba 0330","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":539,"venta_id":108,"linea":4,"producto_id":331,"descripcion":"Producto de prueba 0331","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":331,"codigo":"BENCH-0331","nombre":"Producto de prueba 0331","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":540,"venta_id":108,"linea":5,"producto_id":332,"descripcion":"Producto de prueba 0332","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":332,"codigo":"BENCH-0332","nombre":"Producto de prueba 0332","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}}]}
