package reportes

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// Impuestos is the IVA report (issue 14): what the monthly IVA return needs.
const Impuestos = "impuestos"

var totalesImpuestos = []Columna{
	{Clave: "base_ventas", Titulo: "Base gravada de ventas"}, {Clave: "iva_ventas", Titulo: "IVA cobrado (débito fiscal)"},
	{Clave: "base_compras", Titulo: "Base de compras"}, {Clave: "iva_compras", Titulo: "IVA acreditable (crédito fiscal)"},
	{Clave: "iva_neto", Titulo: "IVA neto (débito menos crédito)"},
}

func init() {
	Registrar(Tipo{Clave: Impuestos, Nombre: "IVA cobrado y acreditable",
		Descripcion: "Por mes y tarifa (porcentaje_impuesto): la base y el IVA de las ventas confirmadas (las notas de crédito restan; en colones al tipo de cambio de la venta) y de las compras recibidas (fecha de su cuenta por pagar), y el IVA neto del período.",
		Ruta:        "GET /api/reportes/" + Impuestos, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin},
		Totales:    append([]Columna{}, totalesImpuestos...),
		Generar:    impuestos})
}

// impuestosSQL: per side (ventas: IVA charged; compras: IVA credited),
// month and rate, the taxable base (line subtotal less its discount) and
// the tax of [$2, $3].
const impuestosSQL = `select 'ventas' as lado, to_char(v.fecha_venta, 'YYYY-MM') as mes, d.porcentaje_impuesto,
	sum(x.signo * (d.subtotal - d.descuento) * v.tipo_cambio), sum(x.signo * d.monto_impuesto * v.tipo_cambio)
from ventas v
cross join lateral (select case when v.tipo_comprobante = 'nota_credito' then -1 else 1 end as signo) x
join detalles_venta d on d.empresa_id = v.empresa_id and d.venta_id = v.id
where v.empresa_id = $1 and not v.eliminado and v.estado in ('pendiente', 'pagada') and v.fecha_venta between $2 and $3
group by 1, 2, 3
union all
select 'compras', to_char(c.fecha_emision, 'YYYY-MM'), d.porcentaje_impuesto, sum(d.subtotal - d.descuento), sum(d.monto_impuesto)
from cuentas_por_pagar c
join ordenes_compra o on o.empresa_id = c.empresa_id and o.id = c.orden_compra_id
join detalles_orden_compra d on d.empresa_id = o.empresa_id and d.orden_compra_id = o.id
where c.empresa_id = $1 and not c.eliminado and c.estado <> 'anulada' and not o.eliminado and c.fecha_emision between $2 and $3
group by 1, 2, 3
order by 1 desc, 2, 3`

var columnasImpuestos = []Columna{
	{Clave: "mes", Titulo: "Mes", Tipo: ColTexto},
	{Clave: "porcentaje_impuesto", Titulo: "Tarifa %", Tipo: ColPorcentaje},
	{Clave: "base", Titulo: "Base", Tipo: ColImporte},
	{Clave: "iva", Titulo: "IVA", Tipo: ColImporte},
}

func impuestos(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	rows, err := tx.Query(ctx, impuestosSQL, tx.EmpresaID(), c.FechaInicio, c.FechaFin)
	if err != nil {
		return nil, fmt.Errorf("reportes: impuestos: %w", err)
	}
	defer rows.Close()
	secciones := map[string]*Seccion{
		"ventas":  {Clave: "ventas", Titulo: "IVA cobrado en ventas (débito fiscal)", Columnas: columnasImpuestos, Filas: []Fila{}},
		"compras": {Clave: "compras", Titulo: "IVA acreditable en compras (crédito fiscal)", Columnas: columnasImpuestos, Filas: []Fila{}},
	}
	sumas := map[string][2]decimal.Decimal{}
	for rows.Next() {
		var lado, mes string
		var tarifa, base, iva decimal.Decimal
		if err := rows.Scan(&lado, &mes, &tarifa, &base, &iva); err != nil {
			return nil, fmt.Errorf("reportes: impuestos: %w", err)
		}
		s := secciones[lado]
		s.Filas = append(s.Filas, Fila{"mes": mes, "porcentaje_impuesto": Imp(tarifa), "base": Imp(base), "iva": Imp(iva)})
		// the totals foot the rows as shown: sums of the rounded values
		base, iva = Imp(base).Decimal, Imp(iva).Decimal
		a := sumas[lado]
		sumas[lado] = [2]decimal.Decimal{a[0].Add(base), a[1].Add(iva)}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: impuestos: %w", err)
	}
	for lado, s := range secciones {
		s.Totales = map[string]Importe{"base": Imp(sumas[lado][0]), "iva": Imp(sumas[lado][1])}
	}
	v, k := sumas["ventas"], sumas["compras"]
	tot := map[string]Importe{"base_ventas": Imp(v[0]), "iva_ventas": Imp(v[1]), "base_compras": Imp(k[0]), "iva_compras": Imp(k[1]),
		"iva_neto": Imp(v[1].Sub(k[1]))}
	return &Reporte{Tipo: Impuestos, Titulo: "IVA cobrado y acreditable",
		Secciones: []Seccion{*secciones["ventas"], *secciones["compras"]}, Totales: tot}, nil
}
