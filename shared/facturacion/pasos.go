package facturacion

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/hacienda/comprobante"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/horacr"
)

// Messages of the steps taken out of order (422 under estado).
const (
	msgAceptado      = "El comprobante ya fue aceptado por Hacienda y no admite cambios."
	msgRechazado     = "El comprobante fue rechazado por Hacienda; emita un comprobante nuevo para la venta."
	msgEnviado       = "El comprobante ya fue recibido por Hacienda; consulte su estado."
	msgEnCurso       = "El envío del comprobante a Hacienda está en curso; espere su resultado."
	msgSinXML        = "Primero genere el XML del comprobante (generar-xml)."
	msgErrorHacienda = "Hacienda informó un error al procesar el comprobante; emita un comprobante nuevo para la venta."
	msgSinFirma      = "Primero firme el comprobante (firmar)."
	msgSinCertif     = "La empresa no tiene certificado (.p12) y PIN configurados; configúrelos en /api/v1/hacienda/configuracion."
	msgSinCredencia  = "La empresa no tiene usuario y clave de Hacienda configurados; configúrelos en /api/v1/hacienda/configuracion."
)

// bloqueado is a comprobante locked for a step.
type bloqueado struct {
	Comprobante
	xml, firmado *string
}

// bloquear reads and locks a comprobante of the tenant (404 when there is none).
func bloquear(ctx context.Context, tx *db.Tx, id int64) (bloqueado, error) {
	empresaID := tx.EmpresaID()
	var b bloqueado
	if _, err := tx.Exec(ctx, `select 1 from comprobantes_electronicos where empresa_id = $1 and id = $2 for update`, empresaID, id); err != nil {
		return b, fmt.Errorf("facturacion: bloquear: %w", err)
	}
	d, err := buscarDetalle(ctx, tx, id)
	if err != nil {
		return b, err
	}
	return bloqueado{Comprobante: d.Comprobante, xml: d.XMLOriginal, firmado: d.XMLFirmado}, nil
}

// cerrado refuses any step on a comprobante Hacienda answered for good:
// accepted, or rejected (a new one is issued for the sale).
func (c bloqueado) cerrado() error {
	switch c.Estado {
	case Aceptado:
		return apperr.InvalidField("estado", msgAceptado)
	case Rechazado:
		return apperr.InvalidField("estado", msgRechazado)
	}
	return nil
}

// editable says whether the XML or the signature of c may (still) change:
// not once Hacienda received it, nor while its submission is in progress.
func (c bloqueado) editable() error {
	if err := c.cerrado(); err != nil {
		return err
	}
	switch {
	case c.Estado == Enviado || c.EnviadoEn != nil:
		return apperr.InvalidField("estado", msgEnviado)
	case c.EnvioEnCurso:
		return apperr.InvalidField("estado", msgEnCurso)
	}
	return nil
}

// generarXML is POST /{id}/generar-xml: the v4.4 XML of the comprobante
// (2026 XSDs) from the sale, the customer and the company's settings. Its
// TotalComprobante must equal the sale's monto_total (422 otherwise). It
// may be generated again until the document is submitted; doing so drops
// the signature (estado back to pending).
func generarXML(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (Detalle, error) {
	c, err := bloquear(ctx, tx, id)
	if err != nil {
		return Detalle{}, err
	}
	if err := c.editable(); err != nil {
		return Detalle{}, err
	}
	cfg, err := cargarConfig(ctx, tx)
	if err != nil {
		return Detalle{}, err
	}
	v, err := leerVentaXML(ctx, tx, c.VentaID)
	if err != nil {
		return Detalle{}, err
	}
	d, err := documento(c.Comprobante, cfg, v)
	if err != nil {
		return Detalle{}, err
	}
	calc, err := comprobante.Calcular(d)
	if err != nil {
		return Detalle{}, errorComprobante(err)
	}
	if !calc.TotalComprobante.Round(2).Equal(v.montoTotal.Round(2)) {
		return Detalle{}, apperr.InvalidField("monto_total", fmt.Sprintf("El total del comprobante (%s) no coincide con el total de la venta (%s).",
			calc.TotalComprobante.StringFixed(2), v.montoTotal.StringFixed(2)))
	}
	if ve := comprobante.Validar(d); len(ve) > 0 {
		return Detalle{}, invalidoDesde(ve)
	}
	xml, err := comprobante.XML(d)
	if err != nil {
		return Detalle{}, errorComprobante(err)
	}
	_, err = tx.Exec(ctx, `update comprobantes_electronicos set xml_original = $3, xml_firmado = null, total_comprobante = $4,
			estado = $5, ultimo_error = null
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, string(xml), db.Numeric(calc.TotalComprobante), Pendiente)
	if err != nil {
		return Detalle{}, fmt.Errorf("facturacion: guardar XML: %w", err)
	}
	return buscarDetalle(ctx, tx, id)
}

// errorComprobante turns comprobante's validation errors into a 422.
func errorComprobante(err error) error {
	var ve comprobante.ErrorValidacion
	if errors.As(err, &ve) {
		return invalidoDesde(ve)
	}
	return err
}

// firmar is POST /{id}/firmar: XAdES-EPES with the company's certificate.
func (s *Service) firmar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (Detalle, error) {
	cif, err := s.cifra(ctx)
	if err != nil {
		return Detalle{}, err
	}
	c, err := bloquear(ctx, tx, id)
	if err != nil {
		return Detalle{}, err
	}
	if err := c.editable(); err != nil {
		return Detalle{}, err
	}
	if c.xml == nil {
		return Detalle{}, apperr.InvalidField("estado", msgSinXML)
	}
	cfg, err := cargarConfig(ctx, tx)
	if err != nil {
		return Detalle{}, err
	}
	if len(cfg.certificado) == 0 || len(cfg.pin) == 0 {
		return Detalle{}, apperr.InvalidField("certificado", msgSinCertif)
	}
	p12, err := cif.Descifrar(p.EmpresaID, campoCertificado, cfg.certificado)
	if err != nil {
		return Detalle{}, err
	}
	pin, err := cif.Descifrar(p.EmpresaID, campoPIN, cfg.pin)
	if err != nil {
		return Detalle{}, err
	}
	crt, err := firma.CargarP12(p12, string(pin))
	if err != nil {
		return Detalle{}, apperr.InvalidField("certificado", "El certificado configurado no se puede abrir con su PIN; vuelva a configurarlo.")
	}
	now := s.now()
	firmado, err := firma.Firmar([]byte(*c.xml), crt, now)
	switch {
	case errors.Is(err, firma.ErrVigencia):
		return Detalle{}, apperr.InvalidField("certificado", "El certificado de la empresa no está vigente (válido hasta "+
			firma.Describir(crt).ValidoHasta.In(horacr.Zona).Format(time.DateOnly)+").")
	case err != nil:
		return Detalle{}, fmt.Errorf("facturacion: firmar: %w", err)
	}
	_, err = tx.Exec(ctx, `update comprobantes_electronicos set xml_firmado = $3, estado = $4, ultimo_error = null
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, string(firmado), Firmado)
	if err != nil {
		return Detalle{}, fmt.Errorf("facturacion: guardar firma: %w", err)
	}
	return buscarDetalle(ctx, tx, id)
}

// reanudable says whether c was received by Hacienda but its polling gave
// up before an answer (the cap): enviar then resumes polling.
func (c bloqueado) reanudable() bool {
	return c.Estado == Error && c.EnviadoEn != nil && c.RespondidoEn == nil
}

// enviable says whether c may be submitted: it must be signed, not yet
// received by Hacienda and not finished (or, see reanudable, its polling
// may resume).
func (c bloqueado) enviable() error {
	if err := c.cerrado(); err != nil {
		return err
	}
	switch {
	case c.Estado == Error && c.RespondidoEn != nil:
		return apperr.InvalidField("estado", msgErrorHacienda)
	case c.reanudable():
		return nil
	case c.Estado == Enviado || c.EnviadoEn != nil:
		return apperr.InvalidField("estado", msgEnviado)
	case c.xml == nil:
		return apperr.InvalidField("estado", msgSinXML)
	case c.firmado == nil:
		return apperr.InvalidField("estado", msgSinFirma)
	}
	return nil
}

const msgEnCola = "El envío a Hacienda quedó en cola; consulte el estado del comprobante."

// cargarConfigPool reads the settings in a short transaction of its own.
func cargarConfigPool(ctx context.Context, d *db.DB, sc db.Scope) (empresaConfig, error) {
	var cfg empresaConfig
	err := d.WithTx(ctx, sc, func(tx *db.Tx) error {
		var err error
		cfg, err = cargarConfig(ctx, tx)
		return err
	})
	return cfg, err
}
