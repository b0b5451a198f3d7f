// Package programados is the scheduled reports of issue 14
// (/api/reportes-programados): a report type of the registry
// (shared/reportes) with its parameters and format, run daily, weekly or
// monthly at an hour of Costa Rica by the scheduler (EventBridge every
// minute in AWS, the ticker of make run), saved through an Almacen (S3 or
// a local folder) and announced by e-mail through a Correo (SES or .eml
// files), each run a row of reporte_ejecuciones (migration 0017).
//
// A schedule runs as the user who created it, in its company, with that
// user's permissions at the time of the run: a user who lost the report's
// permission (or the company) makes the run fail, not leak.
package programados

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/reportes"
)

// MaxDestinatarios bounds the recipients of a schedule.
const MaxDestinatarios = 10

// Programado is a scheduled report as the API shows it.
type Programado struct {
	ID               int64             `json:"id"`
	Nombre           string            `json:"nombre"`
	Tipo             string            `json:"tipo"`
	Parametros       map[string]string `json:"parametros"`
	Frecuencia       string            `json:"frecuencia"`
	DiaSemana        *int              `json:"dia_semana"`
	DiaMes           *int              `json:"dia_mes"`
	Hora             string            `json:"hora"`
	Formato          string            `json:"formato"`
	Destinatarios    []string          `json:"destinatarios"`
	Activo           bool              `json:"activo"`
	ProximaEjecucion *time.Time        `json:"proxima_ejecucion"`
	UltimaEjecucion  *time.Time        `json:"ultima_ejecucion"`
	UsuarioID        int64             `json:"usuario_id"`
	CreadoEn         time.Time         `json:"creado_en"`
	ActualizadoEn    time.Time         `json:"actualizado_en"`
}

// calendario is when p runs.
func (p Programado) calendario() Calendario {
	c := Calendario{Frecuencia: p.Frecuencia}
	if p.DiaSemana != nil {
		c.DiaSemana = *p.DiaSemana
	}
	if p.DiaMes != nil {
		c.DiaMes = *p.DiaMes
	}
	c.Hora, c.Minuto, _ = parseHora(p.Hora)
	return c
}

// Datos is a create or update body; nil fields are absent (an update keeps
// the current value).
type Datos struct {
	Nombre, Tipo, Frecuencia, Hora, Formato *string
	Parametros                              map[string]string
	DiaSemana, DiaMes                       *int
	Destinatarios                           []string
	Activo                                  *bool
	// Which fields the body named (an explicit null clears dia_semana and
	// dia_mes; parametros and destinatarios are replaced whole).
	ConParametros, ConDestinatarios, ConDiaSemana, ConDiaMes bool
}

const columnas = `r.id, r.nombre, r.tipo, r.parametros, r.frecuencia, r.dia_semana, r.dia_mes, to_char(r.hora, 'HH24:MI'),
	r.formato, r.destinatarios, r.activo, r.proxima_ejecucion, r.ultima_ejecucion, r.usuario_id, r.creado_en, r.actualizado_en`

func escanear(row pgx.CollectableRow) (Programado, error) { return escanearCon(row) }

// escanearCon scans columnas followed by extra columns.
func escanearCon(row pgx.CollectableRow, extra ...any) (Programado, error) {
	var p Programado
	var params []byte
	var ds, dm *int16
	dst := append([]any{&p.ID, &p.Nombre, &p.Tipo, &params, &p.Frecuencia, &ds, &dm, &p.Hora, &p.Formato, &p.Destinatarios,
		&p.Activo, &p.ProximaEjecucion, &p.UltimaEjecucion, &p.UsuarioID, &p.CreadoEn, &p.ActualizadoEn}, extra...)
	err := row.Scan(dst...)
	if err != nil {
		return p, err
	}
	if ds != nil {
		v := int(*ds)
		p.DiaSemana = &v
	}
	if dm != nil {
		v := int(*dm)
		p.DiaMes = &v
	}
	if err := json.Unmarshal(params, &p.Parametros); err != nil {
		return p, fmt.Errorf("programados: parametros: %w", err)
	}
	if p.Destinatarios == nil {
		p.Destinatarios = []string{}
	}
	p.CreadoEn, p.ActualizadoEn = p.CreadoEn.UTC(), p.ActualizadoEn.UTC()
	p.ProximaEjecucion, p.UltimaEjecucion = utc(p.ProximaEjecucion), utc(p.UltimaEjecucion)
	return p, nil
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Mensajes of the API.
const (
	msgNoEncontrado = "Reporte programado no encontrado."
	msgEjecucion    = "Ejecución no encontrada."
)

// cargar reads a schedule of the transaction's company (for update: locked).
func cargar(ctx context.Context, tx *db.Tx, id int64, bloquear bool) (Programado, error) {
	q := `select ` + columnas + ` from reportes_programados r where r.empresa_id = $1 and r.id = $2 and not r.eliminado`
	if bloquear {
		q += ` for update`
	}
	rows, err := tx.Query(ctx, q, tx.EmpresaID(), id)
	if err != nil {
		return Programado{}, fmt.Errorf("programados: cargar %d: %w", id, err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, escanear)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.NewNotFound(msgNoEncontrado)
	}
	if err != nil {
		return p, fmt.Errorf("programados: cargar %d: %w", id, err)
	}
	return p, nil
}

// visible loads a schedule the principal may see: 404 for another
// company's (RLS and the filter), 403 for a report type it may not read.
func visible(ctx context.Context, tx *db.Tx, pr auth.Principal, id int64, bloquear bool) (Programado, error) {
	p, err := cargar(ctx, tx, id, bloquear)
	if err != nil {
		return p, err
	}
	if !puede(pr.Permisos, p.Tipo) {
		return p, prohibido(p.Tipo)
	}
	return p, nil
}

func prohibido(tipo string) error {
	perms, _ := PermisosTipo(tipo)
	return apperr.NewForbidden("No tiene permiso para el reporte " + tipo + " (requiere " + strings.Join(perms, " o ") + ").")
}

// Buscar answers GET /api/reportes-programados/{id}.
func (s *Servicio) Buscar(ctx context.Context, tx *db.Tx, pr auth.Principal, id int64) (Programado, error) {
	return visible(ctx, tx, pr, id, false)
}

// Crear answers POST /api/reportes-programados.
func (s *Servicio) Crear(ctx context.Context, tx *db.Tx, pr auth.Principal, d Datos) (Programado, error) {
	p := Programado{Parametros: map[string]string{}, Destinatarios: []string{}, Activo: true}
	aplicar(&p, d)
	if err := s.validarTodo(ctx, tx, pr, &p, d); err != nil {
		return p, err
	}
	p.ProximaEjecucion = s.proxima(p)
	params, _ := json.Marshal(p.Parametros)
	rows, err := tx.Query(ctx, `insert into reportes_programados as r (empresa_id, nombre, tipo, parametros, frecuencia, dia_semana, dia_mes,
			hora, formato, destinatarios, activo, proxima_ejecucion, usuario_id)
		values ($1, $2, $3, $4, $5, $6, $7, $8::time, $9, $10, $11, $12, $13) returning `+columnas,
		tx.EmpresaID(), p.Nombre, p.Tipo, params, p.Frecuencia, p.DiaSemana, p.DiaMes, p.Hora, p.Formato, p.Destinatarios,
		p.Activo, p.ProximaEjecucion, pr.UsuarioID)
	if err != nil {
		return p, fmt.Errorf("programados: crear: %w", err)
	}
	out, err := pgx.CollectExactlyOneRow(rows, escanear)
	if err != nil {
		return p, fmt.Errorf("programados: crear: %w", err)
	}
	return out, nil
}

// Actualizar answers PUT and PATCH /api/reportes-programados/{id}: the
// body's fields over the current ones, validated together. The next run
// is computed again when the calendar changes or the schedule is
// re-activated (a rename keeps the run that is due).
func (s *Servicio) Actualizar(ctx context.Context, tx *db.Tx, pr auth.Principal, id int64, d Datos) (Programado, error) {
	p, err := visible(ctx, tx, pr, id, true)
	if err != nil {
		return p, err
	}
	antes := p
	aplicar(&p, d)
	if err := s.validarTodo(ctx, tx, pr, &p, d); err != nil {
		return p, err
	}
	if p.calendario() != antes.calendario() || p.Activo != antes.Activo || p.ProximaEjecucion == nil {
		p.ProximaEjecucion = s.proxima(p)
	}
	if !p.Activo {
		p.ProximaEjecucion = nil
	}
	params, _ := json.Marshal(p.Parametros)
	rows, err := tx.Query(ctx, `update reportes_programados as r set nombre = $3, tipo = $4, parametros = $5, frecuencia = $6,
			dia_semana = $7, dia_mes = $8, hora = $9::time, formato = $10, destinatarios = $11, activo = $12,
			proxima_ejecucion = $13, actualizado_en = now()
		where r.empresa_id = $1 and r.id = $2 returning `+columnas,
		tx.EmpresaID(), id, p.Nombre, p.Tipo, params, p.Frecuencia, p.DiaSemana, p.DiaMes, p.Hora, p.Formato, p.Destinatarios,
		p.Activo, p.ProximaEjecucion)
	if err != nil {
		return p, fmt.Errorf("programados: actualizar %d: %w", id, err)
	}
	out, err := pgx.CollectExactlyOneRow(rows, escanear)
	if err != nil {
		return p, fmt.Errorf("programados: actualizar %d: %w", id, err)
	}
	return out, nil
}

// Eliminar answers DELETE: a logical deletion (the runs and their files
// stay readable to nobody through the API; the bucket's lifecycle expires
// the files).
func (s *Servicio) Eliminar(ctx context.Context, tx *db.Tx, pr auth.Principal, id int64, _ struct{}) (struct{}, error) {
	if _, err := visible(ctx, tx, pr, id, true); err != nil {
		return struct{}{}, err
	}
	_, err := tx.Exec(ctx, `update reportes_programados set eliminado = true, activo = false, proxima_ejecucion = null,
		actualizado_en = now() where empresa_id = $1 and id = $2`, tx.EmpresaID(), id)
	if err != nil {
		return struct{}{}, fmt.Errorf("programados: eliminar %d: %w", id, err)
	}
	return struct{}{}, nil
}

// aplicar sets the fields the body named.
func aplicar(p *Programado, d Datos) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Nombre, d.Nombre)
	set(&p.Tipo, d.Tipo)
	set(&p.Frecuencia, d.Frecuencia)
	set(&p.Hora, d.Hora)
	set(&p.Formato, d.Formato)
	if d.ConParametros {
		p.Parametros = d.Parametros
	}
	if d.ConDestinatarios {
		p.Destinatarios = d.Destinatarios
	}
	if d.ConDiaSemana {
		p.DiaSemana = d.DiaSemana
	}
	if d.ConDiaMes {
		p.DiaMes = d.DiaMes
	}
	if d.Activo != nil {
		p.Activo = *d.Activo
	}
	// A frequency that does not use a day drops the one kept from before.
	if d.Frecuencia != nil && !d.ConDiaSemana && p.Frecuencia != Semanal {
		p.DiaSemana = nil
	}
	if d.Frecuencia != nil && !d.ConDiaMes && p.Frecuencia != Mensual {
		p.DiaMes = nil
	}
}

// validar checks the rules that bind fields together, on the merged
// schedule: the type is registered and readable by the principal (403
// otherwise), the parameters pass the report's own parsing (its messages,
// under parametros.<name>), the format is one the type answers, and the
// frequency has its day.
func (s *Servicio) validar(pr auth.Principal, p *Programado, d Datos) error {
	f := apperr.Campos{}
	t, ok := reportes.Buscar(p.Tipo)
	if !ok {
		f.Fail("tipo", "El campo tipo debe ser un tipo de reporte registrado: "+strings.Join(claves(), ", ")+".")
		return f.Err()
	}
	if _, conRuta := PermisosTipo(p.Tipo); !conRuta {
		f.Fail("tipo", "El reporte "+p.Tipo+" no se puede programar.")
		return f.Err()
	}
	if !puede(pr.Permisos, p.Tipo) {
		return prohibido(p.Tipo)
	}
	if err := reportes.ValidarParametros(p.Tipo, p.valores(s.ahora()), "parametros."); err != nil {
		e, ok := apperr.As(err)
		if !ok || e.Kind != apperr.Invalid {
			return err
		}
		for k, msgs := range e.Fields {
			for _, m := range msgs {
				f.Fail(k, m)
			}
		}
	}
	if !slices.Contains(t.Formatos, p.Formato) {
		f.Fail("formato", "El campo formato debe ser uno de: "+strings.Join(t.Formatos, ", ")+".")
	}
	switch p.Frecuencia {
	case Semanal:
		if p.DiaSemana == nil {
			f.Fail("dia_semana", "El campo dia semana es obligatorio cuando la frecuencia es semanal (1 lunes a 7 domingo).")
		}
	case Diaria, Mensual:
		if d.ConDiaSemana && d.DiaSemana != nil {
			f.Fail("dia_semana", "El campo dia semana solo aplica a la frecuencia semanal.")
		}
	}
	if p.Frecuencia == Mensual && p.DiaMes == nil {
		f.Fail("dia_mes", "El campo dia mes es obligatorio cuando la frecuencia es mensual (1 a 31; 29 a 31 se ejecutan el último día en los meses más cortos).")
	} else if p.Frecuencia != Mensual && d.ConDiaMes && d.DiaMes != nil {
		f.Fail("dia_mes", "El campo dia mes solo aplica a la frecuencia mensual.")
	}
	return f.Err()
}

// validarTodo is validar, then the ids among the parameters checked
// against the company's rows (one round trip): a schedule of another
// company's product or an unknown branch is refused when written, as the
// report's route would refuse it, instead of failing at every run.
func (s *Servicio) validarTodo(ctx context.Context, tx *db.Tx, pr auth.Principal, p *Programado, d Datos) error {
	if err := s.validar(pr, p, d); err != nil {
		return err
	}
	return reportes.ValidarReferencias(ctx, tx, p.Tipo, p.valores(s.ahora()), "parametros.")
}

func claves() []string {
	var out []string
	for _, t := range reportes.Tipos() {
		out = append(out, t.Clave)
	}
	return out
}

// proxima is the next run of an active schedule from the service's clock.
func (s *Servicio) proxima(p Programado) *time.Time {
	if !p.Activo {
		return nil
	}
	t := p.calendario().Siguiente(s.ahora())
	return &t
}
