package facturacion

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/hacienda/comprobante"
	"github.com/erpcr/erp/shared/valid"
)

// lineaVenta is a sale line with what the XML needs of its product.
type lineaVenta struct {
	linea       int
	cantidad    decimal.Decimal
	precio      decimal.Decimal
	descuento   decimal.Decimal
	porcentaje  decimal.Decimal
	descripcion *string
	nombre      string
	tipo        string
	cabys       *string
	unidad      string
	impCodigo   *string
	impTarifa   *string
	impPct      *decimal.Decimal
	impExento   bool
}

// clienteVenta is the receiver.
type clienteVenta struct {
	nombre          *string
	tipoHacienda    string
	identificacion  string
	nombreComercial *string
	email           *string
	telefono        *string
	provincia       *string
	canton          *string
	distrito        *string
	direccion       *string
}

// referenciaVenta is the document a note corrects.
type referenciaVenta struct {
	ventaID *int64
	codigo  *string
	razon   *string
	clave   *string
	tipo    *string
	emision *time.Time
}

// ventaXML is everything generar-xml reads about a comprobante's sale.
type ventaXML struct {
	tipoComprobante string
	condicion       string
	moneda          string
	tipoCambio      decimal.Decimal
	montoTotal      decimal.Decimal
	formaPago       *string
	plazo           *int
	lineas          []lineaVenta
	cliente         *clienteVenta
	ref             referenciaVenta
}

func dec(n pgtype.Numeric) decimal.Decimal {
	if !n.Valid || n.NaN {
		return decimal.Zero
	}
	return decimal.NewFromBigInt(n.Int, n.Exp)
}

// leerVentaXML reads the sale, its lines with their products, its customer
// and the comprobante it references, in one round trip.
func leerVentaXML(ctx context.Context, q *db.Tx, ventaID int64) (ventaXML, error) {
	empresaID := q.EmpresaID()
	b := &pgx.Batch{}
	b.Queue(`select v.tipo_comprobante, v.condicion_venta, v.moneda, v.tipo_cambio, v.monto_total, fp.codigo,
			(select (c.fecha_vencimiento - c.fecha_emision) from cuentas_por_cobrar c
			  where c.empresa_id = v.empresa_id and c.venta_id = v.id and not c.eliminado),
			v.venta_referencia_id, v.codigo_referencia, v.razon_referencia,
			r.clave, r.tipo_documento, r.fecha_emision
		from ventas v left join formas_pago fp on fp.id = v.forma_pago_id
		left join lateral (select c.clave, c.tipo_documento, c.fecha_emision from comprobantes_electronicos c
			where c.empresa_id = v.empresa_id and c.venta_id = v.venta_referencia_id and not c.eliminado
			  and not (`+reemplazable+`)
			order by (c.estado = 'accepted') desc, c.id limit 1) r on true
		where v.empresa_id = $1 and v.id = $2`, empresaID, ventaID)
	b.Queue(`select d.linea, d.cantidad, d.precio_unitario, d.descuento, d.porcentaje_impuesto, d.descripcion,
			p.nombre, p.tipo, p.codigo_cabys, u.codigo, ti.codigo, ti.codigo_tarifa_iva, ti.porcentaje, coalesce(ti.exento, false)
		from detalles_venta d join productos p on p.empresa_id = d.empresa_id and p.id = d.producto_id
		join unidades_medida u on u.id = p.unidad_medida_id
		left join tipos_impuesto ti on ti.id = p.tipo_impuesto_id
		where d.empresa_id = $1 and d.venta_id = $2 order by d.linea`, empresaID, ventaID)
	b.Queue(`select case when c.tipo_identificacion = 'fisica' or c.razon_social is null
			then coalesce(nullif(trim(concat_ws(' ', c.nombre, c.apellidos)), ''), c.razon_social) else c.razon_social end,
			ti.codigo_hacienda, c.identificacion, c.nombre_comercial, c.email, c.telefono, c.provincia, c.canton, c.distrito, c.direccion
		from ventas v join clientes c on c.empresa_id = v.empresa_id and c.id = v.cliente_id
		join tipos_identificacion ti on ti.codigo = c.tipo_identificacion
		where v.empresa_id = $1 and v.id = $2`, empresaID, ventaID)
	br := q.SendBatch(ctx, b)
	defer br.Close()

	var v ventaXML
	var tc, total pgtype.Numeric
	err := br.QueryRow().Scan(&v.tipoComprobante, &v.condicion, &v.moneda, &tc, &total, &v.formaPago, &v.plazo,
		&v.ref.ventaID, &v.ref.codigo, &v.ref.razon, &v.ref.clave, &v.ref.tipo, &v.ref.emision)
	if err != nil {
		return v, fmt.Errorf("facturacion: venta del comprobante: %w", err)
	}
	v.tipoCambio, v.montoTotal = dec(tc), dec(total)
	rows, _ := br.Query()
	v.lineas, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (lineaVenta, error) {
		var l lineaVenta
		var cant, precio, desc, pct, impPct pgtype.Numeric
		err := r.Scan(&l.linea, &cant, &precio, &desc, &pct, &l.descripcion, &l.nombre, &l.tipo, &l.cabys, &l.unidad,
			&l.impCodigo, &l.impTarifa, &impPct, &l.impExento)
		l.cantidad, l.precio, l.descuento, l.porcentaje = dec(cant), dec(precio), dec(desc), dec(pct)
		if impPct.Valid {
			d := dec(impPct)
			l.impPct = &d
		}
		return l, err
	})
	if err != nil {
		return v, fmt.Errorf("facturacion: líneas de la venta: %w", err)
	}
	var c clienteVenta
	err = br.QueryRow().Scan(&c.nombre, &c.tipoHacienda, &c.identificacion, &c.nombreComercial, &c.email, &c.telefono,
		&c.provincia, &c.canton, &c.distrito, &c.direccion)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return v, fmt.Errorf("facturacion: cliente de la venta: %w", err)
	default:
		v.cliente = &c
	}
	return v, nil
}

// tarifas maps a line's tax percentage to its CodigoTarifaIVA when the
// product's tax type does not say it (Nota 8.1; 07 is disabled and 05/06
// are transitory rates for notes only).
var tarifas = map[string]string{"13": "08", "4": "04", "2": "03", "1": "02", "0.5": "09", "0": "01"}

var cabysRe = regexp.MustCompile(`^[0-9]{13}$`)

// emisorDocumento builds the issuer from the company's settings.
func emisorDocumento(c empresaConfig) comprobante.Parte {
	e := c.emisor
	p := comprobante.Parte{
		Nombre:         e.Nombre,
		Identificacion: comprobante.Identificacion{Tipo: e.TipoIdentificacion, Numero: e.NumeroIdentificacion},
	}
	if e.NombreComercial != nil {
		p.NombreComercial = *e.NombreComercial
	}
	if e.Provincia != nil || e.Canton != nil || e.Distrito != nil || e.OtrasSenas != nil {
		u := &comprobante.Ubicacion{Provincia: valid.Valor(e.Provincia), Canton: valid.Valor(e.Canton), Distrito: valid.Valor(e.Distrito),
			Barrio: valid.Valor(e.Barrio), OtrasSenas: valid.Valor(e.OtrasSenas)}
		p.Ubicacion = u
	}
	if e.Telefono != nil {
		p.Telefono = &comprobante.Telefono{CodigoPais: "506", Numero: *e.Telefono}
	}
	if e.CorreoElectronico != nil {
		p.CorreoElectronico = []string{*e.CorreoElectronico}
	}
	return p
}

var (
	provinciaCod = regexp.MustCompile(`^[1-7]$`)
	cantonCod    = regexp.MustCompile(`^(0[1-9]|[1-9][0-9])$`)
)

// receptorDocumento builds the receiver from the sale's customer. The
// customer's province, canton and district are written only when they are
// the official numeric codes (the customer form takes free text).
func receptorDocumento(c *clienteVenta) *comprobante.Parte {
	if c == nil {
		return nil
	}
	p := &comprobante.Parte{
		Nombre:         recortar(strings.TrimSpace(valid.Valor(c.nombre)), 100),
		Identificacion: comprobante.Identificacion{Tipo: c.tipoHacienda, Numero: soloAlfanumerico(c.identificacion)},
	}
	if c.nombreComercial != nil && len([]rune(*c.nombreComercial)) >= 3 {
		p.NombreComercial = recortar(*c.nombreComercial, 80)
	}
	if c.provincia != nil && c.canton != nil && c.distrito != nil && c.direccion != nil &&
		provinciaCod.MatchString(*c.provincia) && cantonCod.MatchString(*c.canton) && cantonCod.MatchString(*c.distrito) &&
		len([]rune(strings.TrimSpace(*c.direccion))) >= 5 {
		p.Ubicacion = &comprobante.Ubicacion{Provincia: *c.provincia, Canton: *c.canton, Distrito: *c.distrito,
			OtrasSenas: recortar(strings.TrimSpace(*c.direccion), 250)}
	}
	if c.telefono != nil {
		if t := soloDigitos(*c.telefono); len(t) == 8 {
			p.Telefono = &comprobante.Telefono{CodigoPais: "506", Numero: t}
		}
	}
	if c.email != nil && *c.email != "" {
		p.CorreoElectronico = []string{*c.email}
	}
	return p
}

// documento builds the comprobante.Documento of a comprobante: issuer from
// the settings, receiver from the customer, lines from the sale. Problems
// the user can fix are collected as 422 messages; the caller then compares
// the totals and runs comprobante.Validar.
func documento(c Comprobante, cfg empresaConfig, v ventaXML) (comprobante.Documento, error) {
	errs := map[string][]string{}
	fail := func(k, m string) { errs[k] = append(errs[k], m) }
	if cfg.actividad == nil {
		fail("configuracion.codigo_actividad", "Configure la actividad económica del emisor (codigo_actividad) en /api/v1/hacienda/configuracion.")
	}
	if cfg.emisor.Provincia == nil || cfg.emisor.Canton == nil || cfg.emisor.Distrito == nil || cfg.emisor.OtrasSenas == nil {
		fail("configuracion.emisor", "Configure la ubicación del emisor (provincia, canton, distrito, otras_senas) en /api/v1/hacienda/configuracion.")
	}
	if cfg.emisor.CorreoElectronico == nil {
		fail("configuracion.emisor.correo_electronico", "Configure el correo electrónico del emisor en /api/v1/hacienda/configuracion.")
	}
	proveedor := cfg.emisor.NumeroIdentificacion
	if cfg.proveedor != nil {
		proveedor = *cfg.proveedor
	}
	d := comprobante.Documento{
		Tipo: comprobante.Tipo(c.TipoDocumento), Clave: c.Clave, ProveedorSistemas: proveedor,
		CodigoActividadEmisor: valid.Valor(cfg.actividad), NumeroConsecutivo: c.NumeroConsecutivo,
		FechaEmision: c.FechaEmision, Emisor: emisorDocumento(cfg), Receptor: receptorDocumento(v.cliente),
		CodigoMoneda: v.moneda, TipoCambio: v.tipoCambio,
	}
	if c.TipoDocumento == TipoFactura && d.Receptor == nil {
		fail("cliente_id", "Una factura electrónica requiere un cliente (receptor).")
	}
	switch v.condicion {
	case "credito":
		d.CondicionVenta = "02"
		d.PlazoCredito = 30
		if v.plazo != nil && *v.plazo > 0 {
			d.PlazoCredito = *v.plazo
		}
	default:
		d.CondicionVenta = "01"
	}
	switch {
	case v.formaPago != nil && *v.formaPago != "99":
		d.MediosPago = []comprobante.MedioPago{{Tipo: *v.formaPago, Total: v.montoTotal}}
	case v.formaPago == nil && v.condicion != "credito":
		d.MediosPago = []comprobante.MedioPago{{Tipo: "01", Total: v.montoTotal}}
	}
	for i, l := range v.lineas {
		k := "detalles." + strconv.Itoa(i) + "."
		if l.cabys == nil || !cabysRe.MatchString(*l.cabys) {
			fail(k+"codigo_cabys", fmt.Sprintf("La línea %d (%s) no tiene código CABYS de 13 dígitos; asígneselo al producto.", l.linea, l.nombre))
		}
		detalle := l.nombre
		if l.descripcion != nil && len([]rune(strings.TrimSpace(*l.descripcion))) >= 3 {
			detalle = strings.TrimSpace(*l.descripcion)
		}
		ln := comprobante.Linea{
			CodigoCABYS: valid.Valor(l.cabys), Cantidad: l.cantidad, UnidadMedida: l.unidad, Detalle: recortar(detalle, 200),
			PrecioUnitario: l.precio, ImpuestoCodigo: "01", Tarifa: l.porcentaje, EsServicio: l.tipo == "servicio",
		}
		if l.descuento.IsPositive() {
			ln.Descuentos = []comprobante.Descuento{{Monto: l.descuento, Codigo: "07", Naturaleza: "Descuento comercial"}}
		}
		switch {
		case l.impTarifa != nil && l.impPct != nil && l.impPct.Equal(l.porcentaje) && (l.impCodigo == nil || *l.impCodigo == "01"):
			ln.CodigoTarifaIVA = *l.impTarifa
			if l.impExento {
				ln.CodigoTarifaIVA, ln.Tarifa = comprobante.TarifaExenta, decimal.Zero
			}
		default:
			cod, ok := tarifas[l.porcentaje.String()]
			if !ok {
				fail(k+"porcentaje_impuesto", fmt.Sprintf("La línea %d tiene un impuesto de %s%%, que no es una tarifa de IVA de Hacienda (13, 4, 2, 1, 0,5 o 0).", l.linea, l.porcentaje.String()))
			}
			ln.CodigoTarifaIVA = cod
		}
		d.Lineas = append(d.Lineas, ln)
	}
	if c.TipoDocumento == TipoNotaCredito || c.TipoDocumento == TipoNotaDebito {
		switch {
		case v.ref.ventaID == nil || v.ref.codigo == nil || v.ref.razon == nil:
			fail("venta_referencia_id", "La nota no indica la venta que corrige (venta_referencia_id, codigo_referencia, razon_referencia).")
		case v.ref.clave == nil:
			fail("venta_referencia_id", "La venta de referencia no tiene comprobante electrónico; genere el suyo primero.")
		default:
			d.Referencias = []comprobante.Referencia{{TipoDoc: *v.ref.tipo, Numero: *v.ref.clave, FechaEmision: *v.ref.emision,
				Codigo: *v.ref.codigo, Razon: *v.ref.razon}}
		}
	}
	if len(errs) > 0 {
		return d, apperr.NewInvalid(errs)
	}
	return d, nil
}

// invalidoDesde turns comprobante's field paths into the API's keys:
// Lineas.N.X -> detalles.N.x, Emisor.X -> configuracion.emisor.x,
// Receptor.X -> cliente.x, Referencias.N.X -> referencia.x.
func invalidoDesde(ve map[string]string) error {
	errs := map[string][]string{}
	keys := make([]string, 0, len(ve))
	for k := range ve {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		errs[claveAPI(k)] = append(errs[claveAPI(k)], ve[k])
	}
	return apperr.NewInvalid(errs)
}

var prefijos = map[string]string{
	"Lineas": "detalles", "Emisor": "configuracion.emisor", "Receptor": "cliente",
	"CodigoActividadEmisor": "configuracion.codigo_actividad", "ProveedorSistemas": "configuracion.proveedor_sistemas",
	"MediosPago": "forma_pago_id", "CondicionVenta": "condicion_venta", "PlazoCredito": "condicion_venta",
}

func claveAPI(path string) string {
	parts := strings.Split(path, ".")
	if p, ok := prefijos[parts[0]]; ok {
		if parts[0] == "Lineas" {
			return strings.Join(append([]string{p}, snakes(parts[1:])...), ".")
		}
		if parts[0] == "Emisor" || parts[0] == "Receptor" {
			return strings.Join(append([]string{p}, snakes(parts[1:])...), ".")
		}
		return p
	}
	if parts[0] == "Referencias" {
		return "referencia"
	}
	return strings.Join(snakes(parts), ".")
}

func snakes(parts []string) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		var b strings.Builder
		prev := rune(0)
		for _, r := range p {
			if unicode.IsUpper(r) {
				// "CodigoCABYS" -> codigo_cabys: a break only after a lower-case letter or a digit.
				if unicode.IsLower(prev) || unicode.IsDigit(prev) {
					b.WriteByte('_')
				}
				prev = r
				r = unicode.ToLower(r)
			} else {
				prev = r
			}
			b.WriteRune(r)
		}
		out[i] = b.String()
	}
	return out
}
