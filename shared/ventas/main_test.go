package ventas_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack with company 1's principal branch and warehouse.
type fx struct {
	t        *testing.T
	e        *testenv.Env
	admin    string
	sucursal int64
	almacen  int64
}

func setup(t *testing.T) *fx {
	t.Helper()
	e := testenv.NewParallel(t)
	f := &fx{t: t, e: e, admin: e.Admin(1)}
	f.sucursal = f.int(`select id from sucursales where empresa_id = 1 and es_principal`)
	f.almacen = f.int(`select id from almacenes where empresa_id = 1 and es_principal`)
	return f
}

// sub is f for a subtest (helpers fail the subtest, not its parent).
func (f *fx) sub(t *testing.T) *fx {
	c := *f
	c.t = t
	return &c
}

// int runs a one-value query as the owner (fixtures and assertions).
func (f *fx) int(sql string, args ...any) int64 {
	f.t.Helper()
	return testenv.Scalar[int64](f.t, f.e, sql, args...)
}

// text runs a one-value query as the owner and returns its text form.
func (f *fx) text(sql string, args ...any) string {
	f.t.Helper()
	if s := testenv.Scalar[*string](f.t, f.e, sql, args...); s != nil {
		return *s
	}
	return "<null>"
}

// prod describes a product fixture.
type prod struct {
	empresa    int64
	codigo     string
	precio     string
	tarifa     string // codigo_tarifa_iva of its tax type ("08" = 13 %), "" = none
	servicio   bool
	gestionado *bool
	activo     *bool
}

// producto inserts a product and returns its id.
func (f *fx) producto(p prod) int64 {
	f.t.Helper()
	if p.empresa == 0 {
		p.empresa = 1
	}
	if p.precio == "" {
		p.precio = "1000"
	}
	tipo := "producto"
	if p.servicio {
		tipo = "servicio"
	}
	gestionado := !p.servicio
	if p.gestionado != nil {
		gestionado = *p.gestionado
	}
	activo := p.activo == nil || *p.activo
	return f.int(`insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, nombre, codigo, tipo,
			precio_venta, gestionado_inventario, activo)
		select $1, c.id, u.id, (select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = $3),
			'Producto ' || $2, $2, $4, $5::numeric, $6, $7
		from categorias_producto c, unidades_medida u where c.empresa_id = $1 and u.codigo = 'Unid' returning id`,
		p.empresa, p.codigo, p.tarifa, tipo, p.precio, gestionado, activo)
}

// stock puts a batch of a product in a warehouse (owner SQL).
func (f *fx) stock(almacen, producto int64, cantidad, costo, lote, vence string) {
	f.t.Helper()
	var l, v any
	if lote != "" {
		l = lote
	}
	if vence != "" {
		v = vence
	}
	f.e.Exec(`insert into inventarios (empresa_id, almacen_id, producto_id, lote, fecha_vencimiento, cantidad_disponible, costo_unitario)
		select empresa_id, $1, $2, $3, $4::date, $5::numeric, $6::numeric from almacenes where id = $1`, almacen, producto, l, v, cantidad, costo)
}

// existencias is the product's available quantity in a warehouse.
func (f *fx) existencias(almacen, producto int64) string {
	f.t.Helper()
	return f.text(`select coalesce(sum(cantidad_disponible), 0)::numeric(18,3)::text from inventarios
		where almacen_id = $1 and producto_id = $2 and not eliminado`, almacen, producto)
}

// cliente inserts a customer of a company and returns its id.
func (f *fx) cliente(empresa int64, ident string, dias int) int64 {
	f.t.Helper()
	return f.int(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, dias_credito)
		values ($1, 'fisica', $2, 'Cliente', $2, $3) returning id`, empresa, ident, dias)
}

// ajuste sets a company setting (JSON boolean).
func (f *fx) ajuste(empresa int64, clave string, on bool) {
	f.t.Helper()
	f.e.Exec(`insert into configuraciones (empresa_id, clave, valor) values ($1, $2, to_jsonb($3::boolean))
		on conflict (empresa_id, clave) do update set valor = excluded.valor`, empresa, clave, on)
}

// vender POSTs a sale as company 1's administrator.
func (f *fx) vender(body map[string]any) testenv.Resp {
	f.t.Helper()
	return f.e.Call(f.admin, http.MethodPost, "/api/ventas", body)
}

// venderOK POSTs a sale that must be created and returns the response.
func (f *fx) venderOK(body map[string]any) testenv.Resp {
	f.t.Helper()
	r := f.vender(body)
	if r.Status != http.StatusCreated {
		f.t.Fatalf("create sale: %d %s", r.Status, r.Raw)
	}
	return r
}

// venta is a valid body: a factura of today with the given lines.
func venta(lineas ...map[string]any) map[string]any {
	ls := make([]any, len(lineas))
	for i, l := range lineas {
		ls[i] = l
	}
	return map[string]any{"fecha_venta": "2026-03-15", "tipo_comprobante": "factura", "detalles": ls}
}

// linea is a valid line.
func linea(producto int64, cantidad, precio any, kv ...any) map[string]any {
	return testenv.With(map[string]any{}, append([]any{"producto_id", producto, "cantidad", cantidad, "precio_unitario", precio}, kv...)...)
}

func id(r testenv.Resp) int64 { return int64(testenv.Num(r.JSON, "data.id")) }

func path(res string, id int64, rest ...string) string {
	return fmt.Sprintf("/api/%s/%d", res, id) + strings.Join(rest, "")
}

// num returns the JSON text of the number at a dotted path, its scale
// included ("1500.00"); "" when there is none.
func num(r testenv.Resp, path string) string {
	dec := json.NewDecoder(bytes.NewReader(r.Raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	n, _ := testenv.Get(v, path).(json.Number)
	return string(n)
}

func ptr[T any](v T) *T { return &v }
