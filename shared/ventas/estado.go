package ventas

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// actual is the locked state of a sale being changed.
type actual struct {
	id        int64
	numero    string
	estado    string
	condicion string
	almacenID *int64
	clienteID *int64
	fecha     time.Time
	// tipo is tipo_comprobante; referenciaID the sale a note corrects.
	tipo         string
	referenciaID *int64
	// The open balance of its receivable (nil when it has none).
	saldo *Numero
}

// bloquear reads and locks a sale of the tenant (404 when there is none),
// so that concurrent changes of one sale happen one after the other.
func bloquear(ctx context.Context, tx *db.Tx, id int64) (actual, error) {
	empresaID := tx.EmpresaID()
	var a actual
	err := tx.QueryRow(ctx, `select v.id, v.numero_comprobante, v.estado, v.condicion_venta, v.almacen_id, v.cliente_id, v.fecha_venta,
			v.tipo_comprobante, v.venta_referencia_id, (select c.saldo from cuentas_por_cobrar c where c.empresa_id = v.empresa_id and c.venta_id = v.id
			   and c.estado = 'pendiente' and not c.eliminado)
		from ventas v where v.empresa_id = $1 and v.id = $2 and not v.eliminado for update of v`, empresaID, id).
		Scan(&a.id, &a.numero, &a.estado, &a.condicion, &a.almacenID, &a.clienteID, &a.fecha, &a.tipo, &a.referenciaID, &a.saldo)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, apperr.NewNotFound(msgNoEncontrada)
	}
	if err != nil {
		return a, fmt.Errorf("ventas: bloquear: %w", err)
	}
	return a, nil
}

const msgAnuladaFinal = "La venta está anulada y no admite cambios."

// cambio is a validated PUT/PATCH body: only observaciones and estado
// count; every other field is ignored (SPEC.md: "other fields are not
// updated").
type cambio struct {
	obs                 *string
	obsSent, estadoSent bool
	estado              string
}

// cambiarEstado applies a change of observaciones and estado.
func cambiarEstado(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, c cambio) (Venta, error) {
	obs, obsSent, estado, estadoSent := c.obs, c.obsSent, c.estado, c.estadoSent
	cur, err := bloquear(ctx, tx, id)
	if err != nil {
		return Venta{}, err
	}
	if cur.estado == Anulada {
		return Venta{}, apperr.InvalidField("estado", msgAnuladaFinal)
	}
	cambia := estadoSent && estado != cur.estado
	if cambia {
		if !slices.Contains(transiciones[cur.estado], estado) {
			return Venta{}, apperr.InvalidField("estado", fmt.Sprintf("No se puede cambiar el estado de la venta de %s a %s.", cur.estado, estado))
		}
		if estado == Pagada && cur.saldo != nil && cur.saldo.Decimal().IsPositive() {
			return Venta{}, apperr.InvalidField("estado", "La venta tiene un saldo pendiente de "+cur.saldo.Decimal().StringFixed(2)+
				" en su cuenta por cobrar; registre el pago en /api/cuentas-por-cobrar/{id}/pagos.")
		}
	}
	// The sale's row is written before its stock moves: its deferred
	// triggers (books, then the dashboard's rows) are then queued ahead of
	// the stock's dashboard version, the order in which every sale takes
	// them at COMMIT (the other order deadlocked with a sale committing
	// beside it).
	if obsSent || (estadoSent && estado != Anulada) {
		newEstado := cur.estado
		if estadoSent {
			newEstado = estado
		}
		if _, err := tx.Exec(ctx, `update ventas set estado = $3,
			observaciones = case when $4 then $5 else observaciones end where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), id, newEstado, obsSent, obs); err != nil {
			return Venta{}, fmt.Errorf("ventas: update: %w", err)
		}
	}
	if cambia {
		switch estado {
		case Anulada:
			if err := anular(ctx, tx, p, cur, false); err != nil {
				return Venta{}, err
			}
		case Pendiente: // a confirmed draft moves its stock and opens its receivable now
			if err := confirmar(ctx, tx, p, cur); err != nil {
				return Venta{}, err
			}
		}
	}
	return Buscar(ctx, tx, p, id)
}

// confirmar turns a draft into a pending sale: its stock exit (a credit
// note's entry; a debit note moves no stock) and its receivable happen
// now.
func confirmar(ctx context.Context, tx *db.Tx, p auth.Principal, cur actual) error {
	if cur.tipo == "nota_credito" && cur.condicion == Credito && cur.referenciaID != nil {
		// It opens no receivable: it lowers its sale's (nota_cuenta.go).
		return aplicarNotaGuardada(ctx, tx, cur, func() error { return moverConfirmada(ctx, tx, p, cur) })
	}
	if err := moverConfirmada(ctx, tx, p, cur); err != nil {
		return err
	}
	if cur.condicion == Credito {
		b := &pgx.Batch{}
		id := cur.id
		queueAbrirCuenta(tx, b, &id)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("ventas: cuenta por cobrar: %w", err)
		}
	}
	return nil
}

// moverConfirmada moves the stock of a confirmed draft: its exit, a credit
// note's entry, nothing for a debit note or a sale without warehouse.
func moverConfirmada(ctx context.Context, tx *db.Tx, p auth.Principal, cur actual) error {
	switch {
	case cur.almacenID == nil || cur.tipo == "nota_debito":
	case cur.tipo == "nota_credito":
		if err := devolverGuardada(ctx, tx, p, cur); err != nil {
			return err
		}
	default:
		vs, err := stockGuardado(ctx, tx, cur)
		if err != nil {
			return err
		}
		if err := salida(ctx, tx, p, vs); err != nil {
			return err
		}
	}
	return nil
}

// eliminar cancels the sale (as PUT estado=anulada does) and soft-deletes it.
func eliminar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (*Venta, error) {
	cur, err := bloquear(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return nil, anular(ctx, tx, p, cur, true)
}
