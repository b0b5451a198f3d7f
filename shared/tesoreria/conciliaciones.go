package tesoreria

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// DatosConciliacion is a validated reconciliation body: the statement's
// cut-off date and balance, and the posted lines (asiento_lineas ids) the
// statement shows.
type DatosConciliacion struct {
	in            *valid.Input
	FechaCorte    time.Time
	SaldoEstado   decimal.Decimal
	Movimientos   []int64
	Observaciones *string
}

// conciliacionJSON is a reconciliation as the API shows it (alias r), with
// the lines it reconciled and the ones it left outstanding (which explain
// its difference).
const conciliacionJSON = `jsonb_build_object('id', r.id, 'empresa_id', r.empresa_id, 'cuenta_bancaria_id', r.cuenta_bancaria_id,
	'fecha_corte', r.fecha_corte, 'saldo_libros', r.saldo_libros, 'saldo_estado_cuenta', r.saldo_estado_cuenta,
	'total_conciliado', r.total_conciliado, 'total_no_conciliado', r.total_no_conciliado, 'diferencia', r.diferencia,
	'observaciones', r.observaciones, 'usuario_id', r.usuario_id, 'creado_en', r.creado_en,
	'movimientos_conciliados', (select coalesce(jsonb_agg(` + lineaJSON + ` order by a.fecha, l.id), '[]'::jsonb)
		from conciliacion_movimientos m join asiento_lineas l on l.id = m.asiento_linea_id
		join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
		where m.empresa_id = r.empresa_id and m.conciliacion_id = r.id and m.conciliado),
	'movimientos_no_conciliados', (select coalesce(jsonb_agg(` + lineaJSON + ` order by a.fecha, l.id), '[]'::jsonb)
		from conciliacion_movimientos m join asiento_lineas l on l.id = m.asiento_linea_id
		join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
		where m.empresa_id = r.empresa_id and m.conciliacion_id = r.id and not m.conciliado))`

// limiteMonto bounds the amounts a reconciliation stores: what its
// numeric(18,2) columns hold. The book balance and the outstanding lines
// are sums, which can pass it when each line is within it.
var limiteMonto = decimal.New(1, 16)

// linea is a posted line of the bank's ledger account up to the cut-off.
type linea struct {
	id         int64
	monto      decimal.Decimal // debe - haber
	conciliada bool            // by an earlier reconciliation
}

// Conciliar records a reconciliation of bank account id at d.FechaCorte.
// The book balance is the posted lines of its ledger account up to that
// date; the statement must show it less the lines not reconciled yet (the
// ones reconciled before and the ones named now count as reconciled). A
// statement that does not tie is a 422 that says by how much; otherwise
// the reconciliation, its reconciled lines and its outstanding ones are
// written in one statement. The bank account's row is locked, so two
// reconciliations of one account cannot reconcile a line twice.
func Conciliar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, d DatosConciliacion) (json.RawMessage, error) {
	in := d.in
	b := &pgx.Batch{}
	b.Queue(`select cuenta_contable_id from cuentas_bancarias where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id)
	b.Queue(`select l.id, l.debe - l.haber, exists (select 1 from conciliacion_movimientos m
			where m.empresa_id = l.empresa_id and m.asiento_linea_id = l.id and m.conciliado)
		from cuentas_bancarias b
		join asiento_lineas l on l.empresa_id = b.empresa_id and l.cuenta_id = b.cuenta_contable_id
		join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
		where b.empresa_id = $1 and b.id = $2 and a.estado in ('contabilizado', 'anulado') and not a.eliminado and a.fecha <= $3
		order by l.id`, tx.EmpresaID(), id, d.FechaCorte)
	br := tx.SendBatch(ctx, b)
	var cuenta int64
	err := br.QueryRow().Scan(&cuenta)
	if errors.Is(err, pgx.ErrNoRows) {
		br.Close()
		return nil, apperr.NewNotFound(msgCuentaNoEncontrada)
	}
	var lineas []linea
	if err == nil {
		rows, _ := br.Query()
		lineas, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (linea, error) {
			var l linea
			var m pgtype.Numeric
			err := r.Scan(&l.id, &m, &l.conciliada)
			l.monto = db.Decimal(m)
			return l, err
		})
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("tesoreria: conciliación de %d: %w", id, err)
	}

	porID := make(map[int64]*linea, len(lineas))
	libros := decimal.Zero
	for i := range lineas {
		porID[lineas[i].id] = &lineas[i]
		libros = libros.Add(lineas[i].monto)
	}
	ahora := map[int64]bool{}
	conciliado := decimal.Zero
	for i, m := range d.Movimientos {
		key := "movimientos." + strconv.Itoa(i)
		l, ok := porID[m]
		switch {
		case !ok:
			in.Fail(key, fmt.Sprintf("El movimiento %d no es una línea contabilizada de la cuenta bancaria con fecha hasta el %s.",
				m, d.FechaCorte.Format(time.DateOnly)))
		case l.conciliada:
			in.Fail(key, fmt.Sprintf("El movimiento %d ya fue conciliado en una conciliación anterior.", m))
		case ahora[m]:
			in.Fail(key, fmt.Sprintf("El movimiento %d está repetido.", m))
		default:
			ahora[m] = true
			conciliado = conciliado.Add(l.monto)
		}
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	pendiente := decimal.Zero
	var pendientes []int64
	for _, l := range lineas {
		if !l.conciliada && !ahora[l.id] {
			pendiente = pendiente.Add(l.monto)
			pendientes = append(pendientes, l.id)
		}
	}
	for _, m := range []decimal.Decimal{libros, pendiente, conciliado} {
		if m.Abs().GreaterThanOrEqual(limiteMonto) {
			return nil, apperr.InvalidField("fecha_corte", fmt.Sprintf(
				"Los movimientos de la cuenta bancaria al %s suman más de lo que registra una conciliación (montos menores que %s en valor absoluto).",
				d.FechaCorte.Format(time.DateOnly), limiteMonto.StringFixed(2)))
		}
	}
	esperado := libros.Sub(pendiente)
	if !esperado.Equal(d.SaldoEstado) {
		return nil, apperr.InvalidField("saldo_estado_cuenta", fmt.Sprintf(
			"El saldo del estado de cuenta (%s) no cuadra con los libros: el saldo en libros al %s es %s y los movimientos no conciliados suman %s, "+
				"así que el estado de cuenta debería mostrar %s (diferencia sin explicar: %s).",
			d.SaldoEstado.StringFixed(2), d.FechaCorte.Format(time.DateOnly), libros.StringFixed(2), pendiente.StringFixed(2),
			esperado.StringFixed(2), d.SaldoEstado.Sub(esperado).StringFixed(2)))
	}
	conciliadas := make([]int64, 0, len(ahora))
	for _, m := range d.Movimientos {
		conciliadas = append(conciliadas, m)
	}
	if pendientes == nil {
		pendientes = []int64{}
	}
	var raw []byte
	var concID int64
	err = tx.QueryRow(ctx, `with r as (
			insert into conciliaciones_bancarias (empresa_id, cuenta_bancaria_id, fecha_corte, saldo_libros, saldo_estado_cuenta,
			  total_conciliado, total_no_conciliado, diferencia, observaciones, usuario_id)
			values ($1, $2, $3, $4, $5, $6, $7, $4::numeric - $5::numeric, $8, $9) returning id
		), m as (
			insert into conciliacion_movimientos (empresa_id, conciliacion_id, asiento_linea_id, conciliado, monto)
			select $1, r.id, l.id, l.id = any($10), l.debe - l.haber
			from r, asiento_lineas l where l.empresa_id = $1 and (l.id = any($10) or l.id = any($11))
		)
		select id from r`, tx.EmpresaID(), id, d.FechaCorte, db.Numeric(libros), db.Numeric(d.SaldoEstado),
		db.Numeric(conciliado), db.Numeric(pendiente), d.Observaciones, nullID(p.UsuarioID), conciliadas, pendientes).Scan(&concID)
	if err != nil {
		return nil, fmt.Errorf("tesoreria: registrar conciliación: %w", err)
	}
	if err := tx.QueryRow(ctx, `select `+conciliacionJSON+` from conciliaciones_bancarias r where r.empresa_id = $1 and r.id = $2`,
		tx.EmpresaID(), concID).Scan(&raw); err != nil {
		return nil, fmt.Errorf("tesoreria: conciliación %d: %w", concID, err)
	}
	return raw, nil
}

// nullID is nil for 0 (no user).
func nullID(id int64) *int64 {
	if id <= 0 {
		return nil
	}
	return &id
}
