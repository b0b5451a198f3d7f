package ventas_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestNotesRequireTheSaleTheyCorrect(t *testing.T) {
	f := setup(t)
	p := f.Producto(testenv.Prod{Codigo: "P"})
	p2 := f.Producto(testenv.Prod{Empresa: 2, Codigo: "P"})
	factura := int64(testenv.Num(f.venderOK(venta(linea(p, 1, 100))).JSON, "data.id"))
	ajena := int64(testenv.Num(f.E.Call(f.E.Admin(2), http.MethodPost, "/api/ventas", venta(linea(p2, 1, 10))).JSON, "data.id"))
	nota := func(kv ...any) map[string]any {
		return testenv.With(testenv.With(venta(linea(p, 1, 100)), "tipo_comprobante", "nota_credito", "venta_referencia_id", factura, "codigo_referencia", "01", "razon_referencia", "Devolución total"), kv...)
	}
	long := strings.Repeat("x", 181)
	cases := []testenv.Invalid{
		{"reference missing", nota("venta_referencia_id", testenv.Absent), "venta_referencia_id"},
		{"code missing", nota("codigo_referencia", testenv.Absent), "codigo_referencia"},
		{"reason missing", nota("razon_referencia", testenv.Absent), "razon_referencia"},
		{"code 03 does not exist", nota("codigo_referencia", "03"), "codigo_referencia"},
		{"code 17 is for receipts", nota("codigo_referencia", "17"), "codigo_referencia"},
		{"reason over 180", nota("razon_referencia", long), "razon_referencia"},
		{"another company's sale", nota("venta_referencia_id", ajena), "venta_referencia_id"},
		{"unknown sale", nota("venta_referencia_id", 999999), "venta_referencia_id"},
		{"a factura carries no reference", testenv.With(venta(linea(p, 1, 100)), "venta_referencia_id", factura), "venta_referencia_id"},
	}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/ventas", cases)
	r := f.venderOK(testenv.With(nota(), "tipo_comprobante", "nota_debito", "codigo_referencia", "14"))
	if testenv.Num(r.JSON, "data.venta_referencia_id") != float64(factura) || testenv.Str(r.JSON, "data.codigo_referencia") != "14" ||
		testenv.Str(r.JSON, "data.razon_referencia") != "Devolución total" || testenv.Str(r.JSON, "data.numero_comprobante") != "ND-00000001" {
		t.Fatalf("note: %s", r.Raw)
	}
}
