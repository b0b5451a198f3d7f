package ventas

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/valid"
)

// VentaRef is the sale nested in a receivable.
type VentaRef struct {
	ID                int64  `json:"id"`
	NumeroComprobante string `json:"numero_comprobante"`
	TipoComprobante   string `json:"tipo_comprobante"`
	FechaVenta        string `json:"fecha_venta"`
	Estado            string `json:"estado"`
	MontoTotal        Numero `json:"monto_total"`
}

// Pago is a payment received on a receivable.
type Pago struct {
	ID                int64         `json:"id"`
	EmpresaID         int64         `json:"empresa_id"`
	CuentaPorCobrarID int64         `json:"cuenta_por_cobrar_id"`
	Monto             Numero        `json:"monto"`
	Fecha             string        `json:"fecha"`
	FormaPagoID       *int64        `json:"forma_pago_id"`
	CuentaBancariaID  *int64        `json:"cuenta_bancaria_id"`
	CajaID            *int64        `json:"caja_id"`
	CajaSesionID      *int64        `json:"caja_sesion_id"`
	Referencia        *string       `json:"referencia"`
	UsuarioID         *int64        `json:"usuario_id"`
	CreadoEn          time.Time     `json:"creado_en"`
	ActualizadoEn     time.Time     `json:"actualizado_en"`
	FormaPago         *FormaPagoRef `json:"forma_pago"`
	// CuentaPorCobrar is the receivable after the payment (on creation and
	// in the PagoRecibidoEvent).
	CuentaPorCobrar *CuentaPorCobrar `json:"cuenta_por_cobrar,omitempty"`
}

// CuentaPorCobrar is the receivable of a credit sale.
type CuentaPorCobrar struct {
	ID               int64       `json:"id"`
	EmpresaID        int64       `json:"empresa_id"`
	ClienteID        *int64      `json:"cliente_id"`
	VentaID          int64       `json:"venta_id"`
	Monto            Numero      `json:"monto"`
	Saldo            Numero      `json:"saldo"`
	FechaEmision     string      `json:"fecha_emision"`
	FechaVencimiento string      `json:"fecha_vencimiento"`
	Estado           string      `json:"estado"`
	Vencida          bool        `json:"vencida"`
	Activo           bool        `json:"activo"`
	Eliminado        bool        `json:"eliminado"`
	CreadoEn         time.Time   `json:"creado_en"`
	ActualizadoEn    time.Time   `json:"actualizado_en"`
	Cliente          *ClienteRef `json:"cliente"`
	Venta            *VentaRef   `json:"venta"`
	// Pagos are loaded on the detail view only.
	Pagos *[]Pago `json:"pagos,omitempty"`
}

// vencida: pending and past its due date (today in Costa Rica, not the
// server's UTC day).
const cuentaCols = `c.id, c.empresa_id, c.cliente_id, c.venta_id, c.monto, c.saldo, c.fecha_emision::text, c.fecha_vencimiento::text,
	c.estado, (c.estado = 'pendiente' and c.fecha_vencimiento < ` + horacr.HoySQL + `), c.activo, c.eliminado, c.creado_en, c.actualizado_en`

func scanCuenta(row pgx.CollectableRow) (CuentaPorCobrar, error) {
	var c CuentaPorCobrar
	err := row.Scan(&c.ID, &c.EmpresaID, &c.ClienteID, &c.VentaID, &c.Monto, &c.Saldo, &c.FechaEmision, &c.FechaVencimiento,
		&c.Estado, &c.Vencida, &c.Activo, &c.Eliminado, &c.CreadoEn, &c.ActualizadoEn)
	return c, err
}

const pagoCols = `pg.id, pg.empresa_id, pg.cuenta_por_cobrar_id, pg.monto, pg.fecha::text, pg.forma_pago_id,
	pg.cuenta_bancaria_id, pg.caja_id, pg.caja_sesion_id, pg.referencia, pg.usuario_id,
	pg.creado_en, pg.actualizado_en, f.id, f.codigo, f.nombre`

func scanPago(r pgx.CollectableRow) (Pago, error) {
	var x Pago
	var fid *int64
	var fcod, fnom *string
	err := r.Scan(&x.ID, &x.EmpresaID, &x.CuentaPorCobrarID, &x.Monto, &x.Fecha, &x.FormaPagoID, &x.CuentaBancariaID, &x.CajaID, &x.CajaSesionID, &x.Referencia, &x.UsuarioID,
		&x.CreadoEn, &x.ActualizadoEn, &fid, &fcod, &fnom)
	if fid != nil {
		x.FormaPago = &FormaPagoRef{ID: *fid, Codigo: *fcod, Nombre: *fnom}
	}
	return x, err
}

// loadCuentas fills the customer and sale of every receivable (and, with
// detalle, its payments) in one pipelined round trip.
func loadCuentas(ctx context.Context, q *db.Tx, cs []CuentaPorCobrar, detalle bool) error {
	empresaID := q.EmpresaID()
	if len(cs) == 0 {
		return nil
	}
	ids := make([]int64, len(cs))
	ventas := make([]int64, len(cs))
	var clientes []int64
	for i, c := range cs {
		ids[i], ventas[i] = c.ID, c.VentaID
		if c.ClienteID != nil {
			clientes = append(clientes, *c.ClienteID)
		}
	}
	carga := &db.Carga{}
	cls := db.Leer(carga, "ventas: clientes", scanClienteRef, clienteRefSQL, empresaID, clientes)
	vrs := db.Leer(carga, "ventas: ventas de cuentas", pgx.RowToStructByPos[VentaRef], `select id, numero_comprobante, tipo_comprobante, fecha_venta::text, estado, monto_total
		from ventas where empresa_id = $1 and id = any($2)`, empresaID, ventas)
	pagos := new([]Pago)
	if detalle {
		pagos = db.Leer(carga, "ventas: pagos", scanPago, `select `+pagoCols+` from pagos pg left join formas_pago f on f.id = pg.forma_pago_id
			where pg.empresa_id = $1 and pg.cuenta_por_cobrar_id = any($2) and not pg.eliminado
			order by pg.fecha, pg.id`, empresaID, ids)
		for i := range cs {
			cs[i].Pagos = &[]Pago{}
		}
	}
	if err := carga.Enviar(ctx, q); err != nil {
		return err
	}
	db.Colgar(cs, *cls, idCliente, func(c *CuentaPorCobrar) (*int64, **ClienteRef) { return c.ClienteID, &c.Cliente })
	db.Colgar(cs, *vrs, func(v *VentaRef) int64 { return v.ID }, func(c *CuentaPorCobrar) (*int64, **VentaRef) { return &c.VentaID, &c.Venta })
	db.Agrupar(cs, *pagos, func(pg *Pago) int64 { return pg.CuentaPorCobrarID }, func(c *CuentaPorCobrar) (int64, *[]Pago) { return c.ID, c.Pagos })
	return nil
}

const msgCuentaNoEncontrada = "Cuenta por cobrar no encontrada."

// FindCuenta loads one receivable of the tenant with its payments.
func FindCuenta(ctx context.Context, q *db.Tx, id int64) (CuentaPorCobrar, bool, error) {
	return db.Uno(ctx, q, "ventas: cuenta", scanCuenta, func(cs []CuentaPorCobrar) error { return loadCuentas(ctx, q, cs, true) },
		`select `+cuentaCols+` from cuentas_por_cobrar c where c.empresa_id = $1 and c.id = $2 and not c.eliminado`, q.EmpresaID(), id)
}

var cuentaSorts = map[string]string{
	"id": "c.id", "fecha_emision": "c.fecha_emision", "fecha_vencimiento": "c.fecha_vencimiento",
	"monto": "c.monto", "saldo": "c.saldo", "estado": "c.estado", "creado_en": "c.creado_en",
}

// EstadosCuenta are the states of a receivable.
var EstadosCuenta = []string{"pendiente", "pagada", "anulada"}

// BuscarCuenta loads a receivable of the transaction's tenant with its
// payments, or an apperr NotFound.
func BuscarCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (CuentaPorCobrar, error) {
	c, found, err := FindCuenta(ctx, tx, id)
	return c, apperr.NotFoundUnless(found, err, msgCuentaNoEncontrada)
}

// pagoIn is a validated payment body; in keeps collecting the field
// errors only the transaction can find (the receivable's balance).
type pagoIn struct {
	in        *valid.Input
	monto     decimal.Decimal
	montoOK   bool
	fecha     time.Time
	fechaOK   bool
	formaPago *int64
	ref       *string
	// The bank account or cash box the money comes into (migration 0014's
	// trigger checks them at the insert).
	cuentaBancaria, caja *int64
}

// registrarPago records a payment: it reduces the receivable's balance; the
// payment that settles it marks the receivable and its sale pagada. The
// answer (and the PagoRecibidoEvent) is the payment with the receivable as
// it is afterwards.
func registrarPago(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x pagoIn) (Pago, error) {
	in, monto, montoOK, fecha, fechaOK, formaPago, ref := x.in, x.monto, x.montoOK, x.fecha, x.fechaOK, x.formaPago, x.ref
	var (
		saldo   Numero
		estado  string
		ventaID int64
		emision time.Time
		forma   referencia
	)
	// Locks in the order a sale's cancellation takes them (the sale, then
	// its receivable), so a payment and a cancellation never deadlock.
	b := &pgx.Batch{}
	b.Queue(`select v.id from ventas v join cuentas_por_cobrar c on c.empresa_id = v.empresa_id and c.venta_id = v.id
		where c.empresa_id = $1 and c.id = $2 and not c.eliminado for update of v`, tx.EmpresaID(), id)
	b.Queue(`select saldo, estado, venta_id, fecha_emision from cuentas_por_cobrar
		where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id)
	b.Queue(`select activo from formas_pago where id = $1 and not eliminado`, formaPago)
	br := tx.SendBatch(ctx, b)
	_, err := br.Exec()
	if err == nil {
		err = br.QueryRow().Scan(&saldo, &estado, &ventaID, &emision)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		br.Close()
		return Pago{}, apperr.NewNotFound(msgCuentaNoEncontrada)
	}
	if err == nil {
		err = br.QueryRow().Scan(&forma.activo)
		forma.existe, err = found(err)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Pago{}, fmt.Errorf("ventas: pago: %w", err)
	}
	checkRef(in, formaPago, forma, "forma_pago_id", "La forma de pago seleccionada no existe.", "La forma de pago seleccionada está inactiva.")
	switch {
	case estado != "pendiente":
		in.Fail("monto", "La cuenta por cobrar está "+estado+" y no admite pagos.")
	case montoOK && monto.GreaterThan(saldo.Decimal()):
		in.Fail("monto", "El monto no debe ser mayor que el saldo pendiente ("+saldo.Decimal().StringFixed(2)+").")
	}
	var fechaArg *string // nil: today, as the database counts days (vencida)
	if fechaOK {
		f := fecha.Format(time.DateOnly)
		fechaArg = &f
	}
	if fechaOK && fecha.Before(emision) {
		in.Fail("fecha", "La fecha del pago no puede ser anterior a la fecha de emisión de la cuenta ("+emision.Format(time.DateOnly)+").")
	}
	if err := in.Err(); err != nil {
		return Pago{}, err
	}
	nuevo := saldo.Decimal().Sub(monto)
	b = &pgx.Batch{}
	b.Queue(`insert into pagos (empresa_id, cuenta_por_cobrar_id, monto, fecha, forma_pago_id, referencia, usuario_id, cuenta_bancaria_id, caja_id)
		values ($1, $2, $3, coalesce($4::date, `+horacr.HoySQL+`), $5, $6, $7, $8, $9) returning id`, tx.EmpresaID(), id, db.Numeric(monto), fechaArg,
		formaPago, ref, p.UsuarioID, x.cuentaBancaria, x.caja)
	b.Queue(`update cuentas_por_cobrar set saldo = $3::numeric, estado = case when $3::numeric = 0 then 'pagada' else estado end
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, db.Numeric(nuevo))
	if nuevo.Equal(decimal.Zero) {
		b.Queue(`update ventas set estado = 'pagada' where empresa_id = $1 and id = $2 and estado = 'pendiente'`, tx.EmpresaID(), ventaID)
	}
	var pagoID int64
	br = tx.SendBatch(ctx, b)
	err = br.QueryRow().Scan(&pagoID)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Pago{}, fmt.Errorf("ventas: pago: %w", err)
	}
	rows, err := tx.Query(ctx, `select `+pagoCols+` from pagos pg left join formas_pago f on f.id = pg.forma_pago_id
		where pg.empresa_id = $1 and pg.id = $2`, tx.EmpresaID(), pagoID)
	if err != nil {
		return Pago{}, fmt.Errorf("ventas: pago: %w", err)
	}
	pago, err := pgx.CollectExactlyOneRow(rows, scanPago)
	if err != nil {
		return Pago{}, fmt.Errorf("ventas: pago: %w", err)
	}
	cuenta, _, err := FindCuenta(ctx, tx, id)
	if err != nil {
		return Pago{}, err
	}
	cuenta.Pagos = nil
	pago.CuentaPorCobrar = &cuenta
	if err := eventos.Registrar(ctx, tx, eventos.PagoRecibido, pago); err != nil {
		return Pago{}, err
	}
	return pago, nil
}
