package programados

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/reportes"
)

// States of a run.
const (
	Pendiente  = "pendiente"
	Ejecutando = "ejecutando"
	Completada = "completada"
	Fallida    = "fallida"
)

const (
	// MaxBarrido bounds the schedules one sweep claims (the next sweep, a
	// minute later, takes the rest).
	MaxBarrido = 50
	// Huerfana is how long a claimed run may stay pendiente before a sweep
	// takes it again (the process that claimed it died before starting),
	// and ejecutando before a sweep records it as interrupted.
	Huerfana = 5 * time.Minute
	// Presupuesto is the wall time after which a sweep claims no more
	// schedules (the scheduler function stops at 60 s); the next sweep
	// takes the rest, a minute late at most.
	Presupuesto = 40 * time.Second
)

// Barrer is the scheduler's sweep (every minute: EventBridge in AWS, the
// ticker of make run): it claims every due schedule, advances its next
// run, and runs it. The claim is a row lock taken with SKIP LOCKED and a
// re-check of proxima_ejecucion in the company's transaction, and a run
// is unique per schedule and due instant, so two schedulers at the same
// instant never run one schedule twice. A failing run is recorded
// (fallida, with its error) and the others go on; only a failure to
// record a run is an error of the sweep. It returns how many runs ended
// (completed or failed).
func (s *Servicio) Barrer(ctx context.Context) (int, error) {
	ahora := s.ahora()
	type candidato struct {
		empresa, programado int64
		ejecucion           *int64
	}
	var cs []candidato
	err := s.DB.WithTx(ctx, db.Scope{}, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `select empresa_id, reporte_programado_id, ejecucion_id from reportes_programados_vencidos($1, $2, $3)`,
			ahora, ahora.Add(-Huerfana), MaxBarrido)
		if err != nil {
			return err
		}
		cs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (candidato, error) {
			var c candidato
			return c, r.Scan(&c.empresa, &c.programado, &c.ejecucion)
		})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("programados: barrido: %w", err)
	}
	n := 0
	var errs []error
	inicio := time.Now()
	for _, c := range cs {
		if time.Since(inicio) > Presupuesto {
			s.log().Warn("reportes programados: barrido interrumpido por tiempo; el siguiente sigue", "pendientes", len(cs)-n)
			break
		}
		eid := c.ejecucion
		if eid == nil {
			id, err := s.reclamar(ctx, c.empresa, c.programado, ahora)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			eid = id
		}
		if eid == nil {
			continue // another scheduler has it, or it is no longer due
		}
		corrio, err := s.Ejecutar(ctx, c.empresa, *eid)
		if err == nil && !corrio && c.ejecucion != nil {
			corrio, err = s.interrumpir(ctx, c.empresa, *eid, ahora)
		}
		if err != nil {
			errs = append(errs, err)
		}
		if corrio {
			n++
		}
	}
	if n > 0 {
		s.log().Info("reportes programados: barrido", "ejecuciones", n)
	}
	return n, errors.Join(errs...)
}

// reclamar takes one due schedule: locks it (skipping it when another
// scheduler holds it), checks it is still due, moves proxima_ejecucion to
// the next instant after now and records a pending run for the instant
// that was due. It returns the run's id, or nil when there is nothing to
// run.
func (s *Servicio) reclamar(ctx context.Context, empresa, id int64, ahora time.Time) (*int64, error) {
	var eid *int64
	err := s.DB.WithTx(ctx, db.Scope{EmpresaID: empresa}, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `select `+columnas+` from reportes_programados r
			where r.empresa_id = $1 and r.id = $2 and r.activo and not r.eliminado and r.proxima_ejecucion <= $3
			for update skip locked`, empresa, id, ahora)
		if err != nil {
			return err
		}
		p, err := pgx.CollectExactlyOneRow(rows, escanear)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		siguiente := p.calendario().Siguiente(ahora)
		return tx.QueryRow(ctx, `with avance as (
				update reportes_programados set proxima_ejecucion = $4, ultima_ejecucion = $3 where empresa_id = $1 and id = $2
			)
			insert into reporte_ejecuciones (empresa_id, reporte_programado_id, programada_para, creado_en)
			values ($1, $2, $5, $3)
			on conflict (reporte_programado_id, programada_para) do nothing
			returning id`, empresa, id, ahora, siguiente, *p.ProximaEjecucion).Scan(&eid)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil // the instant had a run already
	}
	if err != nil {
		return nil, fmt.Errorf("programados: reclamar %d/%d: %w", empresa, id, err)
	}
	return eid, nil
}

// interrumpir records as failed a run left ejecutando since before the
// orphan limit: its process died or timed out while generating it (the
// scheduler function stops at 60 s). It is not run again: a report that
// takes too long would time out every minute.
func (s *Servicio) interrumpir(ctx context.Context, empresa, eid int64, ahora time.Time) (bool, error) {
	var n int64
	err := s.DB.WithTx(ctx, db.Scope{EmpresaID: empresa}, func(tx *db.Tx) error {
		tag, err := tx.Exec(ctx, `update reporte_ejecuciones set estado = 'fallida', terminado_en = $3,
				error = 'La ejecución se interrumpió (tiempo agotado o reinicio del proceso) antes de terminar.'
			where empresa_id = $1 and id = $2 and estado = 'ejecutando' and iniciado_en < $4`, empresa, eid, ahora, ahora.Add(-Huerfana))
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return false, fmt.Errorf("programados: interrumpir %d/%d: %w", empresa, eid, err)
	}
	return n > 0, nil
}

// Ejecutar runs one pending run of a company: it marks it ejecutando (only
// one caller wins), generates the report as the schedule's creator with
// the creator's permissions of now, stores the file, e-mails the link and
// records the outcome. corrio is false when the run was not pending.
func (s *Servicio) Ejecutar(ctx context.Context, empresa, eid int64) (corrio bool, err error) {
	var p Programado
	var eliminado bool
	err = s.DB.WithTx(ctx, db.Scope{EmpresaID: empresa}, func(tx *db.Tx) error {
		var pid int64
		err := tx.QueryRow(ctx, `update reporte_ejecuciones set estado = 'ejecutando', iniciado_en = $3
			where empresa_id = $1 and id = $2 and estado = 'pendiente' returning reporte_programado_id`,
			empresa, eid, s.ahora()).Scan(&pid)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `select `+columnas+`, r.eliminado from reportes_programados r where r.empresa_id = $1 and r.id = $2`, empresa, pid)
		if err != nil {
			return err
		}
		p, err = pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (Programado, error) {
			return escanearCon(r, &eliminado)
		})
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("programados: iniciar ejecución %d/%d: %w", empresa, eid, err)
	}
	var (
		a     exportar.Archivo
		key   string
		fallo error
	)
	if eliminado {
		// Deleted after the claim (a run taken again after a crash).
		fallo = errors.New("El reporte programado fue eliminado antes de ejecutarse.")
	} else {
		a, key, fallo = s.producir(ctx, empresa, eid, p)
	}
	if fallo == nil && len(p.Destinatarios) > 0 {
		if err := s.Correo.Enviar(ctx, s.mensaje(p, eid)); err != nil {
			s.log().Error("reportes programados: correo", "empresa", empresa, "ejecucion", eid, "error", err.Error())
			fallo = errors.New("El archivo se generó, pero no se pudo enviar el correo a los destinatarios.")
		}
	}
	err = s.DB.WithTx(ctx, db.Scope{EmpresaID: empresa}, func(tx *db.Tx) error {
		estado, msg := Completada, (*string)(nil)
		if fallo != nil {
			estado = Fallida
			m := fallo.Error()
			msg = &m
		}
		var k, nombre, ct *string
		var tam *int64
		if key != "" {
			k, nombre, ct = &key, &a.Nombre, &a.ContentType
			n := int64(len(a.Datos))
			tam = &n
		}
		_, err := tx.Exec(ctx, `update reporte_ejecuciones set estado = $3, error = $4, archivo_key = $5, archivo_nombre = $6,
			archivo_tamano = $7, content_type = $8, terminado_en = $9 where empresa_id = $1 and id = $2`,
			empresa, eid, estado, msg, k, nombre, tam, ct, s.ahora())
		return err
	})
	if err != nil {
		return true, fmt.Errorf("programados: registrar ejecución %d/%d: %w", empresa, eid, err)
	}
	if fallo != nil {
		s.log().Warn("reportes programados: ejecución fallida", "empresa", empresa, "programado", p.ID, "ejecucion", eid, "error", fallo.Error())
	}
	return true, nil
}

// producir generates and stores the file. fallo is the run's error as the
// runs list shows it (Spanish; internal details only in the log). A panic
// of a report is a failed run, not a dead scheduler.
func (s *Servicio) producir(ctx context.Context, empresa, eid int64, p Programado) (a exportar.Archivo, key string, fallo error) {
	defer func() {
		if r := recover(); r != nil {
			s.log().Error("reportes programados: pánico", "empresa", empresa, "ejecucion", eid, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			a, key, fallo = exportar.Archivo{}, "", errors.New("Error interno al generar el reporte.")
		}
	}()
	err := s.DB.WithTx(ctx, db.Scope{EmpresaID: empresa, UsuarioID: p.UsuarioID}, func(tx *db.Tx) error {
		perms, err := permisosDe(ctx, tx, p.UsuarioID)
		if err != nil {
			return err
		}
		if perms == nil {
			return apperr.NewForbidden("El usuario que creó el reporte programado ya no está activo en la empresa.")
		}
		if !puede(perms, p.Tipo) {
			req, _ := PermisosTipo(p.Tipo)
			return apperr.NewForbidden("El usuario que creó el reporte programado ya no tiene permiso para el reporte " + p.Tipo +
				" (requiere " + strings.Join(req, " o ") + ").")
		}
		a, err = reportes.GenerarArchivo(ctx, tx, p.Tipo, p.valores(s.ahora()), p.Formato)
		return err
	})
	if err != nil {
		return a, "", mensajeFallo(s, empresa, eid, "generar el reporte", err)
	}
	key = clave(empresa, p.ID, eid, a.Nombre)
	if err := s.Almacen.Guardar(ctx, key, a.ContentType, a.Datos); err != nil {
		return a, "", mensajeFallo(s, empresa, eid, "guardar el archivo", err)
	}
	return a, key, nil
}

// mensajeFallo words a failure for the runs list: the API's own message
// for a typed error (a parameter no longer valid, a permission lost),
// a generic one for anything else (logged whole).
func mensajeFallo(s *Servicio, empresa, eid int64, etapa string, err error) error {
	if e, ok := apperr.As(err); ok && e.Kind != apperr.Internal {
		msg := e.Message
		if len(e.Fields) > 0 {
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
				parts = append(parts, k+": "+strings.Join(e.Fields[k], " "))
			}
			msg += " " + strings.Join(parts, "; ")
		}
		return errors.New(msg)
	}
	s.log().Error("reportes programados: "+etapa, "empresa", empresa, "ejecucion", eid, "error", err.Error())
	return errors.New("No se pudo " + etapa + " (error interno).")
}

// clave is the file's key: per company and schedule, with a random part
// so keys cannot be guessed and two databases (tests) never collide.
func clave(empresa, programado, eid int64, nombre string) string {
	var r [8]byte
	_, _ = rand.Read(r[:])
	ext := strings.ToLower(path.Ext(nombre))
	return fmt.Sprintf("empresa-%d/programados/%d/%d-%s%s", empresa, programado, eid, hex.EncodeToString(r[:]), ext)
}

// RutaArchivo is the API path of a run's file.
func RutaArchivo(programado, eid int64) string {
	return fmt.Sprintf("/api/reportes-programados/%d/ejecuciones/%d/archivo", programado, eid)
}

// mensaje is the e-mail of a run: the link needs a session of a user of
// the company who may read the report (the file is not public).
func (s *Servicio) mensaje(p Programado, eid int64) Mensaje {
	cuando := s.ahora().In(horacr.Zona).Format("02/01/2006 15:04")
	link := s.URLBase + RutaArchivo(p.ID, eid)
	return Mensaje{
		Para:   p.Destinatarios,
		Asunto: "Reporte programado: " + p.Nombre,
		Texto: "El reporte programado «" + p.Nombre + "» (" + p.Tipo + ", " + p.Formato + ") generado el " + cuando +
			" (hora de Costa Rica) está listo.\n\nDescárguelo en:\n" + link +
			"\n\nEl enlace requiere una sesión del ERP de un usuario de la empresa con permiso para ver el reporte.\n",
	}
}
