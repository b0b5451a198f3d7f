// Package ventas is the sales domain: /api/ventas (a sale and its lines
// created in one transaction, with its document number, totals, stock exit,
// receivable, event and Idempotency-Key) and /api/cuentas-por-cobrar (the
// receivables of credit sales and the payments that settle them). Every
// request costs a constant number of database round trips whatever its
// number of lines or its page size.
package ventas

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
)

// Service serves the ventas group: sales and receivables.
type Service struct {
	DB *db.DB
}

// States of a sale (SPEC.md "States and transitions > Sale").
const (
	Borrador  = "borrador"
	Pendiente = "pendiente"
	Pagada    = "pagada"
	Anulada   = "anulada"
)

// Estados are the states a sale may be in.
var Estados = []string{Borrador, Pendiente, Pagada, Anulada}

// transiciones are the state changes PUT/PATCH (and DELETE, to anulada)
// allow; anulada is final.
var transiciones = map[string][]string{
	Borrador:  {Pendiente, Anulada},
	Pendiente: {Pagada, Anulada},
	Pagada:    {Anulada},
}

// Payment conditions.
const (
	Contado = "contado"
	Credito = "credito"
)

// Prefijos maps tipo_comprobante to its numero_comprobante prefix.
var Prefijos = map[string]string{"factura": "FAC", "tiquete": "TIQ", "nota_credito": "NC", "nota_debito": "ND"}

// TiposComprobante are the accepted tipo_comprobante values, in SPEC order.
var TiposComprobante = []string{"factura", "tiquete", "nota_credito", "nota_debito"}

// DiasCreditoPorDefecto is the term of an explicit credit sale to a
// customer without dias_credito.
const DiasCreditoPorDefecto = 30

// ClienteRef is the nested customer of a sale or receivable.
type ClienteRef struct {
	ID                 int64   `json:"id"`
	TipoIdentificacion string  `json:"tipo_identificacion"`
	Identificacion     string  `json:"identificacion"`
	NombreCompleto     *string `json:"nombre_completo"`
	Email              *string `json:"email"`
	Telefono           *string `json:"telefono"`
	DiasCredito        int64   `json:"dias_credito"`
}

// UsuarioRef is the nested user who recorded a sale.
type UsuarioRef struct {
	ID        int64   `json:"id"`
	Nombre    string  `json:"nombre"`
	Apellidos *string `json:"apellidos"`
	Email     string  `json:"email"`
}

// Ref is a nested id and name (branch, warehouse).
type Ref struct {
	ID     int64   `json:"id"`
	Nombre string  `json:"nombre"`
	Codigo *string `json:"codigo"`
}

// FormaPagoRef is the nested payment method.
type FormaPagoRef struct {
	ID     int64  `json:"id"`
	Codigo string `json:"codigo"`
	Nombre string `json:"nombre"`
}

// ProductoRef is the nested product of a line.
type ProductoRef struct {
	ID                   int64   `json:"id"`
	Codigo               *string `json:"codigo"`
	Nombre               string  `json:"nombre"`
	Tipo                 string  `json:"tipo"`
	GestionadoInventario bool    `json:"gestionado_inventario"`
	CodigoCabys          *string `json:"codigo_cabys"`
}

// Detalle is a line of a sale.
type Detalle struct {
	ID                 int64        `json:"id"`
	VentaID            int64        `json:"venta_id"`
	Linea              int          `json:"linea"`
	ProductoID         int64        `json:"producto_id"`
	Descripcion        *string      `json:"descripcion"`
	Cantidad           Numero       `json:"cantidad"`
	PrecioUnitario     Numero       `json:"precio_unitario"`
	Descuento          Numero       `json:"descuento"`
	PorcentajeImpuesto Numero       `json:"porcentaje_impuesto"`
	Subtotal           Numero       `json:"subtotal"`
	MontoImpuesto      Numero       `json:"monto_impuesto"`
	Total              Numero       `json:"total"`
	Producto           *ProductoRef `json:"producto"`
}

// CuentaRef is the receivable nested in a sale.
type CuentaRef struct {
	ID               int64  `json:"id"`
	Monto            Numero `json:"monto"`
	Saldo            Numero `json:"saldo"`
	FechaVencimiento string `json:"fecha_vencimiento"`
	Estado           string `json:"estado"`

	venta int64 // the sale's id, to hang it on the sale
}

// FacturaRef is the electronic document (comprobante) of a sale, once one
// exists: its id, clave and estado (pending, signed, sent, accepted,
// rejected, error). With several (e.g. a tiquete replaced by a factura), the
// latest.
type FacturaRef struct {
	ID     int64  `json:"id"`
	Clave  string `json:"clave"`
	Estado string `json:"estado"`

	venta int64 // the sale's id, to hang it on the sale
}

// Venta is a sale as the API shows it. Detalles are loaded on the detail
// view (show, create, update), not in lists. CuentaBancariaID and CajaID
// are the bank account or cash box its money moves (shared/tesoreria),
// CajaSesionID the box's session it was recorded in.
type Venta struct {
	ID                int64      `json:"id"`
	EmpresaID         int64      `json:"empresa_id"`
	SucursalID        *int64     `json:"sucursal_id"`
	ClienteID         *int64     `json:"cliente_id"`
	UsuarioID         int64      `json:"usuario_id"`
	FormaPagoID       *int64     `json:"forma_pago_id"`
	AlmacenID         *int64     `json:"almacen_id"`
	CuentaBancariaID  *int64     `json:"cuenta_bancaria_id"`
	CajaID            *int64     `json:"caja_id"`
	CajaSesionID      *int64     `json:"caja_sesion_id"`
	NumeroComprobante string     `json:"numero_comprobante"`
	TipoComprobante   string     `json:"tipo_comprobante"`
	FechaVenta        string     `json:"fecha_venta"`
	Estado            string     `json:"estado"`
	CondicionVenta    string     `json:"condicion_venta"`
	Observaciones     *string    `json:"observaciones"`
	Moneda            string     `json:"moneda"`
	TipoCambio        Numero     `json:"tipo_cambio"`
	MontoSubtotal     Numero     `json:"monto_subtotal"`
	MontoDescuentos   Numero     `json:"monto_descuentos"`
	MontoImpuestos    Numero     `json:"monto_impuestos"`
	MontoTotal        Numero     `json:"monto_total"`
	AnuladoEn         *time.Time `json:"anulado_en"`
	// The document a credit or debit note corrects (InformacionReferencia).
	VentaReferenciaID *int64        `json:"venta_referencia_id"`
	CodigoReferencia  *string       `json:"codigo_referencia"`
	RazonReferencia   *string       `json:"razon_referencia"`
	Activo            bool          `json:"activo"`
	Eliminado         bool          `json:"eliminado"`
	CreadoEn          time.Time     `json:"creado_en"`
	ActualizadoEn     time.Time     `json:"actualizado_en"`
	Cliente           *ClienteRef   `json:"cliente"`
	Usuario           *UsuarioRef   `json:"usuario"`
	Sucursal          *Ref          `json:"sucursal"`
	Almacen           *Ref          `json:"almacen"`
	FormaPago         *FormaPagoRef `json:"forma_pago"`
	CuentaPorCobrar   *CuentaRef    `json:"cuenta_por_cobrar"`
	// FacturaElectronica appears once the sale has a comprobante.
	FacturaElectronica *FacturaRef `json:"factura_electronica,omitempty"`
	Detalles           []Detalle   `json:"detalles,omitempty"`
	// MovimientoInventario is, in the answer and the event of a credit
	// note that returned goods, the inventory entry it made.
	MovimientoInventario *MovimientoRef `json:"movimiento_inventario,omitempty"`
}

const ventaCols = `v.id, v.empresa_id, v.sucursal_id, v.cliente_id, v.usuario_id, v.forma_pago_id, v.almacen_id,
	v.cuenta_bancaria_id, v.caja_id, v.caja_sesion_id, v.numero_comprobante, v.tipo_comprobante, v.fecha_venta::text, v.estado, v.condicion_venta, v.observaciones, v.moneda, v.tipo_cambio,
	v.monto_subtotal, v.monto_descuentos, v.monto_impuestos, v.monto_total, v.anulado_en,
	v.venta_referencia_id, v.codigo_referencia, v.razon_referencia, v.activo, v.eliminado,
	v.creado_en, v.actualizado_en`

func scanVenta(row pgx.CollectableRow) (Venta, error) {
	var v Venta
	err := row.Scan(&v.ID, &v.EmpresaID, &v.SucursalID, &v.ClienteID, &v.UsuarioID, &v.FormaPagoID, &v.AlmacenID,
		&v.CuentaBancariaID, &v.CajaID, &v.CajaSesionID, &v.NumeroComprobante, &v.TipoComprobante, &v.FechaVenta, &v.Estado, &v.CondicionVenta, &v.Observaciones, &v.Moneda, &v.TipoCambio,
		&v.MontoSubtotal, &v.MontoDescuentos, &v.MontoImpuestos, &v.MontoTotal, &v.AnuladoEn,
		&v.VentaReferenciaID, &v.CodigoReferencia, &v.RazonReferencia, &v.Activo, &v.Eliminado,
		&v.CreadoEn, &v.ActualizadoEn)
	return v, err
}

// nombreCompleto is a customer's display name, as the clientes resource
// computes it (a física is nombre + apellidos; the others their razon_social).
const nombreCompleto = `case when c.tipo_identificacion = 'fisica' or c.razon_social is null
	then coalesce(nullif(trim(concat_ws(' ', c.nombre, c.apellidos)), ''), c.razon_social) else c.razon_social end`

const clienteRefSQL = `select c.id, c.tipo_identificacion, c.identificacion, ` + nombreCompleto + `, c.email, c.telefono, c.dias_credito
	from clientes c where c.empresa_id = $1 and c.id = any($2)`

func scanClienteRef(r pgx.CollectableRow) (ClienteRef, error) {
	var c ClienteRef
	return c, r.Scan(&c.ID, &c.TipoIdentificacion, &c.Identificacion, &c.NombreCompleto, &c.Email, &c.Telefono, &c.DiasCredito)
}

// loadVentas fills the nested objects of every sale (and, with detalle, the
// lines with their products) in one pipelined round trip.
func loadVentas(ctx context.Context, q *db.Tx, vs []Venta, detalle bool) error {
	if len(vs) == 0 {
		return nil
	}
	carga := &db.Carga{}
	colgar := leerVentas(carga, q.EmpresaID(), vs, detalle, false)
	if err := carga.Enviar(ctx, q); err != nil {
		return err
	}
	colgar(vs)
	return nil
}

// leerVentas queues on carga the reads of the nested objects of vs (and,
// with detalle, of their lines) and returns what hangs them on the sales
// once carga was sent; a relation no sale references is not read. With
// nueva, vs is the one sale the writes sent ahead of the reads inserted
// (db.Carga.EnviarTras), whose id is not known yet: the reads keyed by sale
// take it from ventas_id_seq, there is no electronic document to read (one
// is only made after the sale commits), and a receivable only when the sale
// opened one (credit, not a draft).
func leerVentas(carga *db.Carga, empresaID int64, vs []Venta, detalle, nueva bool) func([]Venta) {
	ids := make([]int64, len(vs))
	var clientes, usuarios, sucursales, almacenes, formas []int64
	for i, v := range vs {
		ids[i] = v.ID
		usuarios = append(usuarios, v.UsuarioID)
		if v.ClienteID != nil {
			clientes = append(clientes, *v.ClienteID)
		}
		if v.SucursalID != nil {
			sucursales = append(sucursales, *v.SucursalID)
		}
		if v.AlmacenID != nil {
			almacenes = append(almacenes, *v.AlmacenID)
		}
		if v.FormaPagoID != nil {
			formas = append(formas, *v.FormaPagoID)
		}
	}
	porVenta, args := "any($2)", []any{empresaID, ids}
	if nueva {
		porVenta, args = "(select currval('ventas_id_seq'))", []any{empresaID}
	}
	cs, ss, as, fs := new([]ClienteRef), new([]Ref), new([]Ref), new([]FormaPagoRef)
	cxcs, fes, ds := new([]CuentaRef), new([]FacturaRef), new([]Detalle)
	if len(clientes) > 0 {
		cs = db.Leer(carga, "ventas: clientes", scanClienteRef, clienteRefSQL, empresaID, clientes)
	}
	us := db.Leer(carga, "ventas: usuarios", pgx.RowToStructByPos[UsuarioRef], `select id, nombre, apellidos, email from usuarios where id = any($1)`, usuarios)
	if len(sucursales) > 0 {
		ss = db.Leer(carga, "ventas: sucursales", pgx.RowToStructByPos[Ref], `select id, nombre, codigo from sucursales where empresa_id = $1 and id = any($2)`, empresaID, sucursales)
	}
	if len(almacenes) > 0 {
		as = db.Leer(carga, "ventas: almacenes", pgx.RowToStructByPos[Ref], `select id, nombre, codigo from almacenes where empresa_id = $1 and id = any($2)`, empresaID, almacenes)
	}
	if len(formas) > 0 {
		fs = db.Leer(carga, "ventas: formas de pago", pgx.RowToStructByPos[FormaPagoRef], `select id, codigo, nombre from formas_pago where id = any($1)`, formas)
	}
	if !nueva || (vs[0].CondicionVenta == Credito && vs[0].Estado != Borrador) {
		cxcs = db.Leer(carga, "ventas: cuentas por cobrar", scanCuentaRef, `select venta_id, id, monto, saldo, fecha_vencimiento::text, estado from cuentas_por_cobrar
		where empresa_id = $1 and venta_id = `+porVenta+` and not eliminado`, args...)
	}
	if !nueva {
		fes = db.Leer(carga, "ventas: comprobantes electrónicos", scanFacturaRef, `select distinct on (venta_id) venta_id, id, clave, estado from comprobantes_electronicos
		where empresa_id = $1 and venta_id = any($2) and not eliminado order by venta_id, id desc`, empresaID, ids)
	}
	// The entry a credit note made, on its detail view (the answer of its
	// creation builds it in Go: it is written at the commit).
	ms := new([]MovimientoRef)
	if notas := notasCredito(vs); detalle && !nueva && len(notas) > 0 {
		ms = db.Leer(carga, "ventas: movimientos de inventario", scanMovimientoRef, movimientoRefSQL, empresaID, notas)
	}
	if detalle {
		ds = db.Leer(carga, "ventas: detalles", scanDetalle, `select d.id, d.venta_id, d.linea, d.producto_id, d.descripcion, d.cantidad, d.precio_unitario, d.descuento,
			d.porcentaje_impuesto, d.subtotal, d.monto_impuesto, d.total,
			p.id, p.codigo, p.nombre, p.tipo, p.gestionado_inventario, p.codigo_cabys
			from detalles_venta d join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
			where d.empresa_id = $1 and d.venta_id = `+porVenta+` order by d.venta_id, d.linea`, args...)
	}
	return func(vs []Venta) {
		db.Colgar(vs, *cs, idCliente, func(v *Venta) (*int64, **ClienteRef) { return v.ClienteID, &v.Cliente })
		db.Colgar(vs, *us, func(u *UsuarioRef) int64 { return u.ID }, func(v *Venta) (*int64, **UsuarioRef) { return &v.UsuarioID, &v.Usuario })
		db.Colgar(vs, *ss, idRef, func(v *Venta) (*int64, **Ref) { return v.SucursalID, &v.Sucursal })
		db.Colgar(vs, *as, idRef, func(v *Venta) (*int64, **Ref) { return v.AlmacenID, &v.Almacen })
		db.Colgar(vs, *fs, func(f *FormaPagoRef) int64 { return f.ID }, func(v *Venta) (*int64, **FormaPagoRef) { return v.FormaPagoID, &v.FormaPago })
		// A sale's receivable and latest comprobante name the sale.
		db.Colgar(vs, *cxcs, func(x *CuentaRef) int64 { return x.venta }, func(v *Venta) (*int64, **CuentaRef) { return &v.ID, &v.CuentaPorCobrar })
		db.Colgar(vs, *fes, func(x *FacturaRef) int64 { return x.venta }, func(v *Venta) (*int64, **FacturaRef) { return &v.ID, &v.FacturaElectronica })
		db.Colgar(vs, *ms, func(m *MovimientoRef) int64 { return m.venta }, func(v *Venta) (*int64, **MovimientoRef) { return &v.ID, &v.MovimientoInventario })
		db.Agrupar(vs, *ds, func(d *Detalle) int64 { return d.VentaID }, func(v *Venta) (int64, *[]Detalle) { return v.ID, &v.Detalles })
	}
}

func idCliente(c *ClienteRef) int64 { return c.ID }

// notasCredito are the ids of the credit notes among vs.
func notasCredito(vs []Venta) []int64 {
	var ids []int64
	for _, v := range vs {
		if v.TipoComprobante == "nota_credito" {
			ids = append(ids, v.ID)
		}
	}
	return ids
}

func idRef(x *Ref) int64 { return x.ID }

// scanCuentaRef reads a receivable with the sale it belongs to.
func scanCuentaRef(r pgx.CollectableRow) (CuentaRef, error) {
	var c CuentaRef
	return c, r.Scan(&c.venta, &c.ID, &c.Monto, &c.Saldo, &c.FechaVencimiento, &c.Estado)
}

// scanFacturaRef reads a comprobante with the sale it belongs to.
func scanFacturaRef(r pgx.CollectableRow) (FacturaRef, error) {
	var f FacturaRef
	return f, r.Scan(&f.venta, &f.ID, &f.Clave, &f.Estado)
}

// scanDetalle reads a line with its product.
func scanDetalle(r pgx.CollectableRow) (Detalle, error) {
	var d Detalle
	p := &ProductoRef{}
	err := r.Scan(&d.ID, &d.VentaID, &d.Linea, &d.ProductoID, &d.Descripcion, &d.Cantidad, &d.PrecioUnitario, &d.Descuento,
		&d.PorcentajeImpuesto, &d.Subtotal, &d.MontoImpuesto, &d.Total,
		&p.ID, &p.Codigo, &p.Nombre, &p.Tipo, &p.GestionadoInventario, &p.CodigoCabys)
	d.Producto = p
	return d, err
}

// Find loads one sale of the tenant (not deleted) with its nested objects
// and lines, in two round trips. found is false when there is none.
func Find(ctx context.Context, q *db.Tx, id int64) (Venta, bool, error) {
	return db.Uno(ctx, q, "ventas: find", scanVenta, func(vs []Venta) error { return loadVentas(ctx, q, vs, true) },
		`select `+ventaCols+` from ventas v where v.empresa_id = $1 and v.id = $2 and not v.eliminado`, q.EmpresaID(), id)
}
