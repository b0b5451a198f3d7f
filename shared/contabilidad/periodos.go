package contabilidad

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/montos"
)

// Periodo is a month of the books: a month with a row in
// periodos_contables (closed, or reopened) or with entries. A month without
// a row is open.
type Periodo struct {
	Anio          int           `json:"anio" db:"anio"`
	Mes           int           `json:"mes" db:"mes"`
	Estado        string        `json:"estado" db:"estado"`
	Asientos      int64         `json:"asientos" db:"asientos"`
	Borradores    int64         `json:"borradores" db:"borradores"`
	TotalDebe     montos.Numero `json:"total_debe" db:"total_debe"`
	TotalHaber    montos.Numero `json:"total_haber" db:"total_haber"`
	CerradoEn     *time.Time    `json:"cerrado_en" db:"cerrado_en"`
	CerradoPor    *int64        `json:"cerrado_por" db:"cerrado_por"`
	ReabiertoEn   *time.Time    `json:"reabierto_en" db:"reabierto_en"`
	ActualizadoEn *time.Time    `json:"actualizado_en" db:"actualizado_en"`
}

// periodosFrom is every month of the company with a row or with entries,
// with its posted totals ($1 the company).
const periodosFrom = `from (
	select m.anio, m.mes, coalesce(p.estado, 'abierto') as estado,
		count(a.id) filter (where a.estado <> 'borrador') as asientos,
		count(a.id) filter (where a.estado = 'borrador') as borradores,
		round(coalesce(sum(a.total_debe) filter (where a.estado <> 'borrador'), 0), 2) as total_debe,
		round(coalesce(sum(a.total_haber) filter (where a.estado <> 'borrador'), 0), 2) as total_haber,
		p.cerrado_en, p.cerrado_por, p.reabierto_en, p.actualizado_en
	from (select anio, mes from periodos_contables where empresa_id = $1
		union select extract(year from fecha)::int, extract(month from fecha)::int from asientos_contables
			where empresa_id = $1 and not eliminado) m
	left join periodos_contables p on p.empresa_id = $1 and p.anio = m.anio and p.mes = m.mes
	left join asientos_contables a on a.empresa_id = $1 and not a.eliminado
		and a.fecha >= make_date(m.anio, m.mes, 1) and a.fecha < make_date(m.anio, m.mes, 1) + interval '1 month'
	group by m.anio, m.mes, p.estado, p.cerrado_en, p.cerrado_por, p.reabierto_en, p.actualizado_en) x
	where ($2::int is null or x.anio = $2) and ($3::text is null or x.estado = $3)`

const periodoCols = `x.anio, x.mes, x.estado, x.asientos, x.borradores, x.total_debe, x.total_haber, x.cerrado_en, x.cerrado_por,
	x.reabierto_en, x.actualizado_en`

// PeriodoRef names a month from the path (/{anio}/{mes}).
type PeriodoRef struct{ Anio, Mes int }

func (p PeriodoRef) String() string { return fmt.Sprintf("%04d-%02d", p.Anio, p.Mes) }

func scanPeriodo(r pgx.CollectableRow) (Periodo, error) { return pgx.RowToStructByName[Periodo](r) }

// buscarPeriodo reads one month (open without a row).
func buscarPeriodo(ctx context.Context, tx *db.Tx, ref PeriodoRef) (Periodo, error) {
	rows, _ := tx.Query(ctx, `select `+periodoCols+` `+periodosFrom+` and x.mes = $4`, tx.EmpresaID(), ref.Anio, nil, ref.Mes)
	ps, err := pgx.CollectRows(rows, scanPeriodo)
	if err != nil {
		return Periodo{}, fmt.Errorf("contabilidad: período %s: %w", ref, err)
	}
	if len(ps) == 0 {
		return Periodo{Anio: ref.Anio, Mes: ref.Mes, Estado: "abierto"}, nil
	}
	return ps[0], nil
}

// CerrarPeriodo closes a month: no entry can be posted into it (automatic
// postings of a sale or payment dated in it are refused with a 422) until
// it is reopened. It stamps cerrado_en and cerrado_por. It first takes the
// month's advisory lock exclusively (migration 0024): every posting holds
// it shared from its period check to its commit, so the closing waits for
// the postings in flight, and the ones that come during the closing wait
// and then find the month closed — none lands in a closed month.
func CerrarPeriodo(ctx context.Context, tx *db.Tx, p auth.Principal, ref PeriodoRef) (Periodo, error) {
	b := &pgx.Batch{}
	b.Queue(`select pg_advisory_xact_lock(contabilidad_llave_periodo($1, $2, $3))`, tx.EmpresaID(), ref.Anio, ref.Mes)
	b.Queue(`insert into periodos_contables (empresa_id, anio, mes, estado, cerrado_en, cerrado_por)
		values ($1, $2, $3, 'cerrado', now(), nullif($4, 0))
		on conflict (empresa_id, anio, mes) do update set estado = 'cerrado', cerrado_en = now(), cerrado_por = excluded.cerrado_por
			where periodos_contables.estado <> 'cerrado'`, tx.EmpresaID(), ref.Anio, ref.Mes, p.UsuarioID)
	br := tx.SendBatch(ctx, b)
	_, err := br.Exec()
	var tag pgconn.CommandTag
	if err == nil {
		tag, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Periodo{}, fmt.Errorf("contabilidad: cerrar %s: %w", ref, err)
	}
	if tag.RowsAffected() == 0 {
		return Periodo{}, apperr.InvalidField("estado", "El período contable "+ref.String()+" ya está cerrado.")
	}
	return buscarPeriodo(ctx, tx, ref)
}

// ReabrirPeriodo opens a closed month again and stamps reabierto_en.
func ReabrirPeriodo(ctx context.Context, tx *db.Tx, _ auth.Principal, ref PeriodoRef) (Periodo, error) {
	tag, err := tx.Exec(ctx, `update periodos_contables set estado = 'abierto', reabierto_en = now()
		where empresa_id = $1 and anio = $2 and mes = $3 and estado = 'cerrado'`, tx.EmpresaID(), ref.Anio, ref.Mes)
	if err != nil {
		return Periodo{}, fmt.Errorf("contabilidad: reabrir %s: %w", ref, err)
	}
	if tag.RowsAffected() == 0 {
		return Periodo{}, apperr.InvalidField("estado", "El período contable "+ref.String()+" no está cerrado.")
	}
	return buscarPeriodo(ctx, tx, ref)
}
