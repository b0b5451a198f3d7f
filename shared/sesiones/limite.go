package sesiones

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
)

// Limiter counts failed logins in PostgreSQL (table fallos_login), so that
// the limit holds across every Lambda instance. Only failures count: a user
// who opens the app on many devices is never locked out by its own
// successful logins, and a successful login clears its e-mail's failures.
// PorEmail failures of one e-mail (case-insensitive) within Ventana lock
// that e-mail; PorDireccion failures from one client address across all
// e-mails stop password spraying. While locked, even the right password is
// refused: the lock would mean nothing otherwise.
type Limiter struct {
	DB           *db.DB
	PorEmail     int
	PorDireccion int
	Ventana      time.Duration
}

// intento is one login attempt admitted by the limiter: it holds a failure
// recorded in advance, which the caller forgets on success.
type intento struct {
	l        *Limiter
	email    string
	falloID  int64
	bloqueo  int // seconds until an attempt is admitted again; 0 = admitted
	admitido bool
}

// begin admits or refuses an attempt, and when admitting it records it as a
// failure ahead of the password check. Recording first, under a
// per-e-mail transaction lock, is what makes the limit exact under
// concurrency: ten simultaneous guesses cannot all see zero failures. One
// round trip (a pipelined batch in one implicit transaction).
//
// also is queued ahead of the limiter's statements, in the same round trip
// and the same implicit transaction (the login's reads, which need no
// answer of the limiter): the lock is taken by the batch's next-to-last
// statement and released when the batch ends, so logins of one e-mail
// wait for each other only while the limiter's own statement runs. read is
// called first, with the results of also, whatever the limiter decides;
// callbacks queued by also and the limiter's run when the results are
// closed, before begin returns.
func (l *Limiter) begin(ctx context.Context, pool db.Querier, email, direccion string, also func(b *pgx.Batch), read func(br pgx.BatchResults) error) (*intento, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	in := &intento{l: l, email: email}
	b := &pgx.Batch{}
	also(b)
	send := func() error {
		br := pool.SendBatch(ctx, b)
		defer br.Close()
		if err := read(br); err != nil {
			return err
		}
		if err := br.Close(); err != nil {
			return fmt.Errorf("login limiter: %w", err)
		}
		return nil
	}
	if l == nil || (l.PorEmail <= 0 && l.PorDireccion <= 0) {
		in.admitido = true
		if err := send(); err != nil {
			return nil, err
		}
		return in, nil
	}
	porEmail, porDir := limit(l.PorEmail), limit(l.PorDireccion)
	var id, espera *int64
	b.Queue(`select pg_advisory_xact_lock(hashtextextended('login:' || $1, 0))`, email)
	// The n-th most recent failure is the one whose expiry lifts the lock.
	b.Queue(`with f as (
			select email = $1 as del_email, direccion = $2 as de_dir, creado_en from fallos_login
			where creado_en > now() - $3::interval and (email = $1 or direccion = $2)),
		c as (
			select count(*) filter (where del_email) as n_email,
				(array_agg(creado_en order by creado_en desc) filter (where del_email))[$4] as limite_email,
				count(*) filter (where de_dir) as n_dir,
				(array_agg(creado_en order by creado_en desc) filter (where de_dir))[$5] as limite_dir
			from f),
		ins as (
			insert into fallos_login (email, direccion)
			select $1, $2 from c where c.n_email < $4 and c.n_dir < $5
			returning id)
		select (select id from ins),
			ceil(extract(epoch from greatest(
				case when n_email >= $4 then limite_email + $3::interval - now() end,
				case when n_dir >= $5 then limite_dir + $3::interval - now() end)))::bigint
		from c`,
		email, direccion, l.Ventana.String(), porEmail, porDir).
		QueryRow(func(r pgx.Row) error { return r.Scan(&id, &espera) })
	if err := send(); err != nil {
		return nil, err
	}
	if id != nil {
		in.falloID, in.admitido = *id, true
		return in, nil
	}
	in.bloqueo = 1
	if espera != nil && *espera > 0 {
		in.bloqueo = int(*espera)
	}
	return in, nil
}

// limit turns "no limit" (0 or less) into a count never reached.
func limit(n int) int {
	if n <= 0 {
		return math.MaxInt32
	}
	return n
}

// forget removes, once the password proved right, the e-mail's failures
// (the one recorded in advance included).
func (in *intento) forget(ctx context.Context, q db.Querier) error {
	if in.falloID == 0 {
		return nil
	}
	if _, err := q.Exec(ctx, `delete from fallos_login where email = $1`, in.email); err != nil {
		return fmt.Errorf("login limiter: forget: %w", err)
	}
	return nil
}

// queueForget is forget as one statement of a batch.
func (in *intento) queueForget(b *pgx.Batch) {
	if in.falloID != 0 {
		b.Queue(`delete from fallos_login where email = $1`, in.email)
	}
}
