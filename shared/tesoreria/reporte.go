package tesoreria

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/montos"
)

// TipoPresupuestoVsReal is the report's tipo.
const TipoPresupuestoVsReal = "presupuesto_vs_real"

// ConsultaPresupuesto are the report's parameters: a year and, optionally,
// a month (without it, the whole year).
type ConsultaPresupuesto struct {
	Anio int64  `json:"anio"`
	Mes  *int64 `json:"mes"`
}

// Comparacion is budget against actual: the variance is actual - budget,
// and its percentage of the budget (null when the budget is zero).
type Comparacion struct {
	Presupuesto         montos.Numero  `json:"presupuesto"`
	Real                montos.Numero  `json:"real"`
	Variacion           montos.Numero  `json:"variacion"`
	VariacionPorcentaje *montos.Numero `json:"variacion_porcentaje"`
}

// FilaPresupuesto is one budgeted account of the report.
type FilaPresupuesto struct {
	PresupuestoID int64  `json:"presupuesto_id"`
	CuentaID      int64  `json:"cuenta_id"`
	Codigo        string `json:"codigo"`
	Nombre        string `json:"nombre"`
	Naturaleza    string `json:"naturaleza"`
	Comparacion
}

// SeccionPresupuesto groups the accounts of one type (ingreso, gasto...).
type SeccionPresupuesto struct {
	Tipo    string            `json:"tipo"`
	Nombre  string            `json:"nombre"`
	Cuentas []FilaPresupuesto `json:"cuentas"`
	Totales Comparacion       `json:"totales"`
}

// ReportePresupuesto is the report in the shape every report answers.
type ReportePresupuesto struct {
	Tipo       string               `json:"tipo"`
	Parametros ConsultaPresupuesto  `json:"parametros"`
	Secciones  []SeccionPresupuesto `json:"secciones"`
	Totales    Comparacion          `json:"totales"`
}

var secciones = []struct{ tipo, nombre string }{
	{"ingreso", "Ingresos"}, {"costo", "Costos"}, {"gasto", "Gastos"},
	{"activo", "Activos"}, {"pasivo", "Pasivos"}, {"patrimonio", "Patrimonio"},
}

var cien = decimal.NewFromInt(100)

func comparar(presupuesto, real decimal.Decimal) Comparacion {
	c := Comparacion{Presupuesto: numero(presupuesto), Real: numero(real), Variacion: numero(real.Sub(presupuesto))}
	if !presupuesto.IsZero() {
		p := numero(real.Sub(presupuesto).Mul(cien).DivRound(presupuesto, 2))
		c.VariacionPorcentaje = &p
	}
	return c
}

// numero is a decimal with 2 decimals as the API shows amounts.
func numero(d decimal.Decimal) montos.Numero {
	var n montos.Numero
	r := d.Round(2)
	_ = n.ScanNumeric(pgtype.Numeric{Int: r.Coefficient(), Exp: r.Exponent(), Valid: true})
	return n
}

// PresupuestoVsReal compares, for every active budget of the year, the
// budgeted amount of the month (or the year) with the actual one: the
// posted lines of that period on the account and the accounts below it,
// signed by the account's nature (debits minus credits for a deudora
// account, the reverse for an acreedora one). One query.
func PresupuestoVsReal(ctx context.Context, tx *db.Tx, _ auth.Principal, q ConsultaPresupuesto) (ReportePresupuesto, error) {
	rows, err := tx.Query(ctx, `select p.id, c.id, c.codigo, c.nombre, c.naturaleza, c.tipo,
			case when $3::int is null then (select sum(x) from unnest(p.montos) x) else p.montos[$3::int] end,
			coalesce((select sum(case when c.naturaleza = 'deudora' then l.debe - l.haber else l.haber - l.debe end)
				from cuentas_contables k
				join asiento_lineas l on l.empresa_id = k.empresa_id and l.cuenta_id = k.id
				join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
				where k.empresa_id = c.empresa_id and (k.id = c.id or k.codigo like c.codigo || '.%')
				  and a.estado in ('contabilizado', 'anulado') and not a.eliminado
				  and extract(year from a.fecha) = $2 and ($3::int is null or extract(month from a.fecha) = $3::int)), 0)
		from presupuestos p join cuentas_contables c on c.empresa_id = p.empresa_id and c.id = p.cuenta_contable_id
		where p.empresa_id = $1 and p.anio = $2 and p.activo and not p.eliminado
		order by c.codigo`, tx.EmpresaID(), q.Anio, q.Mes)
	if err != nil {
		return ReportePresupuesto{}, fmt.Errorf("tesoreria: presupuesto vs real: %w", err)
	}
	type fila struct {
		FilaPresupuesto
		tipo          string
		presupuesto   decimal.Decimal
		real          decimal.Decimal
		presupuestoNN pgtype.Numeric
		realNN        pgtype.Numeric
	}
	filas, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (fila, error) {
		var f fila
		err := r.Scan(&f.PresupuestoID, &f.CuentaID, &f.Codigo, &f.Nombre, &f.Naturaleza, &f.tipo, &f.presupuestoNN, &f.realNN)
		f.presupuesto, f.real = db.Decimal(f.presupuestoNN), db.Decimal(f.realNN)
		f.Comparacion = comparar(f.presupuesto, f.real)
		return f, err
	})
	if err != nil {
		return ReportePresupuesto{}, fmt.Errorf("tesoreria: presupuesto vs real: %w", err)
	}
	out := ReportePresupuesto{Tipo: TipoPresupuestoVsReal, Parametros: q, Secciones: []SeccionPresupuesto{}}
	totalP, totalR := decimal.Zero, decimal.Zero
	for _, s := range secciones {
		sec := SeccionPresupuesto{Tipo: s.tipo, Nombre: s.nombre, Cuentas: []FilaPresupuesto{}}
		p, r := decimal.Zero, decimal.Zero
		for _, f := range filas {
			if f.tipo == s.tipo {
				sec.Cuentas = append(sec.Cuentas, f.FilaPresupuesto)
				p, r = p.Add(f.presupuesto), r.Add(f.real)
			}
		}
		if len(sec.Cuentas) == 0 {
			continue
		}
		sec.Totales = comparar(p, r)
		out.Secciones = append(out.Secciones, sec)
		totalP, totalR = totalP.Add(p), totalR.Add(r)
	}
	out.Totales = comparar(totalP, totalR)
	return out, nil
}
