package reportes

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// InventarioValorizado is the inventory valuation at a date (issue 14).
const InventarioValorizado = "inventario-valorizado"

// How the inventory reports value stock: as the stock rows and the books
// do, never by a costing of their own.
//
//   - The stock is batches (inventarios), consumed first-expiring-first
//     (PEPS by batch); an entry into an existing batch averages its cost.
//     What the company holds now is worth the sum of quantity × cost of
//     its batches, which is what GET /api/inventario/existencias shows.
//   - Each processed movement line records what it did to that value: an
//     entry line adds quantity × its cost (what the books post for it); an
//     exit line takes what it consumed batch by batch, consumos_lote's
//     quantity × cost (what the books post for it), and a quantity no batch
//     covered (negative stock, when the company allows it) at the cost of
//     the product's batch-less row in that warehouse, where it went below
//     zero (the books post nothing for it, so only then may they differ).
//   - The stock at a past date is the batches now less what the movements
//     dated after it did, at those recorded costs. So the valuation today is
//     the batches exactly, a valuation at any date equals the kardex's
//     closing at that date, and a movement never gets a cost it was not
//     booked at (a re-derived FIFO of layers did: a second receipt into a
//     batch, or goods returned into one, valued differently from the books).
//   - Pending and cancelled movements never moved stock and do not count.
//
// lineasValor is the lines as a CTE "lin" of every processed movement line
// of the company matching %s (conditions on m, d and the product p):
// warehouse, product, entra, quantity, the value it added (entra) or took
// (valor, positive both ways), the entry's unit cost (costo, null for an
// exit), and what the kardex shows of its movement.
const lineasValor = `lin as (
	select m.almacen_id, d.producto_id, m.clase = 'entrada' as entra, d.cantidad,
		case when m.clase = 'entrada' then d.cantidad * d.costo_unitario
			else coalesce(k.valor, 0) + (d.cantidad - coalesce(k.cantidad, 0)) * coalesce(s.costo_unitario, 0) end as valor,
		case when m.clase = 'entrada' then d.costo_unitario end as costo,
		m.fecha, m.id, d.linea, m.tipo, m.numero, m.venta_id, m.orden_compra_id, m.movimiento_par_id
	from movimientos_inventario m
	join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id
	join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
	left join lateral (select sum(c.cantidad) as cantidad, sum(c.cantidad * c.costo_unitario) as valor from consumos_lote c
		where c.empresa_id = d.empresa_id and c.detalle_id = d.id) k on m.clase = 'salida'
	left join inventarios s on m.clase = 'salida' and s.empresa_id = m.empresa_id and s.almacen_id = m.almacen_id
		and s.producto_id = d.producto_id and coalesce(s.lote, '') = '' and coalesce(s.fecha_vencimiento, 'infinity'::date) = 'infinity'
		and not s.eliminado
	where m.empresa_id = $1 and m.estado = 'Procesada' and not m.eliminado and %s
)`

// valorizadoSQL: per warehouse and product with stock at $2 (filters $3
// almacen, $4 producto, $5 categoría), the quantity and value of the
// batches now less what the movements dated after $2 did to them.
var valorizadoSQL = `with ` + fmt.Sprintf(lineasValor, `m.fecha > $2
		and ($3::bigint is null or m.almacen_id = $3) and ($4::bigint is null or d.producto_id = $4)
		and ($5::bigint is null or p.categoria_id = $5)`) + `,
partes as (
	select i.almacen_id, i.producto_id, i.cantidad_disponible as cantidad, i.cantidad_disponible * i.costo_unitario as valor
	from inventarios i
	join productos p on p.empresa_id = i.empresa_id and p.id = i.producto_id
	where i.empresa_id = $1 and not i.eliminado
		and ($3::bigint is null or i.almacen_id = $3) and ($4::bigint is null or i.producto_id = $4)
		and ($5::bigint is null or p.categoria_id = $5)
	union all
	select almacen_id, producto_id, case when entra then -cantidad else cantidad end, case when entra then -valor else valor end
	from lin
), saldos as (
	select almacen_id, producto_id, sum(cantidad) as cantidad, sum(valor) as valor from partes group by 1, 2
)
select s.almacen_id, a.nombre, s.producto_id, coalesce(p.codigo, ''), p.nombre, coalesce(c.nombre, ''), s.cantidad, s.valor
from saldos s
join almacenes a on a.empresa_id = $1 and a.id = s.almacen_id
join productos p on p.empresa_id = $1 and p.id = s.producto_id
left join categorias_producto c on c.empresa_id = $1 and c.id = p.categoria_id
where s.cantidad <> 0 or round(s.valor, 2) <> 0
order by a.nombre, s.almacen_id, p.codigo, p.nombre, s.producto_id`

// filtrosInventarioSQL tells whether each given filter exists in the
// company (a missing one is a 422 on its name, as sucursal_id is).
const filtrosInventarioSQL = `select
	($2::bigint is null or exists (select 1 from almacenes where empresa_id = $1 and id = $2)),
	($3::bigint is null or exists (select 1 from productos where empresa_id = $1 and id = $3)),
	($4::bigint is null or exists (select 1 from categorias_producto where empresa_id = $1 and id = $4))`

var (
	pFecha = esquema.Campo{Nombre: "fecha", Tipo: esquema.Fecha, Ejemplo: "2026-03-31",
		Descripcion: "Fecha de la valuación (AAAA-MM-DD); por omisión hoy en Costa Rica. Cuenta los movimientos procesados hasta esa fecha."}
	pAlmacen = esquema.Campo{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Solo ese almacén."}
	pProductoFiltro = esquema.Campo{Nombre: "producto_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Solo ese producto."}
	pCategoria = esquema.Campo{Nombre: "categoria_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Solo los productos de esa categoría."}
)

var totalesInventario = []Columna{{Clave: "cantidad", Titulo: "Cantidad"}, {Clave: "valor", Titulo: "Valor (costo PEPS)"}}

var columnasValorizado = []Columna{
	{Clave: "codigo", Titulo: "Código", Tipo: ColTexto},
	{Clave: "nombre", Titulo: "Producto", Tipo: ColTexto},
	{Clave: "categoria", Titulo: "Categoría", Tipo: ColTexto},
	{Clave: "cantidad", Titulo: "Cantidad", Tipo: ColImporte},
	{Clave: "costo_unitario", Titulo: "Costo unitario", Tipo: ColImporte},
	{Clave: "valor", Titulo: "Valor", Tipo: ColImporte},
}

func init() {
	Registrar(Tipo{Clave: InventarioValorizado, Nombre: "Inventario valorizado",
		Descripcion: "Existencias a la fecha por almacén y producto, valoradas al costo de sus lotes (las salidas los consumen PEPS, el primero en vencer primero): hoy, la suma de cantidad × costo de los lotes; a una fecha pasada, los lotes menos lo que hicieron los movimientos posteriores a los costos con que se registraron (y contabilizaron); costo_unitario es el valor entre la cantidad.",
		Ruta:        "GET /api/reportes/" + InventarioValorizado, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFecha, pAlmacen, pProductoFiltro, pCategoria},
		Totales:    append([]Columna{}, totalesInventario...),
		Generar:    valorizado})
}

// filtrosInventario reads the existence flags of filtrosInventarioSQL.
func filtrosInventario(br pgx.BatchResults, almacen, producto, categoria *int64, clave string) error {
	var okAlmacen, okProducto, okCategoria bool
	if err := br.QueryRow().Scan(&okAlmacen, &okProducto, &okCategoria); err != nil {
		return fmt.Errorf("reportes: %s: %w", clave, err)
	}
	errs := map[string][]string{}
	if !okAlmacen {
		errs["almacen_id"] = []string{msgAlmacen}
	}
	if !okProducto {
		errs["producto_id"] = []string{msgProducto}
	}
	if !okCategoria {
		errs["categoria_id"] = []string{msgCategoria}
	}
	if len(errs) > 0 {
		return apperr.NewInvalid(errs)
	}
	return nil
}

func valorizado(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	b := &pgx.Batch{}
	b.Queue(filtrosInventarioSQL, tx.EmpresaID(), c.AlmacenID, c.ProductoID, c.CategoriaID)
	b.Queue(valorizadoSQL, tx.EmpresaID(), c.Fecha, c.AlmacenID, c.ProductoID, c.CategoriaID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if err := filtrosInventario(br, c.AlmacenID, c.ProductoID, c.CategoriaID, InventarioValorizado); err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("reportes: inventario valorizado: %w", err)
	}
	defer rows.Close()
	secciones := []Seccion{}
	var cantidad, valor decimal.Decimal
	var s *Seccion
	var sCant, sValor decimal.Decimal
	cerrar := func() {
		if s != nil {
			s.Totales = map[string]Importe{"cantidad": Cant(sCant), "valor": Imp(sValor)}
			secciones = append(secciones, *s)
		}
	}
	for rows.Next() {
		var (
			almacen, producto                 int64
			nomAlmacen, codigo, nombre, categ string
			q, v                              decimal.Decimal
		)
		if err := rows.Scan(&almacen, &nomAlmacen, &producto, &codigo, &nombre, &categ, &q, &v); err != nil {
			return nil, fmt.Errorf("reportes: inventario valorizado: %w", err)
		}
		clave := "almacen-" + strconv.FormatInt(almacen, 10)
		if s == nil || s.Clave != clave {
			cerrar()
			s = &Seccion{Clave: clave, Titulo: "Almacén " + nomAlmacen, Columnas: columnasValorizado, Filas: []Fila{}}
			sCant, sValor = decimal.Zero, decimal.Zero
		}
		s.Filas = append(s.Filas, Fila{"almacen_id": almacen, "producto_id": producto, "codigo": codigo, "nombre": nombre,
			"categoria": categ, "cantidad": Cant(q), "costo_unitario": Imp(porUnidad(v, q)), "valor": Imp(v)})
		// The totals foot the rows as shown: sums of the rounded values.
		q, v = Cant(q).Decimal, Imp(v).Decimal
		sCant, sValor = sCant.Add(q), sValor.Add(v)
		cantidad, valor = cantidad.Add(q), valor.Add(v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: inventario valorizado: %w", err)
	}
	cerrar()
	return &Reporte{Tipo: InventarioValorizado, Titulo: "Inventario valorizado (PEPS) al " + fecha(c.Fecha),
		Secciones: secciones, Totales: map[string]Importe{"cantidad": Cant(cantidad), "valor": Imp(valor)}}, nil
}

// porUnidad is v / q to 4 decimals, 0 without quantity (a product whose
// batches net to nothing may still carry a value, shown on its own).
func porUnidad(v, q decimal.Decimal) decimal.Decimal {
	if q.IsZero() {
		return decimal.Zero
	}
	return v.DivRound(q, 4)
}
