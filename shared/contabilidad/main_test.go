package contabilidad_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// fx is one test's stack acting as company 1's administrator.
type fx struct {
	t     *testing.T
	e     *testenv.Env
	admin string
}

func setup(t *testing.T) *fx {
	t.Helper()
	e := testenv.NewParallel(t)
	return &fx{t: t, e: e, admin: e.Admin(1)}
}

func (f *fx) do(method, path string, body any) testenv.Resp {
	f.t.Helper()
	return f.e.Call(f.admin, method, path, body)
}

// ok calls and fails the test unless the status is want.
func (f *fx) ok(want int, method, path string, body any) testenv.Resp {
	f.t.Helper()
	r := f.do(method, path, body)
	if r.Status != want {
		f.t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, want, r.Raw)
	}
	return r
}

func (f *fx) int(sql string, args ...any) int64 {
	f.t.Helper()
	return testenv.Scalar[int64](f.t, f.e, sql, args...)
}

func (f *fx) text(sql string, args ...any) string {
	f.t.Helper()
	if s := testenv.Scalar[*string](f.t, f.e, sql, args...); s != nil {
		return *s
	}
	return "<null>"
}

// cuenta is the id of company 1's account by code.
func (f *fx) cuenta(codigo string) int64 {
	f.t.Helper()
	return f.int(`select id from cuentas_contables where empresa_id = 1 and codigo = $1 and not eliminado`, codigo)
}

// asiento is a manual entry body with the given lines.
func asiento(estado string, lineas ...map[string]any) map[string]any {
	ls := make([]any, len(lineas))
	for i, l := range lineas {
		ls[i] = l
	}
	return map[string]any{"fecha": "2026-03-15", "descripcion": "Aporte de capital", "estado": estado, "lineas": ls}
}

func debe(cuenta int64, monto any) map[string]any {
	return map[string]any{"cuenta_id": cuenta, "debe": monto}
}
func haber(cuenta int64, monto any) map[string]any {
	return map[string]any{"cuenta_id": cuenta, "haber": monto}
}

func id(r testenv.Resp) int64 { return int64(testenv.Num(r.JSON, "data.id")) }

func path(res string, id int64, rest ...string) string {
	p := fmt.Sprintf("/api/%s/%d", res, id)
	for _, s := range rest {
		p += "/" + s
	}
	return p
}

// num is the JSON text of the number at a dotted path, scale included.
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

// capital posts a balanced manual entry: Dr bank, Cr share capital.
func (f *fx) capital(monto string) testenv.Resp {
	f.t.Helper()
	return f.ok(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("contabilizado", debe(f.cuenta("1.1.02.001"), monto), haber(f.cuenta("3.1.01.001"), monto)))
}

func itoa(n int64) string { return fmt.Sprint(n) }

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
