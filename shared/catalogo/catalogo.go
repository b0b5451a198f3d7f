// Package catalogo declares the product catalogs: product categories (per
// company), brands and units of measure (global, written only by
// Administrador), the seeded read-only catalogs (tax regimes, IVA rates,
// payment methods, identification types) and the products themselves.
package catalogo

import (
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
)

// Categorias are the product categories of a company.
var Categorias = &recurso.Resource{
	Name: "categorias-productos", Table: "categorias_producto", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255, Unique: recurso.UniquePerTenant, CaseInsensitive: true,
			UniqueMsg: "Ya existe una categoría con ese nombre en esta empresa."},
		{Name: "descripcion", Kind: recurso.Text, Max: 1000},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Sorts: []string{"nombre"},
	Aggregates: []recurso.Aggregate{{Name: "productos_count", Zero: 0,
		SQL: `select p.categoria_id, to_jsonb(count(*)) from productos p where p.categoria_id = any($1) and not p.eliminado group by 1`}},
	Messages: recurso.Messages{NotFound: "Categoría no encontrada.", Created: "Categoría creada correctamente.",
		Updated: "Categoría actualizada correctamente.", Deleted: "Categoría eliminada correctamente."},
	BeforeDelete: refuseInUse("productos", "categoria_id", "categoria", "No se puede eliminar una categoría que tiene productos."),
}

// Marcas are global brands.
var Marcas = &recurso.Resource{
	Name: "marcas", Table: "marcas", Search: true,
	Fields: []recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255, Unique: recurso.UniqueGlobal, CaseInsensitive: true,
			UniqueMsg: "Ya existe una marca con ese nombre."},
		{Name: "descripcion", Kind: recurso.Text, Max: 1000},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Sorts: []string{"nombre"},
	Messages: recurso.Messages{NotFound: "Marca no encontrada.", Created: "Marca creada correctamente.",
		Updated: "Marca actualizada correctamente.", Deleted: "Marca eliminada correctamente."},
}

// Unidades are Hacienda's units of measure (global).
var Unidades = &recurso.Resource{
	Name: "unidades-medida", Table: "unidades_medida", Search: true,
	Fields: []recurso.Field{
		{Name: "codigo", Kind: recurso.Text, Required: true, Max: 20, Values: CodigosUnidad, Unique: recurso.UniqueGlobal,
			UniqueMsg: "Ya existe una unidad con ese código oficial."},
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "abreviatura", Kind: recurso.Text, Required: true, Max: 20, Unique: recurso.UniqueGlobal,
			UniqueMsg: "Ya existe una unidad con esa abreviatura."},
		{Name: "tipo", Kind: recurso.Text, Max: 50, Default: "unidad"},
		{Name: "descripcion", Kind: recurso.Text, Max: 1000},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Computed: map[string]string{"simbolo": "t.abreviatura"},
	Filters:  []recurso.Filter{{Param: "tipo", Kind: recurso.Text}, {Param: "codigo", Kind: recurso.Text}},
	Sorts:    []string{"codigo", "nombre", "abreviatura"},
	Messages: recurso.Messages{NotFound: "Unidad de medida no encontrada.", Created: "Unidad de medida creada correctamente.",
		Updated: "Unidad de medida actualizada correctamente.", Deleted: "Unidad de medida eliminada correctamente."},
	// A unit is global: the products of every company count, not only the
	// tenant's (row-level security hides the others, hence the function).
	BeforeDelete: refuseInUseSQL(`select unidad_medida_en_uso($1)`, "unidad_medida", "No se puede eliminar una unidad usada por productos."),
}

func readOnly(name, table, notFound string, sorts []string, filters ...recurso.Filter) *recurso.Resource {
	return &recurso.Resource{Name: name, Table: table, ReadOnly: true, Sorts: sorts, Filters: filters,
		Messages: recurso.Messages{NotFound: notFound}}
}

// Regimenes, TiposImpuesto, FormasPago and TiposIdentificacion are the seeded
// catalogs other resources reference.
var (
	Regimenes     = readOnly("regimenes-tributarios", "regimenes_tributarios", "Régimen tributario no encontrado.", []string{"codigo", "nombre"})
	TiposImpuesto = readOnly("tipos-impuesto", "tipos_impuesto", "Tipo de impuesto no encontrado.", []string{"codigo_tarifa_iva", "porcentaje"},
		recurso.Filter{Param: "codigo", Kind: recurso.Text}, recurso.Filter{Param: "codigo_tarifa_iva", Kind: recurso.Text})
	FormasPago          = readOnly("formas-pago", "formas_pago", "Forma de pago no encontrada.", []string{"codigo", "nombre"})
	TiposIdentificacion = readOnly("tipos-identificacion", "tipos_identificacion", "Tipo de identificación no encontrado.", []string{"codigo", "codigo_hacienda"})
)

// Catalogos returns the handlers of the catalogos group.
func Catalogos(d *plataforma.Deps) lambdahttp.Handlers {
	hs := lambdahttp.Handlers{}
	for _, res := range []*recurso.Resource{Categorias, Marcas, Unidades, Regimenes, TiposImpuesto, FormasPago, TiposIdentificacion} {
		for k, v := range recurso.Handlers(res, d.DB) {
			hs[k] = v
		}
	}
	return hs
}

// Productos returns the handlers of the productos group.
func Productos(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Producto, d.DB) }
