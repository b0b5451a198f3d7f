package catalogo

import (
	"encoding/json"
	"regexp"

	"github.com/erpcr/erp/shared/recurso"
)

var cabysRe = regexp.MustCompile(`^\d{13}$`)

func normalizeCabys(s string) (string, string, bool) {
	if !cabysRe.MatchString(s) {
		return "", "El código CABYS debe tener exactamente 13 dígitos.", false
	}
	return s, "", true
}

// Producto is a product or service of a company.
var Producto = &recurso.Resource{
	Name: "productos", Table: "productos", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "categoria_id", Kind: recurso.Ref, Required: true, RefTable: "categorias_producto", RefTenant: true,
			RefMsg: "La categoría seleccionada no existe en esta empresa."},
		{Name: "unidad_medida_id", Kind: recurso.Ref, Required: true, RefTable: "unidades_medida",
			RefMsg: "La unidad de medida seleccionada no existe."},
		{Name: "marca_id", Kind: recurso.Ref, RefTable: "marcas", RefMsg: "La marca seleccionada no existe."},
		{Name: "tipo_impuesto_id", Kind: recurso.Ref, RefTable: "tipos_impuesto", RefMsg: "El tipo de impuesto seleccionado no existe."},
		{Name: "proveedor_predeterminado_id", Kind: recurso.Ref, RefTable: "proveedores", RefTenant: true,
			RefMsg: "El proveedor seleccionado no existe en esta empresa."},
		{Name: "cabys_id", Kind: recurso.Integer, MinValue: "1"},
		{Name: "codigo_cabys", Kind: recurso.Text, Max: 13, Normalize: normalizeCabys},
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "codigo", Kind: recurso.Text, Max: 50, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe un producto con ese código en esta empresa."},
		{Name: "codigo_barras", Kind: recurso.Text, Max: 100},
		{Name: "descripcion", Kind: recurso.Text, Max: 1000},
		{Name: "tipo", Kind: recurso.Text, Required: true, Values: []string{"producto", "servicio"}},
		// Columns NOT NULL DEFAULT 0: null (or absent on create) means 0.
		{Name: "precio_compra", Kind: recurso.Decimal, MinValue: "0", Default: int64(0)},
		{Name: "precio_venta", Kind: recurso.Decimal, Required: true, MinValue: "0"},
		{Name: "stock_minimo", Kind: recurso.Integer, MinValue: "0", MaxValue: maxInt4, Default: int64(0)},
		{Name: "stock_maximo", Kind: recurso.Integer, MinValue: "0", MaxValue: maxInt4},
		{Name: "gestionado_inventario", Kind: recurso.Boolean},
		{Name: "imagen_url", Kind: recurso.Text, Max: 500, URL: true},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Filters: []recurso.Filter{
		{Param: "categoria_id", Kind: recurso.Ref},
		{Param: "marca_id", Kind: recurso.Ref},
		{Param: "tipo", Kind: recurso.Text, Values: []string{"producto", "servicio"}},
	},
	Sorts: []string{"nombre", "codigo", "precio_venta"},
	Relations: []recurso.Relation{
		{Name: "categoria", FK: "categoria_id", Table: "categorias_producto", Cols: []string{"id", "nombre"}},
		{Name: "marca", FK: "marca_id", Table: "marcas", Cols: []string{"id", "nombre"}},
		{Name: "tipo_impuesto", FK: "tipo_impuesto_id", Table: "tipos_impuesto", Cols: []string{"id", "nombre", "codigo_tarifa_iva", "porcentaje"}},
	},
	Aggregates: []recurso.Aggregate{
		// The unit nests like a relation, with the simbolo every unit shows.
		{Name: "unidad_medida", SQL: `select p.id, jsonb_build_object('id', u.id, 'codigo', u.codigo, 'nombre', u.nombre,
			'abreviatura', u.abreviatura, 'simbolo', u.abreviatura)
			from productos p join unidades_medida u on u.id = p.unidad_medida_id where p.id = any($1)`},
		// Available quantity over the product's inventories, with the scale
		// of the quantity column (numeric(18,4)) whether or not there is stock.
		{Name: "stock_total", Zero: json.Number("0.0000"),
			SQL: `select i.producto_id, to_jsonb(sum(i.cantidad_disponible)) from inventarios i
			where i.producto_id = any($1) and not i.eliminado group by 1`},
	},
	Messages: recurso.Messages{NotFound: "Producto no encontrado.", Created: "Producto creado correctamente.",
		Updated: "Producto actualizado correctamente.", Deleted: "Producto eliminado correctamente."},
	Validate: func(c *recurso.Call, vals map[string]any) {
		// Services hold no stock unless told otherwise.
		if c.ID == 0 {
			if _, sent := vals["gestionado_inventario"]; !sent {
				vals["gestionado_inventario"] = vals["tipo"] != "servicio"
			}
		}
		min, max := intOf(vals, c.Current, "stock_minimo"), intOf(vals, c.Current, "stock_maximo")
		if min != nil && max != nil && *max < *min && (vals["stock_minimo"] != nil || vals["stock_maximo"] != nil) {
			c.In.Fail("stock_maximo", "El campo stock maximo debe ser mayor o igual que stock minimo.")
		}
	},
}
