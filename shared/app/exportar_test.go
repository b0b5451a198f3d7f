package app_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/testenv"
)

func TestListsExportEveryFilteredRowAsCSVAndExcel(t *testing.T) {
	e, admin := testenv.NewAdmin(t, testenv.Limite("exports", 3, time.Hour))
	for i, id := range []string{"101110111", "101110112", "101110113"} {
		e.Create(t, admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": id,
			"nombre": "Cliente", "apellidos": "Número " + string(rune('A'+i)), "limite_credito": "1500.50"})
	}
	e.Create(t, admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "202220222",
		"nombre": "Otro", "apellidos": "Inactivo", "activo": false})

	// CSV: UTF-8 with a BOM, a header row, every active customer (the filter applies; no page).
	r := e.Call(admin, http.MethodGet, "/api/clientes?activos=true&per_page=1&formato=csv", nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(r.Header.Get("Content-Disposition"), `attachment; filename="clientes-`) || r.Header.Get("X-RateLimit-Remaining") != "2" {
		t.Fatalf("csv: %d %v", r.Status, r.Header)
	}
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.Raw, []byte("\ufeff")))).ReadAll()
	if err != nil || len(recs) != 4 {
		t.Fatalf("csv rows: %d %v\n%s", len(recs), err, r.Raw)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	if _, ok := col["identificacion"]; !ok || recs[1][col["limite_credito"]] != "1500.50" || recs[3][col["apellidos"]] != "Número C" {
		t.Fatalf("csv content: %v", recs)
	}

	// Excel: numbers are number cells.
	r = e.Call(admin, http.MethodGet, "/api/clientes?activos=true&formato=excel", nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("excel: %d %v", r.Status, r.Header)
	}
	x, err := excelize.OpenReader(bytes.NewReader(r.Raw))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := x.GetRows("Datos")
	if err != nil || len(rows) != 4 {
		t.Fatalf("excel rows: %d %v", len(rows), err)
	}
	celda, _ := excelize.CoordinatesToCellName(col["limite_credito"]+1, 2)
	if typ, _ := x.GetCellType("Datos", celda); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("limite_credito is a %v cell", typ)
	}
	if v, _ := x.GetCellValue("Datos", celda); v != "1500.5" {
		t.Errorf("limite_credito = %q", v)
	}

	if r := e.Call(admin, http.MethodGet, "/api/clientes?formato=xml", nil); r.Status != http.StatusUnprocessableEntity ||
		testenv.Get(r.JSON, "errors.formato") == nil {
		t.Fatalf("formato=xml: %d %s", r.Status, r.Raw)
	}
	// Exports count in their own class (3 per hour here, the xml attempt
	// included); the JSON list does not.
	if r := e.Call(admin, http.MethodGet, "/api/clientes?formato=csv", nil); r.Status != http.StatusTooManyRequests ||
		!strings.Contains(testenv.Str(r.JSON, "message"), "exportaciones") {
		t.Fatalf("fourth export: %d %s", r.Status, r.Raw)
	}
	if r := e.Call(admin, http.MethodGet, "/api/clientes", nil); r.Status != http.StatusOK {
		t.Fatalf("JSON list after the exports: %d", r.Status)
	}
	// Another company's export has none of these rows.
	r = e.Call(e.Admin(2), http.MethodGet, "/api/clientes?formato=csv", nil)
	if strings.Contains(string(r.Raw), "101110111") {
		t.Fatalf("company 2 exported company 1's customers")
	}
}
