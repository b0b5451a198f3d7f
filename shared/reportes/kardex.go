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

// Kardex is a product's movements with the running quantity and FIFO
// cost (issue 14).
const Kardex = "kardex"

// MaxMovimientosKardex bounds the movement lines of one kardex, as the
// general ledger is bounded: more is a 422 asking for a shorter period.
const MaxMovimientosKardex = 20000

var (
	pProducto = esquema.Campo{Nombre: "producto_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1",
		Descripcion: "Producto del kardex."}
	pAlmacenKardex = esquema.Campo{Nombre: "almacen_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Almacén; sin él, todos los almacenes de la empresa (cada uno con sus capas PEPS; las transferencias salen de uno y entran a otro)."}
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
		Descripcion: "Movimientos procesados de un producto en orden cronológico, con entrada, salida, saldo en cantidad, costo unitario (de la entrada, o el costo PEPS de la salida) y saldo valorado a costo PEPS; la primera fila es el saldo inicial al comienzo del período.",
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

// kardexSQL is, in one statement, the opening state of each warehouse
// before $4 (orden 0: the FIFO layers still in stock, oldest first, and a
// negative balance as one row with entra false at the last layer's cost;
// see capasFIFO) and then the movement lines of [$4, $5] in time order
// (orden 1), at most $6 of them.
var kardexSQL = `with ` + fmt.Sprintf(movFIFO, `d.producto_id = $2 and ($3::bigint is null or m.almacen_id = $3) and m.fecha < $4`) + `, ` + capasFIFO + `
select 0 as orden, c.almacen_id, a.nombre, null::date, '', '', '', true, least(c.cantidad, c.acumulado - c.salido), c.costo_unitario,
	c.fecha, c.id, c.linea
from capas c join almacenes a on a.empresa_id = $1 and a.id = c.almacen_id
where c.entra and c.acumulado - c.salido > 0
union all
select 0, s.almacen_id, a.nombre, null, '', '', '', false, -s.cantidad, s.ultimo, null, null, null
from saldos s join almacenes a on a.empresa_id = $1 and a.id = s.almacen_id
where s.cantidad < 0
union all
(select 1, m.almacen_id, a.nombre, m.fecha, m.tipo, m.numero,
	coalesce(v.numero_comprobante, o.numero_orden, par.numero, ''), m.clase = 'entrada', d.cantidad, d.costo_unitario, m.fecha, m.id, d.linea
from movimientos_inventario m
join detalles_movimiento d on d.empresa_id = m.empresa_id and d.movimiento_id = m.id
join almacenes a on a.empresa_id = m.empresa_id and a.id = m.almacen_id
left join ventas v on v.empresa_id = m.empresa_id and v.id = m.venta_id
left join ordenes_compra o on o.empresa_id = m.empresa_id and o.id = m.orden_compra_id
left join movimientos_inventario par on par.empresa_id = m.empresa_id and par.id = m.movimiento_par_id
where m.empresa_id = $1 and d.producto_id = $2 and ($3::bigint is null or m.almacen_id = $3)
	and m.estado = 'Procesada' and not m.eliminado and m.fecha between $4 and $5
order by m.fecha, m.id, d.linea
limit $6)
order by 1, 11 nulls last, 12, 13`

// capa is a FIFO cost layer.
type capa struct{ cantidad, costo decimal.Decimal }

// fifo is one warehouse's layers of the product, oldest first; deficit is
// a negative balance (what went out beyond the layers), valued at the
// last layer's cost (ultimo) and covered first by the next entries.
type fifo struct {
	capas           []capa
	deficit         decimal.Decimal
	ultimo          decimal.Decimal
	cantidad, valor decimal.Decimal // of the layers
}

func (f *fifo) saldo() (decimal.Decimal, decimal.Decimal) {
	return f.cantidad.Sub(f.deficit), f.valor.Sub(f.deficit.Mul(f.ultimo))
}

// entrar adds an entry: it covers a deficit first, the rest is a layer.
func (f *fifo) entrar(q, costo decimal.Decimal) {
	f.ultimo = costo
	if f.deficit.IsPositive() {
		t := decimal.Min(q, f.deficit)
		f.deficit, q = f.deficit.Sub(t), q.Sub(t)
	}
	if q.IsPositive() {
		f.capas = append(f.capas, capa{q, costo})
		f.cantidad, f.valor = f.cantidad.Add(q), f.valor.Add(q.Mul(costo))
	}
}

// salir takes q from the oldest layers and returns its FIFO cost; what no
// layer covers becomes deficit at the last cost.
func (f *fifo) salir(q decimal.Decimal) decimal.Decimal {
	costo := decimal.Zero
	for q.IsPositive() && len(f.capas) > 0 {
		c := &f.capas[0]
		t := decimal.Min(q, c.cantidad)
		costo = costo.Add(t.Mul(c.costo))
		c.cantidad, q = c.cantidad.Sub(t), q.Sub(t)
		f.cantidad, f.valor = f.cantidad.Sub(t), f.valor.Sub(t.Mul(c.costo))
		if !c.cantidad.IsPositive() {
			f.capas = f.capas[1:]
		}
	}
	if q.IsPositive() {
		f.deficit = f.deficit.Add(q)
		costo = costo.Add(q.Mul(f.ultimo))
	}
	return costo
}

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
	almacenes := map[int64]*fifo{}
	estado := func(id int64) *fifo {
		f := almacenes[id]
		if f == nil {
			f = &fifo{}
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
			fq, fv := f.saldo()
			q, v = q.Add(fq), v.Add(fv.Round(2))
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
			q, costo               decimal.Decimal
			fOrden                 *time.Time
			idOrden                *int64
			lineaOrden             *int32
		)
		if err := rows.Scan(&orden, &almacen, &nomAlm, &fechaMov, &tipo, &doc, &ref, &entra, &q, &costo, &fOrden, &idOrden, &lineaOrden); err != nil {
			return nil, fmt.Errorf("reportes: kardex: %w", err)
		}
		f := estado(almacen)
		if orden == 0 {
			if entra {
				f.entrar(q, costo)
			} else {
				f.ultimo, f.deficit = costo, q
			}
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
		antesQ, antesV := f.saldo()
		fila := Fila{"fecha": fechaMov.Format(time.DateOnly), "almacen_id": almacen, "tipo": tipo, "documento": doc, "referencia": ref,
			"entrada": nil, "salida": nil}
		if conAlmacen {
			fila["almacen"] = nomAlm
		}
		if entra {
			f.entrar(q, costo)
			entradas, vEntradas = entradas.Add(q), vEntradas.Add(q.Mul(costo))
			fila["entrada"], fila["costo_unitario"] = Cant(q), Imp(costo)
		} else {
			v := f.salir(q)
			salidas, vS = salidas.Add(q), vS.Add(v)
			fila["salida"], fila["costo_unitario"] = Cant(q), Imp(v.DivRound(q, 4))
		}
		despuesQ, despuesV := f.saldo()
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
