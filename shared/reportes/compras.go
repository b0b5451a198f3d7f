package reportes

// Compras is the purchases report (issue 14).
const Compras = "compras"

func init() {
	agrupado{clave: Compras, nombre: "Compras",
		descripcion: "Compras recibidas del período (órdenes recibidas por completo, con su cuenta por pagar no anulada, por la fecha de emisión de esa cuenta, como el reporte de impuestos), agrupadas por proveedor o producto: órdenes, cantidad, subtotal, descuentos, impuestos y total en colones.",
		sql:         comprasSQL,
		// the order o, its line d, the supplier k, the product p
		grupos: []grupo{
			{valor: "proveedor", titulo: "Proveedor", clave: "o.proveedor_id::text",
				etiqueta: "coalesce(k.nombre, 'Proveedor ' || o.proveedor_id) || coalesce(' (' || nullif(k.nit_ruc, '') || ')', '')"},
			porProducto("Producto"),
		},
		enteros: []Columna{{Clave: "ordenes", Titulo: "Órdenes", Tipo: ColEntero}},
	}.registrar()
}

// comprasSQL sums the lines of the purchases received in [$2, $3] (the
// ones impuestosSQL credits: the order's payable, issued when the order is
// fully received, not cancelled) by the grouping (see agrupado). Orders
// carry no currency: their amounts are colones.
const comprasSQL = `select %[1]s as clave, %[2]s as etiqueta, count(distinct o.id),
	sum(d.cantidad), sum(d.subtotal), sum(d.descuento), sum(d.monto_impuesto), sum(d.total)
from cuentas_por_pagar c
join ordenes_compra o on o.empresa_id = c.empresa_id and o.id = c.orden_compra_id
join detalles_orden_compra d on d.empresa_id = o.empresa_id and d.orden_compra_id = o.id
left join proveedores k on k.empresa_id = o.empresa_id and k.id = o.proveedor_id
left join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
where c.empresa_id = $1 and not c.eliminado and c.estado <> 'anulada' and not o.eliminado and c.fecha_emision between $2 and $3
group by 1, 2
order by %[3]s`
