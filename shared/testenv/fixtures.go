package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Fixture is one test's stack acting as company 1's administrator, with the
// owner-SQL and API helpers the domain packages' tests share. Packages embed
// it in their own fixture type and add what only they need.
type Fixture struct {
	T     *testing.T
	E     *Env
	Admin string
	// Company 1's principal branch and warehouse.
	Sucursal, Almacen int64
}

// NewFixture starts a parallel environment (NewParallel) and logs in as
// company 1's administrator.
func NewFixture(t *testing.T, opts ...Option) *Fixture {
	t.Helper()
	return FixtureOf(t, NewParallel(t, opts...))
}

// FixtureOf is NewFixture on an environment the test built itself (a
// rebuilt gateway, a simulator in front).
func FixtureOf(t *testing.T, e *Env) *Fixture {
	t.Helper()
	f := &Fixture{T: t, E: e, Admin: e.Admin(1)}
	f.Sucursal, f.Almacen = f.Principales(1)
	return f
}

// Sub is f for a subtest: its helpers fail the subtest, not its parent.
func (f *Fixture) Sub(t *testing.T) *Fixture {
	c := *f
	c.T = t
	return &c
}

// Int runs a one-value query as the owner (fixtures and assertions).
func (f *Fixture) Int(sql string, args ...any) int64 {
	f.T.Helper()
	return Scalar[int64](f.T, f.E, sql, args...)
}

// Text runs a one-value query as the owner and returns its text form,
// "<null>" for SQL null.
func (f *Fixture) Text(sql string, args ...any) string {
	f.T.Helper()
	if s := Scalar[*string](f.T, f.E, sql, args...); s != nil {
		return *s
	}
	return "<null>"
}

// Call is a request of company 1's administrator.
func (f *Fixture) Call(method, path string, body any) Resp {
	f.T.Helper()
	return f.E.Call(f.Admin, method, path, body)
}

// Must is Call, failing the test unless the status is want.
func (f *Fixture) Must(want int, method, path string, body any) Resp {
	f.T.Helper()
	return f.E.Must(f.T, want, f.Admin, method, path, body)
}

// Must is Call with tok, failing t unless the status is want: the call and
// status check every test step that must succeed writes.
func (e *Env) Must(t testing.TB, want int, tok, method, path string, body any) Resp {
	t.Helper()
	r := e.Call(tok, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r
}

// Principales are the ids of a company's principal branch and warehouse,
// which every seeded company has.
func (f *Fixture) Principales(empresa int64) (sucursal, almacen int64) {
	f.T.Helper()
	Scan(f.T, f.E, `select (select id from sucursales where empresa_id = $1 and es_principal),
		(select id from almacenes where empresa_id = $1 and es_principal)`, []any{empresa}, &sucursal, &almacen)
	return sucursal, almacen
}

// Prod describes a product inserted by Producto; its zero value is a
// stock-managed, active product of company 1 at 1000 without a tax type.
type Prod struct {
	Empresa    int64
	Codigo     string
	Precio     string // precio_venta; "" = 1000
	Compra     string // precio_compra; "" = 0
	Tarifa     string // codigo_tarifa_iva of its tax type ("08" = 13 %), "" = none
	Servicio   bool
	Gestionado *bool // nil: managed unless a service
	Activo     *bool // nil: active
}

// Producto inserts a product (owner SQL) and returns its id.
func (f *Fixture) Producto(p Prod) int64 {
	f.T.Helper()
	if p.Empresa == 0 {
		p.Empresa = 1
	}
	if p.Precio == "" {
		p.Precio = "1000"
	}
	tipo := "producto"
	if p.Servicio {
		tipo = "servicio"
	}
	gestionado := !p.Servicio
	if p.Gestionado != nil {
		gestionado = *p.Gestionado
	}
	activo := p.Activo == nil || *p.Activo
	var compra any
	if p.Compra != "" {
		compra = p.Compra
	}
	return f.Int(`insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo,
			precio_venta, gestionado_inventario, activo, precio_compra)
		select $1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = $3),
			'Producto ' || $2, $2, $4, $5::numeric, $6, $7, coalesce($8::numeric, 0)
		from categorias_producto c, unidades_medida u where c.empresa_id = $1 and u.codigo = 'Unid' limit 1 returning id`,
		p.Empresa, p.Codigo, p.Tarifa, tipo, p.Precio, gestionado, activo, compra)
}

// Stock puts a batch of a product in a warehouse (owner SQL); lote and
// vence ("2026-12-31") may be empty.
func (f *Fixture) Stock(almacen, producto int64, cantidad, costo, lote, vence string) {
	f.T.Helper()
	var l, v any
	if lote != "" {
		l = lote
	}
	if vence != "" {
		v = vence
	}
	f.E.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, fecha_vencimiento, cantidad_disponible, costo_unitario)
		select empresa_id, $1, $2, $3, $4::date, $5::numeric, $6::numeric from almacenes where id = $1`, almacen, producto, l, v, cantidad, costo)
}

// Existencias is a product's available quantity in a warehouse ("12.000").
func (f *Fixture) Existencias(almacen, producto int64) string {
	f.T.Helper()
	return f.Text(`select coalesce(sum(cantidad_disponible), 0)::numeric(18,3)::text from inventarios
		where almacen_id = $1 and producto_id = $2 and not eliminado`, almacen, producto)
}

// Cliente inserts a customer (a natural person named after its
// identification) of a company and returns its id.
func (f *Fixture) Cliente(empresa int64, ident string, dias int) int64 {
	f.T.Helper()
	return f.Int(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, dias_credito)
		values ($1, 'fisica', $2, 'Cliente', $2, $3) returning id`, empresa, ident, dias)
}

// Saldo is an account's balance in company 1's books by its code: the
// debits less the credits of its posted entries (cancelled ones count with
// their reversal), "0.00" when it has none.
func (f *Fixture) Saldo(codigo string) string {
	f.T.Helper()
	return f.Text(`select coalesce(sum(l.debe - l.haber), 0)::numeric(18,2)::text from asiento_lineas l
		join asientos_contables a on a.id = l.asiento_id join cuentas_contables k on k.id = l.cuenta_id
		where a.empresa_id = 1 and a.estado in ('contabilizado', 'anulado') and k.codigo = $1`, codigo)
}

// Ajuste sets a company's boolean setting.
func (f *Fixture) Ajuste(empresa int64, clave string, on bool) {
	f.T.Helper()
	f.E.Exec(`insert into configuraciones (empresa_id, clave, valor) values ($1, $2, to_jsonb($3::boolean))
		on conflict (empresa_id, clave) do update set valor = excluded.valor`, empresa, clave, on)
}

// ID is the data.id of an answer.
func ID(r Resp) int64 { return int64(Num(r.JSON, "data.id")) }

// Path is /api/res/id followed by each non-empty part of rest, one path
// segment each ("pagos" and "/pagos" alike).
func Path(res string, id int64, rest ...string) string {
	p := fmt.Sprintf("/api/%s/%d", res, id)
	for _, s := range rest {
		if s = strings.TrimPrefix(s, "/"); s != "" {
			p += "/" + s
		}
	}
	return p
}

// Number is the JSON text of the number at a dotted path of an answer, its
// scale included ("1500.00"); "" when there is no number there.
func Number(r Resp, path string) string {
	dec := json.NewDecoder(bytes.NewReader(r.Raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	n, _ := Get(v, path).(json.Number)
	return string(n)
}

// Linea is a document line body (a sale's, a purchase order's): producto_id,
// cantidad and precio_unitario, then kv pairs that add or override fields
// (With).
func Linea(producto int64, cantidad, precio any, kv ...any) map[string]any {
	return With(map[string]any{"producto_id": producto, "cantidad": cantidad, "precio_unitario": precio}, kv...)
}

// IDs64 is IDs as int64, the type of the fixtures' ids.
func IDs64(r Resp) []int64 {
	ids := IDs(r)
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out
}
