package webhooks_test

import (
	"context"
	"testing"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/jackc/pgx/v5"
)

// BenchmarkEntregas measures deliveries per second through the worker
// (lease, signed POST to a local receiver, attempt log and state) against a
// real PostgreSQL: make bench reports it as ns/op and entregas/s.
func BenchmarkEntregas(b *testing.B) {
	f := setup(b)
	f.suscribir(5, eventos.VentaCreada)
	ids := make([]int64, 0, b.N)
	for len(ids) < b.N {
		n := min(b.N-len(ids), 500)
		if err := f.e.Deps.DB.WithTx(context.Background(), db.Scope{EmpresaID: 1, UsuarioID: 1}, func(tx *db.Tx) error {
			for i := 0; i < n; i++ {
				if err := eventos.Registrar(context.Background(), tx, eventos.VentaCreada, map[string]any{"id": i}); err != nil {
					return err
				}
			}
			rows, _ := tx.Query(context.Background(), `select id from webhook_entregas where estado = 'pendiente' order by id desc limit $1`, n)
			got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			ids = append(ids, got...)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for _, id := range ids[:b.N] {
		if err := f.d.Entregar(context.Background(), 1, id); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entregas/s")
	if f.rc.validas.Load() != int64(b.N) {
		b.Fatalf("%d valid deliveries of %d", f.rc.validas.Load(), b.N)
	}
}
