package reportes

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
)

// Which entries count: every posted one. An anulado entry was posted and
// is cancelled by a reversing entry that is posted too, so both belong in
// the books; drafts (borrador) are not in the books yet.
const asientosPosteados = `a.estado in ('contabilizado', 'anulado') and not a.eliminado`

// tasaSQL is an entry's rate to the report's currency: 1 in colones (the
// books' currency: every line is in CRC), the reference selling rate of
// the entry's date in dollars ($usd names the boolean parameter). The
// caller joins tipos_cambio as t (tasaJoin).
const tasaSQL = `(case when %[1]s then t.venta else 1 end)`

const tasaJoin = `left join tipos_cambio t on %[1]s and t.empresa_id = a.empresa_id and t.moneda = 'USD'
	and t.fecha = a.fecha and not t.eliminado`

func tasa(param string) string { return fmt.Sprintf(tasaSQL, param) }
func joinTasa(param string) string {
	return fmt.Sprintf(tasaJoin, param)
}

// lineasPosteadas follows "from asiento_lineas l": the lines of the
// company's posted entries a up to the date parameter fin, of the branch
// parameter sucursal when it is not null, with the rate t of the currency
// parameter usd (tasa) joined. Every ledger report sums these lines.
func lineasPosteadas(fin, sucursal, usd string) string {
	return `join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
	` + joinTasa(usd) + `
	where l.empresa_id = $1 and ` + asientosPosteados + ` and a.fecha <= ` + fin + `
	  and (` + sucursal + `::bigint is null or l.sucursal_id = ` + sucursal + `)`
}

// sinTasaSQL finds the first date, between $2 and $3, of a posted entry
// without an exchange rate; $4 is whether the report is in dollars.
const sinTasaSQL = `select min(a.fecha) from asientos_contables a
	where a.empresa_id = $1 and ` + asientosPosteados + ` and a.fecha between $2 and $3 and $4::boolean
	  and not exists (select 1 from tipos_cambio t where t.empresa_id = a.empresa_id and t.moneda = 'USD'
	    and t.fecha = a.fecha and not t.eliminado)`

// errSinTasa is the 422 of a report in dollars over a date without a rate.
func errSinTasa(f time.Time) error {
	return apperr.InvalidField("moneda", fmt.Sprintf(
		"No hay tipo de cambio del dólar registrado para el %s; regístrelo en /api/tipos-cambio para ver el reporte en USD.",
		f.Format(time.DateOnly)))
}

// leerSinTasa reads sinTasaSQL's answer from a batch.
func leerSinTasa(br pgx.BatchResults) error {
	var f pgtype.Date
	if err := br.QueryRow().Scan(&f); err != nil {
		return fmt.Errorf("reportes: tipos de cambio: %w", err)
	}
	if f.Valid {
		return errSinTasa(f.Time)
	}
	return nil
}

var inicioLibros = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// cuenta is an account of the chart.
type cuenta struct {
	ID         int64
	Codigo     string
	Nombre     string
	Tipo       string
	Naturaleza string
	PadreID    *int64
	Nivel      int
	Hoja       bool
}

// deudora reports whether the account's balance reads debit minus credit.
func (k cuenta) deudora() bool { return k.Naturaleza == "deudora" }

// configuracion is what the reports read of the posting configuration.
type configuracion struct {
	Caja, Bancos, Ventas, CuentasPorPagar, ResultadoPeriodo, UtilidadesRetenidas int64
}

// saldo is an account's figures in the report's currency: the balance
// before the period (debit minus credit) and the period's debits and
// credits, each already rounded to 2 decimals.
type saldo struct {
	Inicial, Debe, Haber decimal.Decimal
}

// final is the balance at the end of the period, debit minus credit.
func (s saldo) final() decimal.Decimal { return s.Inicial.Add(s.Debe).Sub(s.Haber) }

// libro is a company's chart with the balances of one period.
type libro struct {
	cuentas []cuenta
	porID   map[int64]*cuenta
	cfg     configuracion
	saldos  map[int64]saldo
}

const cuentasSQL = `select id, codigo, nombre, tipo, naturaleza, padre_id, nivel, acepta_movimientos
	from cuentas_contables where empresa_id = $1 and not eliminado order by codigo`

const configuracionSQL = `select cuenta_caja_id, cuenta_bancos_id, cuenta_ventas_id, cuenta_cuentas_por_pagar_id,
	cuenta_resultado_periodo_id, cuenta_utilidades_retenidas_id from contabilidad_configuracion where empresa_id = $1`

// saldosSQL sums every posted line of the company up to $3 per account:
// before $2 (the opening balance) and from $2 (the period's debits and
// credits), converted to dollars at each entry's rate when $5, only the
// lines of branch $4 when given.
var saldosSQL = `select l.cuenta_id,
		coalesce(sum((l.debe - l.haber) / ` + tasa("$5") + `) filter (where a.fecha < $2), 0),
		coalesce(sum(l.debe / ` + tasa("$5") + `) filter (where a.fecha >= $2), 0),
		coalesce(sum(l.haber / ` + tasa("$5") + `) filter (where a.fecha >= $2), 0)
	from asiento_lineas l ` + lineasPosteadas("$3", "$4", "$5") + `
	group by l.cuenta_id`

// cargarLibro reads the chart, the configuration and the balances of the
// period in one round trip (a batch of four statements), whatever the
// number of entries. In dollars every entry from desde to fecha_fin needs
// its date's rate: from the first entry for the reports that show opening
// balances, from fecha_inicio for the income statement (which does not).
func cargarLibro(ctx context.Context, tx *db.Tx, c Consulta, desde time.Time) (*libro, error) {
	l, br, rows, err := abrirLibro(ctx, tx, c, desde, saldosSQL, "saldos")
	if err != nil {
		return nil, err
	}
	defer br.Close()
	l.saldos = map[int64]saldo{}
	for rows.Next() {
		var id int64
		var ini, debe, haber decimal.Decimal
		if err := rows.Scan(&id, &ini, &debe, &haber); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reportes: saldos: %w", err)
		}
		l.saldos[id] = saldo{Inicial: ini.Round(2), Debe: debe.Round(2), Haber: haber.Round(2)}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: saldos: %w", err)
	}
	return l, nil
}

// leerCuentas reads cuentasSQL's answer from a batch.
func leerCuentas(br pgx.BatchResults) (*libro, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("reportes: cuentas: %w", err)
	}
	l := &libro{porID: map[int64]*cuenta{}}
	for rows.Next() {
		var k cuenta
		if err := rows.Scan(&k.ID, &k.Codigo, &k.Nombre, &k.Tipo, &k.Naturaleza, &k.PadreID, &k.Nivel, &k.Hoja); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reportes: cuentas: %w", err)
		}
		l.cuentas = append(l.cuentas, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: cuentas: %w", err)
	}
	for i := range l.cuentas {
		l.porID[l.cuentas[i].ID] = &l.cuentas[i]
	}
	return l, nil
}

// ancestro is the account's ancestor at nivel (itself when it is at that
// level or above).
func (l *libro) ancestro(id int64, nivel int) *cuenta {
	k := l.porID[id]
	for k != nil && k.Nivel > nivel && k.PadreID != nil {
		p := l.porID[*k.PadreID]
		if p == nil {
			break
		}
		k = p
	}
	return k
}

// grupo is the level-2 group of an account ("1.1" Activo corriente), or 0.
func (l *libro) grupo(id int64) int64 {
	if k := l.ancestro(id, 2); k != nil {
		return k.ID
	}
	return 0
}

// Columns of the account rows of the statements.
var columnasCuenta = []Columna{
	{Clave: "codigo", Titulo: "Código", Tipo: ColTexto},
	{Clave: "nombre", Titulo: "Cuenta", Tipo: ColTexto},
	{Clave: "nivel", Titulo: "Nivel", Tipo: ColEntero},
	{Clave: "monto", Titulo: "Monto", Tipo: ColImporte},
}

// arbol builds the rows of the accounts for which incluir holds, each with
// the sum of its leaves' amounts (monto of each leaf, already rounded), in
// chart order, grouped by level: an account shows when its amount or a
// descendant's is not zero and its level is within nivel (0: all). It
// returns the rows and the total of the top-level accounts.
func (l *libro) arbol(incluir func(k *cuenta) bool, monto func(k *cuenta) decimal.Decimal, nivel int) ([]Fila, decimal.Decimal) {
	sumas := map[int64]decimal.Decimal{}
	movido := map[int64]bool{}
	total := decimal.Zero
	for i := range l.cuentas {
		k := &l.cuentas[i]
		if !k.Hoja || !incluir(k) {
			continue
		}
		m := monto(k)
		if m.IsZero() && !l.tieneMovimiento(k.ID) {
			continue
		}
		total = total.Add(m)
		for p := k; p != nil; {
			sumas[p.ID] = sumas[p.ID].Add(m)
			movido[p.ID] = true
			if p.PadreID == nil {
				break
			}
			p = l.porID[*p.PadreID]
		}
	}
	filas := []Fila{}
	for i := range l.cuentas {
		k := &l.cuentas[i]
		if !movido[k.ID] || (nivel > 0 && k.Nivel > nivel) {
			continue
		}
		filas = append(filas, Fila{"cuenta_id": k.ID, "codigo": k.Codigo, "nombre": k.Nombre, "nivel": k.Nivel,
			"monto": Imp(sumas[k.ID])})
	}
	return filas, total
}

// tieneMovimiento reports whether the account has any figure in the
// period (so that an account whose movements net to zero still shows).
func (l *libro) tieneMovimiento(id int64) bool {
	s, ok := l.saldos[id]
	return ok && !(s.Inicial.IsZero() && s.Debe.IsZero() && s.Haber.IsZero())
}

// ordenarFilas sorts rows by their codigo.
func ordenarFilas(fs []Fila) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, _ := fs[i]["codigo"].(string)
		b, _ := fs[j]["codigo"].(string)
		return a < b
	})
}

// abrirLibro sends, in one batch, the missing-rate check from desde, the
// chart, the posting configuration and the report's own query (consulta,
// with the company, fecha_inicio, fecha_fin, sucursal and whether in USD),
// reads the first three into a libro and returns the rows of the fourth.
// The caller closes br once it has read the rows.
func abrirLibro(ctx context.Context, tx *db.Tx, c Consulta, desde time.Time, consulta, nombre string) (*libro, pgx.BatchResults, pgx.Rows, error) {
	usd := c.Moneda == USD
	b := &pgx.Batch{}
	b.Queue(sinTasaSQL, tx.EmpresaID(), desde, c.FechaFin, usd)
	b.Queue(cuentasSQL, tx.EmpresaID())
	b.Queue(configuracionSQL, tx.EmpresaID())
	b.Queue(consulta, tx.EmpresaID(), c.FechaInicio, c.FechaFin, c.SucursalID, usd)
	br := tx.SendBatch(ctx, b)
	fail := func(err error) (*libro, pgx.BatchResults, pgx.Rows, error) {
		br.Close()
		return nil, nil, nil, err
	}
	if err := leerSinTasa(br); err != nil {
		return fail(err)
	}
	l, err := leerCuentas(br)
	if err != nil {
		return fail(err)
	}
	if err := br.QueryRow().Scan(&l.cfg.Caja, &l.cfg.Bancos, &l.cfg.Ventas, &l.cfg.CuentasPorPagar,
		&l.cfg.ResultadoPeriodo, &l.cfg.UtilidadesRetenidas); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fail(fmt.Errorf("reportes: configuración contable: %w", err))
	}
	rows, err := br.Query()
	if err != nil {
		return fail(fmt.Errorf("reportes: %s: %w", nombre, err))
	}
	return l, br, rows, nil
}
