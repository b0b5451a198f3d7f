// Package terceros declares the company's counterparties: customers
// (clientes) and suppliers (proveedores), with Costa Rica's identification
// and phone formats and the supplier normalization rules.
package terceros

import (
	"strings"

	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
)

func collapse(s string) (string, string, bool) { return crformat.CollapseSpaces(s), "", true }

func nitRuc(s string) (string, string, bool) {
	n := crformat.NormalizeNitRuc(s)
	if n == "" {
		// nit_ruc is optional: a blank value clears it, but one made only of
		// separators ("---") is a typing mistake, not a request to clear.
		return "", "El campo nit ruc debe contener letras o números.", false
	}
	if strings.Trim(n, "0") == "" {
		// "000000000" is a placeholder typed to get past a form, not a
		// tax number of any country; stored, it would also take the
		// company's one slot for that value.
		return "", "El campo nit ruc no puede ser solo ceros.", false
	}
	return n, "", true
}

// maxInt4 is the largest value of an integer (int4) column: larger
// dias_credito values must be a 422, not a failed write.
const maxInt4 = "2147483647"

// zeroWhenNull turns an explicit null of the credit fields into 0: their
// columns are NOT NULL DEFAULT 0, so "null clears the field" means back to
// the default rather than a failed write.
func zeroWhenNull(vals map[string]any, keys ...string) {
	for _, k := range keys {
		if v, ok := vals[k]; ok && v == nil {
			vals[k] = int64(0)
		}
	}
}

// text is the current or new value of a text field.
// ValidarIdentificacion checks and normalizes tipo_identificacion +
// identificacion when either is written (the Costa Rican formats of
// crformat), for every resource that identifies a person or company the same
// way: customers, suppliers, employees.
func ValidarIdentificacion(c *recurso.Call, vals map[string]any) {
	tipo, _ := c.Texto(vals, "tipo_identificacion")
	ident, ok := c.Texto(vals, "identificacion")
	_, tipoSent := vals["tipo_identificacion"]
	_, identSent := vals["identificacion"]
	if ok && (tipoSent || identSent) && !c.In.Failed("tipo_identificacion") && !c.In.Failed("identificacion") {
		n, msg, valid := crformat.NormalizeIdentificacion(tipo, ident)
		if !valid {
			c.In.Fail("identificacion", msg)
		} else {
			vals["identificacion"] = n
		}
	}
}

// Cliente is a customer of a company.
var Cliente = &recurso.Resource{
	Name: "clientes", Table: "clientes", Tenant: true, Search: true,
	Fields: recurso.Campos([]recurso.Field{
		{Name: "tipo_identificacion", Kind: recurso.Text, Required: true, Values: crformat.TiposIdentificacion},
		{Name: "identificacion", Kind: recurso.Text, Required: true, Max: 50, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe un cliente con esa identificación en esta empresa."},
		{Name: "nombre", Kind: recurso.Text, Max: 255},
		{Name: "apellidos", Kind: recurso.Text, Max: 255},
		{Name: "razon_social", Kind: recurso.Text, Max: 255},
		{Name: "nombre_comercial", Kind: recurso.Text, Max: 255},
		{Name: "email", Kind: recurso.Text, Max: 255, Email: true},
		{Name: "telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("telefono")},
		{Name: "celular", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("celular")},
	}, recurso.Direccion("provincia", "canton", "distrito"), []recurso.Field{
		{Name: "limite_credito", Kind: recurso.Decimal, MinValue: "0"},
		{Name: "dias_credito", Kind: recurso.Integer, MinValue: "0", MaxValue: maxInt4},
		{Name: "observaciones", Kind: recurso.Text, Max: 2000},
		{Name: "activo", Kind: recurso.Boolean},
	}),
	Computed: map[string]string{
		// A física is nombre + apellidos (razon_social when it has no name);
		// the other types are their razon_social, else nombre + apellidos.
		"nombre_completo": `case when t.tipo_identificacion = 'fisica' or t.razon_social is null
			then coalesce(nullif(trim(concat_ws(' ', t.nombre, t.apellidos)), ''), t.razon_social) else t.razon_social end`,
		"tipo_identificacion_descripcion": `(select ti.nombre from tipos_identificacion ti where ti.codigo = t.tipo_identificacion)`,
	},
	Filters: []recurso.Filter{{Param: "tipo_identificacion", Kind: recurso.Text, Values: crformat.TiposIdentificacion}},
	Sorts:   []string{"nombre", "identificacion", "razon_social"},
	Aggregates: []recurso.Aggregate{
		// Sales not deleted (anuladas included), and pending receivables
		// (the ones the detail view lists).
		{Name: "ventas_count", Zero: 0, SQL: `select v.cliente_id, to_jsonb(count(*)) from ventas v
			where v.empresa_id = app_empresa_id() and v.cliente_id = any($1) and not v.eliminado group by 1`},
		{Name: "cuentas_por_cobrar_count", Zero: 0, SQL: `select c.cliente_id, to_jsonb(count(*)) from cuentas_por_cobrar c
			where c.empresa_id = app_empresa_id() and c.cliente_id = any($1) and c.estado = 'pendiente' and not c.eliminado group by 1`},
	},
	Details: []recurso.Detail{
		recientes("ventas", "ventas", "cliente_id", "fecha_venta", `id, numero_comprobante, tipo_comprobante, fecha_venta, estado, condicion_venta,
			  monto_subtotal, monto_descuentos, monto_impuestos, monto_total, creado_en`),
		pendientes("cuentas_por_cobrar", "cliente_id", "venta_id", "ventas", "numero_comprobante"),
	},
	// ClienteCreadoEvent, with the customer as the API shows it, in the
	// creating transaction.
	AfterCreate: func(c *recurso.Call, row recurso.Row) error {
		return eventos.Registrar(c.Context(), c.Tx, eventos.ClienteCreado, row)
	},
	Messages: recurso.Messages{NotFound: "Cliente no encontrado.", Created: "Cliente creado correctamente.",
		Updated: "Cliente actualizado correctamente.", Deleted: "Cliente eliminado correctamente."},
	Validate: func(c *recurso.Call, vals map[string]any) {
		ValidarIdentificacion(c, vals)
		nombre, _ := c.Texto(vals, "nombre")
		razon, _ := c.Texto(vals, "razon_social")
		if nombre == "" && razon == "" && !c.In.Failed("nombre") {
			c.In.Fail("nombre", "El campo nombre es obligatorio cuando no se indica razon social.")
		}
		zeroWhenNull(vals, "limite_credito", "dias_credito")
	},
}

// recientes is the detail of a party's latest 10 documents of tabla (its
// column parte names the party), newest first by fecha, with columnas.
func recientes(nombre, tabla, parte, fecha, columnas string) recurso.Detail {
	return recurso.Detail{Name: nombre, SQL: `select coalesce(jsonb_agg(x order by x.` + fecha + ` desc, x.id desc), '[]') from (
			select ` + columnas + `
			from ` + tabla + ` d where d.empresa_id = app_empresa_id() and d.` + parte + ` = $1 and not d.eliminado
			order by d.` + fecha + ` desc, d.id desc limit 10) x`}
}

// pendientes is the detail of a party's pending accounts (a customer's
// receivables, a supplier's payables, in table nombre), the first due
// first, each with the number of the document of origen it comes from.
func pendientes(nombre, parte, origen, tablaOrigen, numero string) recurso.Detail {
	return recurso.Detail{Name: nombre, SQL: `select coalesce(jsonb_agg(x order by x.fecha_vencimiento, x.id), '[]') from (
			select c.id, c.` + origen + `, d.` + numero + `, c.monto, c.saldo, c.fecha_emision, c.fecha_vencimiento, c.estado,
			  c.fecha_vencimiento < ` + horacr.HoySQL + ` as vencida
			from ` + nombre + ` c join ` + tablaOrigen + ` d on d.empresa_id = c.empresa_id and d.id = c.` + origen + `
			where c.empresa_id = app_empresa_id() and c.` + parte + ` = $1 and c.estado = 'pendiente' and not c.eliminado) x`}
}

// Proveedor is a supplier of a company. Normalized on save: nombre and
// razon_social trimmed with inner spaces collapsed, nit_ruc without spaces,
// dashes or dots and upper-cased, e-mails trimmed and lower-cased, phones as
// 8 digits.
var Proveedor = &recurso.Resource{
	Name: "proveedores", Table: "proveedores", Tenant: true, Search: true,
	Fields: recurso.Campos([]recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse},
		{Name: "razon_social", Kind: recurso.Text, Max: 255, Normalize: collapse},
		{Name: "nit_ruc", Kind: recurso.Text, Max: 50, Normalize: nitRuc, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe un proveedor con ese NIT/RUC en esta empresa."},
		{Name: "email", Kind: recurso.Text, Max: 255, Email: true},
		{Name: "telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("telefono")},
		{Name: "celular", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("celular")},
	}, recurso.Direccion("pais", "provincia", "ciudad"), []recurso.Field{
		{Name: "contacto_nombre", Kind: recurso.Text, Max: 255, Normalize: collapse},
		{Name: "contacto_telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("contacto_telefono")},
		{Name: "contacto_email", Kind: recurso.Text, Max: 255, Email: true},
		{Name: "dias_credito", Kind: recurso.Integer, MinValue: "0", MaxValue: maxInt4},
		{Name: "limite_credito", Kind: recurso.Decimal, MinValue: "0"},
		{Name: "activo", Kind: recurso.Boolean},
	}),
	Sorts: []string{"nombre", "nit_ruc", "razon_social"},
	Details: []recurso.Detail{
		recientes("ordenes_compra", "ordenes_compra", "proveedor_id", "fecha_orden", `id, numero_orden, fecha_orden, fecha_entrega_estimada, estado,
			  monto_subtotal, monto_descuentos, monto_impuestos, monto_total, creado_en`),
		pendientes("cuentas_por_pagar", "proveedor_id", "orden_compra_id", "ordenes_compra", "numero_orden"),
	},
	Validate: func(_ *recurso.Call, vals map[string]any) {
		zeroWhenNull(vals, "limite_credito", "dias_credito")
	},
	Messages: recurso.Messages{NotFound: "Proveedor no encontrado.", Created: "Proveedor creado correctamente.",
		Updated: "Proveedor actualizado correctamente.", Deleted: "Proveedor eliminado correctamente."},
}

// Clientes returns the handlers of the clientes group.
func Clientes(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Cliente, d.DB) }

// Proveedores returns the handlers of the proveedores group.
func Proveedores(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Proveedor, d.DB) }
