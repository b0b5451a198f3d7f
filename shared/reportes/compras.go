package reportes

import (
	"context"
	"fmt"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// Compras is the purchases report (issue 14).
const Compras = "compras"

var pAgruparCompras = esquema.Campo{Nombre: "agrupar", Tipo: esquema.Texto, Valores: []string{"proveedor", "producto"},
	Descripcion: "Agrupación de las filas; por omisión proveedor."}

var totalesCompras = []Columna{
	{Clave: "cantidad", Titulo: "Cantidad"}, {Clave: "subtotal", Titulo: "Subtotal"},
	{Clave: "descuentos", Titulo: "Descuentos"}, {Clave: "impuestos", Titulo: "Impuestos"}, {Clave: "total", Titulo: "Total"},
}

func init() {
	Registrar(Tipo{Clave: Compras, Nombre: "Compras",
		Descripcion: "Compras recibidas del período (órdenes recibidas por completo, con su cuenta por pagar no anulada, por la fecha de emisión de esa cuenta, como el reporte de impuestos), agrupadas por proveedor o producto: órdenes, cantidad, subtotal, descuentos, impuestos y total en colones.",
		Ruta:        "GET /api/reportes/" + Compras, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin, pAgruparCompras},
		Totales:    append([]Columna{}, totalesCompras...),
		Generar:    compras})
}

// comprasGrupo is, per grouping, the key and the label of a row (order o,
// its line d, supplier k, product p).
var comprasGrupo = map[string][2]string{
	"proveedor": {"o.proveedor_id::text", "coalesce(k.nombre, 'Proveedor ' || o.proveedor_id) || coalesce(' (' || nullif(k.nit_ruc, '') || ')', '')"},
	"producto":  {"d.producto_id::text", "coalesce(p.codigo || ' ' || p.nombre, 'Producto ' || d.producto_id)"},
}

// comprasSQL sums the lines of the purchases received in [$2, $3] (the
// ones impuestosSQL credits: the order's payable, issued when the order is
// fully received, not cancelled) by the grouping (%s: key, label). Orders
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
order by 2, 1`

func compras(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	g, ok := comprasGrupo[c.Agrupar]
	if !ok {
		return nil, fmt.Errorf("reportes: compras: agrupación %q", c.Agrupar)
	}
	rows, err := tx.Query(ctx, fmt.Sprintf(comprasSQL, g[0], g[1]), tx.EmpresaID(), c.FechaInicio, c.FechaFin)
	if err != nil {
		return nil, fmt.Errorf("reportes: compras: %w", err)
	}
	filas, tot, err := filasAgrupadas(rows, totalesCompras, "ordenes")
	if err != nil {
		return nil, fmt.Errorf("reportes: compras: %w", err)
	}
	titulo := map[string]string{"proveedor": "Proveedor", "producto": "Producto"}[c.Agrupar]
	columnas := []Columna{{Clave: "grupo", Titulo: titulo, Tipo: ColTexto}, {Clave: "ordenes", Titulo: "Órdenes", Tipo: ColEntero}}
	for _, col := range totalesCompras {
		columnas = append(columnas, Columna{Clave: col.Clave, Titulo: col.Titulo, Tipo: ColImporte})
	}
	return &Reporte{Tipo: Compras, Titulo: "Compras por " + minuscula(titulo),
		Secciones: []Seccion{{Clave: c.Agrupar, Titulo: "Compras por " + minuscula(titulo), Columnas: columnas, Filas: filas, Totales: tot}},
		Totales:   tot}, nil
}
