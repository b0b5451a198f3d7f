package reportes

// Ventas is the sales report (issue 14).
const Ventas = "ventas"

func init() {
	agrupado{clave: Ventas, nombre: "Ventas",
		descripcion: "Ventas confirmadas (pendientes o pagadas; ni borradores ni anuladas) del período, agrupadas por día, producto, cliente, sucursal o vendedor: cantidad, subtotal, descuentos, impuestos y total en colones; las notas de crédito restan y las de débito suman.",
		sql:         ventasSQL,
		// the sale v, its line d and the joins of ventasSQL
		grupos: []grupo{
			{valor: "dia", titulo: "día", clave: "v.fecha_venta::text", etiqueta: "v.fecha_venta::text", orden: "1"},
			porProducto("producto"),
			{valor: "cliente", titulo: "cliente", clave: "coalesce(v.cliente_id::text, '')",
				etiqueta: "coalesce(nullif(trim(coalesce(c.razon_social, concat_ws(' ', c.nombre, c.apellidos))), ''), 'Sin cliente')"},
			{valor: "sucursal", titulo: "sucursal", clave: "coalesce(v.sucursal_id::text, '')", etiqueta: "coalesce(s.nombre, 'Sin sucursal')"},
			{valor: "vendedor", titulo: "vendedor", clave: "v.usuario_id::text",
				etiqueta: "coalesce(nullif(trim(concat_ws(' ', u.nombre, u.apellidos)), ''), u.email)"},
		},
	}.registrar()
}

// ventasSQL sums the lines of the confirmed sales of [$2, $3] by the
// grouping (see agrupado), in colones (the sale's exchange rate), a
// credit note with the opposite sign.
const ventasSQL = `select %[1]s as clave, %[2]s as etiqueta,
	sum(x.signo * d.cantidad), sum(x.signo * d.subtotal * v.tipo_cambio), sum(x.signo * d.descuento * v.tipo_cambio),
	sum(x.signo * d.monto_impuesto * v.tipo_cambio), sum(x.signo * d.total * v.tipo_cambio)
from ventas v
cross join lateral (select case when v.tipo_comprobante = 'nota_credito' then -1 else 1 end as signo) x
join detalles_venta d on d.empresa_id = v.empresa_id and d.venta_id = v.id
left join productos p on p.empresa_id = v.empresa_id and p.id = d.producto_id
left join clientes c on c.empresa_id = v.empresa_id and c.id = v.cliente_id
left join sucursales s on s.empresa_id = v.empresa_id and s.id = v.sucursal_id
left join usuarios u on u.id = v.usuario_id
where v.empresa_id = $1 and not v.eliminado and v.estado in ('pendiente', 'pagada') and v.fecha_venta between $2 and $3
group by 1, 2
order by %[3]s`
