package tesoreria

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

const msgPresupuestoNoEncontrado = "Presupuesto no encontrado."

// presupuestoJSON is a budget as the API shows it (alias p): the twelve
// monthly amounts, their total and the account.
const presupuestoJSON = `jsonb_build_object('id', p.id, 'empresa_id', p.empresa_id, 'anio', p.anio,
	'cuenta_contable_id', p.cuenta_contable_id, 'montos', to_jsonb(p.montos),
	'total', (select round(sum(x), 2) from unnest(p.montos) x), 'descripcion', p.descripcion, 'activo', p.activo,
	'creado_en', p.creado_en, 'actualizado_en', p.actualizado_en,
	'cuenta_contable', (select ` + presupuestoCuentaJSON + ` from cuentas_contables k
		where k.empresa_id = p.empresa_id and k.id = p.cuenta_contable_id))`

// presupuestoCuentaJSON is the account nested in a budget (alias k).
const presupuestoCuentaJSON = `jsonb_build_object('id', k.id, 'codigo', k.codigo, 'nombre', k.nombre, 'tipo', k.tipo,
		'naturaleza', k.naturaleza)`

// DatosPresupuesto is a validated budget body; nil fields were not sent.
type DatosPresupuesto struct {
	in               *valid.Input
	Anio             *int64
	CuentaContableID *int64
	Montos           []decimal.Decimal // nil: not sent; else 12
	comunes
}

// BuscarPresupuesto loads a budget of the tenant.
func BuscarPresupuesto(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (json.RawMessage, error) {
	return uno(ctx, tx, `select `+presupuestoJSON+` from presupuestos p where p.empresa_id = $1 and p.id = $2 and not p.eliminado`,
		id, "presupuesto", msgPresupuestoNoEncontrado)
}

// checkCuentaPresupuesto requires an active account of the tenant (a leaf
// or a grouping account: the actual amount of a grouping account is that
// of the accounts below it).
func checkCuentaPresupuesto(ctx context.Context, tx *db.Tx, in *valid.Input, cuenta *int64) error {
	if cuenta == nil {
		return nil
	}
	var activo bool
	err := tx.QueryRow(ctx, `select activo from cuentas_contables where empresa_id = $1 and id = $2 and not eliminado for share`,
		tx.EmpresaID(), *cuenta).Scan(&activo)
	return seleccionada(in, "cuenta_contable_id", "cuenta contable", err, activo)
}

func numerics(ds []decimal.Decimal) []pgtype.Numeric {
	if ds == nil {
		return nil
	}
	out := make([]pgtype.Numeric, len(ds))
	for i, d := range ds {
		out[i] = db.Numeric(d)
	}
	return out
}

func errorPresupuesto(err error) error {
	if c, ok := db.IsUniqueViolation(err); ok && c == "presupuestos_anio_cuenta" {
		return apperr.InvalidField("cuenta_contable_id", "Ya existe un presupuesto de esa cuenta contable para ese año.")
	}
	return fmt.Errorf("tesoreria: presupuesto: %w", err)
}

// CrearPresupuesto records the budget of an account for a year.
func CrearPresupuesto(ctx context.Context, tx *db.Tx, _ auth.Principal, d DatosPresupuesto) (json.RawMessage, error) {
	if err := checkCuentaPresupuesto(ctx, tx, d.in, d.CuentaContableID); err != nil {
		return nil, err
	}
	if err := d.in.Err(); err != nil {
		return nil, err
	}
	var id int64
	err := tx.QueryRow(ctx, `insert into presupuestos (empresa_id, anio, cuenta_contable_id, montos, descripcion, activo)
		values ($1, $2, $3, $4::numeric[], $5, $6) returning id`,
		tx.EmpresaID(), *d.Anio, *d.CuentaContableID, numerics(d.Montos), d.Descripcion, d.activo()).Scan(&id)
	if err != nil {
		return nil, errorPresupuesto(err)
	}
	return BuscarPresupuesto(ctx, tx, auth.Principal{}, id)
}

// ActualizarPresupuesto changes the fields sent (montos are replaced whole).
func ActualizarPresupuesto(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, d DatosPresupuesto) (json.RawMessage, error) {
	if err := existe(ctx, tx, "presupuestos", id, "presupuesto", msgPresupuestoNoEncontrado); err != nil {
		return nil, err
	}
	if err := checkCuentaPresupuesto(ctx, tx, d.in, d.CuentaContableID); err != nil {
		return nil, err
	}
	if err := d.in.Err(); err != nil {
		return nil, err
	}
	_, err := tx.Exec(ctx, `update presupuestos set anio = coalesce($3, anio), cuenta_contable_id = coalesce($4, cuenta_contable_id),
			montos = coalesce($5::numeric[], montos), descripcion = case when $6 then null else coalesce($7, descripcion) end,
			activo = coalesce($8, activo)
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, d.Anio, d.CuentaContableID, numerics(d.Montos),
		d.limpiarDescripcion, d.Descripcion, d.Activo)
	if err != nil {
		return nil, errorPresupuesto(err)
	}
	return BuscarPresupuesto(ctx, tx, auth.Principal{}, id)
}

// EliminarPresupuesto deletes (logically) a budget.
func EliminarPresupuesto(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	tag, err := tx.Exec(ctx, `update presupuestos set eliminado = true, activo = false where empresa_id = $1 and id = $2 and not eliminado`,
		tx.EmpresaID(), id)
	if err != nil {
		return nil, fmt.Errorf("tesoreria: eliminar presupuesto %d: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return nil, apperr.NewNotFound(msgPresupuestoNoEncontrado)
	}
	return nil, nil
}
