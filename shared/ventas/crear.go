package ventas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/documentos"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/inventario"
	"github.com/erpcr/erp/shared/montos"
	"github.com/erpcr/erp/shared/valid"
)

// MaxLineas is the largest number of lines of a sale (Hacienda's limit of
// LineaDetalle per electronic document).
const MaxLineas = 1000

// Settings of the company read when selling (table configuraciones).
const (
	ajusteDescontar = "inventario.descontar_stock_automatico"
	ajusteNegativo  = "inventario.permitir_stock_negativo"
)

// lineaIn is a validated request line.
type lineaIn struct {
	productoID  int64
	cantidad    decimal.Decimal
	precio      decimal.Decimal
	descuento   decimal.Decimal
	porcentaje  *decimal.Decimal // nil: the product's tax rate
	descripcion *string
}

// ventaIn is a validated create body (everything a request alone can tell).
type ventaIn struct {
	sucursalID, clienteID, formaPagoID, almacenID *int64
	// The bank account or cash box the money moves (checked, and the box's
	// open session taken, by migration 0014's trigger at the insert).
	cuentaBancariaID, cajaID *int64
	fecha                    time.Time
	tipo                     string
	estado                   string
	condicion                string // "" = from the customer's dias_credito
	observaciones            *string
	// The currency of the amounts and its rate to colones (1 for CRC); the
	// electronic invoice carries both.
	moneda     string
	tipoCambio decimal.Decimal
	lineas     []lineaIn
	// The sale a credit or debit note corrects.
	referenciaID *int64
	codigoRef    *string
	razonRef     *string
}

// CodigosReferencia are the InformacionReferencia codes of the 2026
// enumeration (Nota 9) a credit or debit note may carry: 01 anula, 02
// corrige monto, 04 referencia a otro documento, 05 sustituye comprobante
// provisional, 06 devolución de mercancía, 07 sustituye comprobante, 08
// factura endosada, 09 NC financiera, 10 ND financiera, 11 proveedor no
// domiciliado, 12 exoneración posterior, 13 anula por error material, 14
// corrige monto por error material, 15 sustituye por error material, 16
// sustituye comprobante rechazado, 99 otros (17 is for payment receipts).
var CodigosReferencia = []string{"01", "02", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "99"}

// esNota reports whether a tipo_comprobante is a credit or debit note.
func esNota(tipo string) bool { return tipo == "nota_credito" || tipo == "nota_debito" }

// readReferencia reads the reference of a note: required for nota_credito
// and nota_debito, refused for the other types.
func readReferencia(in *valid.Input, x *ventaIn) {
	x.referenciaID = in.OptionalID("venta_referencia_id")
	if v, ok := in.OneOf("codigo_referencia", false, CodigosReferencia); ok {
		x.codigoRef = &v
	}
	if v, ok := in.String("razon_referencia", valid.Str{Max: 180}); ok {
		x.razonRef = &v
	}
	if x.tipo == "" {
		return
	}
	if esNota(x.tipo) {
		// Absent, null, or sent empty or blank (read as nothing): a note
		// without its reason or reference cannot be issued (Hacienda's
		// InformacionReferencia requires them).
		leido := map[string]bool{"venta_referencia_id": x.referenciaID != nil, "codigo_referencia": x.codigoRef != nil, "razon_referencia": x.razonRef != nil}
		for _, k := range []string{"venta_referencia_id", "codigo_referencia", "razon_referencia"} {
			if !leido[k] && !in.Failed(k) {
				in.Fail(k, "El campo "+strings.ReplaceAll(k, "_", " ")+" es obligatorio para una nota de crédito o débito.")
			}
		}
		return
	}
	for _, k := range []string{"venta_referencia_id", "codigo_referencia", "razon_referencia"} {
		if in.Has(k) && !in.IsNull(k) && !in.Failed(k) {
			in.Fail(k, "El campo "+strings.ReplaceAll(k, "_", " ")+" solo aplica a notas de crédito o débito.")
		}
	}
}

var (
	cantidadRegla   = valid.Dec{Required: true, Scale: 3, Min: valid.D("0.01"), Max: valid.D("9999999999999.999")}
	precioRegla     = valid.Dec{Required: true, Scale: 2, Min: valid.D("0")}
	descuentoRegla  = valid.Dec{Scale: 2, Min: valid.D("0")}
	porcentajeRegla = valid.Dec{Scale: 2, Min: valid.D("0"), Max: valid.D("100")}
)

// readVenta validates a create body. empresa_id is not read: the tenant is
// always the active company.
// Monedas are the currencies a sale may be recorded in.
var Monedas = []string{"CRC", "USD"}

// readMoneda reads moneda (default CRC) and tipo_cambio: 1 for colones,
// required and positive (up to 5 decimals, as Hacienda's TipoCambio) for
// dollars.
func readMoneda(in *valid.Input, x *ventaIn) {
	x.moneda, x.tipoCambio = "CRC", decimal.NewFromInt(1)
	if v, ok := in.OneOf("moneda", false, Monedas); ok {
		x.moneda = v
	}
	tc, ok := in.Decimal("tipo_cambio", valid.Dec{Required: x.moneda != "CRC", Scale: 5, Min: valid.D("0.00001"), Max: valid.D("99999999")})
	switch {
	case !ok:
	case x.moneda == "CRC" && !tc.Equal(decimal.NewFromInt(1)):
		in.Fail("tipo_cambio", "El tipo de cambio de una venta en colones es 1.")
	default:
		x.tipoCambio = tc
	}
}

func readVenta(in *valid.Input) ventaIn {
	x := ventaIn{estado: Pendiente}
	x.sucursalID = in.OptionalID("sucursal_id")
	x.clienteID = in.OptionalID("cliente_id")
	x.formaPagoID = in.OptionalID("forma_pago_id")
	x.almacenID = in.OptionalID("almacen_id")
	x.cuentaBancariaID = in.OptionalID("cuenta_bancaria_id")
	x.cajaID = in.OptionalID("caja_id")
	x.fecha, _ = in.Date("fecha_venta", true)
	x.tipo, _ = in.OneOf("tipo_comprobante", true, TiposComprobante)
	if v, ok := in.OneOf("estado", false, Estados); ok {
		if v == Anulada {
			in.Fail("estado", "Una venta no se puede crear anulada.")
		}
		x.estado = v
	}
	x.condicion, _ = in.OneOf("condicion_venta", false, []string{Contado, Credito})
	readMoneda(in, &x)
	readReferencia(in, &x)
	if v, ok := in.String("observaciones", valid.Str{Max: 2000}); ok {
		x.observaciones = &v
	}
	items, ok := in.List("detalles", true)
	switch {
	case !ok:
	case len(items) == 0:
		in.Fail("detalles", "El campo detalles debe tener al menos 1 elemento.")
	case len(items) > MaxLineas:
		in.Fail("detalles", "El campo detalles no debe tener más de "+strconv.Itoa(MaxLineas)+" elementos.")
	default:
		x.lineas = make([]lineaIn, len(items))
		for i, raw := range items {
			x.lineas[i] = readLinea(in, i, raw)
		}
	}
	return x
}

func readLinea(in *valid.Input, i int, raw json.RawMessage) lineaIn {
	prefix := "detalles." + strconv.Itoa(i) + "."
	li, ok := in.Elemento("detalles", i, raw, "Cada detalle debe ser un objeto con producto_id, cantidad y precio_unitario.")
	if !ok {
		return lineaIn{}
	}
	var l lineaIn
	l.productoID, _ = li.Int("producto_id", valid.Int{Required: true, Min: valid.Min(1)})
	cantOK, precioOK := false, false
	l.cantidad, cantOK = li.Decimal("cantidad", cantidadRegla)
	l.precio, precioOK = li.Decimal("precio_unitario", precioRegla)
	l.descuento, _ = li.Decimal("descuento", descuentoRegla)
	if p, ok := li.Decimal("porcentaje_impuesto", porcentajeRegla); ok {
		l.porcentaje = &p
	}
	if v, ok := li.String("descripcion", valid.Str{Max: 1000}); ok {
		l.descripcion = &v
	}
	if cantOK && precioOK {
		sub := montos.Calcular(montos.Linea{Cantidad: l.cantidad, PrecioUnitario: l.precio}).Subtotal
		switch {
		case sub.GreaterThanOrEqual(maxMonto):
			li.Fail("cantidad", "El subtotal de la línea (cantidad × precio unitario) es demasiado grande.")
		case !li.Failed("descuento") && l.descuento.GreaterThan(sub):
			li.Fail("descuento", "El descuento no puede ser mayor que el subtotal de la línea ("+sub.StringFixed(2)+").")
		}
	}
	in.Merge(prefix, li)
	return l
}

// producto is what a sale needs of a product.
type producto struct {
	nombre     string
	activo     bool
	gestionado bool
	porcentaje decimal.Decimal
}

// referencia is a referenced row: whether it exists in the tenant and is active.
type referencia struct{ existe, activo bool }

// contexto is everything the database says about a create body, read in one
// pipelined round trip.
type contexto struct {
	productos          map[int64]producto
	cliente            referencia
	diasCredito        int64
	sucursal, almacen  referencia
	formaPago          referencia
	descontar          bool
	permitirNegativo   bool
	almacenPrincipalID *int64
	// referencia is the sale a note corrects.
	referencia referencia
	refTipo    string
	refEstado  string
	refFecha   time.Time
	refDivisa  divisa
	refCliente *int64
	// refSaldo is, for a credit note, the open balance of the receivable
	// of the sale it corrects (nil: it has none open), read under that
	// sale's lock (notaEnCuenta).
	refSaldo *Numero
	// acreditable is, for a credit note, what each product of the sale it
	// corrects may still be credited (queueAcreditable).
	acreditable map[int64]acreditable
	// costosRef is, for a credit note, the cost at which its goods come
	// back: what the exit of the sale it corrects took them out at.
	costosRef *inventario.CostosVenta
}

// queueLotes queues the read of the stock batches a sale takes from
// almacen. Optimistic (every run of the transaction but its last), it is a
// plain read: the exit is planned from that snapshot and its batches are
// locked and checked only in the sale's last round trip, with its number
// and its COMMIT (crear). On the last run it locks them, as every exit did
// before, so that a sale whose batches keep changing under it still ends.
func queueLotes(tx *db.Tx, b *pgx.Batch, optimista bool, almacen int64, lineas []inventario.Linea) *inventario.Lotes {
	if optimista {
		return inventario.QueueLotesSinBloqueo(tx, b, almacen, lineas)
	}
	return inventario.QueueLotes(tx, b, almacen, lineas)
}

// leerContexto reads what the database says about the body and, when the
// sale names its warehouse and takes stock out of it (not a draft), reads
// the batches of its products in the same round trip (lotes; queueLotes).
func leerContexto(ctx context.Context, tx *db.Tx, x ventaIn, optimista bool) (contexto, *inventario.Lotes, error) {
	empresaID := tx.EmpresaID()
	c := contexto{productos: map[int64]producto{}}
	ids := make([]int64, 0, len(x.lineas))
	for _, l := range x.lineas {
		ids = append(ids, l.productoID)
	}
	b := &pgx.Batch{}
	b.Queue(`select p.id, p.nombre, p.activo, p.gestionado_inventario, coalesce(ti.porcentaje, 0)
		from productos p left join tipos_impuesto ti on ti.id = p.tipo_impuesto_id
		where p.empresa_id = $1 and p.id = any($2) and not p.eliminado`, empresaID, ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var id int64
			var p producto
			var pct pgtype.Numeric
			if err := rows.Scan(&id, &p.nombre, &p.activo, &p.gestionado, &pct); err != nil {
				return fmt.Errorf("ventas: productos: %w", err)
			}
			p.porcentaje = db.Decimal(pct)
			c.productos[id] = p
		}
		return rows.Err()
	})
	// A reference the body does not name is not read.
	leer := func(named bool, what string, sql string, args []any, dest ...any) *bool {
		existe := new(bool)
		if named {
			b.Queue(sql, args...).QueryRow(func(r pgx.Row) error {
				var err error
				if *existe, err = found(r.Scan(dest...)); err != nil {
					return fmt.Errorf("ventas: %s: %w", what, err)
				}
				return nil
			})
		}
		return existe
	}
	cliente := leer(x.clienteID != nil, "cliente", `select activo, dias_credito from clientes where empresa_id = $1 and id = $2 and not eliminado`,
		[]any{empresaID, x.clienteID}, &c.cliente.activo, &c.diasCredito)
	sucursal := leer(x.sucursalID != nil, "sucursal", `select activo from sucursales where empresa_id = $1 and id = $2 and not eliminado`,
		[]any{empresaID, x.sucursalID}, &c.sucursal.activo)
	almacen := leer(x.almacenID != nil, "almacén", `select activo from almacenes where empresa_id = $1 and id = $2 and not eliminado`,
		[]any{empresaID, x.almacenID}, &c.almacen.activo)
	formaPago := leer(x.formaPagoID != nil, "forma de pago", `select activo from formas_pago where id = $1 and not eliminado`,
		[]any{x.formaPagoID}, &c.formaPago.activo)
	// The sale a note corrects is read with the lock the note's foreign
	// key takes anyway: a cancellation in progress (its row lock) is
	// waited for and its outcome read, so a note cannot slip in beside the
	// cancellation of its sale; and it is taken before any batch, as that
	// cancellation takes batches while holding the sale. A credit note
	// locks it more (FOR NO KEY UPDATE, which its foreign key's KEY SHARE
	// does not conflict with): credit notes of one sale then run one after
	// the other, each reading what the earlier ones credited.
	var refCambio Numero
	bloqueo := "for key share"
	if x.tipo == "nota_credito" {
		bloqueo = "for no key update"
	}
	referencia := leer(x.referenciaID != nil, "venta de referencia", `select estado <> 'anulada', estado, fecha_venta, tipo_comprobante, moneda, tipo_cambio, cliente_id from ventas
		where empresa_id = $1 and id = $2 and not eliminado `+bloqueo,
		[]any{empresaID, x.referenciaID}, &c.referencia.activo, &c.refEstado, &c.refFecha, &c.refTipo, &c.refDivisa.moneda, &refCambio, &c.refCliente)
	if x.tipo == "nota_credito" && x.referenciaID != nil {
		queueSaldoReferencia(b, empresaID, *x.referenciaID, &c.refSaldo)
		c.acreditable = map[int64]acreditable{}
		queueAcreditable(b, empresaID, *x.referenciaID, c.acreditable)
		if x.estado != Borrador {
			c.costosRef = inventario.QueueCostosVenta(tx, b, *x.referenciaID, ids)
		}
	}
	b.Queue(`select clave, valor = 'true'::jsonb from configuraciones
		where empresa_id = $1 and clave = any($2) and activo and not eliminado`, empresaID, []string{ajusteDescontar, ajusteNegativo}).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var clave string
			var on bool
			if err := rows.Scan(&clave, &on); err != nil {
				return fmt.Errorf("ventas: configuraciones: %w", err)
			}
			switch clave {
			case ajusteDescontar:
				c.descontar = on
			case ajusteNegativo:
				c.permitirNegativo = on
			}
		}
		return rows.Err()
	})
	// Without a warehouse, the sale may take its stock from the branch's
	// principal one: the company's principal warehouse when it belongs to
	// the sale's branch, else the company's principal one.
	var principal int64
	hayPrincipal := leer(x.almacenID == nil, "almacén principal", `select id from almacenes where empresa_id = $1 and es_principal and activo and not eliminado
		order by (sucursal_id = $2) desc nulls last, id limit 1`, []any{empresaID, x.sucursalID}, &principal)
	var lotes *inventario.Lotes
	if x.almacenID != nil && x.estado != Borrador && !esNota(x.tipo) {
		lotes = queueLotes(tx, b, optimista, *x.almacenID, lineasInventario(x.lineas))
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return c, nil, err
	}
	c.cliente.existe, c.sucursal.existe, c.almacen.existe = *cliente, *sucursal, *almacen
	c.formaPago.existe, c.referencia.existe = *formaPago, *referencia
	c.refDivisa.tipoCambio = refCambio.Decimal()
	if *hayPrincipal {
		c.almacenPrincipalID = &principal
	}
	return c, lotes, nil
}

// lineasInventario are the products of a sale's lines, as the lines whose
// batches an exit reads.
func lineasInventario(ls []lineaIn) []inventario.Linea {
	out := make([]inventario.Linea, len(ls))
	for i, l := range ls {
		out[i] = inventario.Linea{ProductoID: l.productoID, Cantidad: l.cantidad}
	}
	return out
}

// found turns pgx.ErrNoRows into (false, nil).
func found(err error) (bool, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// checkRef reports a missing or inactive referenced row under key.
func checkRef(in *valid.Input, id *int64, ref referencia, key, missing, inactive string) {
	if id == nil {
		return
	}
	switch {
	case !ref.existe:
		in.Fail(key, missing)
	case !ref.activo:
		in.Fail(key, inactive)
	}
}

// lineaCalculada is a line with its tax rate, its text and its amounts.
type lineaCalculada struct {
	lineaIn
	tasa       decimal.Decimal // porcentaje_impuesto, given or the product's
	texto      *string         // descripcion, given or the product's name
	importe    montos.Importe
	gestionado bool
}

const msgVentaCreada = "Venta creada correctamente."

// ventaBody is a validated sale body; in keeps collecting the field errors
// only the transaction can find (references, stock).
type ventaBody struct {
	in *valid.Input
	x  ventaIn
}

// crearVenta records the sale and its VentaCreadaEvent.
func crearVenta(ctx context.Context, tx *db.Tx, p auth.Principal, b ventaBody) (Venta, error) {
	v, err := crear(ctx, tx, p, b.in, b.x)
	if err != nil {
		return Venta{}, err
	}
	// The event is the sale's last write: it travels with the commit.
	if err := eventos.RegistrarAlConfirmar(tx, eventos.VentaCreada, v); err != nil {
		return Venta{}, err
	}
	return v, nil
}

// crear records a validated sale in tx: its references are checked, the
// sale and its lines inserted in one statement, its receivable opened, its
// number taken from the company's counter and its stock exit processed.
// Any failure leaves nothing behind (the caller's transaction rolls back,
// giving the number back).
//
// The rows every sale of a company contends for (the stock batches, the
// counter of the sale's series and the one of the exit's, SAL) are locked
// only in the transaction's last round trip, the pipeline that ends in
// COMMIT: no Go work and no other round trip happens while a sale holds
// them. So the exit is planned from an unlocked read of the batches, the
// sale is inserted with a token (db.Marcador) where its number goes and
// read back with it, the answer and the event are encoded with it, and the
// commit's pipeline then, in this order: locks the batches the plan takes
// from and checks they still hold it (else the whole sale runs again,
// db.PlanVencido); takes the number and sets it on the sale; writes the
// exit (its own SAL number; its observaciones read the sale's number);
// inserts the event and the Idempotency-Key's answer with the token
// replaced by the number; commits. The handler then puts the number in
// place of the token in its answer.
//
// Why that order cannot deadlock: everything that locks a row other
// transactions also lock happens in that last round trip, in one order —
// batches (one statement, product then FIFO order, as every exit locks
// them), the sale's counter, the SAL counter, then what COMMIT's deferred
// triggers take (the accounting entry counter, dashboard and report
// versions, after every business lock of every transaction). Other exits
// (adjustments, transfers, a confirmed draft) take batches then SAL too,
// and processed entries their existing batches then ENT.
// What the earlier round trips take is not contended: the sale's own new
// rows, the KEY SHARE locks of their foreign keys (customer, branch,
// warehouse, products, user, cash box, the sale a note corrects; a credit
// note holds that sale FOR NO KEY UPDATE, so that credit notes of one sale
// queue there, before any batch or counter) and the
// cash box session's FOR SHARE (migration 0014's trigger). Those conflict
// only with a FOR UPDATE of, a delete of or a key change in those rows
// (closing a cash box, invoicing or cancelling the corrected sale), and a
// sale waits for them only before it holds any batch or counter; in the
// last round trip the exit's foreign keys (warehouse, customer, user,
// products) name rows the sale already holds those locks on, so it waits
// there only for batches and counters, in the order above.
func crear(ctx context.Context, tx *db.Tx, p auth.Principal, in *valid.Input, x ventaIn) (Venta, error) {
	optimista := !db.UltimoIntento(ctx)
	c, lotes, err := leerContexto(ctx, tx, x, optimista)
	if err != nil {
		return Venta{}, err
	}
	checkRef(in, x.clienteID, c.cliente, "cliente_id", "El cliente seleccionado no existe en esta empresa.", "El cliente seleccionado está inactivo.")
	checkRef(in, x.sucursalID, c.sucursal, "sucursal_id", "La sucursal seleccionada no existe en esta empresa.", "La sucursal seleccionada está inactiva.")
	checkRef(in, x.almacenID, c.almacen, "almacen_id", "El almacén seleccionado no existe en esta empresa.", "El almacén seleccionado está inactivo.")
	checkRef(in, x.formaPagoID, c.formaPago, "forma_pago_id", "La forma de pago seleccionada no existe.", "La forma de pago seleccionada está inactiva.")
	if esNota(x.tipo) {
		checkRef(in, x.referenciaID, c.referencia, "venta_referencia_id", "La venta de referencia no existe en esta empresa.", "La venta de referencia está anulada.")
		checkReferenciaNota(in, x, c)
	}
	// What a credit note credits, and where its amount goes, is measured
	// against a sale it may reference (checkReferenciaNota).
	refValida := x.tipo == "nota_credito" && c.referencia.existe && c.referencia.activo && !in.Failed("venta_referencia_id")

	lineas := make([]lineaCalculada, len(x.lineas))
	importes := make([]montos.Importe, len(x.lineas))
	for i, l := range x.lineas {
		prod, ok := c.productos[l.productoID]
		key := "detalles." + strconv.Itoa(i) + ".producto_id"
		switch {
		case !ok:
			in.Fail(key, "El producto seleccionado no existe en esta empresa.")
			continue
		case !prod.activo:
			in.Fail(key, "El producto seleccionado está inactivo.")
			continue
		}
		lc := lineaCalculada{lineaIn: l, tasa: prod.porcentaje, texto: l.descripcion, gestionado: prod.gestionado}
		if l.porcentaje != nil {
			lc.tasa = *l.porcentaje
		}
		if lc.texto == nil {
			nombre := prod.nombre
			lc.texto = &nombre
		}
		lc.importe = montos.Calcular(montos.Linea{Cantidad: l.cantidad, PrecioUnitario: l.precio, Descuento: l.descuento, PorcentajeImpuesto: lc.tasa})
		lineas[i], importes[i] = lc, lc.importe
	}
	if refValida {
		checkAcreditable(in, lineas, x.tipoCambio, c.acreditable)
	}
	total := montos.Sumar(importes)
	if total.Subtotal.Add(total.Impuesto).GreaterThanOrEqual(maxMonto) {
		in.Fail("detalles", "El total de la venta es demasiado grande.")
	}

	condicion := x.condicion
	if refValida {
		// A credit note's condicion is where its amount goes, as the books
		// post it: credito lowers the open receivable of its sale,
		// contado gives the money back (notaEnCuenta).
		condicion = condicionNota(in, x, c, total.Total)
	}
	if condicion == "" {
		condicion = Contado
		if x.clienteID != nil && c.diasCredito > 0 {
			condicion = Credito
		}
	}
	if condicion == Credito && x.clienteID == nil {
		in.Fail("cliente_id", "Una venta a crédito requiere un cliente.")
	}
	if condicion == Credito && x.estado == Pagada {
		in.Fail("estado", "Una venta a crédito no se puede crear pagada: se paga registrando pagos en su cuenta por cobrar.")
	}
	if err := in.Err(); err != nil {
		return Venta{}, err
	}

	almacen := x.almacenID
	if almacen == nil && c.descontar {
		almacen = c.almacenPrincipalID
	}
	// The stock exit is planned before anything is written: a line the
	// stock cannot cover is a 422 that cost no number and no write.
	// A note takes nothing out: a credit note's goods come back (entrada,
	// prepared here), a debit note moves no stock.
	var exit *inventario.Preparado
	var entrada *devolucion
	if almacen != nil && x.estado != Borrador && x.tipo == "nota_credito" && c.refTipo != "nota_debito" {
		if entrada, err = prepararDevolucion(tx, p, *almacen, x, lineas, c.costosRef); err != nil {
			return Venta{}, err
		}
	}
	if almacen != nil && x.estado != Borrador && !esNota(x.tipo) {
		var sl []lineaStock
		for i, l := range lineas {
			if l.gestionado {
				sl = append(sl, lineaStock{indice: i, productoID: l.productoID, cantidad: l.cantidad})
			}
		}
		v := ventaStock{almacenID: *almacen, clienteID: x.clienteID, fecha: x.fecha, lineas: sl, permitirNegativo: c.permitirNegativo}
		if len(sl) > 0 && lotes == nil {
			// The company's principal warehouse, known only now.
			b := &pgx.Batch{}
			lotes = queueLotes(tx, b, optimista, *almacen, movimientoVenta(p, v).Lineas)
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return Venta{}, err
			}
		}
		if exit, err = prepararSalida(p, v, lotes); err != nil {
			return Venta{}, err
		}
	}

	// One round trip writes the sale and reads it back: the sale (its
	// number a token until the commit takes it) and its lines, its
	// receivable and the nested objects of the answer.
	numero, err := tx.Marcador()
	if err != nil {
		return Venta{}, err
	}
	k := len(lineas)
	nums := make([]int32, k)
	prods := make([]int64, k)
	descs := make([]*string, k)
	cants, precios, descuentos, pcts := make([]pgtype.Numeric, k), make([]pgtype.Numeric, k), make([]pgtype.Numeric, k), make([]pgtype.Numeric, k)
	subs, imps, tots := make([]pgtype.Numeric, k), make([]pgtype.Numeric, k), make([]pgtype.Numeric, k)
	for i, l := range lineas {
		nums[i], prods[i], descs[i] = int32(i+1), l.productoID, l.texto
		cants[i], precios[i], descuentos[i], pcts[i] = db.Numeric(l.cantidad), db.Numeric(l.precio), db.Numeric(l.descuento), db.Numeric(l.tasa)
		subs[i], imps[i], tots[i] = db.Numeric(l.importe.Subtotal), db.Numeric(l.importe.Impuesto), db.Numeric(l.importe.Total)
	}
	vs := []Venta{{UsuarioID: p.UsuarioID, ClienteID: x.clienteID, SucursalID: x.sucursalID, AlmacenID: almacen, FormaPagoID: x.formaPagoID,
		CondicionVenta: condicion, Estado: x.estado}}
	b := &pgx.Batch{}
	b.Queue(`with v as (
		  insert into ventas (empresa_id, sucursal_id, cliente_id, usuario_id, forma_pago_id, almacen_id, numero_comprobante,
		    tipo_comprobante, fecha_venta, estado, condicion_venta, observaciones,
		    monto_subtotal, monto_descuentos, monto_impuestos, monto_total,
		    venta_referencia_id, codigo_referencia, razon_referencia, moneda, tipo_cambio, cuenta_bancaria_id, caja_id)
		  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $27, $28, $29, $30, $31, $32, $33) returning *
		), d as (
		  insert into detalles_venta (empresa_id, venta_id, linea, producto_id, descripcion, cantidad, precio_unitario, descuento,
		    porcentaje_impuesto, subtotal, monto_impuesto, total)
		  select $1, v.id, x.linea, x.producto, x.descripcion, x.cantidad, x.precio, x.descuento, x.porcentaje, x.subtotal, x.impuesto, x.total
		  from v, unnest($17::int[], $18::bigint[], $19::text[], $20::numeric[], $21::numeric[], $22::numeric[], $23::numeric[],
		    $24::numeric[], $25::numeric[], $26::numeric[])
		    as x(linea, producto, descripcion, cantidad, precio, descuento, porcentaje, subtotal, impuesto, total)
		)
		select `+ventaCols+` from v`,
		tx.EmpresaID(), x.sucursalID, x.clienteID, p.UsuarioID, x.formaPagoID, almacen, numero.Token,
		x.tipo, x.fecha, x.estado, condicion, x.observaciones,
		db.Numeric(total.Subtotal), db.Numeric(total.Descuento), db.Numeric(total.Impuesto), db.Numeric(total.Total),
		nums, prods, descs, cants, precios, descuentos, pcts, subs, imps, tots,
		x.referenciaID, x.codigoRef, x.razonRef, x.moneda, db.Numeric(x.tipoCambio), x.cuentaBancariaID, x.cajaID).Query(func(rows pgx.Rows) error {
		v, err := pgx.CollectExactlyOneRow(rows, scanVenta)
		vs[0] = v
		return err
	})
	switch {
	case condicion != Credito || x.estado == Borrador:
	case x.tipo == "nota_credito":
		queueAplicarNota(tx, b, nil, 1)
	default:
		queueAbrirCuenta(tx, b, nil)
	}
	// The answer is read in the same round trip, after the writes.
	carga := &db.Carga{}
	colgar := leerVentas(carga, tx.EmpresaID(), vs, true, true)
	if err := carga.EnviarTras(ctx, tx, b); err != nil {
		return Venta{}, fmt.Errorf("ventas: insert: %w", err)
	}
	colgar(vs)
	if entrada != nil {
		vs[0].MovimientoInventario = entrada.ref
	}

	// The commit's round trip: batches, number, exit (see above), ahead
	// of the event and the stored answer the caller defers to it.
	alConfirmar := &pgx.Batch{}
	if exit != nil {
		exit.QueueVerificacion(tx, alConfirmar)
	}
	if entrada != nil {
		entrada.QueueVerificacion(tx, alConfirmar)
	}
	alConfirmar.Queue(`with `+documentos.NumeroCTE("$1", "$2", 8)+`
		update ventas v set numero_comprobante = (select numero from numero)
		where v.empresa_id = $1 and v.id = $3
		returning `+numero.Guardar("v.numero_comprobante"), tx.EmpresaID(), Prefijos[x.tipo], vs[0].ID).QueryRow(func(r pgx.Row) error {
		var n string
		if err := r.Scan(&n); err != nil {
			if _, ok := db.IsUniqueViolation(err); ok {
				return apperr.NewConflict("El número de comprobante asignado ya existe; intente de nuevo.")
			}
			return fmt.Errorf("ventas: número: %w", err)
		}
		numero.Fijar(n)
		return nil
	})
	if exit != nil {
		exit.Queue(tx, alConfirmar)
	}
	if entrada != nil {
		entrada.Queue(tx, alConfirmar)
	}
	tx.QueueAtCommit(alConfirmar)
	return vs[0], nil
}

// queueAbrirCuenta queues the receivable of a credit sale (id, or with nil
// the sale the same batch inserted before): the whole total is due
// fecha_venta + the customer's dias_credito days (DiasCreditoPorDefecto
// when the customer has none). A sale of total 0 owes nothing, so its
// receivable is born paid. A credit note never opens one: it lowers its
// sale's (queueAplicarNota).
func queueAbrirCuenta(tx *db.Tx, b *pgx.Batch, id *int64) {
	empresaID := tx.EmpresaID()
	b.Queue(`insert into cuentas_por_cobrar (empresa_id, cliente_id, venta_id, monto, saldo, fecha_emision, fecha_vencimiento, estado)
		select v.empresa_id, v.cliente_id, v.id, v.monto_total, v.monto_total, v.fecha_venta,
		  v.fecha_venta + least(coalesce(nullif(c.dias_credito, 0), $3), 36500),
		  case when v.monto_total = 0 then 'pagada' else 'pendiente' end
		from ventas v join clientes c on c.empresa_id = v.empresa_id and c.id = v.cliente_id
		where v.empresa_id = $1 and v.condicion_venta = 'credito' and v.tipo_comprobante <> 'nota_credito'
		  and v.id = (select coalesce($2::bigint, currval('ventas_id_seq')))
		on conflict (empresa_id, venta_id) do nothing`, empresaID, id, DiasCreditoPorDefecto)
}
