package nomina_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestThePaySlipOpensInPdftotextWithItsFigures(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "1500000", hijos: 1})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	slip := testenv.Path("planillas", id, "/comprobantes/"+itoa(e)+"?formato=pdf")
	// A draft has no figures yet.
	testenv.Expect422(t, f.Call(http.MethodGet, slip, nil), "estado")
	f.accion(id, "calcular", nil)
	r := f.Call(http.MethodGet, slip, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" ||
		!strings.Contains(r.Header.Get("Content-Disposition"), "comprobante_PLA-000001_") || !bytes.HasPrefix(r.Raw, []byte("%PDF")) {
		t.Fatalf("pay slip: %d %v %.40s", r.Status, r.Header, r.Raw)
	}
	text := testenv.PDFTexto(t, r.Raw)
	// Renta 65,850 less one child's 1,710 credit: 64,140; net 1,273,410.
	for _, s := range []string{"Comprobante de pago de salario", "Cédula jurídica:", "PLA-000001", "Apellido 001",
		"1,500,000.00", "162,450.00", "64,140.00", "1,710.00", "226,590.00", "1,273,410.00", "Salario neto a pagar"} {
		if !strings.Contains(text, s) {
			t.Errorf("the pay slip lacks %q:\n%s", s, text)
		}
	}
	f.Must(http.StatusUnprocessableEntity, http.MethodGet, testenv.Path("planillas", id, "/comprobantes/"+itoa(e)+"?formato=excel"), nil)
	f.Must(http.StatusNotFound, http.MethodGet, testenv.Path("planillas", id, "/comprobantes/999999"), nil)
}

func TestTheCCSSReportHasOneRowPerEmployeeAsCSVAndExcel(t *testing.T) {
	f := setup(t)
	a := f.empleado(emp{salario: "1500000"})
	b := f.empleado(emp{salario: "600000"})
	id := testenv.ID(f.planilla("mensual", "2026-03-01", "2026-03-31"))
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", id, "/lineas"),
		map[string]any{"lineas": []any{map[string]any{"empleado_id": b, "dias_incapacidad": 5}}})
	testenv.Expect422(t, f.Call(http.MethodGet, testenv.Path("planillas", id, "/reporte-ccss"), nil), "estado")
	f.accion(id, "calcular", nil)
	ident := func(e int64) string { return f.Text(`select identificacion from empleados where id = $1`, e) }
	want := map[string][2]string{ident(a): {"30", "1500000.00"}, ident(b): {"25", "500000.00"}}

	r := f.Call(http.MethodGet, testenv.Path("planillas", id, "/reporte-ccss?formato=csv"), nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", r.Status, r.Raw)
	}
	rows := testenv.CSVRows(t, bytes.TrimPrefix(r.Raw, []byte("\ufeff")))
	check := func(format string, rows [][]string) {
		t.Helper()
		if len(rows) != 3 {
			t.Fatalf("%s: %d rows, want a header and 2: %v", format, len(rows), rows)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		for _, k := range []string{"tipo_identificacion", "identificacion", "dias_laborados", "salario_reportado"} {
			if _, ok := col[k]; !ok {
				t.Fatalf("%s: no column %s: %v", format, k, rows[0])
			}
		}
		for _, row := range rows[1:] {
			w, ok := want[row[col["identificacion"]]]
			if !ok || row[col["dias_laborados"]] != w[0] || strings.TrimSuffix(row[col["salario_reportado"]], ".00") != strings.TrimSuffix(w[1], ".00") ||
				row[col["tipo_identificacion"]] != "fisica" {
				t.Errorf("%s row %v, want %v", format, row, w)
			}
		}
	}
	check("csv", rows)

	r = f.Call(http.MethodGet, testenv.Path("planillas", id, "/reporte-ccss?formato=excel"), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("excel: %d %s", r.Status, r.Raw)
	}
	_, xrows := testenv.XLSX(t, r.Raw, "SICERE")
	check("excel", xrows)
	f.Must(http.StatusUnprocessableEntity, http.MethodGet, testenv.Path("planillas", id, "/reporte-ccss?formato=pdf"), nil)
}

func TestTheAguinaldoIsATwelfthOfTheGrossPaidFromDecemberToNovember(t *testing.T) {
	f := setup(t)
	e := f.empleado(emp{salario: "1200000"})
	otro := f.empleado(emp{salario: "600000", ingreso: "2026-06-01"})
	// December 2025 (2025 rates) and November 2026 count; a December 2026
	// planilla belongs to next year's aguinaldo; an unpaid one does not count.
	f.pagada("mensual", "2025-12-01", "2025-12-31")
	nov := testenv.ID(f.planilla("mensual", "2026-11-01", "2026-11-30"))
	f.Must(http.StatusOK, http.MethodPatch, testenv.Path("planillas", nov, "/lineas"),
		map[string]any{"lineas": []any{map[string]any{"empleado_id": e, "horas_extra": 8}}})
	f.accion(nov, "calcular", nil)
	f.accion(nov, "aprobar", nil)
	f.accion(nov, "marcar-pagada", map[string]any{"fecha_pago": "2026-11-30"})
	f.pagada("mensual", "2026-12-01", "2026-12-31")
	sinPagar := testenv.ID(f.planilla("mensual", "2026-10-01", "2026-10-31"))
	f.accion(sinPagar, "calcular", nil)

	r := f.Must(http.StatusOK, http.MethodPost, "/api/planillas/aguinaldo?anio=2026", nil)
	if testenv.Str(r.JSON, "data.desde") != "2025-12-01" || testenv.Str(r.JSON, "data.hasta") != "2026-11-30" ||
		testenv.Len(r.JSON, "data.empleados") != 2 {
		t.Fatalf("aguinaldo: %s", r.Raw)
	}
	// e: 1,200,000 (December) + 1,200,000 + 8 overtime hours at 1,200,000 /
	// 30 / 8 x 1.5 = 60,000 (November) = 2,460,000 / 12 = 205,000.
	// otro: hired in June, only November: 600,000 / 12 = 50,000.
	for _, c := range []struct {
		emp          int64
		total, monto string
	}{{e, "2460000.00", "205000.00"}, {otro, "600000.00", "50000.00"}} {
		found := false
		for i := range 2 {
			p := "data.empleados." + itoa(int64(i))
			if int64(testenv.Num(r.JSON, p+".empleado_id")) == c.emp {
				found = true
				if testenv.Exact(t, r.Raw, p+".total_salarios") != c.total || testenv.Exact(t, r.Raw, p+".aguinaldo") != c.monto {
					t.Errorf("employee %d: %s", c.emp, r.Raw)
				}
			}
		}
		if !found {
			t.Errorf("employee %d missing: %s", c.emp, r.Raw)
		}
	}
	if testenv.Exact(t, r.Raw, "data.total") != "255000.00" {
		t.Errorf("total: %s", r.Raw)
	}
	f.Must(http.StatusUnprocessableEntity, http.MethodPost, "/api/planillas/aguinaldo", nil)
	f.Must(http.StatusUnprocessableEntity, http.MethodPost, "/api/planillas/aguinaldo?anio=dos", nil)
}
