package catalogo_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/testenv"
)

// Of two deletes of one record racing, the first to commit answers 200 and
// the other 404, as a later delete does; both answered 200 (the second one
// found the row before the first committed and updated it again). Made
// deterministic by an owner transaction that soft-deletes the row and holds
// its lock while the API's DELETE waits for it. The engine is recurso's, so
// this covers every declared resource; two of them are tried.
func TestADeleteRacingAnotherDeleteOfTheSameRecordAnswers404(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cat := e.Create(t, admin, categorias, obj{"nombre": "Efímera"})
	prod := e.Create(t, admin, productos, producto(1, 1, "Efímero"))
	for _, c := range []struct {
		table, path string
		id          int
	}{{"categorias_producto", categorias, cat}, {"productos", productos, prod}} {
		t.Run(c.table, func(t *testing.T) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, e.AdminURL)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, `update `+c.table+` set activo = false, eliminado = true where id = $1`, c.id); err != nil {
				t.Fatal(err)
			}
			done := make(chan testenv.Resp, 1)
			go func() { done <- e.Call(admin, http.MethodDelete, item(c.path, c.id), nil) }()
			deadline := time.Now().Add(10 * time.Second)
			for testenv.Scalar[int64](t, e, `select count(*) from pg_stat_activity where datname = current_database()
				and usename = 'erp_app' and wait_event_type = 'Lock' and query like 'update `+c.table+`%'`) == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the DELETE never waited for the locked row")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if r := <-done; r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("DELETE racing a committed delete: %d %s, want 404", r.Status, r.Raw)
			}
		})
	}
}
