package contabilidad

import "github.com/erpcr/erp/shared/recurso"

// TiposCambio are the official reference rates (Banco Central de Costa
// Rica) the company enters per date: an entry in dollars without a rate
// takes the venta rate of its date, and reports in dollars convert with
// them. One rate per company, currency and date.
var TiposCambio = &recurso.Resource{
	Name: "tipos-cambio", Table: "tipos_cambio", Tenant: true,
	Fields: []recurso.Field{
		{Name: "fecha", Kind: recurso.Date, Required: true, Unique: recurso.UniquePerTenant, Immutable: true,
			UniqueMsg: "Ya hay un tipo de cambio registrado para esa fecha.", Ejemplo: "2026-01-15"},
		{Name: "moneda", Kind: recurso.Text, Values: []string{"USD"}, Default: "USD", Immutable: true},
		{Name: "compra", Kind: recurso.Decimal, Required: true, Scale: 5, MinValue: "0.00001", MaxValue: "9999999",
			Ejemplo: 505.12},
		{Name: "venta", Kind: recurso.Decimal, Required: true, Scale: 5, MinValue: "0.00001", MaxValue: "9999999",
			Ejemplo: 511.43},
		{Name: "fuente", Kind: recurso.Text, Max: 255, Default: "Banco Central de Costa Rica, tipo de cambio de referencia"},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Filters: []recurso.Filter{{Param: "moneda", Kind: recurso.Text, Values: []string{"USD"}}},
	Sorts:   []string{"fecha", "compra", "venta"},
	Messages: recurso.Messages{NotFound: "Tipo de cambio no encontrado.", Created: "Tipo de cambio registrado correctamente.",
		Updated: "Tipo de cambio actualizado correctamente.", Deleted: "Tipo de cambio eliminado correctamente."},
}
