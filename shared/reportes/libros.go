package reportes

import (
	"context"
	"encoding/json"
	"errors"
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

// The books (their own paths under /api/reportes).
const (
	BalanzaComprobacion = "balanza-comprobacion"
	LibroMayor          = "libro-mayor"
	LibroDiario         = "libro-diario"
)

func init() {
	Registrar(Tipo{Clave: BalanzaComprobacion, Nombre: "Balanza de comprobación",
		Descripcion: "Por cuenta de detalle: saldo inicial, débitos y créditos del período y saldo final, en columnas deudora y acreedora; los totales del debe y del haber son iguales.",
		Ruta:        "GET /api/reportes/" + BalanzaComprobacion, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin, pSucursal, pMoneda},
		Totales: []Columna{
			{Clave: "saldo_inicial_deudor", Titulo: "Saldos iniciales deudores"}, {Clave: "saldo_inicial_acreedor", Titulo: "Saldos iniciales acreedores"},
			totalDebe, totalHaber,
			{Clave: "saldo_final_deudor", Titulo: "Saldos finales deudores"}, {Clave: "saldo_final_acreedor", Titulo: "Saldos finales acreedores"},
		},
		Generar: balanza})
	Registrar(Tipo{Clave: LibroMayor, Nombre: "Libro mayor",
		Descripcion: "Las líneas de una cuenta (y sus subcuentas) en el período, con su saldo acumulado a partir del saldo inicial.",
		Ruta:        "GET /api/reportes/" + LibroMayor, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pCuenta, pFechaInicio, pFechaFin, pSucursal, pMoneda},
		Totales:    []Columna{{Clave: "saldo_inicial", Titulo: "Saldo inicial"}, totalDebe, totalHaber, {Clave: "saldo_final", Titulo: "Saldo final"}},
		Generar:    mayor})
	Registrar(Tipo{Clave: LibroDiario, Nombre: "Libro diario",
		Descripcion: "Los asientos contabilizados del período en orden, con sus líneas; paginado (page, per_page) en JSON, completo en las descargas.",
		Ruta:        "GET /api/reportes/" + LibroDiario, Limite: limiteExportes, Paginado: true,
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin, pSucursal, pMoneda},
		Totales:    []Columna{totalDebe, totalHaber},
		Generar:    diario})
}

// The columns every book shows, and the totals of the debits and credits.
var (
	colCodigo      = Columna{Clave: "codigo", Titulo: "Código", Tipo: ColTexto}
	colDescripcion = Columna{Clave: "descripcion", Titulo: "Descripción", Tipo: ColTexto}
	colDebe        = Columna{Clave: "debe", Titulo: "Debe", Tipo: ColImporte}
	colHaber       = Columna{Clave: "haber", Titulo: "Haber", Tipo: ColImporte}
	totalDebe      = Columna{Clave: "debe", Titulo: "Total debe"}
	totalHaber     = Columna{Clave: "haber", Titulo: "Total haber"}
)

var columnasBalanza = []Columna{
	colCodigo,
	{Clave: "nombre", Titulo: "Cuenta", Tipo: ColTexto},
	{Clave: "saldo_inicial_deudor", Titulo: "Saldo inicial deudor", Tipo: ColImporte},
	{Clave: "saldo_inicial_acreedor", Titulo: "Saldo inicial acreedor", Tipo: ColImporte},
	colDebe, colHaber,
	{Clave: "saldo_final_deudor", Titulo: "Saldo final deudor", Tipo: ColImporte},
	{Clave: "saldo_final_acreedor", Titulo: "Saldo final acreedor", Tipo: ColImporte},
}

// balanza is the trial balance: every detail account with figures, its
// opening and closing balances split into the debit and credit columns.
func balanza(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	l, err := cargarLibro(ctx, tx, c, inicioLibros)
	if err != nil {
		return nil, err
	}
	t := map[string]decimal.Decimal{}
	filas := []Fila{}
	lados := func(d decimal.Decimal) (decimal.Decimal, decimal.Decimal) {
		if d.IsNegative() {
			return decimal.Zero, d.Neg()
		}
		return d, decimal.Zero
	}
	for i := range l.cuentas {
		k := &l.cuentas[i]
		if !l.tieneMovimiento(k.ID) {
			continue
		}
		s := l.saldos[k.ID]
		id, ia := lados(s.Inicial)
		fd, fa := lados(s.final())
		f := Fila{"cuenta_id": k.ID, "codigo": k.Codigo, "nombre": k.Nombre}
		for clave, v := range map[string]decimal.Decimal{"saldo_inicial_deudor": id, "saldo_inicial_acreedor": ia,
			"debe": s.Debe, "haber": s.Haber, "saldo_final_deudor": fd, "saldo_final_acreedor": fa} {
			f[clave] = Imp(v)
			t[clave] = t[clave].Add(v)
		}
		filas = append(filas, f)
	}
	tot := map[string]Importe{}
	for _, col := range columnasBalanza[2:] {
		tot[col.Clave] = Imp(t[col.Clave])
	}
	return &Reporte{Tipo: BalanzaComprobacion, Titulo: "Balanza de comprobación",
		Secciones: []Seccion{{Clave: "cuentas", Titulo: "Cuentas", Columnas: columnasBalanza, Filas: filas, Totales: tot}},
		Totales:   tot}, nil
}

var columnasMayor = []Columna{
	{Clave: "fecha", Titulo: "Fecha", Tipo: ColFecha},
	{Clave: "numero", Titulo: "Asiento", Tipo: ColTexto},
	{Clave: "codigo", Titulo: "Cuenta", Tipo: ColTexto},
	colDescripcion, colDebe, colHaber,
	{Clave: "saldo", Titulo: "Saldo", Tipo: ColImporte},
}

// mayorSQL: the account ($2) and its subaccounts (by code), their balance
// before $3, and their lines of [$3, $4] in order.
var mayorSQL = `with cuenta as (
	select id, codigo, nombre, naturaleza from cuentas_contables where empresa_id = $1 and id = $2 and not eliminado
), sub as (
	select c.id, c.codigo from cuentas_contables c, cuenta k where c.empresa_id = $1 and not c.eliminado
	  and (c.id = k.id or c.codigo like k.codigo || '.%')
), lineas as (
	select a.fecha, a.numero, a.id as asiento_id, l.linea, s.codigo, coalesce(l.descripcion, a.descripcion) as descripcion,
		l.debe / ` + tasa("$6") + ` as debe, l.haber / ` + tasa("$6") + ` as haber
	from asiento_lineas l join sub s on s.id = l.cuenta_id ` + lineasPosteadas("$4", "$5", "$6") + `
)
select 0 as orden, k.codigo, k.nombre, k.naturaleza, null::date, null::text, null::bigint, null::int, null::text,
	coalesce((select sum(debe - haber) from lineas where fecha < $3), 0), 0::numeric
from cuenta k
union all
select 1, x.codigo, null, null, x.fecha, x.numero, x.asiento_id, x.linea, x.descripcion, x.debe, x.haber
from lineas x where x.fecha >= $3
order by 1, 5, 6, 7, 8
limit $7`

// Bounds of the unpaginated books: an answer (a JSON body or a file)
// stays well within what a Lambda function may return through API Gateway
// (6 MB), whatever the period asked for.
const (
	MaxLineasMayor      = 20000
	MaxAsientosDescarga = 5000
)

// mayor is the general ledger of one account.
func mayor(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	usd := c.Moneda == USD
	b := &pgx.Batch{}
	b.Queue(sinTasaSQL, tx.EmpresaID(), inicioLibros, c.FechaFin, usd)
	b.Queue(mayorSQL, tx.EmpresaID(), *c.CuentaID, c.FechaInicio, c.FechaFin, c.SucursalID, usd, MaxLineasMayor+2)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if err := leerSinTasa(br); err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("reportes: libro mayor: %w", err)
	}
	defer rows.Close()
	var (
		found                   bool
		codigo, nombre, natural string
		saldoAcum, tDebe, tHab  decimal.Decimal
		inicial                 decimal.Decimal
		filas                   = []Fila{}
	)
	signo := decimal.NewFromInt(1)
	for rows.Next() {
		var (
			orden               int
			cod                 string
			nom, nat, num, desc *string
			fecha               *time.Time
			asiento             *int64
			linea               *int
			debe, haber         decimal.Decimal
		)
		if err := rows.Scan(&orden, &cod, &nom, &nat, &fecha, &num, &asiento, &linea, &desc, &debe, &haber); err != nil {
			return nil, fmt.Errorf("reportes: libro mayor: %w", err)
		}
		if orden == 0 {
			found, codigo, nombre, natural = true, cod, valid.Valor(nom), valid.Valor(nat)
			if natural == "acreedora" {
				signo = decimal.NewFromInt(-1)
			}
			inicial = debe.Round(2).Mul(signo)
			saldoAcum = inicial
			continue
		}
		if len(filas) == MaxLineasMayor {
			return nil, apperr.InvalidField("fecha_fin", fmt.Sprintf(
				"La cuenta tiene más de %d líneas en el período; acorte el período del libro mayor.", MaxLineasMayor))
		}
		d, h := debe.Round(2), haber.Round(2)
		saldoAcum = saldoAcum.Add(d.Sub(h).Mul(signo))
		tDebe, tHab = tDebe.Add(d), tHab.Add(h)
		filas = append(filas, Fila{"fecha": fecha.Format(time.DateOnly), "numero": valid.Valor(num), "asiento_id": *asiento,
			"codigo": cod, "descripcion": valid.Valor(desc), "debe": Imp(d), "haber": Imp(h), "saldo": Imp(saldoAcum)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: libro mayor: %w", err)
	}
	if !found {
		return nil, apperr.InvalidField("cuenta_id", msgCuenta)
	}
	tot := map[string]Importe{"saldo_inicial": Imp(inicial), "debe": Imp(tDebe), "haber": Imp(tHab), "saldo_final": Imp(saldoAcum)}
	return &Reporte{Tipo: LibroMayor, Titulo: "Libro mayor: " + codigo + " " + nombre,
		Secciones: []Seccion{{Clave: "movimientos", Titulo: codigo + " " + nombre + " (naturaleza " + natural + ")",
			Columnas: columnasMayor, Filas: filas, Totales: tot}},
		Totales: tot}, nil
}

var columnasDiario = []Columna{colCodigo, {Clave: "cuenta", Titulo: "Cuenta", Tipo: ColTexto}, colDescripcion, colDebe, colHaber}

// diarioFiltro is the journal's entries: posted, of [$2, $3], and with a
// line of branch $4 when given.
const diarioFiltro = `from asientos_contables a
	where a.empresa_id = $1 and ` + asientosPosteados + ` and a.fecha between $2 and $3
	  and ($4::bigint is null or exists (select 1 from asiento_lineas x where x.empresa_id = a.empresa_id
	    and x.asiento_id = a.id and x.sucursal_id = $4))`

// diarioTotalSQL: how many entries and the sums of their (branch's) lines.
var diarioTotalSQL = `select count(*),
	coalesce(sum((select sum(l.debe) from asiento_lineas l where l.empresa_id = a.empresa_id and l.asiento_id = a.id
		and ($4::bigint is null or l.sucursal_id = $4)) / ` + tasa("$5") + `), 0),
	coalesce(sum((select sum(l.haber) from asiento_lineas l where l.empresa_id = a.empresa_id and l.asiento_id = a.id
		and ($4::bigint is null or l.sucursal_id = $4)) / ` + tasa("$5") + `), 0)
	from asientos_contables a ` + joinTasa("$5") + `
	where a.id in (select a.id ` + diarioFiltro + `)`

// diarioPaginaSQL: one page of entries ($6 rows from $7) with their lines
// as JSON, in one statement.
var diarioPaginaSQL = `select a.id, a.numero, a.fecha, a.descripcion, a.origen, a.estado,
	(select json_agg(json_build_object('cuenta_id', l.cuenta_id, 'codigo', k.codigo, 'cuenta', k.nombre,
		'descripcion', l.descripcion, 'debe', (l.debe / ` + tasa("$5") + `)::text, 'haber', (l.haber / ` + tasa("$5") + `)::text) order by l.linea)
	 from asiento_lineas l join cuentas_contables k on k.empresa_id = l.empresa_id and k.id = l.cuenta_id
	 where l.empresa_id = a.empresa_id and l.asiento_id = a.id and ($4::bigint is null or l.sucursal_id = $4))
	from asientos_contables a ` + joinTasa("$5") + `
	where a.id in (select a.id ` + diarioFiltro + `)
	order by a.fecha, a.numero, a.id limit $6 offset $7`

// diario is the journal: one section per entry.
func diario(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	usd := c.Moneda == USD
	var limite *int
	if c.Pagina.PerPage > 0 {
		limite = &c.Pagina.PerPage
	}
	descarga := MaxAsientosDescarga + 1
	pagina := limite
	if pagina == nil {
		// A download is every entry of the period, up to the bound.
		pagina = &descarga
	}
	offset := 0
	if limite != nil {
		offset = c.Pagina.Offset()
	}
	b := &pgx.Batch{}
	b.Queue(sinTasaSQL, tx.EmpresaID(), c.FechaInicio, c.FechaFin, usd)
	b.Queue(diarioTotalSQL, tx.EmpresaID(), c.FechaInicio, c.FechaFin, c.SucursalID, usd)
	b.Queue(diarioPaginaSQL, tx.EmpresaID(), c.FechaInicio, c.FechaFin, c.SucursalID, usd, *pagina, offset)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if err := leerSinTasa(br); err != nil {
		return nil, err
	}
	var total int
	var debe, haber decimal.Decimal
	if err := br.QueryRow().Scan(&total, &debe, &haber); err != nil {
		return nil, fmt.Errorf("reportes: libro diario: %w", err)
	}
	if limite == nil && total > MaxAsientosDescarga {
		return nil, apperr.InvalidField("fecha_fin", fmt.Sprintf(
			"El período tiene %d asientos; el libro diario se descarga con a lo sumo %d: acorte el período.", total, MaxAsientosDescarga))
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("reportes: libro diario: %w", err)
	}
	defer rows.Close()
	secciones := []Seccion{}
	for rows.Next() {
		var (
			id                   int64
			numero               *string
			fecha                time.Time
			desc, origen, estado string
			lineasJSON           []byte
		)
		if err := rows.Scan(&id, &numero, &fecha, &desc, &origen, &estado, &lineasJSON); err != nil {
			return nil, fmt.Errorf("reportes: libro diario: %w", err)
		}
		var lineas []struct {
			CuentaID    int64   `json:"cuenta_id"`
			Codigo      string  `json:"codigo"`
			Cuenta      string  `json:"cuenta"`
			Descripcion *string `json:"descripcion"`
			Debe        string  `json:"debe"`
			Haber       string  `json:"haber"`
		}
		if len(lineasJSON) > 0 {
			if err := json.Unmarshal(lineasJSON, &lineas); err != nil {
				return nil, fmt.Errorf("reportes: libro diario: líneas: %w", err)
			}
		}
		s := Seccion{Clave: valid.Valor(numero), Titulo: valid.Valor(numero) + " · " + fecha.Format(time.DateOnly) + " · " + desc,
			Columnas: columnasDiario, Filas: []Fila{}}
		td, th := decimal.Zero, decimal.Zero
		for _, ln := range lineas {
			d, err1 := decimal.NewFromString(ln.Debe)
			h, err2 := decimal.NewFromString(ln.Haber)
			if err := errors.Join(err1, err2); err != nil {
				return nil, fmt.Errorf("reportes: libro diario: importe: %w", err)
			}
			d, h = d.Round(2), h.Round(2)
			td, th = td.Add(d), th.Add(h)
			s.Filas = append(s.Filas, Fila{"cuenta_id": ln.CuentaID, "codigo": ln.Codigo, "cuenta": ln.Cuenta,
				"descripcion": valid.Valor(ln.Descripcion), "debe": Imp(d), "haber": Imp(h)})
		}
		s.Totales = map[string]Importe{"debe": Imp(td), "haber": Imp(th)}
		secciones = append(secciones, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reportes: libro diario: %w", err)
	}
	r := &Reporte{Tipo: LibroDiario, Titulo: "Libro diario", Secciones: secciones,
		Totales: map[string]Importe{"debe": Imp(debe), "haber": Imp(haber)}}
	if limite != nil {
		r.Paginacion = c.paginacion(len(secciones), total)
	}
	return r, nil
}
