package programados

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// Ejecucion is one run as GET .../ejecuciones lists it.
type Ejecucion struct {
	ID             int64      `json:"id"`
	ProgramadoID   int64      `json:"reporte_programado_id"`
	ProgramadaPara time.Time  `json:"programada_para"`
	Estado         string     `json:"estado"`
	Error          *string    `json:"error"`
	ArchivoNombre  *string    `json:"archivo_nombre"`
	ArchivoTamano  *int64     `json:"archivo_tamano"`
	ContentType    *string    `json:"content_type"`
	URLArchivo     *string    `json:"url_archivo"`
	CreadoEn       time.Time  `json:"creado_en"`
	IniciadoEn     *time.Time `json:"iniciado_en"`
	TerminadoEn    *time.Time `json:"terminado_en"`
}

// ColumnasEjecucion and EscanearEjecucion read a run (x) for the list.
const ColumnasEjecucion = `x.id, x.reporte_programado_id, x.programada_para, x.estado, x.error, x.archivo_nombre, x.archivo_tamano,
	x.content_type, x.archivo_key is not null, x.creado_en, x.iniciado_en, x.terminado_en`

// EscanearEjecucion scans ColumnasEjecucion; the download link is set when
// the run stored a file.
func EscanearEjecucion(r pgx.CollectableRow) (Ejecucion, error) {
	var e Ejecucion
	var conArchivo bool
	err := r.Scan(&e.ID, &e.ProgramadoID, &e.ProgramadaPara, &e.Estado, &e.Error, &e.ArchivoNombre, &e.ArchivoTamano,
		&e.ContentType, &conArchivo, &e.CreadoEn, &e.IniciadoEn, &e.TerminadoEn)
	if conArchivo {
		u := RutaArchivo(e.ProgramadoID, e.ID)
		e.URLArchivo = &u
	}
	e.ProgramadaPara, e.CreadoEn = e.ProgramadaPara.UTC(), e.CreadoEn.UTC()
	e.IniciadoEn, e.TerminadoEn = utc(e.IniciadoEn), utc(e.TerminadoEn)
	return e, err
}

// Visible is the check of the runs list: the schedule exists in the
// company (404) and the principal may read its report (403).
func Visible(ctx context.Context, tx *db.Tx, pr auth.Principal, id int64) error {
	_, err := visible(ctx, tx, pr, id, false)
	return err
}

// Descarga names a run's stored file: the handler reads it from the
// store after the transaction (no transaction held open on S3).
type Descarga struct {
	Key         string
	Nombre      string
	ContentType string
}

// Leer reads a run's file from the store; a file the store no longer
// holds (expired by the bucket's lifecycle) is a 404.
func (s *Servicio) Leer(ctx context.Context, d Descarga) ([]byte, error) {
	datos, err := s.Almacen.Leer(ctx, d.Key)
	if errors.Is(err, ErrArchivoNoExiste) {
		return nil, apperr.NewNotFound("El archivo de la ejecución ya no está disponible.")
	}
	return datos, err
}

// Archivo answers GET .../ejecuciones/{eid}/archivo: 404 for a schedule or
// run of another company or without a file. The file is read after the
// transaction's checks, from the store.
func (s *Servicio) Archivo(ctx context.Context, tx *db.Tx, pr auth.Principal, id, eid int64) (Descarga, error) {
	if _, err := visible(ctx, tx, pr, id, false); err != nil {
		return Descarga{}, err
	}
	var key, nombre, ct *string
	err := tx.QueryRow(ctx, `select archivo_key, archivo_nombre, content_type from reporte_ejecuciones
		where empresa_id = $1 and reporte_programado_id = $2 and id = $3`, tx.EmpresaID(), id, eid).Scan(&key, &nombre, &ct)
	if errors.Is(err, pgx.ErrNoRows) {
		return Descarga{}, apperr.NewNotFound(msgEjecucion)
	}
	if err != nil {
		return Descarga{}, fmt.Errorf("programados: archivo %d/%d: %w", id, eid, err)
	}
	if key == nil {
		return Descarga{}, apperr.NewNotFound("La ejecución no tiene archivo.")
	}
	d := Descarga{Key: *key, Nombre: "reporte", ContentType: "application/octet-stream"}
	if nombre != nil {
		d.Nombre = *nombre
	}
	if ct != nil {
		d.ContentType = *ct
	}
	return d, nil
}
