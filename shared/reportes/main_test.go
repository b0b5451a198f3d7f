package reportes_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack with company 1's books.
type fx struct{ *testenv.Fixture }

func setup(t *testing.T, opts ...testenv.Option) *fx {
	t.Helper()
	return &fx{testenv.NewFixture(t, opts...)}
}

// cuenta is the id of a company's account by code.
func (f *fx) cuenta(empresa int, codigo string) int64 {
	f.T.Helper()
	return testenv.Scalar[int64](f.T, f.E, `select contabilidad_cuenta($1, $2)`, empresa, codigo)
}

// asiento posts a manual entry as the owner: pairs of (code, amount), a
// positive amount a debit, a negative one a credit.
func (f *fx) asiento(empresa int, fecha, desc string, lineas ...any) {
	f.T.Helper()
	var ls []map[string]any
	for i := 0; i+1 < len(lineas); i += 2 {
		id := f.cuenta(empresa, lineas[i].(string))
		m := lineas[i+1].(int)
		if m > 0 {
			ls = append(ls, map[string]any{"cuenta_id": id, "debe": m})
		} else {
			ls = append(ls, map[string]any{"cuenta_id": id, "haber": -m})
		}
	}
	b, _ := json.Marshal(ls)
	f.E.Exec(`select contabilidad_registrar($1, $2::date, $3, 'manual', null, $4::jsonb)`, empresa, fecha, desc, string(b))
}

// get is a GET of company 1's administrator.
func (f *fx) get(path string) testenv.Resp {
	f.T.Helper()
	return f.E.Get(path, f.Admin)
}

// ok is get, failing unless 200.
func (f *fx) ok(path string) testenv.Resp {
	f.T.Helper()
	return f.Must(http.StatusOK, http.MethodGet, path, nil)
}

// descarga GETs a report file as company 1's administrator, failing t
// unless it is a 200 of media type media sent as the attachment archivo.
func (f *fx) descarga(t *testing.T, path, media, archivo string) testenv.Resp {
	t.Helper()
	r := f.E.Must(t, http.StatusOK, f.Admin, http.MethodGet, path, nil)
	if r.Header.Get("Content-Type") != media || r.Header.Get("Content-Disposition") != `attachment; filename="`+archivo+`"` {
		t.Fatalf("headers: %v, want %s as %s", r.Header, media, archivo)
	}
	return r
}

// exact is a number of the answer as written ("88000.00").
func exact(t *testing.T, r testenv.Resp, path string) string {
	t.Helper()
	return strings.Trim(testenv.Exact(t, r.Raw, path), `"`)
}

// want compares several exact numbers of one answer.
func want(t *testing.T, r testenv.Resp, what string, m map[string]string) {
	t.Helper()
	for path, w := range m {
		if got := exact(t, r, path); got != w {
			t.Errorf("%s: %s = %s, want %s", what, path, got, w)
		}
	}
}

// escenario is a fixture with company 1's books for the tests (amounts in colones):
//
//	2026-02-01 capital paid into the bank          Dr Banco 1,000,000 / Cr Capital
//	2026-02-10 goods bought from the bank           Dr Inventario 4,000 / Cr Banco
//	2026-02-15 February's rent from the bank        Dr Alquileres 80,000 / Cr Banco
//	2026-03-05 a computer from the bank             Dr Equipo de cómputo 300,000 / Cr Banco
//	2026-03-10 March's rent from the bank           Dr Alquileres 100,000 / Cr Banco
//	2026-03-15 cash sale (API): 2 x 5,000 + 13 %    Dr Caja 11,300 / Cr Ventas 10,000, IVA 1,300; cost 2,000
//	2026-03-16 credit sale (API): 1 x 5,000 + 13 %  Dr CxC 5,650 / Cr Ventas 5,000, IVA 650; cost 1,000
//	2026-03-25 more capital into the bank           Dr Banco 50,000 / Cr Capital
//
// and company 2 one entry of 777,777 that company 1 must never see.
func escenario(t *testing.T) *fx {
	t.Helper()
	f := setup(t)
	f.asiento(1, "2026-02-01", "Aporte de capital", "1.1.02.001", 1000000, "3.1.01.001", -1000000)
	f.asiento(1, "2026-02-10", "Compra de mercadería", "1.1.04.001", 4000, "1.1.02.001", -4000)
	f.asiento(1, "2026-02-15", "Alquiler de febrero", "6.2.01.001", 80000, "1.1.02.001", -80000)
	f.asiento(1, "2026-03-05", "Compra de computadora", "1.2.01.002", 300000, "1.1.02.001", -300000)
	f.asiento(1, "2026-03-10", "Alquiler de marzo", "6.2.01.001", 100000, "1.1.02.001", -100000)
	f.asiento(1, "2026-03-25", "Aporte adicional de capital", "1.1.02.001", 50000, "3.1.01.001", -50000)
	f.asiento(2, "2026-03-12", "Empresa ajena", "1.1.01.001", 777777, "3.1.01.001", -777777)

	p := f.Producto(testenv.Prod{Codigo: "REP-1", Precio: "5000", Tarifa: "08"})
	f.Stock(f.Almacen, p, "4", "1000", "L1", "")
	cliente := f.Cliente(1, "109990888", 30)
	linea := func(n int) []any { return []any{testenv.Linea(p, n, 5000)} }
	f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-03-15", "tipo_comprobante": "tiquete",
		"condicion_venta": "contado", "almacen_id": f.Almacen, "detalles": linea(2)})
	f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-03-16", "tipo_comprobante": "factura",
		"condicion_venta": "credito", "cliente_id": cliente, "almacen_id": f.Almacen, "detalles": linea(1)})
	return f
}

func q(path string, kv ...string) string {
	var b strings.Builder
	b.WriteString(path)
	for i := 0; i+1 < len(kv); i += 2 {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		fmt.Fprintf(&b, "%s=%s", kv[i], kv[i+1])
	}
	return b.String()
}

const marzo = "fecha_inicio=2026-03-01&fecha_fin=2026-03-31"
