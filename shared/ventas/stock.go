package ventas

import (
	"context"
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
	"github.com/erpcr/erp/shared/inventario"
)

// lineaStock is a sale line of a stock-managed product; indice is its
// 0-based position in the sale (the key of its validation errors).
type lineaStock struct {
	indice     int
	productoID int64
	cantidad   decimal.Decimal
}

// ventaStock is what a sale's stock exit needs.
type ventaStock struct {
	id               int64
	numero           string
	almacenID        int64
	clienteID        *int64
	fecha            time.Time
	lineas           []lineaStock
	permitirNegativo bool
}

// salida takes a saved sale's stock-managed lines out of its warehouse
// with one processed exit of type Venta (FIFO by batch). A line the stock
// cannot cover is a 422 under detalles.N.cantidad.
func salida(ctx context.Context, tx *db.Tx, p auth.Principal, v ventaStock) error {
	if len(v.lineas) == 0 {
		return nil
	}
	_, err := inventario.Crear(ctx, tx, movimientoVenta(p, v))
	return faltaVenta(err, v)
}

// prepararSalida plans the stock exit of a sale being created, from the
// batches read and locked before: the movement to queue in the batch that
// inserts the sale (its id and number are not known yet), or the 422.
func prepararSalida(p auth.Principal, v ventaStock, lotes *inventario.Lotes) (*inventario.Preparado, error) {
	if len(v.lineas) == 0 {
		return nil, nil
	}
	exit, err := inventario.Preparar(movimientoVenta(p, v), lotes)
	return exit, faltaVenta(err, v)
}

// movimientoVenta is a sale's exit: with v.id 0, of the sale inserted
// earlier in the same batch, whose number then follows "Venta " in SQL.
func movimientoVenta(p auth.Principal, v ventaStock) inventario.Movimiento {
	lineas := make([]inventario.Linea, len(v.lineas))
	for i, l := range v.lineas {
		lineas[i] = inventario.Linea{ProductoID: l.productoID, Cantidad: l.cantidad}
	}
	obs := "Venta " + v.numero
	m := inventario.Movimiento{
		Clase: inventario.Salida, Tipo: "Venta", AlmacenID: v.almacenID, Fecha: v.fecha, UsuarioID: p.UsuarioID,
		ClienteID: v.clienteID, Observaciones: &obs, Lineas: lineas, Procesar: true,
		PermitirNegativo: v.permitirNegativo,
	}
	if v.id == 0 {
		m.VentaNueva = true
	} else {
		venta := v.id
		m.VentaID = &venta
	}
	return m
}

// faltaVenta turns a line the stock cannot cover into the sale's 422.
func faltaVenta(err error, v ventaStock) error {
	var falta *inventario.FaltaStock
	if errors.As(err, &falta) && falta.Linea >= 0 && falta.Linea < len(v.lineas) {
		return apperr.InvalidField("detalles."+strconv.Itoa(v.lineas[falta.Linea].indice)+".cantidad",
			fmt.Sprintf("Stock insuficiente en el almacén: disponible %s, solicitado %s.", falta.Disponible.String(), falta.Pedido.String()))
	}
	return err
}

// stockGuardado loads the stock exit of a saved sale (a draft being
// confirmed) in one round trip: its stock-managed lines and the company's
// negative-stock setting.
func stockGuardado(ctx context.Context, tx *db.Tx, cur actual) (ventaStock, error) {
	empresaID := tx.EmpresaID()
	v := ventaStock{id: cur.id, numero: cur.numero, clienteID: cur.clienteID, fecha: cur.fecha}
	if cur.almacenID != nil {
		v.almacenID = *cur.almacenID
	}
	b := &pgx.Batch{}
	b.Queue(`select d.linea, d.producto_id, d.cantidad from detalles_venta d
		join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
		where d.empresa_id = $1 and d.venta_id = $2 and p.gestionado_inventario order by d.linea`, empresaID, cur.id)
	b.Queue(`select coalesce((select valor = 'true'::jsonb from configuraciones
		where empresa_id = $1 and clave = $2 and activo and not eliminado), false)`, empresaID, ajusteNegativo)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	ls, err := siguiente(br, "líneas de stock", func(r pgx.CollectableRow) (lineaStock, error) {
		var l lineaStock
		var cant pgtype.Numeric
		err := r.Scan(&l.indice, &l.productoID, &cant)
		l.indice--
		l.cantidad = db.Decimal(cant)
		return l, err
	})
	if err != nil {
		return v, err
	}
	v.lineas = ls
	if err := br.QueryRow().Scan(&v.permitirNegativo); err != nil {
		return v, fmt.Errorf("ventas: configuración: %w", err)
	}
	return v, nil
}

// anular cancels a sale in tx: what its exit took goes back to the
// warehouse with a processed entry of type Devolucion Cliente (the batches
// it consumed, and what negative stock let through) — for a credit note,
// what its entry brought back leaves again (revertirDevolucion) —, its receivable is
// cancelled (estado anulada, saldo 0), and the sale becomes anulada; with
// eliminar it is also soft-deleted. The caller holds the sale's row lock.
func anular(ctx context.Context, tx *db.Tx, p auth.Principal, cur actual, eliminar bool) error {
	// The sale first, then its receivable, then its stock: the sale's
	// deferred triggers (the reversal of its posting, its dashboard rows)
	// are then queued ahead of the dashboard versions the receivable and
	// the returned stock bump, the order in which every sale takes them at
	// COMMIT (the other order deadlocked with a sale committing beside it).
	b := &pgx.Batch{}
	// A sale whose credit notes stand cannot be cancelled: its goods and
	// amounts would come back twice (its notes already returned part of
	// them). Read after the sale's row lock, which a credit note being
	// created holds until it commits (FOR NO KEY UPDATE), so every note
	// of the sale is seen; the refusal rolls back the writes queued with it.
	var notas *string
	if cur.estado != Anulada && cur.tipo != "nota_credito" {
		b.Queue(`select string_agg(numero_comprobante, ', ' order by id) from ventas
			where empresa_id = $1 and venta_referencia_id = $2 and tipo_comprobante = 'nota_credito' and estado <> 'anulada' and not eliminado`,
			tx.EmpresaID(), cur.id).QueryRow(func(r pgx.Row) error { return r.Scan(&notas) })
	}
	b.Queue(`update ventas set estado = 'anulada', anulado_en = coalesce(anulado_en, now()),
		activo = case when $3 then false else activo end, eliminado = eliminado or $3
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), cur.id, eliminar)
	b.Queue(`update cuentas_por_cobrar set estado = 'anulada', saldo = 0
		where empresa_id = $1 and venta_id = $2 and estado <> 'anulada'`, tx.EmpresaID(), cur.id)
	if cur.tipo == "nota_credito" && cur.condicion == Credito && cur.referenciaID != nil && cur.estado != Borrador && cur.estado != Anulada {
		// A credit note on credit gives back what it took off its sale's
		// receivable, under that sale's lock (nota_cuenta.go).
		queueBloquearReferencia(tx, b, *cur.referenciaID)
		id := cur.id
		queueAplicarNota(tx, b, &id, -1)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("ventas: anular: %w", err)
	}
	if notas != nil {
		return apperr.InvalidField("estado", "La venta tiene notas de crédito vigentes ("+*notas+"); anúlelas antes de anular la venta.")
	}
	if cur.estado != Anulada {
		// Its exits not yet returned and, for a credit note, the entries
		// that brought its goods back, not yet taken out again.
		rows, err := tx.Query(ctx, `select id, almacen_id, clase from movimientos_inventario
			where empresa_id = $1 and venta_id = $2 and estado = 'Procesada' and not eliminado
			  and ((clase = 'salida' and tipo = 'Venta'
			    and not exists (select 1 from movimientos_inventario e where e.empresa_id = $1 and e.movimiento_par_id = movimientos_inventario.id
			      and e.clase = 'entrada' and e.tipo = 'Devolucion Cliente'))
			  or ($3 and clase = 'entrada' and tipo = 'Devolucion Cliente' and movimiento_par_id is null
			    and not exists (select 1 from movimientos_inventario s where s.empresa_id = $1 and s.movimiento_par_id = movimientos_inventario.id
			      and s.clase = 'salida')))
			order by id`, tx.EmpresaID(), cur.id, cur.tipo == "nota_credito")
		if err != nil {
			return fmt.Errorf("ventas: salidas: %w", err)
		}
		type salidaRow struct {
			ID, Almacen int64
			Clase       string
		}
		salidas, err := pgx.CollectRows(rows, pgx.RowToStructByPos[salidaRow])
		if err != nil {
			return fmt.Errorf("ventas: salidas: %w", err)
		}
		for _, s := range salidas {
			if s.Clase == inventario.Entrada {
				if err := revertirDevolucion(ctx, tx, p, cur, s.ID, s.Almacen); err != nil {
					return err
				}
				continue
			}
			lineas, err := inventario.Consumido(ctx, tx, s.ID)
			if err != nil {
				return err
			}
			resto, err := inventario.NoCubierto(ctx, tx, s.ID)
			if err != nil {
				return err
			}
			lineas = append(lineas, resto...)
			if len(lineas) == 0 {
				continue
			}
			venta, par := cur.id, s.ID
			obs := "Anulación de la venta " + cur.numero
			if _, err := inventario.Crear(ctx, tx, inventario.Movimiento{
				Clase: inventario.Entrada, Tipo: "Devolucion Cliente", AlmacenID: s.Almacen, UsuarioID: p.UsuarioID,
				VentaID: &venta, ClienteID: cur.clienteID, MovimientoParID: &par, Observaciones: &obs,
				Lineas: lineas, Procesar: true,
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
