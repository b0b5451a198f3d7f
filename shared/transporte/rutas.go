package transporte

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/crformat"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/recurso"
)

// maxInt4 is the largest value of an integer column.
const maxInt4 = "2147483647"

func collapse(s string) (string, string, bool) { return crformat.CollapseSpaces(s), "", true }

// codigo is stored upper-cased with its inner spaces collapsed, so "r-01"
// and "R-01" are the same route code.
func codigo(s string) (string, string, bool) {
	return strings.ToUpper(crformat.CollapseSpaces(s)), "", true
}

// The nested lists of a route as the API shows them: stops by order,
// departures Monday first and by time.
const (
	paradasSQL = `select p.ruta_id, jsonb_agg(jsonb_build_object('orden', p.orden, 'nombre', p.nombre,
			'latitud', p.latitud, 'longitud', p.longitud) order by p.orden)
		from ruta_paradas p where p.empresa_id = app_empresa_id() and p.ruta_id = any($1) group by 1`
	horariosSQL = `select h.ruta_id, jsonb_agg(jsonb_build_object('dia_semana', h.dia_semana,
			'hora_salida', to_char(h.hora_salida, 'HH24:MI'))
			order by array_position(array['lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo'], h.dia_semana::text), h.hora_salida)
		from ruta_horarios h where h.empresa_id = app_empresa_id() and h.ruta_id = any($1) group by 1`
)

// Ruta is a bus route of a company, with its stops and departures.
var Ruta = &recurso.Resource{
	Name: "rutas", Table: "rutas", Tenant: true, Search: true,
	Fields: []recurso.Field{
		{Name: "codigo", Kind: recurso.Text, Required: true, Max: 50, Normalize: codigo, Unique: recurso.UniquePerTenant,
			UniqueMsg: "Ya existe una ruta con ese código en esta empresa.", Ejemplo: "R-101"},
		{Name: "nombre", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse, Ejemplo: "San José - Cartago"},
		{Name: "origen", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse, Ejemplo: "San José"},
		{Name: "destino", Kind: recurso.Text, Required: true, Max: 255, Normalize: collapse, Ejemplo: "Cartago"},
		{Name: "distancia_km", Kind: recurso.Decimal, MinValue: "0.01", MaxValue: "99999999.99"},
		{Name: "duracion_estimada_min", Kind: recurso.Integer, MinValue: "1", MaxValue: maxInt4},
		// Colones; numeric(18,2) like every amount.
		{Name: "tarifa", Kind: recurso.Decimal, MinValue: "0", Ejemplo: "655.00"},
		{Name: "activo", Kind: recurso.Boolean},
	},
	Listas: []esquema.Campo{
		{Nombre: "paradas", Tipo: esquema.Lista, MaxItems: maxParadas,
			Descripcion: "Reemplaza las paradas de la ruta. Los órdenes son únicos y consecutivos desde 1; errores bajo paradas.N.campo.",
			Campos: []esquema.Campo{
				{Nombre: "nombre", Tipo: esquema.Texto, Requerido: true, MaxLargo: 255, Ejemplo: "Terminal Coca Cola"},
				{Nombre: "orden", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
				{Nombre: "latitud", Tipo: esquema.Decimal, Requerido: true, Minimo: "-90", Maximo: "90", Ejemplo: 9.935,
					Descripcion: "Grados, hasta 6 decimales."},
				{Nombre: "longitud", Tipo: esquema.Decimal, Requerido: true, Minimo: "-180", Maximo: "180", Ejemplo: -84.091,
					Descripcion: "Grados, hasta 6 decimales."},
			}},
		{Nombre: "horarios", Tipo: esquema.Lista, MaxItems: maxHorarios,
			Descripcion: "Reemplaza las salidas de la ruta; un mismo día y hora no se repite.",
			Campos: []esquema.Campo{
				{Nombre: "dia_semana", Tipo: esquema.Texto, Requerido: true, Valores: DiasSemana},
				{Nombre: "hora_salida", Tipo: esquema.Texto, Requerido: true, Patron: `^([01][0-9]|2[0-3]):[0-5][0-9]$`, Ejemplo: "05:30",
					Descripcion: "HH:MM, 24 horas."},
			}},
	},
	Aggregates: []recurso.Aggregate{
		{Name: "paradas", SQL: paradasSQL, Zero: []any{}},
		{Name: "horarios", SQL: horariosSQL, Zero: []any{}},
		{Name: "buses_count", Zero: 0, SQL: `select b.ruta_id, to_jsonb(count(*)) from buses b
			where b.empresa_id = app_empresa_id() and b.ruta_id = any($1) and not b.eliminado group by 1`},
	},
	Details: []recurso.Detail{
		// The route's buses, by unit number and plate: one query.
		{Name: "buses", SQL: `select coalesce(jsonb_agg(jsonb_build_object('id', b.id, 'placa', b.placa,
				'numero_unidad', b.numero_unidad, 'estado', b.estado, 'capacidad_pasajeros', b.capacidad_pasajeros,
				'chofer_id', b.chofer_id, 'vencimiento_revision_tecnica', b.vencimiento_revision_tecnica,
				'vencimiento_seguro', b.vencimiento_seguro) order by b.numero_unidad, b.placa, b.id), '[]')
			from buses b where b.empresa_id = app_empresa_id() and b.ruta_id = $1 and not b.eliminado`},
	},
	Filters: []recurso.Filter{{Param: "origen", Kind: recurso.Text}, {Param: "destino", Kind: recurso.Text}},
	Sorts:   []string{"codigo", "nombre", "origen", "destino", "tarifa"},
	Messages: recurso.Messages{NotFound: "Ruta no encontrada.", Created: "Ruta creada correctamente.",
		Updated: "Ruta actualizada correctamente.", Deleted: "Ruta eliminada correctamente."},
	Validate: func(c *recurso.Call, vals map[string]any) {
		if v, ok := vals["tarifa"]; ok && v == nil {
			vals["tarifa"] = db.Numeric(decimal.Zero) // null back to the default (NOT NULL)
		}
		// Kept in vals under keys no field has: the INSERT/UPDATE only
		// writes declared fields, AfterSave writes these.
		if ps, ok := leerParadas(c.In); ok {
			vals[clave("paradas")] = ps
		}
		if hs, ok := leerHorarios(c.In); ok {
			vals[clave("horarios")] = hs
		}
	},
	AfterSave:    guardarListas,
	BeforeDelete: SinBuses("rutas", "ruta_id", "No se puede eliminar una ruta con buses asignados. Quite la ruta de sus buses primero."),
}

// clave names a nested list in vals where no column can clash with it.
func clave(s string) string { return "\x00" + s }

// guardarListas replaces the stops and the departures sent, each in one
// statement, both in one round trip. A data-modifying CTE cannot delete a
// row and insert its unique key again (the insert still sees the old row),
// so each statement deletes only the rows the new list lacks and upserts
// the others.
func guardarListas(c *recurso.Call, vals map[string]any) error {
	b := &pgx.Batch{}
	empresa := c.Tx.EmpresaID()
	if ps, ok := vals[clave("paradas")].([]parada); ok {
		ordenes := make([]int64, len(ps))
		nombres := make([]string, len(ps))
		lats := make([]string, len(ps))
		lons := make([]string, len(ps))
		for i, p := range ps {
			ordenes[i], nombres[i], lats[i], lons[i] = p.Orden, p.Nombre, p.Latitud, p.Longitud
		}
		b.Queue(`with borradas as (delete from ruta_paradas where empresa_id = $1 and ruta_id = $2 and orden <> all($3::int[]))
			insert into ruta_paradas (empresa_id, ruta_id, orden, nombre, latitud, longitud)
			select $1, $2, x.orden, x.nombre, x.latitud::numeric, x.longitud::numeric
			from unnest($3::int[], $4::text[], $5::text[], $6::text[]) as x(orden, nombre, latitud, longitud)
			on conflict (ruta_id, orden) do update set nombre = excluded.nombre, latitud = excluded.latitud, longitud = excluded.longitud`,
			empresa, c.ID, ordenes, nombres, lats, lons)
	}
	if hs, ok := vals[clave("horarios")].([]horario); ok {
		dias := make([]string, len(hs))
		horas := make([]string, len(hs))
		for i, h := range hs {
			dias[i], horas[i] = h.Dia, h.Hora
		}
		b.Queue(`with borrados as (delete from ruta_horarios h where h.empresa_id = $1 and h.ruta_id = $2
				and not exists (select 1 from unnest($3::text[], $4::text[]) as x(dia, hora)
					where x.dia = h.dia_semana and x.hora::time = h.hora_salida))
			insert into ruta_horarios (empresa_id, ruta_id, dia_semana, hora_salida)
			select $1, $2, x.dia, x.hora::time from unnest($3::text[], $4::text[]) as x(dia, hora)
			on conflict (ruta_id, dia_semana, hora_salida) do nothing`,
			empresa, c.ID, dias, horas)
	}
	if b.Len() == 0 {
		return nil
	}
	// The lists are part of the route: changing only them is a change of it.
	b.Queue(`update rutas set actualizado_en = now() where empresa_id = $1 and id = $2`, empresa, c.ID)
	if err := c.Tx.SendBatch(c.Context(), b).Close(); err != nil {
		return fmt.Errorf("transporte: paradas y horarios de la ruta %d: %w", c.ID, err)
	}
	return nil
}
