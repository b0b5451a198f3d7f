package inventario

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
)

// Vista is a movement as the API shows it. Quantities and amounts are JSON
// numbers with the scale of their column (cantidad 3 decimals, costs 4,
// totals 2); costs of an exit that is not processed yet are null, because
// its batches (and so its cost) are only known when it is applied.
type Vista struct {
	ID              int64           `json:"id"`
	EmpresaID       int64           `json:"empresa_id"`
	Numero          string          `json:"numero"`
	Clase           string          `json:"clase"`
	Tipo            string          `json:"tipo"`
	Estado          string          `json:"estado"`
	Fecha           string          `json:"fecha"`
	AlmacenID       int64           `json:"almacen_id"`
	UsuarioID       *int64          `json:"usuario_id"`
	ProveedorID     *int64          `json:"proveedor_id"`
	ClienteID       *int64          `json:"cliente_id"`
	OrdenCompraID   *int64          `json:"orden_compra_id"`
	VentaID         *int64          `json:"venta_id"`
	MovimientoParID *int64          `json:"movimiento_par_id"`
	Observaciones   *string         `json:"observaciones"`
	ProcesadoEn     *time.Time      `json:"procesado_en"`
	CanceladoEn     *time.Time      `json:"cancelado_en"`
	Activo          bool            `json:"activo"`
	Eliminado       bool            `json:"eliminado"`
	CreadoEn        time.Time       `json:"creado_en"`
	ActualizadoEn   time.Time       `json:"actualizado_en"`
	DetallesCount   int64           `json:"detalles_count"`
	CantidadTotal   json.Number     `json:"cantidad_total"`
	CostoTotal      *json.Number    `json:"costo_total"`
	Almacen         json.RawMessage `json:"almacen"`
	Usuario         json.RawMessage `json:"usuario"`
	Proveedor       json.RawMessage `json:"proveedor"`
	Cliente         json.RawMessage `json:"cliente"`
	MovimientoPar   json.RawMessage `json:"movimiento_par"`
	// Detalles is filled by the show (and the answers of writes), not by lists.
	Detalles []DetalleVista `json:"detalles,omitzero"`
}

// DetalleVista is one line of a movement. An exit line carries the batches
// it consumed (consumos) and its cost is their weighted average.
type DetalleVista struct {
	ID               int64           `json:"id"`
	Linea            int32           `json:"linea"`
	ProductoID       int64           `json:"producto_id"`
	Producto         json.RawMessage `json:"producto"`
	Cantidad         json.Number     `json:"cantidad"`
	CostoUnitario    *json.Number    `json:"costo_unitario"`
	CostoTotal       *json.Number    `json:"costo_total"`
	Lote             *string         `json:"lote"`
	FechaVencimiento *string         `json:"fecha_vencimiento"`
	Consumos         []ConsumoVista  `json:"consumos,omitzero"`
	movimiento       int64
}

// ConsumoVista is what an exit line took from one batch, at the batch's cost.
type ConsumoVista struct {
	LoteRef
	Cantidad      json.Number `json:"cantidad"`
	CostoUnitario json.Number `json:"costo_unitario"`
	CostoTotal    json.Number `json:"costo_total"`
	detalle       int64
}

func number(s string) json.Number { return json.Number(s) }

func numberPtr(s *string) *json.Number {
	if s == nil {
		return nil
	}
	n := json.Number(*s)
	return &n
}

// vistaCols are the columns of a movement row; the nested objects are built
// by the database and the totals are correlated aggregates, so a page of
// any size is one query.
const vistaCols = `m.id, m.empresa_id, m.numero, m.clase, m.tipo, m.estado, m.fecha::text, m.almacen_id, m.usuario_id,
	m.proveedor_id, m.cliente_id, m.orden_compra_id, m.venta_id, m.movimiento_par_id, m.observaciones,
	m.procesado_en, m.cancelado_en, m.activo, m.eliminado, m.creado_en, m.actualizado_en,
	(select count(*) from detalles_movimiento d where d.empresa_id = m.empresa_id and d.movimiento_id = m.id),
	(select coalesce(sum(d.cantidad), 0) from detalles_movimiento d where d.empresa_id = m.empresa_id and d.movimiento_id = m.id)::text,
	(case when m.clase = 'entrada' then
	   (select coalesce(round(sum(d.cantidad * d.costo_unitario), 2), 0) from detalles_movimiento d
	    where d.empresa_id = m.empresa_id and d.movimiento_id = m.id)
	 when m.estado = 'Procesada' then
	   (select coalesce(round(sum(c.cantidad * c.costo_unitario), 2), 0) from consumos_lote c
	    join detalles_movimiento d on d.empresa_id = c.empresa_id and d.id = c.detalle_id
	    where d.empresa_id = m.empresa_id and d.movimiento_id = m.id)
	 end)::text,
	case when a.id is not null then jsonb_build_object('id', a.id, 'nombre', a.nombre, 'codigo', a.codigo) end,
	case when u.id is not null then jsonb_build_object('id', u.id, 'nombre', u.nombre, 'apellidos', u.apellidos) end,
	case when pv.id is not null then jsonb_build_object('id', pv.id, 'nombre', pv.nombre, 'nit_ruc', pv.nit_ruc) end,
	case when cl.id is not null then jsonb_build_object('id', cl.id, 'identificacion', cl.identificacion,
	  'nombre_completo', case when cl.tipo_identificacion = 'fisica' or cl.razon_social is null
	    then coalesce(nullif(trim(concat_ws(' ', cl.nombre, cl.apellidos)), ''), cl.razon_social) else cl.razon_social end) end,
	case when par.id is not null then jsonb_build_object('id', par.id, 'numero', par.numero, 'clase', par.clase, 'tipo', par.tipo,
	  'estado', par.estado, 'almacen_id', par.almacen_id, 'almacen', jsonb_build_object('id', pa.id, 'nombre', pa.nombre, 'codigo', pa.codigo)) end`

// vistaFrom joins the relations of a movement (all on unique keys, so the
// count of a list skips them).
const vistaFrom = `from movimientos_inventario m
	left join almacenes a on a.empresa_id = m.empresa_id and a.id = m.almacen_id
	left join usuarios u on u.id = m.usuario_id
	left join proveedores pv on pv.empresa_id = m.empresa_id and pv.id = m.proveedor_id
	left join clientes cl on cl.empresa_id = m.empresa_id and cl.id = m.cliente_id
	left join movimientos_inventario par on par.empresa_id = m.empresa_id and par.id = m.movimiento_par_id
	left join almacenes pa on pa.empresa_id = par.empresa_id and pa.id = par.almacen_id`

func scanVista(row pgx.CollectableRow) (Vista, error) {
	var v Vista
	var cantidad string
	var costo *string
	err := row.Scan(&v.ID, &v.EmpresaID, &v.Numero, &v.Clase, &v.Tipo, &v.Estado, &v.Fecha, &v.AlmacenID, &v.UsuarioID,
		&v.ProveedorID, &v.ClienteID, &v.OrdenCompraID, &v.VentaID, &v.MovimientoParID, &v.Observaciones,
		&v.ProcesadoEn, &v.CanceladoEn, &v.Activo, &v.Eliminado, &v.CreadoEn, &v.ActualizadoEn,
		&v.DetallesCount, &cantidad, &costo, &v.Almacen, &v.Usuario, &v.Proveedor, &v.Cliente, &v.MovimientoPar)
	v.CantidadTotal, v.CostoTotal = number(cantidad), numberPtr(costo)
	return v, err
}

// buscar loads movements of the tenant by id with their lines, products and
// consumed batches, in one pipelined round trip whatever the number of
// movements and lines. clase "" accepts both classes. The result follows ids.
func buscar(ctx context.Context, q *db.Tx, clase string, ids []int64) ([]Vista, error) {
	empresaID := q.EmpresaID()
	var claseArg *string
	if clase != "" {
		claseArg = &clase
	}
	b := &pgx.Batch{}
	b.Queue(`select `+vistaCols+` `+vistaFrom+`
		where m.empresa_id = $1 and m.id = any($2) and ($3::text is null or m.clase = $3) and not m.eliminado`, empresaID, ids, claseArg)
	b.Queue(`select d.movimiento_id, d.id, d.linea, d.producto_id,
			jsonb_build_object('id', p.id, 'codigo', p.codigo, 'nombre', p.nombre, 'codigo_barras', p.codigo_barras,
			  'stock_minimo', p.stock_minimo),
			d.cantidad::text,
			(case when m.clase = 'entrada' then d.costo_unitario
			      when m.estado = 'Procesada' then coalesce(round(k.valor / nullif(k.cantidad, 0), 4), 0) end)::text,
			(case when m.clase = 'entrada' then round(d.cantidad * d.costo_unitario, 2)
			      when m.estado = 'Procesada' then coalesce(round(k.valor, 2), 0) end)::text,
			d.lote, d.fecha_vencimiento::text
		from detalles_movimiento d
		join movimientos_inventario m on m.empresa_id = d.empresa_id and m.id = d.movimiento_id
		join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
		left join lateral (select sum(c.cantidad) cantidad, sum(c.cantidad * c.costo_unitario) valor from consumos_lote c
		                   where c.empresa_id = d.empresa_id and c.detalle_id = d.id) k on true
		where d.empresa_id = $1 and d.movimiento_id = any($2)
		order by d.movimiento_id, d.linea`, empresaID, ids)
	b.Queue(`select c.detalle_id, c.inventario_id, i.lote, i.fecha_vencimiento::text, c.cantidad::text, c.costo_unitario::text,
			round(c.cantidad * c.costo_unitario, 2)::text
		from consumos_lote c
		join detalles_movimiento d on d.empresa_id = c.empresa_id and d.id = c.detalle_id
		join inventarios i on i.empresa_id = c.empresa_id and i.id = c.inventario_id
		where c.empresa_id = $1 and d.movimiento_id = any($2)
		order by c.detalle_id, c.id`, empresaID, ids)
	br := q.SendBatch(ctx, b)
	defer br.Close()

	rows, _ := br.Query()
	vs, err := pgx.CollectRows(rows, scanVista)
	if err != nil {
		return nil, fmt.Errorf("inventario: movimientos: %w", err)
	}
	rows, _ = br.Query()
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DetalleVista, error) {
		var d DetalleVista
		var cantidad string
		var costo, total *string
		err := r.Scan(&d.movimiento, &d.ID, &d.Linea, &d.ProductoID, &d.Producto, &cantidad, &costo, &total, &d.Lote, &d.FechaVencimiento)
		d.Cantidad, d.CostoUnitario, d.CostoTotal = number(cantidad), numberPtr(costo), numberPtr(total)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("inventario: detalles: %w", err)
	}
	rows, _ = br.Query()
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ConsumoVista, error) {
		var c ConsumoVista
		var cantidad, costo, total string
		err := r.Scan(&c.detalle, &c.InventarioID, &c.Lote, &c.FechaVencimiento, &cantidad, &costo, &total)
		c.Cantidad, c.CostoUnitario, c.CostoTotal = number(cantidad), number(costo), number(total)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("inventario: consumos: %w", err)
	}

	consumos := map[int64][]ConsumoVista{}
	for _, c := range cs {
		consumos[c.detalle] = append(consumos[c.detalle], c)
	}
	byID := map[int64]*Vista{}
	for i := range vs {
		vs[i].Detalles = []DetalleVista{}
		byID[vs[i].ID] = &vs[i]
	}
	for _, d := range ds {
		v := byID[d.movimiento]
		if v == nil {
			continue
		}
		if v.Clase == Salida {
			d.Consumos = consumos[d.ID]
			if d.Consumos == nil {
				d.Consumos = []ConsumoVista{}
			}
		}
		v.Detalles = append(v.Detalles, d)
	}
	out := make([]Vista, 0, len(ids))
	for _, id := range ids {
		if v := byID[id]; v != nil {
			out = append(out, *v)
		}
	}
	return out, nil
}
