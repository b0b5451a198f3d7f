package inventario

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
)

// Existencia is the stock of one product in one warehouse, summed over its
// batches. valor is sum(cantidad x costo) of the batches (so the warehouse's
// valor_total_inventario is the sum of its existencias); costo_promedio is
// the weighted average cost of the batches on hand.
type Existencia struct {
	AlmacenID          int64           `json:"almacen_id"`
	Almacen            json.RawMessage `json:"almacen"`
	ProductoID         int64           `json:"producto_id"`
	Producto           json.RawMessage `json:"producto"`
	CantidadDisponible json.Number     `json:"cantidad_disponible"`
	CostoPromedio      json.Number     `json:"costo_promedio"`
	Valor              json.Number     `json:"valor"`
	StockMinimo        int32           `json:"stock_minimo"`
	StockMaximo        *int32          `json:"stock_maximo"`
	BajoMinimo         bool            `json:"bajo_minimo"`
	LotesCount         int64           `json:"lotes_count"`
	// Lotes is filled when the list is asked with lotes=1, in the order
	// exits consume them (first expiring, then oldest).
	Lotes []LoteVista `json:"lotes,omitzero"`
}

// LoteRef names a batch row (inventarios): its id, lot code and expiry.
type LoteRef struct {
	InventarioID     int64   `json:"inventario_id"`
	Lote             *string `json:"lote"`
	FechaVencimiento *string `json:"fecha_vencimiento"`
}

// LoteVista is one batch row of a product in a warehouse.
type LoteVista struct {
	LoteRef
	CantidadDisponible json.Number `json:"cantidad_disponible"`
	CostoUnitario      json.Number `json:"costo_unitario"`
	Valor              json.Number `json:"valor"`
}

const existenciaCols = `s.almacen_id, jsonb_build_object('id', a.id, 'nombre', a.nombre, 'codigo', a.codigo),
	s.producto_id, jsonb_build_object('id', p.id, 'codigo', p.codigo, 'nombre', p.nombre, 'codigo_barras', p.codigo_barras),
	s.cantidad::text, (case when s.positiva > 0 then round(s.valor_positivo / s.positiva, 4) else 0 end)::text,
	round(s.valor, 2)::text, p.stock_minimo, p.stock_maximo, s.cantidad < p.stock_minimo, s.lotes`

// existenciaFrom groups the batch rows per warehouse and product; $1 is the
// tenant, $2 almacen_id, $3 producto_id, $4 bajo_minimo, $5 search.
const existenciaFrom = `from (
		select i.almacen_id, i.producto_id, sum(i.cantidad_disponible) cantidad, sum(i.cantidad_disponible * i.costo_unitario) valor,
		       sum(greatest(i.cantidad_disponible, 0)) positiva, sum(greatest(i.cantidad_disponible, 0) * i.costo_unitario) valor_positivo,
		       count(*) filter (where i.cantidad_disponible <> 0) lotes
		from inventarios i
		where i.empresa_id = $1 and not i.eliminado
		  and ($2::bigint is null or i.almacen_id = $2) and ($3::bigint is null or i.producto_id = $3)
		group by i.almacen_id, i.producto_id
	) s
	join almacenes a on a.empresa_id = $1 and a.id = s.almacen_id and not a.eliminado
	join productos p on p.empresa_id = $1 and p.id = s.producto_id and not p.eliminado
	where ($4::boolean is null or (s.cantidad < p.stock_minimo) = $4)
	  and ($5::text is null or p.busqueda like f_unaccent(lower($5)))`

var existenciaSorts = map[string]string{
	"producto": "p.nombre", "codigo": "p.codigo", "almacen": "a.nombre", "cantidad": "s.cantidad", "valor": "s.valor",
}

func scanExistencia(row pgx.CollectableRow) (Existencia, error) {
	var x Existencia
	var cantidad, costo, valor string
	err := row.Scan(&x.AlmacenID, &x.Almacen, &x.ProductoID, &x.Producto, &cantidad, &costo, &valor,
		&x.StockMinimo, &x.StockMaximo, &x.BajoMinimo, &x.LotesCount)
	x.CantidadDisponible, x.CostoPromedio, x.Valor = number(cantidad), number(costo), number(valor)
	return x, err
}

// cargarLotes fills the batches of a page of existencias in one query.
func cargarLotes(ctx context.Context, tx *db.Tx, xs []Existencia) error {
	empresaID := tx.EmpresaID()
	almacenes := make([]int64, len(xs))
	productos := make([]int64, len(xs))
	idx := map[[2]int64]int{}
	for i, x := range xs {
		almacenes[i], productos[i] = x.AlmacenID, x.ProductoID
		idx[[2]int64{x.AlmacenID, x.ProductoID}] = i
		xs[i].Lotes = []LoteVista{}
	}
	rows, err := tx.Query(ctx, `select i.almacen_id, i.producto_id, i.id, i.lote, i.fecha_vencimiento::text,
			i.cantidad_disponible::text, i.costo_unitario::text, round(i.cantidad_disponible * i.costo_unitario, 2)::text
		from inventarios i
		join unnest($2::bigint[], $3::bigint[]) as k(almacen, producto) on i.almacen_id = k.almacen and i.producto_id = k.producto
		where i.empresa_id = $1 and not i.eliminado and i.cantidad_disponible <> 0
		order by i.almacen_id, i.producto_id, i.fecha_vencimiento nulls last, i.creado_en, i.id`, empresaID, almacenes, productos)
	if err != nil {
		return fmt.Errorf("inventario: lotes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var almacen, producto int64
		var l LoteVista
		var cantidad, costo, valor string
		if err := rows.Scan(&almacen, &producto, &l.InventarioID, &l.Lote, &l.FechaVencimiento, &cantidad, &costo, &valor); err != nil {
			return fmt.Errorf("inventario: lotes: %w", err)
		}
		l.CantidadDisponible, l.CostoUnitario, l.Valor = number(cantidad), number(costo), number(valor)
		if i, ok := idx[[2]int64{almacen, producto}]; ok {
			xs[i].Lotes = append(xs[i].Lotes, l)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("inventario: lotes: %w", err)
	}
	return nil
}
