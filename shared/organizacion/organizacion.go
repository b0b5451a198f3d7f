// Package organizacion declares the structure of a company: the company
// itself (empresas), its branches (sucursales) and its warehouses
// (almacenes), with the "at most one principal" rules.
package organizacion

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/recurso"
)

// principal keeps "at most one principal per company": marking a row
// principal unmarks the others in the same transaction (the partial unique
// index <table>_una_principal is the last line of defence).
//
// Two transactions switching the principal of the same company at once
// would each unmark the rows they can see and then both write a principal,
// and the second would hit the unique index (a 500). A transaction-level
// advisory lock per company and table serialises the switches; the update
// runs as the next statement, so under READ COMMITTED it sees the principal
// the other transaction committed and unmarks it. Lock and update go in one
// pipelined round trip.
func principal(table string) func(c *recurso.Call, vals map[string]any) error {
	return func(c *recurso.Call, vals map[string]any) error {
		if v, _ := vals["es_principal"].(bool); !v {
			return nil
		}
		b := &pgx.Batch{}
		b.Queue(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, fmt.Sprintf("%s.es_principal:%d", table, c.Tx.EmpresaID()))
		b.Queue(`update `+table+` set es_principal = false
			where empresa_id = $1 and es_principal and not eliminado and id <> $2`, c.Tx.EmpresaID(), c.ID)
		return c.Tx.SendBatch(c.Context(), b).Close()
	}
}

// keepPrincipal refuses to delete the principal row (recurso locks the row
// before reading it, so a switch of the principal committed meanwhile is
// seen).
func keepPrincipal(msg string) func(c *recurso.Call) error {
	return func(c *recurso.Call) error {
		if v, _ := c.Current["es_principal"].(bool); v {
			return &httpx.Error{Kind: apperr.Invalid, Message: msg,
				Fields: map[string][]string{"es_principal": {msg}}}
		}
		return nil
	}
}

// Sucursal is a branch.
var Sucursal = &recurso.Resource{
	Name: "sucursales", Table: "sucursales", Tenant: true, Search: true,
	Fields: recurso.Campos([]recurso.Field{
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "codigo", Kind: recurso.Text, Max: 50},
		{Name: "telefono", Kind: recurso.Text, Max: 30, Normalize: crformat.PhoneRule("telefono")},
		{Name: "email", Kind: recurso.Text, Max: 255, Email: true},
	}, recurso.Direccion("provincia", "canton", "distrito"), []recurso.Field{
		{Name: "es_principal", Kind: recurso.Boolean},
		{Name: "activo", Kind: recurso.Boolean},
	}),
	// empresa_id is documented as a filter (SPEC.md resource table); rows are
	// always the tenant's, so another company's id simply finds nothing.
	Filters: []recurso.Filter{{Param: "empresa_id", Kind: recurso.Ref}, {Param: "es_principal", Kind: recurso.Boolean}},
	Sorts:   []string{"nombre", "codigo"},
	Relations: []recurso.Relation{
		{Name: "empresa", FK: "empresa_id", Table: "empresas", Cols: []string{"id", "nombre", "razon_social"}},
	},
	Aggregates: []recurso.Aggregate{{Name: "almacenes_count", Zero: 0,
		SQL: `select a.sucursal_id, to_jsonb(count(*)) from almacenes a where a.sucursal_id = any($1) and not a.eliminado group by 1`},
		// Cash boxes (shared/tesoreria) and sales (cancelled ones included,
		// deleted ones not) of each branch.
		{Name: "cajas_count", Zero: 0,
			SQL: `select c.sucursal_id, to_jsonb(count(*)) from cajas c where c.sucursal_id = any($1) and not c.eliminado group by 1`},
		{Name: "ventas_count", Zero: 0,
			SQL: `select v.sucursal_id, to_jsonb(count(*)) from ventas v where v.sucursal_id = any($1) and not v.eliminado group by 1`}},
	Details: []recurso.Detail{{Name: "almacenes",
		SQL: `select coalesce(jsonb_agg(to_jsonb(a) - 'busqueda' order by a.id), '[]'::jsonb) from almacenes a where a.sucursal_id = $1 and not a.eliminado`},
		{Name: "cajas",
			SQL: `select coalesce(jsonb_agg(to_jsonb(c) || jsonb_build_object('abierta', exists (select 1 from caja_sesiones s
				where s.empresa_id = c.empresa_id and s.caja_id = c.id and s.estado = 'abierta')) order by c.id), '[]'::jsonb)
				from cajas c where c.sucursal_id = $1 and not c.eliminado`}},
	Messages: recurso.Messages{NotFound: "Sucursal no encontrada.", Created: "Sucursal creada correctamente.",
		Updated: "Sucursal actualizada correctamente.", Deleted: "Sucursal eliminada correctamente."},
	BeforeSave:   principal("sucursales"),
	BeforeDelete: keepPrincipal("No se puede eliminar la sucursal principal. Marque otra sucursal como principal primero."),
}

// Almacen is a warehouse of a branch.
var Almacen = &recurso.Resource{
	Name: "almacenes", Table: "almacenes", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "sucursal_id", Kind: recurso.Ref, Required: true, RefTable: "sucursales", RefTenant: true,
			RefMsg: "La sucursal seleccionada no existe en esta empresa."},
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255},
		{Name: "codigo", Kind: recurso.Text, Max: 50},
		{Name: "descripcion", Kind: recurso.Text, Max: 1000},
		{Name: "ubicacion", Kind: recurso.Text, Max: 500},
		{Name: "tipo_almacen", Kind: recurso.Text, Max: 50, Default: "general"},
		{Name: "es_principal", Kind: recurso.Boolean},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Filters: []recurso.Filter{{Param: "empresa_id", Kind: recurso.Ref}, {Param: "sucursal_id", Kind: recurso.Ref},
		{Param: "es_principal", Kind: recurso.Boolean}},
	Sorts: []string{"nombre", "codigo"},
	Relations: []recurso.Relation{
		{Name: "sucursal", FK: "sucursal_id", Table: "sucursales", Cols: []string{"id", "nombre", "codigo", "es_principal"}},
		{Name: "empresa", FK: "empresa_id", Table: "empresas", Cols: []string{"id", "nombre"}},
	},
	Aggregates: []recurso.Aggregate{
		{Name: "inventarios_count", Zero: 0,
			SQL: `select i.almacen_id, to_jsonb(count(*)) from inventarios i where i.almacen_id = any($1) and not i.eliminado group by 1`},
		{Name: "valor_total_inventario", Zero: 0,
			SQL: `select i.almacen_id, to_jsonb(round(sum(i.cantidad_disponible * i.costo_unitario), 2)) from inventarios i
				where i.almacen_id = any($1) and not i.eliminado group by 1`},
	},
	Messages: recurso.Messages{NotFound: "Almacén no encontrado.", Created: "Almacén creado correctamente.",
		Updated: "Almacén actualizado correctamente.", Deleted: "Almacén eliminado correctamente."},
	BeforeSave:   principal("almacenes"),
	BeforeDelete: keepPrincipal("No se puede eliminar el almacén principal. Marque otro almacén como principal primero."),
}

// Sucursales returns the handlers of the sucursales group.
func Sucursales(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Sucursal, d.DB) }

// Almacenes returns the handlers of the almacenes group.
func Almacenes(d *plataforma.Deps) lambdahttp.Handlers { return recurso.Handlers(Almacen, d.DB) }
