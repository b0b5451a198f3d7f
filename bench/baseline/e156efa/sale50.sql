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
-- s3_2={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
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
-- s12_7=FAC-90000205
-- s12_8=factura
-- s12_9=2026-11-25
-- s12_10=pendiente
-- s12_11=credito
-- s12_13=50000
-- s12_14=0
-- s12_15=6500
-- s12_16=56500
-- s12_17={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50}
-- s12_18={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
-- s12_19={"Producto de prueba 0328","Producto de prueba 0329","Producto de prueba 0330","Producto de prueba 0331","Producto de prueba 0332","Producto de prueba 0333","Producto de prueba 0334","Producto de prueba 0335","Producto de prueba 0336","Producto de prueba 0337","Producto de prueba 0338","Producto de prueba 0339","Producto de prueba 0340","Producto de prueba 0341","Producto de prueba 0342","Producto de prueba 0343","Producto de prueba 0344","Producto de prueba 0345","Producto de prueba 0346","Producto de prueba 0347","Producto de prueba 0348","Producto de prueba 0349","Producto de prueba 0350","Producto de prueba 0351","Producto de prueba 0352","Producto de prueba 0353","Producto de prueba 0354","Producto de prueba 0355","Producto de prueba 0356","Producto de prueba 0357","Producto de prueba 0358","Producto de prueba 0359","Producto de prueba 0360","Producto de prueba 0361","Producto de prueba 0362","Producto de prueba 0363","Producto de prueba 0364","Producto de prueba 0365","Producto de prueba 0366","Producto de prueba 0367","Producto de prueba 0368","Producto de prueba 0369","Producto de prueba 0370","Producto de prueba 0371","Producto de prueba 0372","Producto de prueba 0373","Producto de prueba 0374","Producto de prueba 0375","Producto de prueba 0376","Producto de prueba 0377"}
-- s12_20={1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}
-- s12_21={1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000}
-- s12_22={0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}
-- s12_23={13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13,13}
-- s12_24={1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000}
-- s12_25={130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130,130}
-- s12_26={1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130,1130}
-- s12_30=CRC
-- s12_31=1
-- s13_1=1
-- s13_3=FAC-90000205
-- s13_4=30
-- s14_1=1
-- s14_2=SAL
-- s15_1=1
-- s15_2=salida
-- s15_3=Venta
-- s15_4=SAL-90000205
-- s15_5=1
-- s15_6=2026-11-25
-- s15_7=1
-- s15_9={{venta_id}}
-- s15_11=30
-- s15_13=Venta FAC-90000205
-- s15_14={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50}
-- s15_15={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
-- s15_16={1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}
-- s15_17={0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}
-- s15_18={NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL}
-- s15_19={NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL}
-- s16_1=1
-- s16_2=1
-- s16_3={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
-- s17_1=1
-- s17_2={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
-- s17_3={9999994,9999994,9999994,9999994,9999994,9999995,9999995,9999995,9999995,9999995,9999995,9999995,9999995,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999994,9999995,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996,9999996}
-- s18_1=1
-- s18_2={{detalles_movimiento}}
-- s18_3={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
-- s18_4={1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}
-- s18_5={427,428,429,430,431,432,433,434,435,436,437,438,439,440,441,442,443,444,445,446,447,448,449,450,451,452,453,454,455,456,457,458,459,460,461,462,463,464,465,466,467,468,469,470,471,472,473,474,475,476}
-- s19_1=1
-- s19_2={{movimiento_id}}
-- s20_1=1
-- s20_2=1
-- s20_3={328,329,330,331,332,333,334,335,336,337,338,339,340,341,342,343,344,345,346,347,348,349,350,351,352,353,354,355,356,357,358,359,360,361,362,363,364,365,366,367,368,369,370,371,372,373,374,375,376,377}
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
-- s30_3={"id":315,"empresa_id":1,"sucursal_id":null,"cliente_id":30,"usuario_id":1,"forma_pago_id":null,"almacen_id":1,"cuenta_bancaria_id":null,"caja_id":null,"caja_sesion_id":null,"numero_comprobante":"FAC-90000205","tipo_comprobante":"factura","fecha_venta":"2026-11-25","estado":"pendiente","condicion_venta":"credito","observaciones":null,"moneda":"CRC","tipo_cambio":1.00000,"monto_subtotal":50000.00,"monto_descuentos":0.00,"monto_impuestos":6500.00,"monto_total":56500.00,"anulado_en":null,"venta_referencia_id":null,"codigo_referencia":null,"razon_referencia":null,"activo":true,"eliminado":false,"creado_en":"2026-11-25T22:53:10.842537Z","actualizado_en":"2026-11-25T22:53:10.842537Z","cliente":{"id":30,"tipo_identificacion":"fisica","identificacion":"500000030","nombre_completo":"Cliente Prueba 30","email":"cliente30@bench.ejemplo.cr","telefono":"88000030","dias_credito":30},"usuario":{"id":1,"nombre":"Administrador","apellidos":"Demo S.A.","email":"admin@demo.cr"},"sucursal":null,"almacen":{"id":1,"nombre":"Almacén Principal","codigo":"PRINCIPAL"},"forma_pago":null,"cuenta_por_cobrar":{"id":315,"monto":56500.00,"saldo":56500.00,"fecha_vencimiento":"2026-12-25","estado":"pendiente"},"detalles":[{"id":5891,"venta_id":315,"linea":1,"producto_id":328,"descripcion":"Producto de prueba 0328","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":328,"codigo":"BENCH-0328","nombre":"Producto de prueba 0328","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5892,"venta_id":315,"linea":2,"producto_id":329,"descripcion":"Producto de prueba 0329","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":329,"codigo":"BENCH-0329","nombre":"Producto de prueba 0329","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5893,"venta_id":315,"linea":3,"producto_id":330,"descripcion":"Producto de prueba 0330","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":330,"codigo":"BENCH-0330","nombre":"Producto de prueba 0330","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5894,"venta_id":315,"linea":4,"producto_id":331,"descripcion":"Producto de prueba 0331","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":331,"codigo":"BENCH-0331","nombre":"Producto de prueba 0331","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5895,"venta_id":315,"linea":5,"producto_id":332,"descripcion":"Producto de prueba 0332","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":332,"codigo":"BENCH-0332","nombre":"Producto de prueba 0332","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5896,"venta_id":315,"linea":6,"producto_id":333,"descripcion":"Producto de prueba 0333","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":333,"codigo":"BENCH-0333","nombre":"Producto de prueba 0333","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5897,"venta_id":315,"linea":7,"producto_id":334,"descripcion":"Producto de prueba 0334","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":334,"codigo":"BENCH-0334","nombre":"Producto de prueba 0334","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5898,"venta_id":315,"linea":8,"producto_id":335,"descripcion":"Producto de prueba 0335","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":335,"codigo":"BENCH-0335","nombre":"Producto de prueba 0335","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5899,"venta_id":315,"linea":9,"producto_id":336,"descripcion":"Producto de prueba 0336","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":336,"codigo":"BENCH-0336","nombre":"Producto de prueba 0336","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5900,"venta_id":315,"linea":10,"producto_id":337,"descripcion":"Producto de prueba 0337","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":337,"codigo":"BENCH-0337","nombre":"Producto de prueba 0337","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5901,"venta_id":315,"linea":11,"producto_id":338,"descripcion":"Producto de prueba 0338","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":338,"codigo":"BENCH-0338","nombre":"Producto de prueba 0338","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5902,"venta_id":315,"linea":12,"producto_id":339,"descripcion":"Producto de prueba 0339","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":339,"codigo":"BENCH-0339","nombre":"Producto de prueba 0339","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5903,"venta_id":315,"linea":13,"producto_id":340,"descripcion":"Producto de prueba 0340","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":340,"codigo":"BENCH-0340","nombre":"Producto de prueba 0340","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5904,"venta_id":315,"linea":14,"producto_id":341,"descripcion":"Producto de prueba 0341","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":341,"codigo":"BENCH-0341","nombre":"Producto de prueba 0341","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5905,"venta_id":315,"linea":15,"producto_id":342,"descripcion":"Producto de prueba 0342","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":342,"codigo":"BENCH-0342","nombre":"Producto de prueba 0342","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5906,"venta_id":315,"linea":16,"producto_id":343,"descripcion":"Producto de prueba 0343","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":343,"codigo":"BENCH-0343","nombre":"Producto de prueba 0343","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5907,"venta_id":315,"linea":17,"producto_id":344,"descripcion":"Producto de prueba 0344","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":344,"codigo":"BENCH-0344","nombre":"Producto de prueba 0344","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5908,"venta_id":315,"linea":18,"producto_id":345,"descripcion":"Producto de prueba 0345","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":345,"codigo":"BENCH-0345","nombre":"Producto de prueba 0345","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5909,"venta_id":315,"linea":19,"producto_id":346,"descripcion":"Producto de prueba 0346","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":346,"codigo":"BENCH-0346","nombre":"Producto de prueba 0346","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5910,"venta_id":315,"linea":20,"producto_id":347,"descripcion":"Producto de prueba 0347","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":347,"codigo":"BENCH-0347","nombre":"Producto de prueba 0347","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5911,"venta_id":315,"linea":21,"producto_id":348,"descripcion":"Producto de prueba 0348","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":348,"codigo":"BENCH-0348","nombre":"Producto de prueba 0348","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5912,"venta_id":315,"linea":22,"producto_id":349,"descripcion":"Producto de prueba 0349","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":349,"codigo":"BENCH-0349","nombre":"Producto de prueba 0349","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5913,"venta_id":315,"linea":23,"producto_id":350,"descripcion":"Producto de prueba 0350","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":350,"codigo":"BENCH-0350","nombre":"Producto de prueba 0350","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5914,"venta_id":315,"linea":24,"producto_id":351,"descripcion":"Producto de prueba 0351","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":351,"codigo":"BENCH-0351","nombre":"Producto de prueba 0351","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5915,"venta_id":315,"linea":25,"producto_id":352,"descripcion":"Producto de prueba 0352","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":352,"codigo":"BENCH-0352","nombre":"Producto de prueba 0352","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5916,"venta_id":315,"linea":26,"producto_id":353,"descripcion":"Producto de prueba 0353","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":353,"codigo":"BENCH-0353","nombre":"Producto de prueba 0353","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5917,"venta_id":315,"linea":27,"producto_id":354,"descripcion":"Producto de prueba 0354","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":354,"codigo":"BENCH-0354","nombre":"Producto de prueba 0354","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5918,"venta_id":315,"linea":28,"producto_id":355,"descripcion":"Producto de prueba 0355","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":355,"codigo":"BENCH-0355","nombre":"Producto de prueba 0355","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5919,"venta_id":315,"linea":29,"producto_id":356,"descripcion":"Producto de prueba 0356","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":356,"codigo":"BENCH-0356","nombre":"Producto de prueba 0356","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5920,"venta_id":315,"linea":30,"producto_id":357,"descripcion":"Producto de prueba 0357","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":357,"codigo":"BENCH-0357","nombre":"Producto de prueba 0357","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5921,"venta_id":315,"linea":31,"producto_id":358,"descripcion":"Producto de prueba 0358","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":358,"codigo":"BENCH-0358","nombre":"Producto de prueba 0358","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5922,"venta_id":315,"linea":32,"producto_id":359,"descripcion":"Producto de prueba 0359","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":359,"codigo":"BENCH-0359","nombre":"Producto de prueba 0359","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5923,"venta_id":315,"linea":33,"producto_id":360,"descripcion":"Producto de prueba 0360","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":360,"codigo":"BENCH-0360","nombre":"Producto de prueba 0360","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5924,"venta_id":315,"linea":34,"producto_id":361,"descripcion":"Producto de prueba 0361","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":361,"codigo":"BENCH-0361","nombre":"Producto de prueba 0361","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5925,"venta_id":315,"linea":35,"producto_id":362,"descripcion":"Producto de prueba 0362","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":362,"codigo":"BENCH-0362","nombre":"Producto de prueba 0362","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5926,"venta_id":315,"linea":36,"producto_id":363,"descripcion":"Producto de prueba 0363","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":363,"codigo":"BENCH-0363","nombre":"Producto de prueba 0363","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5927,"venta_id":315,"linea":37,"producto_id":364,"descripcion":"Producto de prueba 0364","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":364,"codigo":"BENCH-0364","nombre":"Producto de prueba 0364","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5928,"venta_id":315,"linea":38,"producto_id":365,"descripcion":"Producto de prueba 0365","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":365,"codigo":"BENCH-0365","nombre":"Producto de prueba 0365","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5929,"venta_id":315,"linea":39,"producto_id":366,"descripcion":"Producto de prueba 0366","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":366,"codigo":"BENCH-0366","nombre":"Producto de prueba 0366","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5930,"venta_id":315,"linea":40,"producto_id":367,"descripcion":"Producto de prueba 0367","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":367,"codigo":"BENCH-0367","nombre":"Producto de prueba 0367","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5931,"venta_id":315,"linea":41,"producto_id":368,"descripcion":"Producto de prueba 0368","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":368,"codigo":"BENCH-0368","nombre":"Producto de prueba 0368","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5932,"venta_id":315,"linea":42,"producto_id":369,"descripcion":"Producto de prueba 0369","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":369,"codigo":"BENCH-0369","nombre":"Producto de prueba 0369","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5933,"venta_id":315,"linea":43,"producto_id":370,"descripcion":"Producto de prueba 0370","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":370,"codigo":"BENCH-0370","nombre":"Producto de prueba 0370","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5934,"venta_id":315,"linea":44,"producto_id":371,"descripcion":"Producto de prueba 0371","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":371,"codigo":"BENCH-0371","nombre":"Producto de prueba 0371","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5935,"venta_id":315,"linea":45,"producto_id":372,"descripcion":"Producto de prueba 0372","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":372,"codigo":"BENCH-0372","nombre":"Producto de prueba 0372","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5936,"venta_id":315,"linea":46,"producto_id":373,"descripcion":"Producto de prueba 0373","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":373,"codigo":"BENCH-0373","nombre":"Producto de prueba 0373","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5937,"venta_id":315,"linea":47,"producto_id":374,"descripcion":"Producto de prueba 0374","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":374,"codigo":"BENCH-0374","nombre":"Producto de prueba 0374","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5938,"venta_id":315,"linea":48,"producto_id":375,"descripcion":"Producto de prueba 0375","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":375,"codigo":"BENCH-0375","nombre":"Producto de prueba 0375","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5939,"venta_id":315,"linea":49,"producto_id":376,"descripcion":"Producto de prueba 0376","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":376,"codigo":"BENCH-0376","nombre":"Producto de prueba 0376","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}},{"id":5940,"venta_id":315,"linea":50,"producto_id":377,"descripcion":"Producto de prueba 0377","cantidad":1.000,"precio_unitario":1000.00,"descuento":0.00,"porcentaje_impuesto":13.00,"subtotal":1000.00,"monto_impuesto":130.00,"total":1130.00,"producto":{"id":377,"codigo":"BENCH-0377","nombre":"Producto de prueba 0377","tipo":"producto","gestionado_inventario":true,"codigo_cabys":"2391000000000"}}]}
