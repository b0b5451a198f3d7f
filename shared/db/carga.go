package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Carga pipelines the reads that fill the relations of a page of records:
// each Leer queues one query (the related ids as an = any($n) array, so a
// page costs the same whatever its size), Enviar sends them all in one round
// trip and fills every result, and Colgar and Agrupar hang the rows on the
// records. A loader thus writes each relation once, as data, instead of a
// read, an error check and an index per relation.
type Carga struct {
	b     pgx.Batch
	leers []func(pgx.BatchResults) error
}

// Leer queues sql (with args) on c and returns where Enviar puts its rows,
// scanned with scan; what names the relation in errors.
func Leer[T any](c *Carga, what string, scan pgx.RowToFunc[T], sql string, args ...any) *[]T {
	out := new([]T)
	c.b.Queue(sql, args...)
	c.leers = append(c.leers, func(br pgx.BatchResults) error {
		rows, _ := br.Query() // a failed query surfaces as CollectRows' error
		xs, err := pgx.CollectRows(rows, scan)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		*out = xs
		return nil
	})
	return out
}

// Enviar sends the queued reads in one round trip and fills their results,
// in the order they were queued.
func (c *Carga) Enviar(ctx context.Context, q Querier) error {
	return c.EnviarTras(ctx, q, &pgx.Batch{})
}

// EnviarTras is Enviar with b's statements (the writes of a record the
// reads then load) sent ahead of the reads in the same round trip, so the
// reads see what they wrote. Each of b's statements is read by its callback
// (pgx.QueuedQuery's Query, QueryRow or Exec) or, without one, only
// checked for its error.
func (c *Carga) EnviarTras(ctx context.Context, q Querier, b *pgx.Batch) error {
	nb := &pgx.Batch{QueuedQueries: append(append([]*pgx.QueuedQuery(nil), b.QueuedQueries...), c.b.QueuedQueries...)}
	br := q.SendBatch(ctx, nb)
	defer br.Close()
	for _, qq := range b.QueuedQueries {
		var err error
		if qq.Fn != nil {
			err = qq.Fn(br)
		} else {
			_, err = br.Exec()
		}
		if err != nil {
			return err
		}
	}
	for _, leer := range c.leers {
		if err := leer(br); err != nil {
			return err
		}
	}
	return nil
}

// Colgar hangs on each record the row its key names: en gives the record's
// key (nil when it names none, which leaves the record's pointer nil) and
// where the row goes; id is a row's key. A key without a row leaves nil.
func Colgar[R, T any](recs []R, rows []T, id func(*T) int64, en func(*R) (*int64, **T)) {
	por := make(map[int64]*T, len(rows))
	for i := range rows {
		por[id(&rows[i])] = &rows[i]
	}
	for i := range recs {
		if k, dst := en(&recs[i]); k != nil {
			*dst = por[*k]
		}
	}
}

// Agrupar appends each row, in order, to the list of the record its padre
// key names: en gives a record's id and its list (nil: it takes none).
func Agrupar[R, T any](recs []R, rows []T, padre func(*T) int64, en func(*R) (int64, *[]T)) {
	listas := make(map[int64]*[]T, len(recs))
	for i := range recs {
		id, lista := en(&recs[i])
		listas[id] = lista
	}
	for i := range rows {
		if l := listas[padre(&rows[i])]; l != nil {
			*l = append(*l, rows[i])
		}
	}
}
