package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
)

// scenarios are the measured requests, in table order. Each worker walks
// the data set deterministically (no randomness: runs are comparable).
func scenarios(ds dataset) []scenario {
	n := len(ds.productos)
	show := func(w, i int) (string, string, []byte) {
		return http.MethodGet, fmt.Sprintf("/api/productos/%d", ds.productos[(w*7919+i*31)%n]), nil
	}
	list := func(int, int) (string, string, []byte) { return http.MethodGet, "/api/productos?per_page=15", nil }
	health := func(int, int) (string, string, []byte) { return http.MethodGet, "/api/health", nil }
	login := func(int, int) (string, string, []byte) {
		return http.MethodPost, "/api/login", []byte(`{"email":"admin@demo.cr","password":"` + benchPassword + `"}`)
	}
	return []scenario{
		{name: "health", label: "`GET /api/health`", want: http.StatusOK, build: health},
		{name: "list", label: "`GET /api/productos?per_page=15`", token: true, want: http.StatusOK, build: list, replay: true},
		{name: "show", label: "`GET /api/productos/{id}`", token: true, want: http.StatusOK, build: show, replay: true},
		{name: "sale5", label: "`POST /api/ventas` (5 lines, stock)", token: true, want: http.StatusCreated, build: sale(ds, 5), replay: true, captured: renumber},
		{name: "sale50", label: "`POST /api/ventas` (50 lines, stock)", token: true, want: http.StatusCreated, build: sale(ds, 50), replay: true, captured: renumber},
		{name: "login", label: "`POST /api/login`", want: http.StatusOK, build: login},
	}
}

// sale is a cash sale of lines distinct products (1 unit each) to one of
// the seeded customers, from the principal warehouse, dated today in
// Costa Rica.
func sale(ds dataset, lines int) request {
	n := len(ds.productos)
	return func(w, i int) (string, string, []byte) {
		start := (w*7919 + i*lines) % n
		detalles := make([]map[string]any, lines)
		for k := range detalles {
			detalles[k] = map[string]any{"producto_id": ds.productos[(start+k)%n], "cantidad": 1, "precio_unitario": "1000.00"}
		}
		body, _ := json.Marshal(map[string]any{
			"fecha_venta":      time.Now().UTC().Add(-6 * time.Hour).Format(time.DateOnly),
			"tipo_comprobante": "factura",
			"almacen_id":       ds.almacen,
			"cliente_id":       ds.clientes[(w*13+i)%len(ds.clientes)],
			"detalles":         detalles,
		})
		return http.MethodPost, "/api/ventas", body
	}
}

// renumber frees the numbers the traced sale took (its comprobante and its
// stock movement's), so that its statements can be replayed: the replay
// sends the same numbers, and ends in ROLLBACK so they stay free.
func renumber(ctx context.Context, owner *pgx.Conn, answer []byte) error {
	var r struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(answer, &r); err != nil || r.Data.ID == 0 {
		return fmt.Errorf("venta sin id: %.200s", answer)
	}
	b := &pgx.Batch{}
	b.Queue(`set session_replication_role = replica`)
	b.Queue(`update ventas set numero_comprobante = numero_comprobante || '-T' where id = $1`, r.Data.ID)
	b.Queue(`update movimientos_inventario set numero = numero || '-T' where venta_id = $1`, r.Data.ID)
	b.Queue(`reset session_replication_role`)
	return owner.SendBatch(ctx, b).Close()
}
