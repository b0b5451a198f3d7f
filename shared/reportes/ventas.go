package reportes

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// Ventas is the sales report (issue 14).
const Ventas = "ventas"

// Groupings of the sales report.
var agrupacionesVentas = []string{"dia", "producto", "cliente", "sucursal", "vendedor"}

var pAgruparVentas = esquema.Campo{Nombre: "agrupar", Tipo: esquema.Texto, Valores: agrupacionesVentas,
	Descripcion: "Agrupación de las filas; por omisión dia."}

var totalesVentas = []Columna{
	{Clave: "cantidad", Titulo: "Cantidad", Tipo: ColImporte}, {Clave: "subtotal", Titulo: "Subtotal"},
	{Clave: "descuentos", Titulo: "Descuentos"}, {Clave: "impuestos", Titulo: "Impuestos"}, {Clave: "total", Titulo: "Total"},
}

func init() {
	Registrar(Tipo{Clave: Ventas, Nombre: "Ventas",
		Descripcion: "Ventas confirmadas (pendientes o pagadas; ni borradores ni anuladas) del período, agrupadas por día, producto, cliente, sucursal o vendedor: cantidad, subtotal, descuentos, impuestos y total en colones; las notas de crédito restan y las de débito suman.",
		Ruta:        "GET /api/reportes/" + Ventas, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin, pAgruparVentas},
		Totales:    append([]Columna{}, totalesVentas...),
		Generar:    ventas})
}

// ventasGrupo is, per grouping, the key and the label of a row (from the
// sale v, its line d and the joins of ventasSQL).
var ventasGrupo = map[string][2]string{
	"dia":      {"v.fecha_venta::text", "v.fecha_venta::text"},
	"producto": {"d.producto_id::text", "coalesce(p.codigo || ' ' || p.nombre, 'Producto ' || d.producto_id)"},
	"cliente":  {"coalesce(v.cliente_id::text, '')", "coalesce(nullif(trim(coalesce(c.razon_social, concat_ws(' ', c.nombre, c.apellidos))), ''), 'Sin cliente')"},
	"sucursal": {"coalesce(v.sucursal_id::text, '')", "coalesce(s.nombre, 'Sin sucursal')"},
	"vendedor": {"v.usuario_id::text", "coalesce(nullif(trim(concat_ws(' ', u.nombre, u.apellidos)), ''), u.email)"},
}

// ventasSQL sums the lines of the confirmed sales of [$2, $3] by the
// grouping (%s: key, label), in colones (the sale's exchange rate), a
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

func ventas(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	g, ok := ventasGrupo[c.Agrupar]
	if !ok {
		return nil, fmt.Errorf("reportes: ventas: agrupación %q", c.Agrupar)
	}
	orden := "2, 1"
	if c.Agrupar == "dia" {
		orden = "1"
	}
	rows, err := tx.Query(ctx, fmt.Sprintf(ventasSQL, g[0], g[1], orden), tx.EmpresaID(), c.FechaInicio, c.FechaFin)
	if err != nil {
		return nil, fmt.Errorf("reportes: ventas: %w", err)
	}
	filas, tot, err := filasAgrupadas(rows, totalesVentas)
	if err != nil {
		return nil, fmt.Errorf("reportes: ventas: %w", err)
	}
	columnas := append([]Columna{{Clave: "grupo", Titulo: tituloGrupo[c.Agrupar], Tipo: ColTexto}}, totalesVentas...)
	for i := 1; i < len(columnas); i++ {
		columnas[i].Tipo = ColImporte
	}
	return &Reporte{Tipo: Ventas, Titulo: "Ventas por " + tituloGrupo[c.Agrupar],
		Secciones: []Seccion{{Clave: c.Agrupar, Titulo: "Ventas por " + tituloGrupo[c.Agrupar], Columnas: columnas, Filas: filas, Totales: tot}},
		Totales:   tot}, nil
}

var tituloGrupo = map[string]string{"dia": "día", "producto": "producto", "cliente": "cliente", "sucursal": "sucursal", "vendedor": "vendedor"}

// filasAgrupadas reads the rows of a grouped report (ventas, compras):
// (clave, etiqueta, one integer per name of enteros, one amount per column
// of totales), each a Fila with grupo = etiqueta, and sums the amounts.
// It closes rows.
func filasAgrupadas(rows pgx.Rows, totales []Columna, enteros ...string) ([]Fila, map[string]Importe, error) {
	defer rows.Close()
	t := make([]decimal.Decimal, len(totales))
	filas := []Fila{}
	for rows.Next() {
		var clave, etiqueta string
		n := make([]int64, len(enteros))
		v := make([]decimal.Decimal, len(totales))
		dst := []any{&clave, &etiqueta}
		for i := range n {
			dst = append(dst, &n[i])
		}
		for i := range v {
			dst = append(dst, &v[i])
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, nil, err
		}
		f := Fila{"clave": clave, "grupo": etiqueta}
		for i, k := range enteros {
			f[k] = n[i]
		}
		for i, col := range totales {
			f[col.Clave] = Imp(v[i])
			t[i] = t[i].Add(v[i])
		}
		filas = append(filas, f)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	tot := map[string]Importe{}
	for i, col := range totales {
		tot[col.Clave] = Imp(t[i])
	}
	return filas, tot, nil
}
