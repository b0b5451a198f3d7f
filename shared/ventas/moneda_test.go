package ventas_test

import (
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestSalesInDollarsCarryTheirExchangeRate(t *testing.T) {
	e := testenv.NewParallel(t)
	admin := e.Admin(1)
	prod := testenv.Num(e.Do(testenv.Req{Method: "POST", Path: "/api/productos", Token: admin, Body: map[string]any{
		"categoria_id": 1, "unidad_medida_id": 1, "nombre": "Servicio USD", "tipo": "servicio", "precio_venta": 100}}).JSON, "data.id")
	venta := func(extra map[string]any) testenv.Resp {
		body := map[string]any{"fecha_venta": "2026-11-21", "tipo_comprobante": "factura",
			"detalles": []map[string]any{{"producto_id": prod, "cantidad": 1, "precio_unitario": 100, "porcentaje_impuesto": 13}}}
		for k, v := range extra {
			body[k] = v
		}
		return e.Do(testenv.Req{Method: "POST", Path: "/api/ventas", Token: admin, Body: body})
	}
	r := venta(map[string]any{"moneda": "USD", "tipo_cambio": "512.34567"})
	if r.Status != 201 || testenv.Str(r.JSON, "data.moneda") != "USD" || testenv.Num(r.JSON, "data.tipo_cambio") != 512.34567 {
		t.Fatalf("USD sale: %d %s", r.Status, r.Raw)
	}
	if r := venta(nil); r.Status != 201 || testenv.Str(r.JSON, "data.moneda") != "CRC" || testenv.Num(r.JSON, "data.tipo_cambio") != 1 {
		t.Fatalf("default CRC sale: %d %s", r.Status, r.Raw)
	}
	for name, c := range map[string]struct {
		extra map[string]any
		field string
	}{
		"dollars need a rate":        {map[string]any{"moneda": "USD"}, "tipo_cambio"},
		"colones have rate 1":        {map[string]any{"moneda": "CRC", "tipo_cambio": 500}, "tipo_cambio"},
		"rate must be positive":      {map[string]any{"moneda": "USD", "tipo_cambio": 0}, "tipo_cambio"},
		"at most 5 decimals":         {map[string]any{"moneda": "USD", "tipo_cambio": "512.123456"}, "tipo_cambio"},
		"only CRC and USD are known": {map[string]any{"moneda": "EUR", "tipo_cambio": 600}, "moneda"},
	} {
		if r := venta(c.extra); r.Status != 422 || len(r.FieldErrors(c.field)) == 0 {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
}
