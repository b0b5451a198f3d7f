package compras

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

const msgCuentaNoEncontrada = "Cuenta por pagar no encontrada."

var cuentaSorts = map[string]string{
	"id": "c.id", "fecha_emision": "c.fecha_emision", "fecha_vencimiento": "c.fecha_vencimiento", "monto": "c.monto",
	"saldo": "c.saldo", "estado": "c.estado", "creado_en": "c.creado_en", "actualizado_en": "c.actualizado_en",
}

func buscarCuenta(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (json.RawMessage, error) {
	data, found, err := findCuenta(ctx, tx, id)
	return data, apperr.NotFoundUnless(found, err, msgCuentaNoEncontrada)
}

// pagar records a payment of a payable: monto > 0 and not above the
// balance, fecha, forma_pago_id, referencia. The balance goes down in the
// same statement; at 0 the payable is pagada. The payable is locked, so
// concurrent payments cannot overdraw it.
type pagoIn struct {
	in         *valid.Input
	monto      decimal.Decimal
	okMonto    bool
	fecha      time.Time
	forma      int64
	okForma    bool
	referencia *string
	// The bank account or cash box the money goes out of (migration 0014's
	// trigger checks them at the insert).
	cuentaBancaria, caja *int64
}

func pagar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x pagoIn) (json.RawMessage, error) {
	in, monto, okMonto, fecha, forma, okForma, referencia := x.in, x.monto, x.okMonto, x.fecha, x.forma, x.okForma, x.referencia

	b := &pgx.Batch{}
	b.Queue(`select estado, saldo from cuentas_por_pagar where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id)
	if okForma {
		b.Queue(`select exists (select 1 from formas_pago where id = $1 and activo and not eliminado)`, forma)
	}
	br := tx.SendBatch(ctx, b)
	var estado string
	var saldoN pgtype.Numeric
	errCuenta := br.QueryRow().Scan(&estado, &saldoN)
	formaExiste := true
	if okForma && errCuenta == nil {
		if err := br.QueryRow().Scan(&formaExiste); err != nil {
			br.Close()
			return nil, fmt.Errorf("compras: forma de pago: %w", err)
		}
	}
	if err := br.Close(); err != nil && errCuenta == nil {
		return nil, fmt.Errorf("compras: pago: %w", err)
	}
	if errors.Is(errCuenta, pgx.ErrNoRows) {
		return nil, apperr.NewNotFound(msgCuentaNoEncontrada)
	}
	if errCuenta != nil {
		return nil, fmt.Errorf("compras: cuenta %d: %w", id, errCuenta)
	}
	if estado == "anulada" {
		return nil, apperr.InvalidField("estado", "La cuenta por pagar está anulada; no admite pagos.")
	}
	if !formaExiste {
		in.Fail("forma_pago_id", "La forma de pago seleccionada no existe.")
	}
	saldo := db.Decimal(saldoN)
	if okMonto && monto.GreaterThan(saldo) {
		in.Fail("monto", "El monto no puede ser mayor que el saldo pendiente ("+saldo.StringFixed(2)+").")
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	var pagoID int64
	err := tx.QueryRow(ctx, `with pg as (
			insert into pagos (empresa_id, cuenta_por_pagar_id, monto, fecha, forma_pago_id, referencia, usuario_id, cuenta_bancaria_id, caja_id)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id
		), c as (
			update cuentas_por_pagar set saldo = saldo - $3,
				estado = case when saldo - $3 = 0 then 'pagada' else estado end
			where empresa_id = $1 and id = $2
		)
		select id from pg`, tx.EmpresaID(), id, db.Numeric(monto), fecha, forma, referencia, p.UsuarioID, x.cuentaBancaria, x.caja).Scan(&pagoID)
	if err != nil {
		return nil, fmt.Errorf("compras: pago de %d: %w", id, err)
	}
	var raw []byte
	err = tx.QueryRow(ctx, `select (to_jsonb(x) - 'cuenta_por_cobrar_id') || jsonb_build_object(
			'forma_pago', (select jsonb_build_object('id', f.id, 'codigo', f.codigo, 'nombre', f.nombre) from formas_pago f where f.id = x.forma_pago_id),
			'cuenta_por_pagar', (select `+cuentaDetalle+` from cuentas_por_pagar c where c.empresa_id = x.empresa_id and c.id = x.cuenta_por_pagar_id))
		from pagos x where x.empresa_id = $1 and x.id = $2`, tx.EmpresaID(), pagoID).Scan(&raw)
	if err != nil {
		return nil, fmt.Errorf("compras: pago %d: %w", pagoID, err)
	}
	return raw, nil
}
