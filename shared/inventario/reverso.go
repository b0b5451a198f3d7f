package inventario

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/erpcr/erp/shared/db"
)

// NoCubierto returns, for every line of a processed exit, the quantity no
// batch covered (negative stock let it through to the product's batch-less
// row), as batch-less entry lines at that row's cost. Consumido plus
// NoCubierto are the lines that undo the exit entirely: a cancelled sale
// gives back what its batches lost and what its batch-less row went below
// zero. Lines fully covered by batches are not returned.
func NoCubierto(ctx context.Context, tx *db.Tx, salidaID int64) ([]Linea, error) {
	empresaID := tx.EmpresaID()
	rows, err := tx.Query(ctx, `select d.producto_id, d.cantidad - x.consumido, coalesce(i.costo_unitario, 0)
		from detalles_movimiento d
		join movimientos_inventario m on m.empresa_id = d.empresa_id and m.id = d.movimiento_id
		cross join lateral (select coalesce(sum(c.cantidad), 0) consumido from consumos_lote c
		  where c.empresa_id = d.empresa_id and c.detalle_id = d.id) x
		left join inventarios i on i.empresa_id = d.empresa_id and i.almacen_id = m.almacen_id and i.producto_id = d.producto_id
		  and i.lote is null and i.fecha_vencimiento is null and not i.eliminado
		where d.empresa_id = $1 and d.movimiento_id = $2 and d.cantidad > x.consumido
		order by d.linea`, empresaID, salidaID)
	if err != nil {
		return nil, fmt.Errorf("inventario: no cubierto: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Linea, error) {
		var l Linea
		var cant, costo pgtype.Numeric
		if err := r.Scan(&l.ProductoID, &cant, &costo); err != nil {
			return l, err
		}
		l.Cantidad, l.CostoUnitario = db.Decimal(cant), db.Decimal(costo)
		return l, nil
	})
}
