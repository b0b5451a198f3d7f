package ventas

import (
	"context"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

var ventaSorts = map[string]string{
	"id": "v.id", "fecha_venta": "v.fecha_venta", "numero_comprobante": "v.numero_comprobante",
	"monto_total": "v.monto_total", "estado": "v.estado", "creado_en": "v.creado_en",
}

const msgNoEncontrada = "Venta no encontrada."

// Buscar loads a sale of the transaction's tenant, or an apperr NotFound.
func Buscar(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (Venta, error) {
	v, found, err := Find(ctx, tx, id)
	return v, apperr.NotFoundUnless(found, err, msgNoEncontrada)
}
