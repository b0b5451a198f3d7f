package reportes

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/valid"
)

// Kardex is a product's movements with the running quantity and value,
// each movement at the cost it was recorded and posted at (issue 14; see
// lineasValor).
const Kardex = "kardex"

// MaxMovimientosKardex bounds the movement lines of one kardex, as the
// general ledger is bounded: more is a 422 asking for a shorter period.
const MaxMovimientosKardex = 20000

var (
	pProducto = esquema.Campo{Nombre: "producto_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1",
		Descripcion: "Producto del kardex."}
	pAlmacenKardex = esquema.Campo{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Almacén; sin él, todos los almacenes de la empresa (cada uno con sus lotes a su costo; las transferencias salen de uno y entran a otro)."}
	pFechaInicioKardex = esquema.Campo{Nombre: "fecha_inicio", Tipo: esquema.Fecha, Ejemplo: "2026-03-01",
		Descripcion: "Primer día del período (AAAA-MM-DD); por omisión el 1 de enero del año de fecha_fin. Lo anterior es el saldo inicial."}
	pFechaFinKardex = esquema.Campo{Nombre: "fecha_fin", Tipo: esquema.Fecha, Ejemplo: "2026-03-31",
		Descripcion: "Último día del período (AAAA-MM-DD); por omisión hoy en Costa Rica."}
)

var totalesKardex = []Columna{
	{Clave: "saldo_inicial_cantidad", Titulo: "Saldo inicial (cantidad)"}, {Clave: "saldo_inicial_valor", Titulo: "Saldo inicial (valor)"},
	{Clave: "entradas", Titulo: "Entradas (cantidad)"}, {Clave: "valor_entradas", Titulo: "Entradas (valor)"},
	{Clave: "salidas", Titulo: "Salidas (cantidad)"}, {Clave: "valor_salidas", Titulo: "Salidas (costo PEPS)"},
	{Clave: "saldo_final_cantidad", Titulo: "Saldo final (cantidad)"}, {Clave: "saldo_final_valor", Titulo: "Saldo final (valor)"},
}

func init() {
	Registrar(Tipo{Clave: Kardex, Nombre: "Kardex",
		Descripcion: "Movimientos procesados de un producto en orden cronológico, con entrada, salida, saldo en cantidad, costo unitario (el de la entrada, o el de los lotes que consumió la salida: lo que se contabilizó) y saldo valorado a esos costos, que cierra en el inventario valorizado; la primera fila es el saldo inicial al comienzo del período.",
		Ruta:        "GET /api/reportes/" + Kardex, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pProducto, pAlmacenKardex, pFechaInicioKardex, pFechaFinKardex},
		Totales:    append([]Columna{}, totalesKardex...),
		Generar:    kardex})
}

// kardexCabeceraSQL: the product ($2; its code and name, null when it is
// not the company's) and whether the warehouse $3 exists.
const kardexCabeceraSQL = `select p.codigo, p.nombre,
	($3::bigint is null or exists (select 1 from almacenes a where a.empresa_id = $1 and a.id = $3)),
	(select a.nombre from almacenes a where a.empresa_id = $1 and a.id = $3)
from (select 1) x left join productos p on p.empresa_id = $1 and p.id = $2`

// kardexSQL is, in one statement, the opening balance of each warehouse
// at $4 (orden 0: its batches now less what the movements dated from $4 on
// did, see lineasValor; a warehouse left with nothing is omitted) and then
// the movement lines of [$4, $5] in time order (orden 1), at most $6 of
// them, each with the value it added or took at its recorded cost.
var kardexSQL = `with ` + fmt.Sprintf(lineasValor, `d.producto_id = $2 and ($3::bigint is null or m.almacen_id = $3) and m.fecha >= $4`) + `,
apertura as (
	select almacen_id, sum(cantidad) as cantidad, sum(valor) as valor from (
		select i.almacen_id, i.cantidad_disponible as cantidad, i.cantidad_disponible * i.costo_unitario as valor
		from inventarios i
		where i.empresa_id = $1 and i.producto_id = $2 and ($3::bigint is null or i.almacen_id = $3) and not i.eliminado
		union all
		select almacen_id, case when entra then -cantidad else cantidad end, case when entra then -valor else valor end from lin
	) x group by 1
)
select 0 as orden, x.almacen_id, a.nombre, null::date, '', '', '', true, x.cantidad, x.valor, null::numeric,
	null::date, null::bigint, null::integer
from apertura x join almacenes a on a.empresa_id = $1 and a.id = x.almacen_id
where x.cantidad <> 0 or x.valor <> 0
union all
(select 1, l.almacen_id, a.nombre, l.fecha, l.tipo, l.numero,
	coalesce(v.numero_comprobante, o.numero_orden, par.numero, ''), l.entra, l.cantidad, l.valor, l.costo, l.fecha, l.id, l.linea
from lin l
join almacenes a on a.empresa_id = $1 and a.id = l.almacen_id
left join ventas v on v.empresa_id = $1 and v.id = l.venta_id
left join ordenes_compra o on o.empresa_id = $1 and o.id = l.orden_compra_id
left join movimientos_inventario par on par.empresa_id = $1 and par.id = l.movimiento_par_id
where l.fecha <= $5
order by l.fecha, l.id, l.linea
limit $6)
order by 1, 12 nulls last, 13, 14`

// saldoKardex is one warehouse's running balance of the product: quantity and
// value at the costs the movements were recorded (and posted) at.
type saldoKardex struct{ cantidad, valor decimal.Decimal }

func columnasKardex(conAlmacen bool) []Columna {
	cs := []Columna{{Clave: "fecha", Titulo: "Fecha", Tipo: ColFecha}}
	if conAlmacen {
		cs = append(cs, Columna{Clave: "almacen", Titulo: "Almacén", Tipo: ColTexto})
	}
	return append(cs,
		Columna{Clave: "tipo", Titulo: "Tipo", Tipo: ColTexto},
		Columna{Clave: "documento", Titulo: "Documento", Tipo: ColTexto},
		Columna{Clave: "entrada", Titulo: "Entrada", Tipo: ColImporte},
		Columna{Clave: "salida", Titulo: "Salida", Tipo: ColImporte},
		Columna{Clave: "saldo_cantidad", Titulo: "Saldo", Tipo: ColImporte},
		Columna{Clave: "costo_unitario", Titulo: "Costo unitario", Tipo: ColImporte},
		Columna{Clave: "saldo_valor", Titulo: "Saldo valorado", Tipo: ColImporte})
}

func kardex(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	b := &pgx.Batch{}
	b.Queue(kardexCabeceraSQL, tx.EmpresaID(), c.ProductoID, c.AlmacenID)
	b.Queue(kardexSQL, tx.EmpresaID(), c.ProductoID, c.AlmacenID, c.FechaInicio, c.FechaFin, MaxMovimientosKardex+1)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var codigo, nombre, nomAlmacen *string
	var okAlmacen bool
	if err := br.QueryRow().Scan(&codigo, &nombre, &okAlmacen, &nomAlmacen); err != nil {
		return nil, fmt.Errorf("reportes: kardex: %w", err)
	}
	errs := map[string][]string{}
	if nombre == nil {
		errs["producto_id"] = []string{msgProducto}
	}
	if !okAlmacen {
		errs["almacen_id"] = []string{msgAlmacen}
	}
	if len(errs) > 0 {
		return nil, apperr.NewInvalid(errs)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("reportes: kardex: %w", err)
	}
	defer rows.Close()
	almacenes := map[int64]*saldoKardex{}
	estado := func(id int64) *saldoKardex {
		f := almacenes[id]
		if f == nil {
			f = &saldoKardex{}
			almacenes[id] = f
		}
		return f
	}
	// total is the balance of every warehouse of the kardex, each
	// warehouse's value rounded to céntimos as the valuation shows it, so
	// that a balance of every warehouse is the sum of its rows there.
	total := func() (decimal.Decimal, decimal.Decimal) {
		var q, v decimal.Decimal
		for _, f := range almacenes {
			q, v = q.Add(f.cantidad), v.Add(f.valor.Round(2))
		}
		return q, v
	}
	conAlmacen := c.AlmacenID == nil
	var (
		filas                            = []Fila{}
		apertura                         bool
		iniQ, iniV, saldoQ, saldoV       decimal.Decimal
		entradas, vEntradas, salidas, vS decimal.Decimal
	)
	for rows.Next() {
		var (
			orden                  int
			almacen                int64
			nomAlm, tipo, doc, ref string
			fechaMov               *time.Time
			entra                  bool
			q, valor               decimal.Decimal
			costo                  *decimal.Decimal
			fOrden                 *time.Time
			idOrden                *int64
			lineaOrden             *int32
		)
		if err := rows.Scan(&orden, &almacen, &nomAlm, &fechaMov, &tipo, &doc, &ref, &entra, &q, &valor, &costo, &fOrden, &idOrden, &lineaOrden); err != nil {
			return nil, fmt.Errorf("reportes: kardex: %w", err)
		}
		f := estado(almacen)
		if orden == 0 {
			f.cantidad, f.valor = q, valor
			continue
		}
		if !apertura {
			apertura = true
			iniQ, iniV = total()
			saldoQ, saldoV = iniQ, iniV
			filas = append(filas, filaApertura(c.FechaInicio, iniQ, iniV, conAlmacen))
		}
		if len(filas) > MaxMovimientosKardex {
			return nil, apperr.InvalidField("fecha_fin", fmt.Sprintf(
				"El producto tiene más de %d movimientos en el período; acorte el período del kardex.", MaxMovimientosKardex))
		}
		antesQ, antesV := f.cantidad, f.valor
		fila := Fila{"fecha": fechaMov.Format(time.DateOnly), "almacen_id": almacen, "tipo": tipo, "documento": doc, "referencia": ref,
			"entrada": nil, "salida": nil}
		if conAlmacen {
			fila["almacen"] = nomAlm
		}
		if entra {
			f.cantidad, f.valor = f.cantidad.Add(q), f.valor.Add(valor)
			entradas, vEntradas = entradas.Add(q), vEntradas.Add(valor)
			fila["entrada"], fila["costo_unitario"] = Cant(q), Imp(*costo)
		} else {
			f.cantidad, f.valor = f.cantidad.Sub(q), f.valor.Sub(valor)
			salidas, vS = salidas.Add(q), vS.Add(valor)
			fila["salida"], fila["costo_unitario"] = Cant(q), Imp(valor.DivRound(q, 4))
		}
		despuesQ, despuesV := f.cantidad, f.valor
		saldoQ, saldoV = saldoQ.Add(despuesQ.Sub(antesQ)), saldoV.Add(despuesV.Round(2).Sub(antesV.Round(2)))
		fila["saldo_cantidad"], fila["saldo_valor"] = Cant(saldoQ), Imp(saldoV)
		filas = append(filas, fila)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: kardex: %w", err)
	}
	if !apertura {
		iniQ, iniV = total()
		saldoQ, saldoV = iniQ, iniV
		filas = append(filas, filaApertura(c.FechaInicio, iniQ, iniV, conAlmacen))
	}
	tot := map[string]Importe{
		"saldo_inicial_cantidad": Cant(iniQ), "saldo_inicial_valor": Imp(iniV),
		"entradas": Cant(entradas), "valor_entradas": Imp(vEntradas), "salidas": Cant(salidas), "valor_salidas": Imp(vS),
		"saldo_final_cantidad": Cant(saldoQ), "saldo_final_valor": Imp(saldoV),
	}
	titulo := "Kardex de " + valid.Valor(codigo) + " " + *nombre
	seccion := "Todos los almacenes"
	if nomAlmacen != nil {
		seccion = "Almacén " + *nomAlmacen
	}
	return &Reporte{Tipo: Kardex, Titulo: titulo,
		Secciones: []Seccion{{Clave: "movimientos", Titulo: seccion, Columnas: columnasKardex(conAlmacen), Filas: filas,
			Totales: map[string]Importe{"entrada": Cant(entradas), "salida": Cant(salidas), "saldo_cantidad": Cant(saldoQ), "saldo_valor": Imp(saldoV)}}},
		Totales: tot, Movimientos: filas}, nil
}

// filaApertura is the first row: the balance before fecha_inicio.
func filaApertura(inicio time.Time, q, v decimal.Decimal, conAlmacen bool) Fila {
	f := Fila{"fecha": fecha(inicio), "tipo": "Saldo inicial", "documento": "", "referencia": "", "entrada": nil, "salida": nil,
		"saldo_cantidad": Cant(q), "costo_unitario": nil, "saldo_valor": Imp(v)}
	if !q.IsZero() {
		f["costo_unitario"] = Imp(v.DivRound(q, 4))
	}
	if conAlmacen {
		f["almacen"] = ""
	}
	return f
}
