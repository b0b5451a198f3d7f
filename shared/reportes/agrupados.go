package reportes

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
)

// agrupado is a report of sums over a period by a grouping the client
// chooses (ventas, compras): one row per group with its integer columns
// (enteros) and the sums of its document lines (totalesLineas), read by
// filasAgrupadas.
type agrupado struct {
	clave, nombre, descripcion string
	// sql selects (clave, etiqueta, enteros..., totalesLineas...) of
	// [$2, $3] grouped by 1, 2: %[1]s is the group's key, %[2]s its label
	// and %[3]s the order of the rows.
	sql     string
	grupos  []grupo // the first is the default
	enteros []Columna
}

// totalesLineas are the sums of a grouped report, in colones.
var totalesLineas = []Columna{
	{Clave: "cantidad", Titulo: "Cantidad", cantidad: true}, {Clave: "subtotal", Titulo: "Subtotal"},
	{Clave: "descuentos", Titulo: "Descuentos"}, {Clave: "impuestos", Titulo: "Impuestos"}, {Clave: "total", Titulo: "Total"},
}

// porProducto groups by the line's product (d.producto_id, joined as p):
// its code and name.
func porProducto(titulo string) grupo {
	return grupo{valor: "producto", titulo: titulo, clave: "d.producto_id::text",
		etiqueta: "coalesce(p.codigo || ' ' || p.nombre, 'Producto ' || d.producto_id)"}
}

// grupo is one grouping of an agrupado: its value of agrupar, the SQL of
// its key and label, the title of its column (the report's title is
// "<nombre> por <titulo>", lower-cased) and the order of the rows (by
// label, then key, unless it says otherwise).
type grupo struct{ valor, clave, etiqueta, titulo, orden string }

// registrar registers the report at GET /api/reportes/<clave> with the
// period and the agrupar parameter.
func (a agrupado) registrar() {
	valores := make([]string, len(a.grupos))
	for i, g := range a.grupos {
		valores[i] = g.valor
	}
	agrupar := esquema.Campo{Nombre: "agrupar", Tipo: esquema.Texto, Valores: valores,
		Descripcion: "Agrupación de las filas; por omisión " + valores[0] + "."}
	Registrar(Tipo{Clave: a.clave, Nombre: a.nombre, Descripcion: a.descripcion,
		Ruta: "GET /api/reportes/" + a.clave, Limite: string(routes.RateReports),
		Parametros: []esquema.Campo{pFechaInicio, pFechaFin, agrupar},
		Totales:    append([]Columna{}, totalesLineas...),
		Generar:    a.generar})
}

func (a agrupado) generar(ctx context.Context, tx *db.Tx, c Consulta) (*Reporte, error) {
	i := slices.IndexFunc(a.grupos, func(g grupo) bool { return g.valor == c.Agrupar })
	if i < 0 {
		return nil, fmt.Errorf("reportes: %s: agrupación %q", a.clave, c.Agrupar)
	}
	g := a.grupos[i]
	rows, err := tx.Query(ctx, fmt.Sprintf(a.sql, g.clave, g.etiqueta, cmp.Or(g.orden, "2, 1")), tx.EmpresaID(), c.FechaInicio, c.FechaFin)
	if err != nil {
		return nil, fmt.Errorf("reportes: %s: %w", a.clave, err)
	}
	columnas := []Columna{{Clave: "grupo", Titulo: g.titulo, Tipo: ColTexto}}
	enteros := make([]string, len(a.enteros))
	for i, col := range a.enteros {
		enteros[i] = col.Clave
		columnas = append(columnas, col)
	}
	filas, tot, err := filasAgrupadas(rows, totalesLineas, enteros...)
	if err != nil {
		return nil, fmt.Errorf("reportes: %s: %w", a.clave, err)
	}
	for _, col := range totalesLineas {
		col.Tipo = ColImporte
		columnas = append(columnas, col)
	}
	titulo := a.nombre + " por " + minuscula(g.titulo)
	return &Reporte{Tipo: a.clave, Titulo: titulo,
		Secciones: []Seccion{{Clave: g.valor, Titulo: titulo, Columnas: columnas, Filas: filas, Totales: tot}},
		Totales:   tot}, nil
}

// filasAgrupadas reads the rows of a grouped report (ventas, compras):
// (clave, etiqueta, one integer per name of enteros, one amount per column
// of totales), each a Fila with grupo = etiqueta, and sums the amounts.
// It closes rows.
func filasAgrupadas(rows pgx.Rows, totales []Columna, enteros ...string) ([]Fila, map[string]Importe, error) {
	defer rows.Close()
	t := make([]decimal.Decimal, len(totales))
	filas := []Fila{}
	for rows.Next() {
		var clave, etiqueta string
		n := make([]int64, len(enteros))
		v := make([]decimal.Decimal, len(totales))
		dst := []any{&clave, &etiqueta}
		for i := range n {
			dst = append(dst, &n[i])
		}
		for i := range v {
			dst = append(dst, &v[i])
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, nil, err
		}
		f := Fila{"clave": clave, "grupo": etiqueta}
		for i, k := range enteros {
			f[k] = n[i]
		}
		for i, col := range totales {
			// the totals foot the rows as shown: sums of the rounded values
			f[col.Clave] = col.valor(v[i])
			t[i] = t[i].Add(col.valor(v[i]).Decimal)
		}
		filas = append(filas, f)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	tot := map[string]Importe{}
	for i, col := range totales {
		tot[col.Clave] = col.valor(t[i])
	}
	return filas, tot, nil
}
