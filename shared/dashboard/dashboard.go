// Package dashboard computes a company's key figures (GET /api/dashboard):
// sales of the month, of today and of the last 30 days, top products,
// overdue receivables, payables due within 7 days, products below their
// minimum stock, pending payroll, pending electronic invoices and new
// customers.
//
// Sales figures come from the daily summaries that migration 0015 keeps in
// each sale's own transaction (resumen_ventas_dia, resumen_productos_dia),
// so a month of a million sales reads a few dozen rows; the live figures
// read partial indexes. All of it is one pipelined round trip. Answers are
// cached per company, branch and date for CacheTTL, keyed by the company's
// figures version, which every write that changes a figure bumps at commit:
// a cached answer is never older than the data it summarizes.
package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/montos"
)

// CacheTTL bounds how long a computed dashboard is served.
const CacheTTL = 60 * time.Second

// Filtros are the query parameters.
type Filtros struct {
	SucursalID *int64
	Fecha      time.Time // reference date (a day in horacr.Zona)
}

func (f Filtros) clave() string {
	s := "todas"
	if f.SucursalID != nil {
		s = strconv.FormatInt(*f.SucursalID, 10)
	}
	return f.Fecha.Format(time.DateOnly) + ":" + s
}

// Monto is an amount with its count.
type Monto struct {
	Cantidad int64         `json:"cantidad"`
	Monto    montos.Numero `json:"monto"`
}

// VentasMes adds the variation against the same days of the previous month.
type VentasMes struct {
	Monto
	VariacionPct *montos.Numero `json:"variacion_pct"`
}

// ProductoBajo is a product under its minimum stock.
type ProductoBajo struct {
	ID          int64         `json:"id"`
	Codigo      *string       `json:"codigo"`
	Nombre      string        `json:"nombre"`
	Existencias montos.Numero `json:"existencias"`
	StockMinimo int32         `json:"stock_minimo"`
}

// Inventario lists the products below their minimum (the 10 furthest below).
type Inventario struct {
	Cantidad  int64          `json:"cantidad"`
	Productos []ProductoBajo `json:"productos"`
}

// Comprobantes counts the electronic invoices not yet settled by Hacienda.
type Comprobantes struct {
	PorEstado map[string]int64 `json:"por_estado"`
	Total     int64            `json:"total"`
}

// ProductoTop is one of the month's best-selling products (by amount).
type ProductoTop struct {
	ProductoID int64         `json:"producto_id"`
	Codigo     *string       `json:"codigo"`
	Nombre     string        `json:"nombre"`
	Cantidad   montos.Numero `json:"cantidad"`
	Monto      montos.Numero `json:"monto"`
}

// Dia is one day of the sales series.
type Dia struct {
	Fecha    string        `json:"fecha"`
	Cantidad int64         `json:"cantidad"`
	Monto    montos.Numero `json:"monto"`
}

// Datos are every figure; the answer leaves out what the user may not see.
type Datos struct {
	Fecha                     string        `json:"fecha"`
	SucursalID                *int64        `json:"sucursal_id"`
	VentasMes                 *VentasMes    `json:"ventas_mes,omitempty"`
	VentasHoy                 *Monto        `json:"ventas_hoy,omitempty"`
	CuentasPorCobrarVencidas  *Monto        `json:"cuentas_por_cobrar_vencidas,omitempty"`
	CuentasPorPagarPorVencer7 *Monto        `json:"cuentas_por_pagar_por_vencer_7_dias,omitempty"`
	InventarioBajoMinimo      *Inventario   `json:"inventario_bajo_minimo,omitempty"`
	PlanillaPendiente         *Monto        `json:"planilla_pendiente,omitempty"`
	ComprobantesPendientes    *Comprobantes `json:"comprobantes_pendientes,omitempty"`
	ClientesNuevosMes         *int64        `json:"clientes_nuevos_mes,omitempty"`
	TopProductosMes           []ProductoTop `json:"top_productos_mes,omitempty"`
	VentasUltimos30Dias       []Dia         `json:"ventas_ultimos_30_dias,omitempty"`
	GeneradoEn                time.Time     `json:"generado_en"`
	DesdeCache                bool          `json:"desde_cache"`
}

// visibles leaves out the figures p's permissions do not cover.
func (d Datos) visibles(p auth.Principal) Datos {
	if !p.Can("ventas.leer") {
		d.VentasMes, d.VentasHoy, d.CuentasPorCobrarVencidas, d.TopProductosMes, d.VentasUltimos30Dias = nil, nil, nil, nil, nil
	}
	if !p.Can("compras.leer") {
		d.CuentasPorPagarPorVencer7 = nil
	}
	if !p.Can("inventario.leer", "productos.leer") {
		d.InventarioBajoMinimo = nil
	}
	if !p.Can("nomina.leer") {
		d.PlanillaPendiente = nil
	}
	if !p.Can("facturacion_electronica.leer") {
		d.ComprobantesPendientes = nil
	}
	if !p.Can("clientes.leer") {
		d.ClientesNuevosMes = nil
	}
	return d
}

// Leer answers the dashboard of the transaction's company: the cached
// figures of the current version, else computed and cached.
func Leer(ctx context.Context, tx *db.Tx, p auth.Principal, f Filtros) (Datos, error) {
	var (
		version    int64
		cached     []byte
		sucursalOK bool
	)
	// The branch is checked in the same round trip: another company's (or
	// an unknown) branch is a 422, as in the reports, not a board of zeros.
	err := tx.QueryRow(ctx, `select coalesce((select version from dashboard_versiones where empresa_id = $1), 0),
			(select datos from dashboard_cache c where c.empresa_id = $1 and c.clave = $2
			   and c.version = coalesce((select version from dashboard_versiones where empresa_id = $1), 0)
			   and c.creado_en > now() - make_interval(secs => $3)),
			($4::bigint is null or exists (select 1 from sucursales s where s.empresa_id = $1 and s.id = $4))`,
		tx.EmpresaID(), f.clave(), CacheTTL.Seconds(), f.SucursalID).Scan(&version, &cached, &sucursalOK)
	if err != nil {
		return Datos{}, fmt.Errorf("dashboard: cache: %w", err)
	}
	if !sucursalOK {
		return Datos{}, apperr.InvalidField("sucursal_id", "La sucursal no existe en la empresa.")
	}
	var d Datos
	if cached != nil {
		if err := json.Unmarshal(cached, &d); err != nil {
			return Datos{}, fmt.Errorf("dashboard: cached figures: %w", err)
		}
		d.DesdeCache = true
		return d.visibles(p), nil
	}
	if d, err = Calcular(ctx, tx, f); err != nil {
		return Datos{}, err
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return Datos{}, fmt.Errorf("dashboard: encode: %w", err)
	}
	// Entries of other days or branches past the TTL are deleted by the same
	// statement: one per date and branch ever asked for would otherwise stay.
	if _, err := tx.Exec(ctx, `with purga as (
			delete from dashboard_cache where empresa_id = $1 and clave <> $2 and creado_en <= now() - make_interval(secs => $5)
		)
		insert into dashboard_cache (empresa_id, clave, version, datos) values ($1, $2, $3, $4)
		on conflict (empresa_id, clave) do update set version = excluded.version, datos = excluded.datos, creado_en = now()`,
		tx.EmpresaID(), f.clave(), version, raw, CacheTTL.Seconds()); err != nil {
		return Datos{}, fmt.Errorf("dashboard: store: %w", err)
	}
	return d.visibles(p), nil
}

// Invalidar drops the company's cached dashboards.
func Invalidar(ctx context.Context, tx *db.Tx) error {
	if _, err := tx.Exec(ctx, `delete from dashboard_cache where empresa_id = $1`, tx.EmpresaID()); err != nil {
		return fmt.Errorf("dashboard: invalidate: %w", err)
	}
	return nil
}

// Calcular computes every figure in one pipelined round trip.
func Calcular(ctx context.Context, tx *db.Tx, f Filtros) (Datos, error) {
	dia := time.Date(f.Fecha.Year(), f.Fecha.Month(), f.Fecha.Day(), 0, 0, 0, 0, time.UTC)
	mesIni := time.Date(dia.Year(), dia.Month(), 1, 0, 0, 0, 0, time.UTC)
	// The same days of the previous month (clamped to its length).
	antIni := mesIni.AddDate(0, -1, 0)
	antFin := antIni.AddDate(0, 0, dia.Day()-1)
	if antFin.Month() != antIni.Month() {
		antFin = mesIni.AddDate(0, 0, -1)
	}
	serieIni := dia.AddDate(0, 0, -29)
	desde := antIni
	if serieIni.Before(desde) {
		desde = serieIni
	}
	// The month's first instant in Costa Rica, for timestamps.
	mesIniCR := time.Date(dia.Year(), dia.Month(), 1, 0, 0, 0, 0, horacr.Zona)
	sig := time.Date(dia.Year(), dia.Month(), dia.Day()+1, 0, 0, 0, 0, horacr.Zona)
	e := tx.EmpresaID()
	s := f.SucursalID

	d := Datos{Fecha: dia.Format(time.DateOnly), SucursalID: s, GeneradoEn: time.Now().UTC()}
	var (
		mes, ant, hoy Monto
		cxc, cxp      Monto
		inv           Inventario
		comp          = Comprobantes{PorEstado: map[string]int64{}}
		nuevos        int64
		planilla      Monto
	)
	b := &pgx.Batch{}
	b.Queue(`select coalesce(sum(cantidad) filter (where fecha >= $3), 0), coalesce(sum(monto) filter (where fecha >= $3), 0),
			coalesce(sum(cantidad) filter (where fecha between $4 and $5), 0), coalesce(sum(monto) filter (where fecha between $4 and $5), 0),
			coalesce(sum(cantidad) filter (where fecha = $6), 0), coalesce(sum(monto) filter (where fecha = $6), 0)
		from resumen_ventas_dia where empresa_id = $1 and fecha between $4 and $6 and ($2::bigint is null or sucursal_id = $2)`,
		e, s, mesIni, antIni, antFin, dia).QueryRow(func(r pgx.Row) error {
		return r.Scan(&mes.Cantidad, &mes.Monto, &ant.Cantidad, &ant.Monto, &hoy.Cantidad, &hoy.Monto)
	})
	b.Queue(`select g::date, coalesce(sum(r.cantidad), 0), coalesce(sum(r.monto), 0)
		from generate_series($3::date, $4::date, interval '1 day') g
		left join resumen_ventas_dia r on r.empresa_id = $1 and r.fecha = g::date and ($2::bigint is null or r.sucursal_id = $2)
		group by g order by g`, e, s, serieIni, dia).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var x Dia
			var fecha time.Time
			if err := rows.Scan(&fecha, &x.Cantidad, &x.Monto); err != nil {
				return err
			}
			x.Fecha = fecha.Format(time.DateOnly)
			d.VentasUltimos30Dias = append(d.VentasUltimos30Dias, x)
		}
		return rows.Err()
	})
	b.Queue(`select r.producto_id, p.codigo, p.nombre, sum(r.cantidad), sum(r.monto)
		from resumen_productos_dia r join productos p on p.empresa_id = r.empresa_id and p.id = r.producto_id
		where r.empresa_id = $1 and r.fecha between $3 and $4 and ($2::bigint is null or r.sucursal_id = $2)
		group by r.producto_id, p.codigo, p.nombre having sum(r.monto) > 0
		order by sum(r.monto) desc, r.producto_id limit 5`, e, s, mesIni, dia).Query(func(rows pgx.Rows) error {
		d.TopProductosMes = []ProductoTop{}
		for rows.Next() {
			var x ProductoTop
			if err := rows.Scan(&x.ProductoID, &x.Codigo, &x.Nombre, &x.Cantidad, &x.Monto); err != nil {
				return err
			}
			d.TopProductosMes = append(d.TopProductosMes, x)
		}
		return rows.Err()
	})
	b.Queue(`select count(*), coalesce(sum(c.saldo), 0) from cuentas_por_cobrar c
		where c.empresa_id = $1 and c.estado = 'pendiente' and not c.eliminado and c.fecha_vencimiento < $3
		  and ($2::bigint is null or exists (select 1 from ventas v where v.empresa_id = c.empresa_id and v.id = c.venta_id and v.sucursal_id = $2))`,
		e, s, dia).QueryRow(func(r pgx.Row) error { return r.Scan(&cxc.Cantidad, &cxc.Monto) })
	b.Queue(`select count(*), coalesce(sum(saldo), 0) from cuentas_por_pagar
		where empresa_id = $1 and estado = 'pendiente' and not eliminado and fecha_vencimiento between $2 and $2::date + 7`,
		e, dia).QueryRow(func(r pgx.Row) error { return r.Scan(&cxp.Cantidad, &cxp.Monto) })
	b.Queue(`with s as (
		  select p.id, p.codigo, p.nombre, p.stock_minimo, coalesce(sum(i.cantidad_disponible), 0) as existencias
		  from productos p
		  left join inventarios i on i.empresa_id = p.empresa_id and i.producto_id = p.id and not i.eliminado
		    and ($2::bigint is null or i.almacen_id in (select a.id from almacenes a where a.empresa_id = $1 and a.sucursal_id = $2))
		  where p.empresa_id = $1 and not p.eliminado and p.activo and p.gestionado_inventario and p.stock_minimo > 0
		  group by p.id
		  having coalesce(sum(i.cantidad_disponible), 0) < p.stock_minimo)
		select (select count(*) from s), s.id, s.codigo, s.nombre, s.existencias, s.stock_minimo
		from (select 1) one left join lateral (select * from s order by s.stock_minimo - s.existencias desc, s.id limit 10) s on true`,
		e, s).Query(func(rows pgx.Rows) error {
		inv.Productos = []ProductoBajo{}
		for rows.Next() {
			var (
				n  int64
				id *int64
				x  ProductoBajo
				nm *string
				mn *int32
				ex decimal.NullDecimal
			)
			if err := rows.Scan(&n, &id, &x.Codigo, &nm, &ex, &mn); err != nil {
				return err
			}
			inv.Cantidad = n
			if id != nil {
				x.ID, x.Nombre, x.StockMinimo, x.Existencias = *id, *nm, *mn, montos.NuevoNumero(ex.Decimal)
				inv.Productos = append(inv.Productos, x)
			}
		}
		return rows.Err()
	})
	b.Queue(`select estado, count(*) from comprobantes_electronicos
		where empresa_id = $1 and not eliminado and estado in ('pending', 'signed', 'sent', 'error')
		  and ($2::bigint is null or sucursal_id = $2) group by estado`, e, s).Query(func(rows pgx.Rows) error {
		for _, st := range []string{"pending", "signed", "sent", "error"} {
			comp.PorEstado[st] = 0
		}
		for rows.Next() {
			var st string
			var n int64
			if err := rows.Scan(&st, &n); err != nil {
				return err
			}
			comp.PorEstado[st], comp.Total = n, comp.Total+n
		}
		return rows.Err()
	})
	b.Queue(`select count(*) from clientes where empresa_id = $1 and not eliminado and creado_en >= $2 and creado_en < $3`,
		e, mesIniCR, sig).QueryRow(func(r pgx.Row) error { return r.Scan(&nuevos) })
	// Approved, unpaid planillas and their net pay; with a branch, the
	// lines of its employees (migration 0020 bumps the version on every
	// planilla change).
	b.Queue(`select count(distinct p.id), coalesce(sum(l.salario_neto), 0)
		from planillas p join planilla_lineas l on l.empresa_id = p.empresa_id and l.planilla_id = p.id
		where p.empresa_id = $1 and p.estado = 'aprobada'
		  and ($2::bigint is null or exists (select 1 from empleados em where em.empresa_id = l.empresa_id and em.id = l.empleado_id
		    and em.sucursal_id = $2))`, e, s).QueryRow(func(r pgx.Row) error { return r.Scan(&planilla.Cantidad, &planilla.Monto) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Datos{}, fmt.Errorf("dashboard: figures: %w", err)
	}
	vm := &VentasMes{Monto: mes}
	if a := ant.Monto.Decimal(); !a.IsZero() {
		pct := montos.NuevoNumero(mes.Monto.Decimal().Sub(a).Div(a.Abs()).Mul(decimal.NewFromInt(100)).Round(2))
		vm.VariacionPct = &pct
	}
	d.VentasMes, d.VentasHoy = vm, &hoy
	d.CuentasPorCobrarVencidas, d.CuentasPorPagarPorVencer7 = &cxc, &cxp
	d.InventarioBajoMinimo = &inv
	d.PlanillaPendiente = &planilla
	d.ComprobantesPendientes = &comp
	d.ClientesNuevosMes = &nuevos
	return d, nil
}
