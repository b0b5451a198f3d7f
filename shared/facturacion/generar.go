package facturacion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/documentos"
	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/valid"
)

// generarIn is a validated POST /generar body.
type generarIn struct {
	ventaID   int64
	tipo      string // "" = from the sale
	situacion string
}

var situaciones = map[string]string{
	"1": SituacionNormal, "normal": SituacionNormal,
	"2": SituacionContingencia, "contingencia": SituacionContingencia,
	"3": SituacionSinInternet, "sin_internet": SituacionSinInternet,
}

func readGenerar(in *valid.Input) generarIn {
	x := generarIn{situacion: SituacionNormal}
	x.ventaID, _ = in.Int("venta_id", valid.Int{Required: true, Min: valid.Min(1)})
	if raw, ok := in.Raw()["tipo_documento"]; ok && !in.IsNull("tipo_documento") {
		v := strings.Trim(strings.TrimSpace(string(raw)), `"`)
		if len(v) == 1 {
			v = "0" + v
		}
		if !slices.Contains(TiposDocumento, v) {
			in.Fail("tipo_documento", "El campo tipo documento debe ser uno de: 01 (factura), 02 (nota de débito), 03 (nota de crédito), 04 (tiquete).")
		}
		x.tipo = v
	}
	if raw, ok := in.Raw()["situacion"]; ok && !in.IsNull("situacion") {
		var v any
		_ = json.Unmarshal(raw, &v)
		s, ok := situaciones[strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))]
		if !ok {
			in.Fail("situacion", "El campo situacion debe ser 1 (normal), 2 (contingencia) o 3 (sin internet).")
		}
		x.situacion = s
	}
	return x
}

// ventaGenerar is what generar needs of the sale and the company.
type ventaGenerar struct {
	tipoComprobante string
	estado          string
	sucursalID      *int64
	clienteID       *int64
	nit             string
	emisorNumero    *string
	establecimiento int
	terminal        int
}

const msgGenerado = "Comprobante generado correctamente."

// tipoPermitido checks an explicit tipo_documento against the sale: a
// factura or tiquete sale may be issued as 01 or 04; a note only as itself.
func tipoPermitido(tipoComprobante, tipo string) error {
	propio := TipoPorComprobante[tipoComprobante]
	if tipo == propio {
		return nil
	}
	if (propio == TipoFactura || propio == TipoTiquete) && (tipo == TipoFactura || tipo == TipoTiquete) {
		return nil
	}
	return apperr.InvalidField("tipo_documento", "El tipo de documento "+tipo+" no corresponde a una venta de tipo "+
		strings.ReplaceAll(tipoComprobante, "_", " ")+" (use "+propio+").")
}

// reemplazable is the SQL condition of a comprobante Hacienda refused for
// good: rejected, or answered ind-estado error (respondido_en set; an error
// without an answer may still be sent or resumed). Such a document is
// replaced by a new one with its own consecutivo and clave, so it does not
// count as the sale's comprobante of its type. Migration 0034's unique
// index comprobantes_electronicos_vigente uses the same condition.
const reemplazable = `c.estado = 'rejected' or (c.estado = 'error' and c.respondido_en is not null)`

// generarComprobante creates the comprobante of the sale (creado) or finds
// the one it already has of that type. Only documents still alive count:
// for a sale whose comprobantes of the type were all refused for good
// (reemplazable) it creates a new one, with the next consecutivo of the
// series (the refused numbers are never reused).
func (s *Service) generarComprobante(ctx context.Context, tx *db.Tx, p auth.Principal, x generarIn) (c Comprobante, creado bool, err error) {
	// The sale is locked first, so that concurrent generar calls for
	// one sale run one after the other and see each other's result.
	b := &pgx.Batch{}
	b.Queue(`select v.tipo_comprobante, v.estado, v.sucursal_id, v.cliente_id, e.nit_ruc, hc.emisor_numero_identificacion,
				coalesce(t.establecimiento, 1), coalesce(t.terminal, 1)
			from ventas v join empresas e on e.id = v.empresa_id
			left join hacienda_configuraciones hc on hc.empresa_id = v.empresa_id
			left join hacienda_terminales t on t.empresa_id = v.empresa_id and t.sucursal_id = v.sucursal_id
			where v.empresa_id = $1 and v.id = $2 and not v.eliminado for update of v`, tx.EmpresaID(), x.ventaID)
	b.Queue(`select c.id, c.tipo_documento from comprobantes_electronicos c
			where c.empresa_id = $1 and c.venta_id = $2 and not c.eliminado and not (`+reemplazable+`) order by c.id`, tx.EmpresaID(), x.ventaID)
	br := tx.SendBatch(ctx, b)
	var v ventaGenerar
	err = br.QueryRow().Scan(&v.tipoComprobante, &v.estado, &v.sucursalID, &v.clienteID, &v.nit, &v.emisorNumero, &v.establecimiento, &v.terminal)
	if errors.Is(err, pgx.ErrNoRows) {
		br.Close()
		return c, false, apperr.InvalidField("venta_id", "La venta seleccionada no existe en esta empresa.")
	}
	if err != nil {
		br.Close()
		return c, false, fmt.Errorf("facturacion: venta: %w", err)
	}
	type existente struct {
		id   int64
		tipo string
	}
	rows, _ := br.Query()
	ex, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (existente, error) {
		var e existente
		return e, r.Scan(&e.id, &e.tipo)
	})
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return c, false, fmt.Errorf("facturacion: comprobantes de la venta: %w", err)
	}

	tipo := TipoPorComprobante[v.tipoComprobante]
	if x.tipo != "" {
		if err := tipoPermitido(v.tipoComprobante, x.tipo); err != nil {
			return c, false, err
		}
		tipo = x.tipo
	}
	for _, e := range ex {
		if e.tipo == tipo {
			c, err = buscar(ctx, tx, e.id)
			return c, false, err
		}
	}
	switch {
	case v.estado == "anulada":
		return c, false, apperr.InvalidField("venta_id", "La venta está anulada; no se puede emitir su comprobante.")
	case v.estado == "borrador":
		return c, false, apperr.InvalidField("venta_id", "La venta es un borrador; confírmela antes de emitir su comprobante.")
	case tipo == TipoFactura && v.clienteID == nil:
		return c, false, apperr.InvalidField("tipo_documento", "Una factura electrónica requiere un cliente (receptor); emita un tiquete (04) o asigne un cliente a la venta.")
	}

	emisor := soloAlfanumerico(v.nit)
	if v.emisorNumero != nil {
		emisor = *v.emisorNumero
	}
	now := s.now()
	serie := fmt.Sprintf("hacienda:%03d:%05d:%s", v.establecimiento, v.terminal, tipo)
	n, err := documentos.Siguiente(ctx, tx, serie)
	if err != nil {
		return c, false, err
	}
	consecutivo, err := Consecutivo(v.establecimiento, v.terminal, tipo, n)
	if err != nil {
		return c, false, apperr.InvalidField("venta_id", "La serie de comprobantes de esta terminal se agotó.")
	}
	seguridad, err := CodigoSeguridad()
	if err != nil {
		return c, false, err
	}
	clave, err := Clave(now, emisor, consecutivo, x.situacion, seguridad)
	if err != nil {
		return c, false, apperr.InvalidField("configuracion.emisor.numero_identificacion",
			"La identificación del emisor no sirve para la clave (de 1 a 12 letras o dígitos); revise la configuración.")
	}
	var id int64
	err = tx.QueryRow(ctx, `insert into comprobantes_electronicos (empresa_id, venta_id, sucursal_id, usuario_id, tipo_documento,
				clave, numero_consecutivo, situacion, fecha_emision)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
		tx.EmpresaID(), x.ventaID, v.sucursalID, p.UsuarioID, tipo, clave, consecutivo, x.situacion, now).Scan(&id)
	if err != nil {
		if _, ok := db.IsUniqueViolation(err); ok {
			return c, false, apperr.NewConflict("La clave o el consecutivo generados ya existen; intente de nuevo.")
		}
		return c, false, fmt.Errorf("facturacion: insertar comprobante: %w", err)
	}
	c, err = buscar(ctx, tx, id)
	return c, true, err
}
