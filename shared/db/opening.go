package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// The statements of a Tx. The first one carries the transaction's opening
// (BEGIN and the scope's settings) in the same pipeline, so a request does
// not wait for PostgreSQL to acknowledge BEGIN before it can send its
// query. A failure of the opening is the statement's error; WithTx then
// rolls back (or closes the connection) as for any failed statement.

// opening queues BEGIN and the settings at the head of a new batch.
func (t *Tx) opening() *pgx.Batch {
	b := &pgx.Batch{}
	b.Queue("begin")
	b.Queue(setScope, idText(t.scope.EmpresaID), idText(t.scope.UsuarioID))
	return b
}

// openAlone sends the opening in a round trip of its own: for statements
// whose arguments carry pgx options (an exec mode, a query rewriter) that
// a pipeline would not honour.
func (t *Tx) openAlone(ctx context.Context) error {
	t.begun = true
	if err := t.conn.SendBatch(ctx, t.opening()).Close(); err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	return nil
}

// pgxOptions reports whether args start with a pgx option rather than a
// statement argument.
func pgxOptions(args []any) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0].(type) {
	case pgx.QueryExecMode, pgx.QueryRewriter, pgx.QueryResultFormats, pgx.QueryResultFormatsByOID:
		return true
	}
	return false
}

// errCommitted is the error of a statement sent after SendFinalBatch
// committed: it would run outside the transaction, without its tenant.
var errCommitted = errors.New("db: statement after the transaction's final batch committed it")

// Exec runs a statement in the transaction.
func (t *Tx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if t.done {
		return pgconn.CommandTag{}, errCommitted
	}
	if t.begun {
		return t.conn.Exec(ctx, sql, args...)
	}
	if len(args) == 0 {
		// pgx sends an argument-less Exec as a simple query, which may hold
		// several statements: the opening goes in front of it as text (the
		// settings are decimal ids, nothing to quote).
		t.begun = true
		tag, err := t.conn.Exec(ctx, "begin; select set_config('app.empresa_id', '"+idText(t.scope.EmpresaID)+
			"', true), set_config('app.usuario_id', '"+idText(t.scope.UsuarioID)+"', true);\n"+sql)
		return tag, err
	}
	if pgxOptions(args) {
		if err := t.openAlone(ctx); err != nil {
			return pgconn.CommandTag{}, err
		}
		return t.conn.Exec(ctx, sql, args...)
	}
	br := t.SendBatch(ctx, t.single(sql, args))
	tag, err := br.Exec()
	if cErr := br.Close(); err == nil {
		err = cErr
	}
	return tag, err
}

func (t *Tx) single(sql string, args []any) *pgx.Batch {
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	return b
}

// Query runs a query in the transaction.
func (t *Tx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if t.done {
		return errRows{errCommitted}, errCommitted
	}
	if t.begun {
		return t.conn.Query(ctx, sql, args...)
	}
	if pgxOptions(args) {
		if err := t.openAlone(ctx); err != nil {
			return errRows{err}, err
		}
		return t.conn.Query(ctx, sql, args...)
	}
	br := t.SendBatch(ctx, t.single(sql, args))
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return errRows{err}, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

// QueryRow runs a single-row query in the transaction.
func (t *Tx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if t.begun && !t.done {
		return t.conn.QueryRow(ctx, sql, args...)
	}
	rows, _ := t.Query(ctx, sql, args...)
	return rowOf{rows}
}

// SendBatch pipelines several statements in one round trip (the opening
// in front of them when the transaction has sent nothing yet).
func (t *Tx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if t.done {
		return &openedBatch{br: failedBatch{}, skipped: true, err: errCommitted}
	}
	if t.begun {
		return t.conn.SendBatch(ctx, b)
	}
	t.begun = true
	nb := t.opening()
	nb.QueuedQueries = append(nb.QueuedQueries, b.QueuedQueries...)
	return &openedBatch{br: t.conn.SendBatch(ctx, nb)}
}

// openedBatch hides the opening's two results from the caller.
type openedBatch struct {
	br      pgx.BatchResults
	skipped bool
	err     error
}

func (o *openedBatch) skip() error {
	if !o.skipped {
		o.skipped = true
		for range 2 {
			if _, err := o.br.Exec(); err != nil {
				o.err = fmt.Errorf("db: begin: %w", err)
				break
			}
		}
	}
	return o.err
}

func (o *openedBatch) Exec() (pgconn.CommandTag, error) {
	if err := o.skip(); err != nil {
		return pgconn.CommandTag{}, err
	}
	return o.br.Exec()
}

func (o *openedBatch) Query() (pgx.Rows, error) {
	if err := o.skip(); err != nil {
		return errRows{err}, err
	}
	return o.br.Query()
}

func (o *openedBatch) QueryRow() pgx.Row {
	if err := o.skip(); err != nil {
		return rowOf{errRows{err}}
	}
	return o.br.QueryRow()
}

// Tx is nil: a Tx's batches never begin a pgx transaction of their own.
func (o *openedBatch) Tx() pgx.Tx { return o.br.Tx() }

func (o *openedBatch) Close() error {
	err := o.br.Close()
	if o.err != nil {
		return o.err
	}
	return err
}

// batchRows are the rows of a one-statement batch: closing them closes the
// batch (which reads the end of the pipeline), and its error is theirs.
type batchRows struct {
	pgx.Rows
	br     pgx.BatchResults
	closed bool
	err    error
}

func (r *batchRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.Rows.Close()
	if err := r.br.Close(); err != nil && r.Rows.Err() == nil {
		r.err = err
	}
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// rowOf is QueryRow over rows, as pgx's own.
type rowOf struct{ rows pgx.Rows }

func (r rowOf) Scan(dest ...any) error {
	rows := r.rows
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	_ = rows.Scan(dest...)
	rows.Close()
	return rows.Err()
}

// errRows are the rows of a statement that could not be sent.
type errRows struct{ err error }

func (e errRows) Close()                                       {}
func (e errRows) Err() error                                   { return e.err }
func (e errRows) CommandTag() pgconn.CommandTag                { return pgconn.CommandTag{} }
func (e errRows) FieldDescriptions() []pgconn.FieldDescription { return nil }
func (e errRows) Next() bool                                   { return false }
func (e errRows) Scan(...any) error                            { return e.err }
func (e errRows) Values() ([]any, error)                       { return nil, e.err }
func (e errRows) RawValues() [][]byte                          { return nil }
func (e errRows) Conn() *pgx.Conn                              { return nil }
func (e errRows) TypeMap() *pgtype.Map                         { return nil }

// CommitWithFinalBatch marks a transaction whose last statements are one
// batch sent by SendFinalBatch (a read's relations): the commit then
// travels in that batch instead of a round trip of its own. Handlers call
// it when nothing follows their read (handler.Show, handler.List).
func (t *Tx) CommitWithFinalBatch() { t.finalBatch = true }

// ExecAtCommit queues a write that nothing in the transaction reads and
// nothing after it depends on (an outbox row): it travels in the commit's
// round trip instead of one of its own. Its failure fails the commit (the
// transaction rolls back) and WithTx returns it.
func (t *Tx) ExecAtCommit(sql string, args ...any) {
	t.atCommit = append(t.atCommit, &pgx.QueuedQuery{SQL: sql, Arguments: args})
}

// queueCommit queues the commit and, ahead of it, the writes deferred to it
// (ExecAtCommit) and the read of app.despertar, which database code sets
// when the transaction left work for a worker (webhook deliveries).
func (t *Tx) queueCommit(b *pgx.Batch) {
	b.QueuedQueries = append(b.QueuedQueries, t.atCommit...)
	t.atCommit = nil
	b.Queue(`select nullif(current_setting('app.despertar', true), '')`).QueryRow(func(r pgx.Row) error { return r.Scan(&t.despertar) })
	b.Queue("commit")
}

// SendFinalBatch is SendBatch for the transaction's last statements: when
// the handler allowed it (CommitWithFinalBatch), the commit is queued
// after b, and once the results are closed without error the transaction
// is done (any later statement fails, errCommitted). Otherwise it is
// SendBatch.
func (t *Tx) SendFinalBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if !t.finalBatch || t.done {
		return t.SendBatch(ctx, b)
	}
	nb := &pgx.Batch{QueuedQueries: append([]*pgx.QueuedQuery(nil), b.QueuedQueries...)}
	t.queueCommit(nb)
	return &finalBatch{BatchResults: t.SendBatch(ctx, nb), tx: t}
}

// Final is t as a Querier whose batches are sent by SendFinalBatch: for a
// read whose next batch is its last (a page without relations to load
// after it), so that the commit travels with it.
func Final(t *Tx) Querier { return finalQuerier{t} }

type finalQuerier struct{ *Tx }

func (f finalQuerier) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return f.SendFinalBatch(ctx, b)
}

// finalBatch marks the transaction done when its commit succeeded.
type finalBatch struct {
	pgx.BatchResults
	tx     *Tx
	closed bool
	err    error
}

func (f *finalBatch) Close() error {
	if f.closed {
		return f.err
	}
	f.closed = true
	f.err = f.BatchResults.Close()
	if f.err == nil {
		f.tx.done = true
	} else {
		f.tx.despertar = nil
	}
	return f.err
}

// failedBatch is the batch of a transaction already committed.
type failedBatch struct{}

func (failedBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, errCommitted }
func (failedBatch) Query() (pgx.Rows, error)         { return errRows{errCommitted}, errCommitted }
func (failedBatch) QueryRow() pgx.Row                { return rowOf{errRows{errCommitted}} }
func (failedBatch) Close() error                     { return errCommitted }
func (failedBatch) Tx() pgx.Tx                       { return nil }
