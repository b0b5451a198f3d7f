package reportes

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// The financial statements (?tipo= of /api/reportes/financiero).
const (
	EstadoResultados = "estado_resultados"
	BalanceGeneral   = "balance_general"
	FlujoEfectivo    = "flujo_efectivo"
)

func init() {
	fin := []esquema.Campo{pTipo, pFechaInicio, pFechaFin, pSucursal, pMoneda, pComparar}
	Registrar(Tipo{Clave: EstadoResultados, Nombre: "Estado de resultados",
		Descripcion: "Ingresos de operación, costo de ventas, utilidad bruta, gastos, utilidad operativa, otros ingresos y utilidad neta del período, agrupados por nivel de cuenta.",
		Ruta:        "GET /api/reportes/financiero?tipo=" + EstadoResultados, Parametros: append(append([]esquema.Campo{}, fin...), pNivel),
		Limite: limiteExportes,
		Totales: []Columna{
			{Clave: "ingresos", Titulo: "Ingresos de operación"}, {Clave: "costo_ventas", Titulo: "Costo de ventas"},
			{Clave: "utilidad_bruta", Titulo: "Utilidad bruta"}, {Clave: "gastos", Titulo: "Gastos de operación"},
			{Clave: "utilidad_operativa", Titulo: "Utilidad operativa"}, {Clave: "otros_ingresos", Titulo: "Otros ingresos"},
			{Clave: "utilidad_neta", Titulo: "Utilidad neta"},
		},
		Generar: estadoResultados})
	balance := []esquema.Campo{pTipo, pFechaInicio, pFechaFin, pSucursal, pMoneda, pComparar, pNivel}
	balance[1].Requerido = false
	balance[1].Descripcion = "Inicio del período cuyo resultado se muestra aparte en el patrimonio; por omisión el 1 de enero del año de fecha_fin."
	Registrar(Tipo{Clave: BalanceGeneral, Nombre: "Balance general",
		Descripcion: "Activo, pasivo y patrimonio a fecha_fin; el patrimonio incluye el resultado del período y los resultados no cerrados, de modo que activo = pasivo + patrimonio.",
		Ruta:        "GET /api/reportes/financiero?tipo=" + BalanceGeneral, Parametros: balance, Limite: limiteExportes,
		Totales: []Columna{{Clave: "activo", Titulo: "Total activo"}, {Clave: "pasivo", Titulo: "Total pasivo"},
			{Clave: "patrimonio", Titulo: "Total patrimonio"}, {Clave: "pasivo_y_patrimonio", Titulo: "Total pasivo y patrimonio"}},
		Generar: balanceGeneral})
	Registrar(Tipo{Clave: FlujoEfectivo, Nombre: "Flujo de efectivo",
		Descripcion: "Método directo: los movimientos de las cuentas de caja y bancos del período, clasificados en operación, inversión y financiamiento por sus contrapartidas.",
		Ruta:        "GET /api/reportes/financiero?tipo=" + FlujoEfectivo, Parametros: fin, Limite: limiteExportes,
		Totales: []Columna{
			{Clave: "operacion", Titulo: "Flujo de actividades de operación"}, {Clave: "inversion", Titulo: "Flujo de actividades de inversión"},
			{Clave: "financiamiento", Titulo: "Flujo de actividades de financiamiento"}, {Clave: "variacion_neta", Titulo: "Variación neta del efectivo"},
			{Clave: "saldo_inicial", Titulo: "Efectivo al inicio del período"}, {Clave: "saldo_final", Titulo: "Efectivo al final del período"},
		},
		Generar: flujoEfectivo})
}

// limiteExportes documents the financial statements' rate classes.
const limiteExportes = string(routes.RateGeneral) + " (json, csv); " + string(routes.RateReports) + " (pdf, excel)"

// conComparacion runs gen for c and, when asked, for the previous period,
// and adds the comparison.
func conComparacion(gen func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error)) Generador {
	return func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
		r, err := gen(ctx, tx, c)
		if err != nil || !c.Comparar {
			return r, err
		}
		prev := c.anterior()
		a, err := gen(ctx, tx, prev)
		if err != nil {
			return nil, err
		}
		t, _ := Buscar(c.Tipo)
		r.Comparacion = comparar(t, r, a, prev.Parametros(t))
		return r, nil
	}
}

// comparar builds the comparison of r with the previous period's a: per
// total, in the type's order, the change and its percentage of the
// previous figure's absolute value (null when that is zero).
func comparar(t Tipo, r, a *Reporte, params map[string]any) *Comparacion {
	c := &Comparacion{Parametros: params, Secciones: a.Secciones, Totales: a.Totales, Variacion: []Variacion{}}
	for _, col := range t.Totales {
		act, ant := r.Totales[col.Clave].Decimal, a.Totales[col.Clave].Decimal
		v := Variacion{Clave: col.Clave, Actual: Imp(act), Anterior: Imp(ant), Monto: Imp(act.Sub(ant))}
		if !ant.IsZero() {
			p := Imp(act.Sub(ant).Mul(decimal.NewFromInt(100)).Div(ant.Abs()))
			v.Porcentaje = &p
		}
		c.Variacion = append(c.Variacion, v)
	}
	return c
}

var estadoResultados = conComparacion(func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	l, err := cargarLibro(ctx, tx, c, c.FechaInicio)
	if err != nil {
		return nil, err
	}
	return l.estadoResultados(c), nil
})

// estadoResultados classifies the period's movements of the result
// accounts: revenue of the level-2 group holding the sales account
// (4.1 Ingresos de operación) is operating revenue, any other revenue is
// other income; costo accounts are the cost of sales; gasto accounts the
// operating expenses. Revenue reads credit minus debit (returns, a debit
// account of revenue, subtract), cost and expenses debit minus credit.
func (l *libro) estadoResultados(c Consulta) *Reporte {
	ventas := l.grupo(l.cfg.Ventas)
	periodo := func(k *cuenta) decimal.Decimal { s := l.saldos[k.ID]; return s.Debe.Sub(s.Haber) }
	acreedor := func(k *cuenta) decimal.Decimal { return periodo(k).Neg() }
	operativo := func(k *cuenta) bool { return k.Tipo == "ingreso" && l.grupo(k.ID) == ventas }
	otro := func(k *cuenta) bool { return k.Tipo == "ingreso" && l.grupo(k.ID) != ventas }
	de := func(tipo string) func(k *cuenta) bool { return func(k *cuenta) bool { return k.Tipo == tipo } }

	ing, tIng := l.arbol(operativo, acreedor, c.Nivel)
	cos, tCos := l.arbol(de("costo"), periodo, c.Nivel)
	gas, tGas := l.arbol(de("gasto"), periodo, c.Nivel)
	otr, tOtr := l.arbol(otro, acreedor, c.Nivel)
	bruta := tIng.Sub(tCos)
	operativa := bruta.Sub(tGas)
	neta := operativa.Add(tOtr)
	sec := func(clave, titulo string, filas []Fila, total decimal.Decimal) Seccion {
		return Seccion{Clave: clave, Titulo: titulo, Columnas: columnasCuenta, Filas: filas, Totales: map[string]Importe{"total": Imp(total)}}
	}
	return &Reporte{Tipo: EstadoResultados, Titulo: "Estado de resultados",
		Secciones: []Seccion{
			sec("ingresos", "Ingresos de operación", ing, tIng),
			sec("costo_ventas", "Costo de ventas", cos, tCos),
			sec("gastos", "Gastos de operación", gas, tGas),
			sec("otros_ingresos", "Otros ingresos", otr, tOtr),
		},
		Totales: map[string]Importe{"ingresos": Imp(tIng), "costo_ventas": Imp(tCos), "utilidad_bruta": Imp(bruta),
			"gastos": Imp(tGas), "utilidad_operativa": Imp(operativa), "otros_ingresos": Imp(tOtr), "utilidad_neta": Imp(neta)}}
}

var balanceGeneral = conComparacion(func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	l, err := cargarLibro(ctx, tx, c, inicioLibros)
	if err != nil {
		return nil, err
	}
	return l.balanceGeneral(c), nil
})

// balanceGeneral is the position at fecha_fin: every balance-sheet account
// with its balance from the first entry to fecha_fin (assets debit minus
// credit, liabilities and equity credit minus debit). The result accounts
// are not closed into equity by an entry, so their balances are: the
// result of the period (fecha_inicio..fecha_fin) shows under the
// configured "Utilidad o pérdida del período" account, the result before
// fecha_inicio under "Utilidades retenidas". With every entry balanced the
// statement balances; in dollars, rounding each account to cents can leave
// a few cents, shown as their own equity row so the totals still tie out.
func (l *libro) balanceGeneral(c Consulta) *Reporte {
	resultadoPeriodo, resultadoAnterior := decimal.Zero, decimal.Zero
	for i := range l.cuentas {
		k := &l.cuentas[i]
		if k.Tipo == "ingreso" || k.Tipo == "costo" || k.Tipo == "gasto" {
			s := l.saldos[k.ID]
			resultadoPeriodo = resultadoPeriodo.Add(s.Haber.Sub(s.Debe))
			resultadoAnterior = resultadoAnterior.Sub(s.Inicial)
		}
	}
	extra := map[int64]decimal.Decimal{}
	if l.porID[l.cfg.ResultadoPeriodo] != nil {
		extra[l.cfg.ResultadoPeriodo] = extra[l.cfg.ResultadoPeriodo].Add(resultadoPeriodo)
		if l.porID[l.cfg.UtilidadesRetenidas] != nil {
			extra[l.cfg.UtilidadesRetenidas] = extra[l.cfg.UtilidadesRetenidas].Add(resultadoAnterior)
		} else {
			extra[l.cfg.ResultadoPeriodo] = extra[l.cfg.ResultadoPeriodo].Add(resultadoAnterior)
		}
	}
	deudor := func(k *cuenta) decimal.Decimal { return l.saldos[k.ID].final() }
	acreedor := func(k *cuenta) decimal.Decimal { return l.saldos[k.ID].final().Neg().Add(extra[k.ID]) }
	de := func(tipo string) func(k *cuenta) bool { return func(k *cuenta) bool { return k.Tipo == tipo } }
	act, tAct := l.arbol(de("activo"), deudor, c.Nivel)
	pas, tPas := l.arbol(de("pasivo"), acreedor, c.Nivel)
	pat, tPat := l.arbol(de("patrimonio"), acreedor, c.Nivel)
	if l.porID[l.cfg.ResultadoPeriodo] == nil {
		// A chart without the configured account: the result as its own row.
		res := resultadoPeriodo.Add(resultadoAnterior)
		pat = append(pat, Fila{"cuenta_id": nil, "codigo": "", "nombre": "Resultado acumulado no cerrado", "nivel": 1, "monto": Imp(res)})
		tPat = tPat.Add(res)
	}
	if dif := tAct.Sub(tPas).Sub(tPat); !dif.IsZero() {
		pat = append(pat, Fila{"cuenta_id": nil, "codigo": "", "nombre": "Diferencia de conversión y redondeo", "nivel": 1, "monto": Imp(dif)})
		tPat = tPat.Add(dif)
	}
	sec := func(clave, titulo string, filas []Fila, total decimal.Decimal) Seccion {
		return Seccion{Clave: clave, Titulo: titulo, Columnas: columnasCuenta, Filas: filas, Totales: map[string]Importe{"total": Imp(total)}}
	}
	return &Reporte{Tipo: BalanceGeneral, Titulo: "Balance general",
		Secciones: []Seccion{sec("activo", "Activo", act, tAct), sec("pasivo", "Pasivo", pas, tPas), sec("patrimonio", "Patrimonio", pat, tPat)},
		Totales: map[string]Importe{"activo": Imp(tAct), "pasivo": Imp(tPas), "patrimonio": Imp(tPat),
			"pasivo_y_patrimonio": Imp(tPas.Add(tPat))}}
}

var flujoEfectivo = conComparacion(func(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	return generarFlujo(ctx, tx, c)
})

// flujoSQL is the direct-method cash flow's raw material, per account:
// 'saldo' the cash balance before $2; 'contra' the cash effect of each
// counter-account of the entries of [$2, $3] that move cash (credit minus
// debit of the counter line: a credit to revenue against cash brings cash
// in); 'efectivo' the movement of each cash account in the period. Cash
// accounts are the configured cash and bank accounts and every account
// under their parents (1.1.01 Efectivo, 1.1.02 Bancos). An entry that only
// moves money between cash accounts has no counter line and does not
// count.
var flujoSQL = `with cfg as (
	select cuenta_caja_id, cuenta_bancos_id from contabilidad_configuracion where empresa_id = $1
), padres as (
	select p.codigo from cuentas_contables c join cuentas_contables p on p.empresa_id = c.empresa_id and p.id = c.padre_id
	where c.empresa_id = $1 and c.id in (select cuenta_caja_id from cfg union all select cuenta_bancos_id from cfg)
), efectivo as (
	select c.id from cuentas_contables c where c.empresa_id = $1 and not c.eliminado
	  and (c.id in (select cuenta_caja_id from cfg union all select cuenta_bancos_id from cfg)
	    or exists (select 1 from padres p where c.codigo like p.codigo || '.%'))
), lineas as (
	select l.asiento_id, l.cuenta_id, a.fecha, (l.debe - l.haber) / ` + tasa("$5") + ` as neto,
		l.cuenta_id in (select id from efectivo) as es_efectivo
	from asiento_lineas l ` + lineasPosteadas("$3", "$4", "$5") + `
), con_efectivo as (
	select distinct asiento_id from lineas where es_efectivo and fecha >= $2
)
select 'saldo', 0::bigint, coalesce(sum(neto), 0) from lineas where es_efectivo and fecha < $2
union all
select 'contra', cuenta_id, coalesce(sum(-neto), 0) from lineas
	where not es_efectivo and fecha >= $2 and asiento_id in (select asiento_id from con_efectivo) group by cuenta_id
union all
select 'efectivo', cuenta_id, coalesce(sum(neto), 0) from lineas where es_efectivo and fecha >= $2 group by cuenta_id`

// generarFlujo is the cash flow by the direct method. The classification
// rule, by the counter-account of each cash movement:
//   - result accounts (ingreso, costo, gasto): operación (sales collected,
//     expenses paid);
//   - assets of the level-2 group holding the cash account (1.1 Activo
//     corriente: receivables, inventory, IVA acreditable): operación;
//     any other asset (1.2 Activo no corriente: property, equipment):
//     inversión;
//   - liabilities of the level-2 group holding the payables account (2.1
//     Pasivo corriente: suppliers, taxes, payroll): operación; any other
//     liability (long-term loans): financiamiento;
//   - equity (capital contributions, dividends): financiamiento.
//
// An entry with counter-lines of several classes is split line by line:
// each counter line's amount is exactly its share of the cash movement.
func generarFlujo(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	l, br, rows, err := abrirLibro(ctx, tx, c, inicioLibros, flujoSQL, "flujo de efectivo")
	if err != nil {
		return nil, err
	}
	defer br.Close()
	inicial := decimal.Zero
	contra := map[int64]decimal.Decimal{}
	for rows.Next() {
		var clase string
		var id int64
		var m decimal.Decimal
		if err := rows.Scan(&clase, &id, &m); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reportes: flujo de efectivo: %w", err)
		}
		switch clase {
		case "saldo":
			inicial = m.Round(2)
		case "contra":
			contra[id] = m.Round(2)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: flujo de efectivo: %w", err)
	}
	corriente, pasivoCorriente := l.grupo(l.cfg.Caja), l.grupo(l.cfg.CuentasPorPagar)
	clase := func(k *cuenta) string {
		switch k.Tipo {
		case "activo":
			if l.grupo(k.ID) == corriente {
				return "operacion"
			}
			return "inversion"
		case "pasivo":
			if l.grupo(k.ID) == pasivoCorriente {
				return "operacion"
			}
			return "financiamiento"
		case "patrimonio":
			return "financiamiento"
		}
		return "operacion"
	}
	filas := map[string][]Fila{"operacion": {}, "inversion": {}, "financiamiento": {}}
	totales := map[string]decimal.Decimal{"operacion": decimal.Zero, "inversion": decimal.Zero, "financiamiento": decimal.Zero}
	for id, m := range contra {
		k := l.porID[id]
		if k == nil || m.IsZero() {
			continue
		}
		cl := clase(k)
		filas[cl] = append(filas[cl], Fila{"cuenta_id": k.ID, "codigo": k.Codigo, "nombre": k.Nombre, "nivel": k.Nivel, "monto": Imp(m)})
		totales[cl] = totales[cl].Add(m)
	}
	variacion := totales["operacion"].Add(totales["inversion"]).Add(totales["financiamiento"])
	r := &Reporte{Tipo: FlujoEfectivo, Titulo: "Flujo de efectivo (método directo)"}
	for _, s := range []struct{ clave, titulo string }{
		{"operacion", "Actividades de operación"}, {"inversion", "Actividades de inversión"}, {"financiamiento", "Actividades de financiamiento"},
	} {
		ordenarFilas(filas[s.clave])
		r.Secciones = append(r.Secciones, Seccion{Clave: s.clave, Titulo: s.titulo, Columnas: columnasCuenta, Filas: filas[s.clave],
			Totales: map[string]Importe{"total": Imp(totales[s.clave])}})
	}
	r.Totales = map[string]Importe{"operacion": Imp(totales["operacion"]), "inversion": Imp(totales["inversion"]),
		"financiamiento": Imp(totales["financiamiento"]), "variacion_neta": Imp(variacion),
		"saldo_inicial": Imp(inicial), "saldo_final": Imp(inicial.Add(variacion))}
	return r, nil
}
