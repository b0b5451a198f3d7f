select estado, usuario_id, empresa_id, permisos, roles, plataforma from auth_autorizar(:s0_1, :s0_2, NULL::bigint, NULL::text);
begin;
select set_config('app.empresa_id', :s2_1, true), set_config('app.usuario_id', :s2_2, true);
select count(*) from productos t where t.empresa_id = :s3_1 and not t.eliminado;
select (to_jsonb(t) - 'busqueda') from productos t where t.empresa_id = :s4_1 and not t.eliminado order by t.id asc, t.id limit :s4_2 offset :s4_3;
select x.id, jsonb_build_object('id', x.id, 'nombre', x.nombre) from categorias_producto x where x.id = any(:s5_1);
select x.id, jsonb_build_object('id', x.id, 'nombre', x.nombre) from marcas x where x.id = any(NULL::bigint[]);
select x.id, jsonb_build_object('id', x.id, 'nombre', x.nombre, 'codigo_tarifa_iva', x.codigo_tarifa_iva, 'porcentaje', x.porcentaje) from tipos_impuesto x where x.id = any(:s7_1);
select p.id, jsonb_build_object('id', u.id, 'codigo', u.codigo, 'nombre', u.nombre,
			'abreviatura', u.abreviatura, 'simbolo', u.abreviatura)
			from productos p join unidades_medida u on u.id = p.unidad_medida_id where p.id = any(:s8_1);
select i.producto_id, to_jsonb(sum(i.cantidad_disponible)) from inventarios i
			where i.producto_id = any(:s9_1) and not i.eliminado group by 1;
select nullif(current_setting('app.despertar', true), '');
commit;

-- variables:
-- s0_1={{token_id}}
-- s0_2={{token_hash}}
-- s2_1=1
-- s2_2=1
-- s3_1=1
-- s4_1=1
-- s4_2=15
-- s4_3=0
-- s5_1={3,3,3,3,3,3,3,3,3,3,3,3,3,3,3}
-- s7_1={1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}
-- s8_1={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}
-- s9_1={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}
