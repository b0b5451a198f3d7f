package esquema

import (
	"maps"
	"slices"
)

// Orden documents a list's ?sort= from the whitelist its handler orders by
// (column name -> SQL), so the document names exactly the accepted values.
func Orden(sorts map[string]string) Campo {
	return Campo{Nombre: "sort", Tipo: Texto, Valores: slices.Sorted(maps.Keys(sorts))}
}

// Busqueda documents a list's ?search= over the columns it names.
func Busqueda(sobre string) Campo {
	return Campo{Nombre: "search", Tipo: Texto, Descripcion: "Búsqueda por texto en " + sobre + "."}
}

// Activos documents a list's ?activos=.
var Activos = Campo{Nombre: "activos", Tipo: Booleano, Descripcion: "Solo activos (true) o inactivos (false)."}

// ID documents a list filter by a record's id.
func ID(nombre string) Campo { return Campo{Nombre: nombre, Tipo: Entero, Minimo: "1"} }

// Rango documents the fecha_inicio/fecha_fin filters of a list over the
// date it names.
func Rango(sobre string) []Campo {
	return []Campo{
		{Nombre: "fecha_inicio", Tipo: Fecha, Descripcion: "Desde esta " + sobre + " (AAAA-MM-DD)."},
		{Nombre: "fecha_fin", Tipo: Fecha, Descripcion: "Hasta esta " + sobre + " (AAAA-MM-DD), inclusive."},
	}
}
