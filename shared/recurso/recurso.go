// Package recurso declares simple resources instead of writing them five
// times: one Resource definition (table, fields with their rules, filters,
// search, sort whitelist, nested relations, counts, detail lists and a few
// hooks) drives list, show, create, update and delete with the HTTP
// conventions of httpx. Every operation does a constant number of database
// round trips whatever the page size: rows come back as JSON built by
// PostgreSQL, and relations and counts are loaded for the whole page at once
// (one "= ANY($1)" query each, pipelined in a single batch).
package recurso

import (
	"context"
	"slices"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/valid"
)

// Kind is the type of a field.
type Kind int

// Field kinds.
const (
	Text Kind = iota
	Integer
	Decimal
	Boolean
	Date
	// Ref is an integer id of another table's row (see Field.Ref).
	Ref
)

// Unique tells where a field's value must be unique (among rows not deleted).
type Unique int

// Uniqueness scopes.
const (
	NotUnique Unique = iota
	UniquePerTenant
	UniqueGlobal
)

// Field is one writable column and its rules. Name is both the JSON key and
// the column name.
type Field struct {
	Name     string
	Kind     Kind
	Required bool // on create; a present null or blank value is refused too
	// Text rules.
	Max        int // characters
	Email, URL bool
	Values     []string // allowed values (enumeration)
	// Normalize validates and rewrites a text value; it returns the stored
	// form, or ok=false and a Spanish message.
	Normalize func(string) (string, string, bool)
	// Numeric rules (Integer, Decimal): inclusive bounds as decimal strings.
	MinValue, MaxValue string
	// Scale is the maximum number of decimals of a Decimal (default 2).
	Scale int32
	// Ref: the referenced table; the row must exist, not be deleted and,
	// when RefTenant, belong to the tenant.
	RefTable  string
	RefTenant bool
	RefMsg    string // e.g. "La categoría seleccionada no existe."
	// Unique scope and the message when taken. CaseInsensitive compares lower().
	Unique          Unique
	CaseInsensitive bool
	UniqueMsg       string
	// Default is written on create when the field is absent, and whenever a
	// null or blank value clears the field.
	Default any
	// Immutable fields are accepted on create and refused on update.
	Immutable bool
	// Ejemplo is a value the rules accept, shown in the OpenAPI document
	// (Esquema); fields with a format or a normalization need one.
	Ejemplo any
}

// Filter is a list query parameter that filters a column by equality.
type Filter struct {
	Param  string
	Column string // SQL over alias t; defaults to "t."+Param
	Kind   Kind   // Text, Integer, Ref (a positive id) or Boolean
	Values []string
	// MinValue and MaxValue bound an Integer filter (inclusive, optional).
	MinValue, MaxValue string
	// Where, when set, replaces the equality: SQL over alias t in which
	// every %[1]s is the value's placeholder (e.g. a date window).
	Where string
}

// Relation is a nested belongs-to object ("categoria" from categoria_id).
type Relation struct {
	Name  string
	FK    string
	Table string
	Cols  []string
}

// Aggregate is a per-row value computed from other tables for a whole page
// at once: SQL receives the row ids as $1 (bigint[]) and returns (id, jsonb).
// Rows it does not return get Zero.
type Aggregate struct {
	Name string
	SQL  string
	Zero any
	// DetailOnly aggregates are computed for show, not for lists.
	DetailOnly bool
}

// Detail is a show-only nested list: SQL receives the id as $1 and returns
// one jsonb value (usually a jsonb_agg).
type Detail struct {
	Name string
	SQL  string
}

// Messages are the Spanish texts of one resource.
type Messages struct {
	NotFound, Created, Updated, Deleted string
}

// Call is the context of one operation, handed to hooks.
type Call struct {
	Ctx       context.Context
	Principal auth.Principal
	Tx        *db.Tx
	In        *valid.Input
	// ID is the record's id (0 while creating).
	ID int64
	// Current is the record as it is before an update or delete (nil on create).
	Current map[string]any
}

// Context is the request context.
func (c *Call) Context() context.Context { return c.Ctx }

// Texto is a text field as the record will be: the value being written, else
// the current record's (an update that leaves the field alone).
func (c *Call) Texto(vals map[string]any, key string) (string, bool) {
	if v, ok := vals[key]; ok {
		s, ok := v.(string)
		return s, ok
	}
	s, ok := c.Current[key].(string)
	return s, ok
}

// Resource is the declaration of one simple resource.
type Resource struct {
	// Name is the route resource ("sucursales"): handlers are Name+".index" ...
	Name  string
	Table string
	// Tenant tables carry empresa_id: rows are filtered by and assigned to
	// the active tenant. Global tables (brands, units) have none.
	Tenant bool
	Fields []Field
	// Listas are body fields outside Fields that the hooks read themselves
	// (nested lists such as a route's stops), documented by Esquema.
	Listas []esquema.Campo
	// Computed adds output keys from SQL expressions over alias t.
	Computed map[string]string
	// Hidden columns are never output (busqueda always is).
	Hidden []string
	// Search enables ?search= on the table's generated busqueda column.
	Search  bool
	Filters []Filter
	// Sorts whitelists ?sort= columns (id, creado_en and actualizado_en are always allowed).
	Sorts      []string
	Relations  []Relation
	Aggregates []Aggregate
	Details    []Detail
	Messages   Messages
	// ReadOnly resources serve only index and show.
	ReadOnly bool
	// Scope replaces the default visibility predicate (tenant + not deleted);
	// it returns SQL over alias t, adding its arguments with a.
	Scope func(c *Call, a *Args) string
	// Validate checks rules across fields after each field's own rules; it
	// reports with c.In.Fail. vals holds what will be written.
	Validate func(c *Call, vals map[string]any)
	// BeforeSave runs in the transaction after validation, before the write.
	BeforeSave func(c *Call, vals map[string]any) error
	// AfterSave runs in the transaction after the write (c.ID is set).
	AfterSave func(c *Call, vals map[string]any) error
	// AfterCreate runs in the transaction with the created record as the API
	// shows it (domain events carry it).
	AfterCreate func(c *Call, row Row) error
	// BeforeDelete may refuse a delete.
	BeforeDelete func(c *Call) error
	// Insert replaces the default INSERT (companies); it returns the new id.
	Insert func(c *Call, vals map[string]any) (int64, error)
	// BeforeRead runs in the transaction before a show (or the reload after
	// a write), e.g. to act in the company being shown.
	BeforeRead func(c *Call) error
}

// Args collects positional SQL arguments.
type Args struct{ list []any }

// Add appends v and returns its placeholder ("$3").
func (a *Args) Add(v any) string {
	a.list = append(a.list, v)
	return placeholder(len(a.list))
}

// Values returns the arguments.
func (a *Args) Values() []any { return a.list }

// Writable reports whether name is one of the resource's fields.
func (res *Resource) Writable(name string) bool {
	for _, f := range res.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Campos joins groups of field declarations: a resource's own fields and
// shared blocks such as Direccion.
func Campos(grupos ...[]Field) []Field { return slices.Concat(grupos...) }

// Direccion is the postal address block every party and place declares:
// direccion (up to 500), the named divisions (up to 100 each: provincia,
// canton and distrito in Costa Rica; pais, provincia and ciudad for a
// company or a supplier abroad) and codigo_postal (up to 20).
func Direccion(divisiones ...string) []Field {
	fs := []Field{{Name: "direccion", Kind: Text, Max: 500}}
	for _, d := range divisiones {
		fs = append(fs, Field{Name: d, Kind: Text, Max: 100})
	}
	return append(fs, Field{Name: "codigo_postal", Kind: Text, Max: 20})
}
