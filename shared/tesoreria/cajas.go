package tesoreria

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

const msgCajaNoEncontrada = "Caja no encontrada."

// sesionJSON is a session of a cash box (alias s).
const sesionJSON = `jsonb_build_object('id', s.id, 'caja_id', s.caja_id, 'estado', s.estado, 'monto_inicial', s.monto_inicial,
	'abierta_en', s.abierta_en, 'abierta_por', s.abierta_por, 'ventas_efectivo', s.ventas_efectivo, 'cobros_efectivo', s.cobros_efectivo,
	'pagos_efectivo', s.pagos_efectivo, 'monto_esperado', s.monto_esperado, 'monto_contado', s.monto_contado,
	'diferencia', s.diferencia, 'resultado', s.resultado, 'asiento_id', s.asiento_id,
	'asiento_numero', (select a.numero from asientos_contables a where a.empresa_id = s.empresa_id and a.id = s.asiento_id),
	'observaciones', s.observaciones, 'cerrada_en', s.cerrada_en, 'cerrada_por', s.cerrada_por)`

// cajaJSON is a cash box as the API shows it (alias c): its branch, its
// cash account and its open session (null when closed).
const cajaJSON = `jsonb_build_object('id', c.id, 'empresa_id', c.empresa_id, 'sucursal_id', c.sucursal_id, 'nombre', c.nombre,
	'codigo', c.codigo, 'descripcion', c.descripcion, 'cuenta_contable_id', c.cuenta_contable_id, 'activo', c.activo,
	'creado_en', c.creado_en, 'actualizado_en', c.actualizado_en,
	'sucursal', (select ` + sucursalRefJSON + ` from sucursales x
		where x.empresa_id = c.empresa_id and x.id = c.sucursal_id),
	'cuenta_contable', (select ` + cuentaRefJSON + ` from cuentas_contables k
		where k.empresa_id = c.empresa_id and k.id = c.cuenta_contable_id),
	'sesion_abierta', (select ` + sesionJSON + ` from caja_sesiones s where s.empresa_id = c.empresa_id and s.caja_id = c.id and s.estado = 'abierta'))`

// sucursalRefJSON is the branch nested in a box (alias x).
const sucursalRefJSON = `jsonb_build_object('id', x.id, 'nombre', x.nombre, 'codigo', x.codigo)`

// sesionesRecientes are a box's last 20 sessions, newest first (detail view).
const sesionesRecientes = `(select coalesce(jsonb_agg(x.j order by x.id desc), '[]'::jsonb) from (select s.id, ` + sesionJSON + ` as j
	from caja_sesiones s where s.empresa_id = c.empresa_id and s.caja_id = c.id order by s.id desc limit 20) x)`

// DatosCaja is a validated cash-box body; nil fields were not sent.
type DatosCaja struct {
	in               *valid.Input
	SucursalID       *int64
	Nombre, Codigo   *string
	CuentaContableID *int64
	limpiarCodigo    bool
	comunes
}

// BuscarCaja loads a cash box of the tenant with its recent sessions.
func BuscarCaja(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (json.RawMessage, error) {
	return uno(ctx, tx, `select `+cajaJSON+` || jsonb_build_object('sesiones', `+sesionesRecientes+`)
		from cajas c where c.empresa_id = $1 and c.id = $2 and not c.eliminado`, id, "caja", msgCajaNoEncontrada)
}

// checkCaja validates a box's branch and cash account in one round trip.
func checkCaja(ctx context.Context, tx *db.Tx, d DatosCaja) error {
	in := d.in
	b := &pgx.Batch{}
	b.Queue(`select activo from sucursales where empresa_id = $1 and id = $2 and not eliminado`, tx.EmpresaID(), d.SucursalID)
	b.Queue(`select codigo, activo, acepta_movimientos from cuentas_contables where empresa_id = $1 and id = $2 and not eliminado for share`,
		tx.EmpresaID(), d.CuentaContableID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var activa bool
	err := br.QueryRow().Scan(&activa)
	if d.SucursalID != nil {
		if err := seleccionada(in, "sucursal_id", "sucursal", err, activa); err != nil {
			return err
		}
	}
	var h hoja
	err = br.QueryRow().Scan(&h.codigo, &h.activo, &h.acepta)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return fmt.Errorf("tesoreria: cuenta de la caja: %w", err)
	default:
		h.encontrada = true
	}
	if d.CuentaContableID != nil {
		checkHoja(in, h, CodigoEfectivo, "Efectivo y equivalentes de efectivo", "")
	}
	return nil
}

// CrearCaja records a cash box of a branch; its cash account is, unless
// given, the company's cash account of the posting configuration.
func CrearCaja(ctx context.Context, tx *db.Tx, _ auth.Principal, d DatosCaja) (json.RawMessage, error) {
	if err := checkCaja(ctx, tx, d); err != nil {
		return nil, err
	}
	if err := d.in.Err(); err != nil {
		return nil, err
	}
	var id int64
	err := tx.QueryRow(ctx, `insert into cajas (empresa_id, sucursal_id, nombre, codigo, descripcion, cuenta_contable_id, activo)
		select $1, $2, $3, $4, $5, coalesce($6, cfg.cuenta_caja_id), $7 from contabilidad_configuracion cfg where cfg.empresa_id = $1
		returning id`, tx.EmpresaID(), d.SucursalID, d.Nombre, d.Codigo, d.Descripcion, d.CuentaContableID, d.activo()).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.InvalidField("cuenta_contable_id", "La empresa no tiene configuración contable; indique la cuenta contable de la caja.")
	}
	if err != nil {
		return nil, errorCaja(err)
	}
	return BuscarCaja(ctx, tx, auth.Principal{}, id)
}

func errorCaja(err error) error {
	if c, ok := db.IsUniqueViolation(err); ok && c == "cajas_codigo" {
		return apperr.InvalidField("codigo", "Ya existe una caja con ese código en esta empresa.")
	}
	return fmt.Errorf("tesoreria: caja: %w", err)
}

// ActualizarCaja changes the fields sent.
func ActualizarCaja(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, d DatosCaja) (json.RawMessage, error) {
	if err := existe(ctx, tx, "cajas", id, "caja", msgCajaNoEncontrada); err != nil {
		return nil, err
	}
	if err := checkCaja(ctx, tx, d); err != nil {
		return nil, err
	}
	if err := d.in.Err(); err != nil {
		return nil, err
	}
	_, err := tx.Exec(ctx, `update cajas set sucursal_id = coalesce($3, sucursal_id), nombre = coalesce($4, nombre),
			codigo = case when $5 then null else coalesce($6, codigo) end,
			descripcion = case when $7 then null else coalesce($8, descripcion) end,
			cuenta_contable_id = coalesce($9, cuenta_contable_id), activo = coalesce($10, activo)
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, d.SucursalID, d.Nombre, d.limpiarCodigo, d.Codigo,
		d.limpiarDescripcion, d.Descripcion, d.CuentaContableID, d.Activo)
	if err != nil {
		return nil, errorCaja(err)
	}
	return BuscarCaja(ctx, tx, auth.Principal{}, id)
}

// EliminarCaja deletes (logically) a cash box without an open session.
func EliminarCaja(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	var abierta bool
	err := tx.QueryRow(ctx, `select exists (select 1 from caja_sesiones s where s.empresa_id = c.empresa_id and s.caja_id = c.id and s.estado = 'abierta')
		from cajas c where c.empresa_id = $1 and c.id = $2 and not c.eliminado for update`, tx.EmpresaID(), id).Scan(&abierta)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.NewNotFound(msgCajaNoEncontrada)
	}
	if err != nil {
		return nil, fmt.Errorf("tesoreria: eliminar caja %d: %w", id, err)
	}
	if abierta {
		return nil, apperr.InvalidField("estado", "La caja tiene una sesión abierta: ciérrela antes de eliminarla.")
	}
	if _, err := tx.Exec(ctx, `update cajas set eliminado = true, activo = false where empresa_id = $1 and id = $2`, tx.EmpresaID(), id); err != nil {
		return nil, fmt.Errorf("tesoreria: eliminar caja %d: %w", id, err)
	}
	return nil, nil
}

// DatosSesion is a validated opening (monto_inicial) or closing
// (monto_contado) body.
type DatosSesion struct {
	Monto         decimal.Decimal
	Observaciones *string
}

// Abrir opens a session of a cash box with its opening cash. A box has at
// most one open session (the partial unique index caja_sesiones_abierta;
// the box's row is locked first, so a concurrent opening waits and is
// refused).
func Abrir(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, d DatosSesion) (json.RawMessage, error) {
	b := &pgx.Batch{}
	b.Queue(`select activo from cajas where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id)
	b.Queue(`insert into caja_sesiones (empresa_id, caja_id, monto_inicial, abierta_por, observaciones)
		select c.empresa_id, c.id, $3, $4, $5 from cajas c where c.empresa_id = $1 and c.id = $2 and not c.eliminado and c.activo
		on conflict (empresa_id, caja_id) where estado = 'abierta' do nothing returning id`,
		tx.EmpresaID(), id, db.Numeric(d.Monto), nullID(p.UsuarioID), d.Observaciones)
	br := tx.SendBatch(ctx, b)
	var activa bool
	var sesion int64
	err := br.QueryRow().Scan(&activa)
	errIns := br.QueryRow().Scan(&sesion)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, apperr.NewNotFound(msgCajaNoEncontrada)
	case err != nil:
		return nil, fmt.Errorf("tesoreria: abrir caja %d: %w", id, err)
	case !activa:
		return nil, apperr.InvalidField("estado", "La caja está inactiva: no se puede abrir.")
	case errors.Is(errIns, pgx.ErrNoRows):
		return nil, apperr.InvalidField("estado", "La caja ya tiene una sesión abierta: ciérrela antes de abrir otra.")
	case errIns != nil:
		return nil, fmt.Errorf("tesoreria: abrir caja %d: %w", id, errIns)
	}
	return BuscarCaja(ctx, tx, p, id)
}

// Cerrar closes the open session of a cash box with the counted cash:
// tesoreria_cerrar_caja (migration 0014) computes the expected cash, the
// difference and posts it. The session's row is locked, so sales and
// payments naming the box either committed before (and are counted) or
// find no open session.
func Cerrar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, d DatosSesion) (json.RawMessage, error) {
	var sesion *int64
	b := &pgx.Batch{}
	b.Queue(`select id from cajas where empresa_id = $1 and id = $2 and not eliminado`, tx.EmpresaID(), id)
	b.Queue(`select s.id from caja_sesiones s where s.empresa_id = $1 and s.caja_id = $2 and s.estado = 'abierta' for update`, tx.EmpresaID(), id)
	br := tx.SendBatch(ctx, b)
	var caja int64
	err := br.QueryRow().Scan(&caja)
	errSesion := br.QueryRow().Scan(&sesion)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.NewNotFound(msgCajaNoEncontrada)
	}
	if err == nil && !errors.Is(errSesion, pgx.ErrNoRows) {
		err = errSesion
	}
	if err != nil {
		return nil, fmt.Errorf("tesoreria: cerrar caja %d: %w", id, err)
	}
	if sesion == nil {
		return nil, apperr.InvalidField("estado", "La caja no tiene una sesión abierta.")
	}
	var raw []byte
	b = &pgx.Batch{}
	b.Queue(`select tesoreria_cerrar_caja($1, $2, $3, $4, $5)`, tx.EmpresaID(), *sesion, db.Numeric(d.Monto), p.UsuarioID, d.Observaciones)
	b.Queue(`select `+sesionJSON+` from caja_sesiones s where s.empresa_id = $1 and s.id = $2`, tx.EmpresaID(), *sesion)
	br = tx.SendBatch(ctx, b)
	_, err = br.Exec()
	if err == nil {
		err = br.QueryRow().Scan(&raw)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("tesoreria: cerrar caja %d: %w", id, err)
	}
	return raw, nil
}
