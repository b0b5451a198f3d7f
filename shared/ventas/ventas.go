// Package ventas is the sales domain: /api/ventas (a sale and its lines
// created in one transaction, with its document number, totals, stock exit,
// receivable, event and Idempotency-Key) and /api/cuentas-por-cobrar (the
// receivables of credit sales and the payments that settle them). Every
// request costs a constant number of database round trips whatever its
// number of lines or its page size.
package ventas

import (
	"context"
	"fmt"
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
}

// FacturaRef is the electronic document (comprobante) of a sale, once one
// exists: its id, clave and estado (pending, signed, sent, accepted,
// rejected, error). With several (e.g. a tiquete replaced by a factura), the
// latest.
type FacturaRef struct {
	ID     int64  `json:"id"`
	Clave  string `json:"clave"`
	Estado string `json:"estado"`
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
	empresaID := q.EmpresaID()
	if len(vs) == 0 {
		return nil
	}
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
	b := &pgx.Batch{}
	b.Queue(clienteRefSQL, empresaID, clientes)
	b.Queue(`select id, nombre, apellidos, email from usuarios where id = any($1)`, usuarios)
	b.Queue(`select id, nombre, codigo from sucursales where empresa_id = $1 and id = any($2)`, empresaID, sucursales)
	b.Queue(`select id, nombre, codigo from almacenes where empresa_id = $1 and id = any($2)`, empresaID, almacenes)
	b.Queue(`select id, codigo, nombre from formas_pago where id = any($1)`, formas)
	b.Queue(`select venta_id, id, monto, saldo, fecha_vencimiento::text, estado from cuentas_por_cobrar
		where empresa_id = $1 and venta_id = any($2) and not eliminado`, empresaID, ids)
	b.Queue(`select distinct on (venta_id) venta_id, id, clave, estado from comprobantes_electronicos
		where empresa_id = $1 and venta_id = any($2) and not eliminado order by venta_id, id desc`, empresaID, ids)
	if detalle {
		b.Queue(`select d.id, d.venta_id, d.linea, d.producto_id, d.descripcion, d.cantidad, d.precio_unitario, d.descuento,
			d.porcentaje_impuesto, d.subtotal, d.monto_impuesto, d.total,
			p.id, p.codigo, p.nombre, p.tipo, p.gestionado_inventario, p.codigo_cabys
			from detalles_venta d join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
			where d.empresa_id = $1 and d.venta_id = any($2) order by d.venta_id, d.linea`, empresaID, ids)
	}
	br := q.SendBatch(ctx, b)
	defer br.Close()

	cs, err := siguiente(br, "clientes", scanClienteRef)
	if err != nil {
		return err
	}
	us, err := siguiente(br, "usuarios", func(r pgx.CollectableRow) (UsuarioRef, error) {
		var u UsuarioRef
		return u, r.Scan(&u.ID, &u.Nombre, &u.Apellidos, &u.Email)
	})
	if err != nil {
		return err
	}
	scanRef := func(r pgx.CollectableRow) (Ref, error) {
		var x Ref
		return x, r.Scan(&x.ID, &x.Nombre, &x.Codigo)
	}
	ss, err := siguiente(br, "sucursales", scanRef)
	if err != nil {
		return err
	}
	as, err := siguiente(br, "almacenes", scanRef)
	if err != nil {
		return err
	}
	fs, err := siguiente(br, "formas de pago", func(r pgx.CollectableRow) (FormaPagoRef, error) {
		var f FormaPagoRef
		return f, r.Scan(&f.ID, &f.Codigo, &f.Nombre)
	})
	if err != nil {
		return err
	}
	type cuenta struct {
		venta int64
		c     CuentaRef
	}
	cxcs, err := siguiente(br, "cuentas por cobrar", func(r pgx.CollectableRow) (cuenta, error) {
		var x cuenta
		return x, r.Scan(&x.venta, &x.c.ID, &x.c.Monto, &x.c.Saldo, &x.c.FechaVencimiento, &x.c.Estado)
	})
	if err != nil {
		return err
	}
	type factura struct {
		venta int64
		f     FacturaRef
	}
	fes, err := siguiente(br, "comprobantes electrónicos", func(r pgx.CollectableRow) (factura, error) {
		var x factura
		return x, r.Scan(&x.venta, &x.f.ID, &x.f.Clave, &x.f.Estado)
	})
	if err != nil {
		return err
	}
	var ds []Detalle
	if detalle {
		ds, err = siguiente(br, "detalles", func(r pgx.CollectableRow) (Detalle, error) {
			var d Detalle
			p := &ProductoRef{}
			err := r.Scan(&d.ID, &d.VentaID, &d.Linea, &d.ProductoID, &d.Descripcion, &d.Cantidad, &d.PrecioUnitario, &d.Descuento,
				&d.PorcentajeImpuesto, &d.Subtotal, &d.MontoImpuesto, &d.Total,
				&p.ID, &p.Codigo, &p.Nombre, &p.Tipo, &p.GestionadoInventario, &p.CodigoCabys)
			d.Producto = p
			return d, err
		})
		if err != nil {
			return err
		}
	}

	clienteBy := porID(cs, func(c *ClienteRef) int64 { return c.ID })
	usuarioBy := porID(us, func(u *UsuarioRef) int64 { return u.ID })
	sucursalBy := porID(ss, func(x *Ref) int64 { return x.ID })
	almacenBy := porID(as, func(x *Ref) int64 { return x.ID })
	formaBy := porID(fs, func(f *FormaPagoRef) int64 { return f.ID })
	idx := map[int64]int{}
	for i := range vs {
		v := &vs[i]
		idx[v.ID] = i
		v.Usuario = usuarioBy[v.UsuarioID]
		if v.ClienteID != nil {
			v.Cliente = clienteBy[*v.ClienteID]
		}
		if v.SucursalID != nil {
			v.Sucursal = sucursalBy[*v.SucursalID]
		}
		if v.AlmacenID != nil {
			v.Almacen = almacenBy[*v.AlmacenID]
		}
		if v.FormaPagoID != nil {
			v.FormaPago = formaBy[*v.FormaPagoID]
		}
	}
	for i := range cxcs {
		vs[idx[cxcs[i].venta]].CuentaPorCobrar = &cxcs[i].c
	}
	for i := range fes {
		vs[idx[fes[i].venta]].FacturaElectronica = &fes[i].f
	}
	for _, d := range ds {
		v := &vs[idx[d.VentaID]]
		v.Detalles = append(v.Detalles, d)
	}
	return nil
}

// Find loads one sale of the tenant (not deleted) with its nested objects
// and lines, in two round trips. found is false when there is none.
func Find(ctx context.Context, q *db.Tx, id int64) (Venta, bool, error) {
	v, found, err := db.Uno(ctx, q, scanVenta, `select `+ventaCols+` from ventas v where v.empresa_id = $1 and v.id = $2 and not v.eliminado`, q.EmpresaID(), id)
	if err != nil {
		return Venta{}, false, fmt.Errorf("ventas: find: %w", err)
	}
	if !found {
		return Venta{}, false, nil
	}
	vs := []Venta{v}
	if err := loadVentas(ctx, q, vs, true); err != nil {
		return Venta{}, false, err
	}
	return vs[0], true, nil
}
