// Command contabilidad posts the books of what every company recorded
// before accounting existed (make contabilizar-historico): sales, stock
// movements and payments without their entries, in the order they
// happened (contabilidad_backfill, which migration 0012 already ran once).
// It is idempotent: a second run posts nothing. It prints each entry it
// posted.
//
// It connects with the owner connection: DATABASE_URL when set, otherwise
// the private cluster that `make run` keeps running under .local/pgdata.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/cmd/internal/devdb"
	"github.com/erpcr/erp/shared/contabilidad"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// run posts the history of every company in one transaction per company
// and returns how many entries it posted.
func run(ctx context.Context, out io.Writer) error {
	conn, err := devdb.Conectar(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `select id, nombre from empresas where not eliminado order by id`)
	type empresa struct {
		ID     int64
		Nombre string
	}
	empresas, err := pgx.CollectRows(rows, pgx.RowToStructByPos[empresa])
	if err != nil {
		return fmt.Errorf("leer empresas: %w", err)
	}
	total := 0
	for _, e := range empresas {
		var posted []contabilidad.Posteado
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var err error
			posted, err = contabilidad.Backfill(ctx, tx, e.ID)
			return err
		})
		if err != nil {
			return fmt.Errorf("empresa %d (%s): %w", e.ID, e.Nombre, err)
		}
		fmt.Fprintf(out, "Empresa %d (%s): %d asientos contabilizados.\n", e.ID, e.Nombre, len(posted))
		for _, p := range posted {
			fmt.Fprintf(out, "  %s  %s  %-16s %14s  %s\n", p.Numero, p.Fecha, p.Origen, p.Total, p.Descripcion)
		}
		total += len(posted)
	}
	fmt.Fprintf(out, "Total: %d asientos contabilizados.\n", total)
	return nil
}
