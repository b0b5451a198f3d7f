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

// The FIFO rule (primeras entradas, primeras salidas) of the inventory
// reports, computed from the movement history, not from the stock rows:
//
//   - Per warehouse and product, every line of a processed entry (purchase
//     receipt, positive adjustment, customer return, transfer in,
//     production) dated up to the date is a cost layer at its unit cost;
//     layers are ordered by (movement date, movement id, line).
//   - Processed exits (any type) consume the oldest layers first. So what
//     remains is the newest layers totalling entries − exits: a layer with
//     quantity q whose cumulative entered quantity (itself included) is A
//     keeps max(0, min(q, A − S)), S being everything that went out. This
//     equals consuming exit by exit (the kardex does), because consumption
//     always takes from the front of the queue.
//   - An exit beyond the layers (negative stock, when the company allows
//     it) leaves a negative balance valued at the cost of the last layer;
//     the next entries cover it first.
//   - Pending and cancelled movements never moved stock and do not count; a
//     cancelled sale's stock comes back as a processed Devolucion Cliente
//     entry, a new layer at the cost the sale consumed.
//
// This is a valuation of the history. The stock rows themselves are
// batches consumed first-expiring-first, and an entry into an existing
// batch averages its cost, so the cost posted for an exit (consumos_lote)
// can differ from this FIFO when batches with expiry dates leave out of
// entry order or a batch is entered again at another cost.
const capasFIFO = `capas as (
	select almacen_id, producto_id, entra, cantidad, costo_unitario, fecha, id, linea,
		sum(case when entra then cantidad else 0 end) over (partition by almacen_id, producto_id
			order by fecha, id, linea rows between unbounded preceding and current row) as acumulado,
		sum(case when entra then 0 else cantidad end) over (partition by almacen_id, producto_id) as salido
	from mov
), saldos as (
	select almacen_id, producto_id,
		sum(case when entra then cantidad else -cantidad end) as cantidad,
		sum(case when entra then greatest(0, least(cantidad, acumulado - salido)) * costo_unitario else 0 end) as valor_capas,
		coalesce((array_agg(costo_unitario order by fecha desc, id desc, linea desc) filter (where entra))[1], 0) as ultimo
	from capas group by 1, 2
)`

// movFIFO is every processed movement line of the company dated up to $2
// (%s: more conditions on m, d and the product p).
const movFIFO = `mov as (
	select m.almacen_id, d.producto_id, m.clase = 'entrada' as entra, d.cantidad, d.costo_unitario, m.fecha, m.id, d.linea
	from movimientos_inventario m
	join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id
	join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
	where m.empresa_id = $1 and m.estado = 'Procesada' and not m.eliminado and %s
)`

// valorizadoSQL: per warehouse and product with stock at $2 (filters $3
// almacen, $4 producto, $5 categoría), the quantity and its FIFO value.
var valorizadoSQL = `with ` + fmt.Sprintf(movFIFO, `m.fecha <= $2
		and ($3::bigint is null or m.almacen_id = $3) and ($4::bigint is null or d.producto_id = $4)
		and ($5::bigint is null or p.categoria_id = $5)`) + `, ` + capasFIFO + `
select s.almacen_id, a.nombre, s.producto_id, coalesce(p.codigo, ''), p.nombre, coalesce(c.nombre, ''), s.cantidad,
	s.valor_capas + case when s.cantidad < 0 then s.cantidad * s.ultimo else 0 end
from saldos s
join almacenes a on a.empresa_id = $1 and a.id = s.almacen_id
join productos p on p.empresa_id = $1 and p.id = s.producto_id
left join categorias_producto c on c.empresa_id = $1 and c.id = p.categoria_id
where s.cantidad <> 0
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
		Descripcion: "Existencias a la fecha por almacén y producto, valoradas a costo PEPS (FIFO): las entradas procesadas son capas de costo y las salidas consumen primero las más antiguas; costo_unitario es el valor entre la cantidad.",
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
			"categoria": categ, "cantidad": Cant(q), "costo_unitario": Imp(v.DivRound(q, 4)), "valor": Imp(v)})
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
