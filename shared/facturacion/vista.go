package facturacion

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/montos"
)

// Monto is montos.Monto: an amount with at least 2 decimals and no
// trailing zeros beyond them.
type Monto = montos.Monto

// VentaRef is the sale nested in a comprobante.
type VentaRef struct {
	ID                int64  `json:"id"`
	NumeroComprobante string `json:"numero_comprobante"`
	TipoComprobante   string `json:"tipo_comprobante"`
	MontoTotal        Monto  `json:"monto_total"`
}

// Comprobante is an electronic document as lists show it.
type Comprobante struct {
	ID                int64     `json:"id"`
	EmpresaID         int64     `json:"empresa_id"`
	VentaID           int64     `json:"venta_id"`
	SucursalID        *int64    `json:"sucursal_id"`
	TipoDocumento     string    `json:"tipo_documento"`
	Clave             string    `json:"clave"`
	NumeroConsecutivo string    `json:"numero_consecutivo"`
	Situacion         string    `json:"situacion"`
	FechaEmision      time.Time `json:"fecha_emision"`
	Estado            string    `json:"estado"`
	TotalComprobante  *Monto    `json:"total_comprobante"`
	RespuestaHacienda
	XMLGenerado       bool       `json:"xml_generado"`
	Firmado           bool       `json:"firmado"`
	EnvioEnCurso      bool       `json:"envio_en_curso"`
	IntentosEnvio     int        `json:"intentos_envio"`
	Consultas         int        `json:"consultas"`
	EnvioSolicitadoEn *time.Time `json:"envio_solicitado_en"`
	EnviadoEn         *time.Time `json:"enviado_en"`
	RespondidoEn      *time.Time `json:"respondido_en"`
	ProximaAccionEn   *time.Time `json:"proxima_accion_en"`
	CreadoEn          time.Time  `json:"creado_en"`
	ActualizadoEn     time.Time  `json:"actualizado_en"`
	Venta             VentaRef   `json:"venta"`

	trabajo *string
}

// RespuestaHacienda is what Hacienda last answered about a comprobante
// (its ind-estado, message and detail) and the last error sending it or
// asking for its state: the list, the detail and GET /{id}/estado show it
// alike.
type RespuestaHacienda struct {
	IndEstado       *string `json:"ind_estado"`
	MensajeHacienda *string `json:"mensaje_hacienda"`
	DetalleMensaje  *string `json:"detalle_mensaje"`
	UltimoError     *string `json:"ultimo_error"`
}

// Detalle is a comprobante with its XML documents (original, signed, and
// Hacienda's MensajeHacienda) for GET /{id}.
type Detalle struct {
	Comprobante
	XMLOriginal  *string `json:"xml_original"`
	XMLFirmado   *string `json:"xml_firmado"`
	XMLRespuesta *string `json:"xml_respuesta"`
}

// EstadoActual is GET /{id}/estado: the current state, read without
// waiting for Hacienda.
type EstadoActual struct {
	ID     int64  `json:"id"`
	Clave  string `json:"clave"`
	Estado string `json:"estado"`
	RespuestaHacienda
	EnvioEnCurso      bool       `json:"envio_en_curso"`
	Consultas         int        `json:"consultas"`
	EnviadoEn         *time.Time `json:"enviado_en"`
	RespondidoEn      *time.Time `json:"respondido_en"`
	ProximaConsultaEn *time.Time `json:"proxima_consulta_en"`
	Final             bool       `json:"final"`
}

const compCols = `c.id, c.empresa_id, c.venta_id, c.sucursal_id, c.tipo_documento, c.clave, c.numero_consecutivo, c.situacion,
	c.fecha_emision, c.estado, c.total_comprobante, c.ind_estado, c.mensaje_hacienda, c.detalle_mensaje, c.ultimo_error,
	c.xml_original is not null, c.xml_firmado is not null, c.trabajo, c.intentos_envio, c.consultas,
	c.envio_solicitado_en, c.enviado_en, c.respondido_en, c.proximo_intento_en, c.creado_en, c.actualizado_en,
	v.id, v.numero_comprobante, v.tipo_comprobante, v.monto_total`

const compFrom = `from comprobantes_electronicos c join ventas v on v.empresa_id = c.empresa_id and v.id = c.venta_id`

func scanComprobante(row pgx.CollectableRow) (Comprobante, error) {
	var c Comprobante
	var total pgtype.Numeric
	err := row.Scan(&c.ID, &c.EmpresaID, &c.VentaID, &c.SucursalID, &c.TipoDocumento, &c.Clave, &c.NumeroConsecutivo, &c.Situacion,
		&c.FechaEmision, &c.Estado, &total, &c.IndEstado, &c.MensajeHacienda, &c.DetalleMensaje, &c.UltimoError,
		&c.XMLGenerado, &c.Firmado, &c.trabajo, &c.IntentosEnvio, &c.Consultas,
		&c.EnvioSolicitadoEn, &c.EnviadoEn, &c.RespondidoEn, &c.ProximaAccionEn, &c.CreadoEn, &c.ActualizadoEn,
		&c.Venta.ID, &c.Venta.NumeroComprobante, &c.Venta.TipoComprobante, &c.Venta.MontoTotal)
	if err != nil {
		return c, err
	}
	c.completar(total)
	return c, nil
}

const msgNoEncontrado = "Comprobante no encontrado."

// buscar loads one comprobante of the tenant (404 when there is none).
func buscar(ctx context.Context, q *db.Tx, id int64) (Comprobante, error) {
	empresaID := q.EmpresaID()
	rows, err := q.Query(ctx, `select `+compCols+` `+compFrom+` where c.empresa_id = $1 and c.id = $2 and not c.eliminado`, empresaID, id)
	if err != nil {
		return Comprobante{}, fmt.Errorf("facturacion: buscar: %w", err)
	}
	c, err := pgx.CollectExactlyOneRow(rows, scanComprobante)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, apperr.NewNotFound(msgNoEncontrado)
	}
	if err != nil {
		return c, fmt.Errorf("facturacion: buscar: %w", err)
	}
	return c, nil
}

// buscarDetalle is buscar with the XML documents.
func buscarDetalle(ctx context.Context, q *db.Tx, id int64) (Detalle, error) {
	empresaID := q.EmpresaID()
	rows, err := q.Query(ctx, `select `+compCols+`, c.xml_original, c.xml_firmado, c.xml_respuesta `+compFrom+`
		where c.empresa_id = $1 and c.id = $2 and not c.eliminado`, empresaID, id)
	if err != nil {
		return Detalle{}, fmt.Errorf("facturacion: detalle: %w", err)
	}
	d, err := pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (Detalle, error) {
		var d Detalle
		var total pgtype.Numeric
		c := &d.Comprobante
		err := row.Scan(&c.ID, &c.EmpresaID, &c.VentaID, &c.SucursalID, &c.TipoDocumento, &c.Clave, &c.NumeroConsecutivo, &c.Situacion,
			&c.FechaEmision, &c.Estado, &total, &c.IndEstado, &c.MensajeHacienda, &c.DetalleMensaje, &c.UltimoError,
			&c.XMLGenerado, &c.Firmado, &c.trabajo, &c.IntentosEnvio, &c.Consultas,
			&c.EnvioSolicitadoEn, &c.EnviadoEn, &c.RespondidoEn, &c.ProximaAccionEn, &c.CreadoEn, &c.ActualizadoEn,
			&c.Venta.ID, &c.Venta.NumeroComprobante, &c.Venta.TipoComprobante, &c.Venta.MontoTotal,
			&d.XMLOriginal, &d.XMLFirmado, &d.XMLRespuesta)
		c.completar(total)
		return d, err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return d, apperr.NewNotFound(msgNoEncontrado)
	}
	if err != nil {
		return d, fmt.Errorf("facturacion: detalle: %w", err)
	}
	return d, nil
}

func (c Comprobante) estadoActual() EstadoActual {
	e := EstadoActual{
		ID: c.ID, Clave: c.Clave, Estado: c.Estado, RespuestaHacienda: c.RespuestaHacienda, EnvioEnCurso: c.EnvioEnCurso, Consultas: c.Consultas,
		EnviadoEn: c.EnviadoEn, RespondidoEn: c.RespondidoEn,
		Final: c.Estado == Aceptado || c.Estado == Rechazado || (c.Estado == Error && c.trabajo == nil),
	}
	if c.trabajo != nil && *c.trabajo == trabajoConsultar {
		e.ProximaConsultaEn = c.ProximaAccionEn
	}
	return e
}

// completar fills what is derived from the scanned columns: the total
// (NULL before the XML exists), whether work is pending, and the issue date
// in Costa Rica time.
func (c *Comprobante) completar(total pgtype.Numeric) {
	if total.Valid {
		m := Monto{}
		if m.ScanNumeric(total) == nil {
			c.TotalComprobante = &m
		}
	}
	c.EnvioEnCurso = c.trabajo != nil
	c.FechaEmision = c.FechaEmision.In(horacr.Zona)
}
