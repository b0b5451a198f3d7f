package reportes

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// The aging reports (issue 14): what customers owe and what is owed to
// suppliers at a cut-off date, by how long past due.
const (
	AntiguedadCobrar = "antiguedad-cuentas-por-cobrar"
	AntiguedadPagar  = "antiguedad-cuentas-por-pagar"
)

var pFechaCorte = esquema.Campo{Nombre: "fecha_corte", Tipo: esquema.Fecha, Ejemplo: "2026-03-31",
	Descripcion: "Fecha de corte (AAAA-MM-DD); por omisión hoy en Costa Rica. Cuenta los pagos hasta esa fecha y los días de atraso a esa fecha."}

// tramos are the buckets of the aging reports, in order.
var tramos = []Columna{
	{Clave: "corriente", Titulo: "Corriente"}, {Clave: "dias_1_30", Titulo: "1-30 días"},
	{Clave: "dias_31_60", Titulo: "31-60 días"}, {Clave: "dias_61_90", Titulo: "61-90 días"},
	{Clave: "mas_90", Titulo: "Más de 90 días"}, {Clave: "total", Titulo: "Total"},
}

func init() {
	for _, a := range []struct{ clave, nombre, quien string }{
		{AntiguedadCobrar, "Antigüedad de cuentas por cobrar", "cliente"},
		{AntiguedadPagar, "Antigüedad de cuentas por pagar", "proveedor"},
	} {
		Registrar(Tipo{Clave: a.clave, Nombre: a.nombre,
			Descripcion: "Saldo pendiente a la fecha de corte por " + a.quien + ", en tramos según los días vencidos: corriente (no vencido), 1-30, 31-60, 61-90 y más de 90 días.",
			Ruta:        "GET /api/reportes/" + a.clave, Limite: string(routes.RateReports),
			Parametros: []esquema.Campo{pFechaCorte},
			Totales:    append([]Columna{}, tramos...),
			Generar:    antiguedad(a.clave, a.nombre, a.quien)})
	}
}

// antiguedadSQL is the pending balance at $2 of each open account (its
// amount less the payments dated up to $2, and for a receivable less the
// credit notes on credit of its sale dated up to $2: notaCreditoSQL),
// summed by counterpart and bucket of days past due at $2; %s are the
// tables of each side.
const antiguedadSQL = `with c as (
	select c.%[1]s as tercero_id,
		c.monto - coalesce((select sum(p.monto) from pagos p where p.empresa_id = c.empresa_id and p.%[2]s = c.id
			and not p.eliminado and p.fecha <= $2), 0)%[7]s as saldo,
		$2::date - c.fecha_vencimiento as dias
	from %[3]s c
	where c.empresa_id = $1 and not c.eliminado and c.estado <> 'anulada' and c.fecha_emision <= $2
)
select c.tercero_id, %[4]s, %[5]s,
	coalesce(sum(c.saldo) filter (where c.dias <= 0), 0),
	coalesce(sum(c.saldo) filter (where c.dias between 1 and 30), 0),
	coalesce(sum(c.saldo) filter (where c.dias between 31 and 60), 0),
	coalesce(sum(c.saldo) filter (where c.dias between 61 and 90), 0),
	coalesce(sum(c.saldo) filter (where c.dias > 90), 0),
	sum(c.saldo)
from c left join %[6]s k on k.empresa_id = $1 and k.id = c.tercero_id
where c.saldo > 0
group by 1, 2, 3
order by 2, 1`

// notaCreditoSQL is what the credit notes on credit of a receivable's
// sale, dated up to $2 and standing, took off its balance: a credit note
// lowers its sale's receivable instead of opening one (ventas,
// nota_cuenta.go), as the books credit receivables with it. A note that
// opened a receivable of its own (before that rule) took nothing off.
const notaCreditoSQL = `
		- coalesce((select sum(n.monto_total) from ventas n where n.empresa_id = c.empresa_id and n.venta_referencia_id = c.venta_id
			and n.tipo_comprobante = 'nota_credito' and n.condicion_venta = 'credito' and n.estado in ('pendiente', 'pagada')
			and not n.eliminado and n.fecha_venta <= $2
			and not exists (select 1 from cuentas_por_cobrar o where o.empresa_id = n.empresa_id and o.venta_id = n.id)), 0)`

var (
	antiguedadCobrarSQL = fmt.Sprintf(antiguedadSQL, "cliente_id", "cuenta_por_cobrar_id", "cuentas_por_cobrar",
		`coalesce(nullif(trim(coalesce(k.razon_social, concat_ws(' ', k.nombre, k.apellidos))), ''), 'Sin cliente')`,
		`coalesce(k.identificacion, '')`, "clientes", notaCreditoSQL)
	antiguedadPagarSQL = fmt.Sprintf(antiguedadSQL, "proveedor_id", "cuenta_por_pagar_id", "cuentas_por_pagar",
		`coalesce(k.nombre, 'Sin proveedor')`, `coalesce(k.nit_ruc, '')`, "proveedores", "")
)

func antiguedad(clave, titulo, quien string) Generador {
	sql := antiguedadCobrarSQL
	if clave == AntiguedadPagar {
		sql = antiguedadPagarSQL
	}
	columnas := append([]Columna{{Clave: "nombre", Titulo: map[string]string{"cliente": "Cliente", "proveedor": "Proveedor"}[quien], Tipo: ColTexto},
		{Clave: "identificacion", Titulo: "Identificación", Tipo: ColTexto}}, tramos...)
	for i := 2; i < len(columnas); i++ {
		columnas[i].Tipo = ColImporte
	}
	return func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
		rows, err := tx.Query(ctx, sql, tx.EmpresaID(), c.FechaCorte)
		if err != nil {
			return nil, fmt.Errorf("reportes: %s: %w", clave, err)
		}
		defer rows.Close()
		t := make([]decimal.Decimal, len(tramos))
		filas := []Fila{}
		for rows.Next() {
			var (
				id            *int64
				nombre, ident string
				v             = make([]decimal.Decimal, len(tramos))
			)
			if err := rows.Scan(&id, &nombre, &ident, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]); err != nil {
				return nil, fmt.Errorf("reportes: %s: %w", clave, err)
			}
			f := Fila{quien + "_id": id, "nombre": nombre, "identificacion": ident}
			for i, col := range tramos {
				f[col.Clave] = Imp(v[i])
				t[i] = t[i].Add(v[i])
			}
			filas = append(filas, f)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("reportes: %s: %w", clave, err)
		}
		tot := map[string]Importe{}
		for i, col := range tramos {
			tot[col.Clave] = Imp(t[i])
		}
		return &Reporte{Tipo: clave, Titulo: titulo + " al " + fecha(c.FechaCorte),
			Secciones: []Seccion{{Clave: map[string]string{"cliente": "clientes", "proveedor": "proveedores"}[quien],
				Titulo:   map[string]string{"cliente": "Clientes", "proveedor": "Proveedores"}[quien],
				Columnas: columnas, Filas: filas, Totales: tot}},
			Totales: tot}, nil
	}
}
