package facturacion

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
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
