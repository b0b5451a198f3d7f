// Package tesoreria is the treasury of a company (issue 13): bank accounts
// with their ledger account, balance from the books and reconciliations;
// cash boxes per branch with their sessions (opening, expected cash,
// closing count and its sobrante/faltante posting); budgets per year and
// account, and the budget-versus-actual report. The books themselves and
// the automatic postings are migration 0012's; migration 0014 adds the
// tables, the rule that a sale or payment naming a cash box needs its open
// session, and the choice of the ledger account a payment moves.
package tesoreria

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// Monedas are the currencies of a bank account.
var Monedas = []string{"CRC", "USD"}

// CodigoBancos is the grouping account under which bank accounts' ledger
// accounts live (seeded chart, migration 0012); CodigoEfectivo the one of
// cash.
const (
	CodigoBancos   = "1.1.02"
	CodigoEfectivo = "1.1.01"
)

const msgCuentaNoEncontrada = "Cuenta bancaria no encontrada."

// cuentaJSON is a bank account as the API shows it (alias b): its ledger
// account and its balance in the books (colones).
const cuentaJSON = `jsonb_build_object('id', b.id, 'empresa_id', b.empresa_id, 'banco', b.banco, 'numero', b.numero,
	'iban', b.iban, 'moneda', b.moneda, 'titular', b.titular, 'descripcion', b.descripcion,
	'cuenta_contable_id', b.cuenta_contable_id, 'activo', b.activo, 'creado_en', b.creado_en, 'actualizado_en', b.actualizado_en,
	'cuenta_contable', (select ` + cuentaRefJSON + `
		from cuentas_contables k where k.empresa_id = b.empresa_id and k.id = b.cuenta_contable_id),
	'saldo', tesoreria_saldo(b.empresa_id, b.cuenta_contable_id, null))`

// cuentaRefJSON is the ledger account nested in a bank account or a box
// (alias k).
const cuentaRefJSON = `jsonb_build_object('id', k.id, 'codigo', k.codigo, 'nombre', k.nombre)`

// lineaJSON is a posted line of a ledger account (alias l, entry a).
const lineaJSON = `jsonb_build_object('id', l.id, 'asiento_id', a.id, 'numero', a.numero, 'fecha', a.fecha, 'descripcion',
	coalesce(l.descripcion, a.descripcion), 'origen', a.origen, 'debe', l.debe, 'haber', l.haber, 'monto', l.debe - l.haber)`

// MovimientosPorPagina bounds the unreconciled movements of a bank
// account's detail view: a page of them, not all (a year of movements not
// reconciled would pass Lambda's 6 MB response).
const MovimientosPorPagina = 500

// pendientes is the posted lines of a bank account's ledger account (b:
// the bank account) that no reconciliation has reconciled: the ids a
// reconciliation names.
const pendientes = `from asiento_lineas l join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
	where l.empresa_id = b.empresa_id and l.cuenta_id = b.cuenta_contable_id and a.estado in ('contabilizado', 'anulado')
	  and not a.eliminado and not exists (select 1 from conciliacion_movimientos m
	    where m.empresa_id = l.empresa_id and m.asiento_linea_id = l.id and m.conciliado)`

// movimientosPendientes is the page $3 (from 1) of the unreconciled lines,
// oldest first (the order a reconciliation at a cut-off date consumes
// them: each reconciliation takes the first ones off the list), with how
// many there are and the last page.
var movimientosPendientes = fmt.Sprintf(`jsonb_build_object(
	'movimientos_pendientes', (select coalesce(jsonb_agg(p.j order by p.fecha, p.id), '[]'::jsonb) from (
		select `+lineaJSON+` as j, a.fecha, l.id `+pendientes+`
		order by a.fecha, l.id offset least($3::bigint - 1, 1000000000000) * %[1]d limit %[1]d) p),
	'movimientos_pendientes_pagina', $3::bigint)
	|| (select jsonb_build_object('movimientos_pendientes_total', count(*),
		'movimientos_pendientes_ultima_pagina', greatest(1, ceil(count(*)::numeric / %[1]d))) `+pendientes+`)`, MovimientosPorPagina)

// DatosCuenta is a validated bank-account body; nil fields were not sent.
type DatosCuenta struct {
	in               *valid.Input
	Banco, Numero    *string
	IBAN, Moneda     *string
	Titular          *string
	CuentaContableID *int64
	limpiarTitular   bool
	comunes
}

// BuscarCuenta loads a bank account of the tenant with its balance and the
// first page of its unreconciled movements.
func BuscarCuenta(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (json.RawMessage, error) {
	return MostrarCuenta(ctx, tx, p, VistaCuenta{ID: id, Pagina: 1})
}

// VistaCuenta is a bank account's detail view: which account, and which
// page of its unreconciled movements.
type VistaCuenta struct{ ID, Pagina int64 }

// MostrarCuenta loads a bank account of the tenant with its balance and a
// page of its unreconciled movements.
func MostrarCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, v VistaCuenta) (json.RawMessage, error) {
	raw, found, err := db.Uno(ctx, tx, fmt.Sprintf("tesoreria: cuenta bancaria %d", v.ID), pgx.RowTo[[]byte], nil,
		`select `+cuentaJSON+` || `+movimientosPendientes+`
		from cuentas_bancarias b where b.empresa_id = $1 and b.id = $2 and not b.eliminado`, tx.EmpresaID(), v.ID, v.Pagina)
	return raw, apperr.NotFoundUnless(found, err, msgCuentaNoEncontrada)
}

// hoja is what a rule needs of a ledger account.
type hoja struct {
	codigo      string
	activo      bool
	acepta      bool
	encontrada  bool
	yaAsignada  bool
	grupoExiste bool
}

// leerHoja reads a ledger account of the tenant, whether the grouping
// account padre exists, and whether another row of table already uses it
// (excluding id).
func leerHoja(ctx context.Context, tx *db.Tx, cuenta *int64, padre, table string, id int64) (hoja, error) {
	var h hoja
	b := &pgx.Batch{}
	// For share until commit: a deletion or deactivation of the ledger
	// account (contabilidad locks it for no key update) waits for this
	// write and then sees the account taken.
	b.Queue(`select codigo, activo, acepta_movimientos from cuentas_contables where empresa_id = $1 and id = $2 and not eliminado for share`,
		tx.EmpresaID(), cuenta)
	b.Queue(`select exists (select 1 from `+table+` where empresa_id = $1 and cuenta_contable_id = $2 and id <> $3 and not eliminado),
		exists (select 1 from cuentas_contables where empresa_id = $1 and codigo = $4 and not eliminado)`, tx.EmpresaID(), cuenta, id, padre)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	err := br.QueryRow().Scan(&h.codigo, &h.activo, &h.acepta)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return h, fmt.Errorf("tesoreria: cuenta contable: %w", err)
	default:
		h.encontrada = true
	}
	if err := br.QueryRow().Scan(&h.yaAsignada, &h.grupoExiste); err != nil {
		return h, fmt.Errorf("tesoreria: cuenta contable: %w", err)
	}
	return h, nil
}

// checkHoja reports under cuenta_contable_id why an account cannot hold
// the money of a bank account or cash box: it must be an active leaf
// account of the tenant below padre, not used by another one of them.
func checkHoja(in *valid.Input, h hoja, padre, nombrePadre, usada string) {
	const key = "cuenta_contable_id"
	switch {
	case !h.encontrada:
		in.Fail(key, "La cuenta contable seleccionada no existe en esta empresa.")
	case !h.activo:
		in.Fail(key, "La cuenta contable seleccionada está inactiva.")
	case !h.acepta:
		in.Fail(key, "La cuenta contable es de agrupación: indique una cuenta de detalle.")
	case !strings.HasPrefix(h.codigo, padre+"."):
		in.Fail(key, "La cuenta contable debe ser una cuenta de detalle de "+padre+" "+nombrePadre+".")
	case h.yaAsignada:
		in.Fail(key, usada)
	}
}

// CrearCuenta records a bank account. Without cuenta_contable_id it gets a
// ledger account of its own under 1.1.02 Bancos named after the bank and
// number (the next free code, under a per-company lock so concurrent
// creations do not take the same one).
func CrearCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, d DatosCuenta) (json.RawMessage, error) {
	in := d.in
	moneda := "CRC"
	if d.Moneda != nil {
		moneda = *d.Moneda
	}
	if d.CuentaContableID != nil {
		h, err := leerHoja(ctx, tx, d.CuentaContableID, CodigoBancos, "cuentas_bancarias", 0)
		if err != nil {
			return nil, err
		}
		checkHoja(in, h, CodigoBancos, "Bancos", "La cuenta contable ya es la de otra cuenta bancaria.")
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	cuenta := d.CuentaContableID
	if cuenta == nil {
		nombre := *d.Banco + " " + *d.Numero
		b := &pgx.Batch{}
		b.Queue(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, fmt.Sprintf("cuentas_contables.%s:%d", CodigoBancos, tx.EmpresaID()))
		b.Queue(`with padre as (
				select id, codigo, nivel from cuentas_contables where empresa_id = $1 and codigo = $2 and not eliminado
			), sig as (
				select p.codigo || '.' || lpad((coalesce(max(substring(k.codigo from length(p.codigo) + 2)::numeric), 0) + 1)::text, 3, '0') as codigo
				from padre p left join cuentas_contables k on k.empresa_id = $1 and k.padre_id = p.id
				  and k.codigo ~ ('^' || replace(p.codigo, '.', '\.') || '\.[0-9]+$')
				group by p.codigo
			)
			insert into cuentas_contables (empresa_id, codigo, nombre, tipo, naturaleza, padre_id, nivel, acepta_movimientos, moneda)
			select $1, sig.codigo, left($3, 255), 'activo', 'deudora', padre.id, least(padre.nivel + 1, 10), true, $4
			from padre, sig returning id`, tx.EmpresaID(), CodigoBancos, nombre, moneda)
		br := tx.SendBatch(ctx, b)
		var nueva int64
		_, err := br.Exec()
		if err == nil {
			err = br.QueryRow().Scan(&nueva)
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, apperr.InvalidField("cuenta_contable_id",
				"La empresa no tiene la cuenta de agrupación "+CodigoBancos+" Bancos; indique la cuenta contable de la cuenta bancaria.")
		}
		if _, ok := db.IsUniqueViolation(err); ok {
			return nil, apperr.NewConflict("Otra operación creó una cuenta contable a la vez; intente de nuevo.")
		}
		if err != nil {
			return nil, fmt.Errorf("tesoreria: cuenta contable de la cuenta bancaria: %w", err)
		}
		cuenta = &nueva
	}
	var id int64
	err := tx.QueryRow(ctx, `insert into cuentas_bancarias (empresa_id, banco, numero, iban, moneda, titular, descripcion, cuenta_contable_id, activo)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
		tx.EmpresaID(), *d.Banco, *d.Numero, *d.IBAN, moneda, d.Titular, d.Descripcion, *cuenta, d.activo()).Scan(&id)
	if err != nil {
		return nil, errorCuenta(err)
	}
	return BuscarCuenta(ctx, tx, auth.Principal{}, id)
}

// errorCuenta turns the unique indexes of cuentas_bancarias into 422s.
func errorCuenta(err error) error {
	switch c, _ := db.IsUniqueViolation(err); c {
	case "cuentas_bancarias_iban":
		return apperr.InvalidField("iban", "Ya existe una cuenta bancaria con ese IBAN en esta empresa.")
	case "cuentas_bancarias_cuenta":
		return apperr.InvalidField("cuenta_contable_id", "La cuenta contable ya es la de otra cuenta bancaria.")
	}
	return fmt.Errorf("tesoreria: cuenta bancaria: %w", err)
}

// ActualizarCuenta changes the fields sent.
func ActualizarCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, d DatosCuenta) (json.RawMessage, error) {
	if err := existe(ctx, tx, "cuentas_bancarias", id, "cuenta bancaria", msgCuentaNoEncontrada); err != nil {
		return nil, err
	}
	if d.CuentaContableID != nil {
		h, err := leerHoja(ctx, tx, d.CuentaContableID, CodigoBancos, "cuentas_bancarias", id)
		if err != nil {
			return nil, err
		}
		checkHoja(d.in, h, CodigoBancos, "Bancos", "La cuenta contable ya es la de otra cuenta bancaria.")
	}
	if err := d.in.Err(); err != nil {
		return nil, err
	}
	_, err := tx.Exec(ctx, `update cuentas_bancarias set banco = coalesce($3, banco), numero = coalesce($4, numero),
			iban = coalesce($5, iban), moneda = coalesce($6, moneda),
			titular = case when $7 then null else coalesce($8, titular) end,
			descripcion = case when $9 then null else coalesce($10, descripcion) end,
			cuenta_contable_id = coalesce($11, cuenta_contable_id), activo = coalesce($12, activo)
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, d.Banco, d.Numero, d.IBAN, d.Moneda,
		d.limpiarTitular, d.Titular, d.limpiarDescripcion, d.Descripcion, d.CuentaContableID, d.Activo)
	if err != nil {
		return nil, errorCuenta(err)
	}
	return BuscarCuenta(ctx, tx, auth.Principal{}, id)
}

// EliminarCuenta deletes (logically) a bank account whose balance in the
// books is zero; one with money is deactivated instead.
func EliminarCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	var cero bool
	err := tx.QueryRow(ctx, `select tesoreria_saldo(empresa_id, cuenta_contable_id, null) = 0 from cuentas_bancarias
		where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id).Scan(&cero)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.NewNotFound(msgCuentaNoEncontrada)
	}
	if err != nil {
		return nil, fmt.Errorf("tesoreria: eliminar cuenta bancaria %d: %w", id, err)
	}
	if !cero {
		return nil, apperr.InvalidField("saldo", "La cuenta bancaria tiene saldo en libros: no se puede eliminar; desactívela.")
	}
	if _, err := tx.Exec(ctx, `update cuentas_bancarias set eliminado = true, activo = false where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), id); err != nil {
		return nil, fmt.Errorf("tesoreria: eliminar cuenta bancaria %d: %w", id, err)
	}
	return nil, nil
}
