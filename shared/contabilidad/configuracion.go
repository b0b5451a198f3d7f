package contabilidad

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// CuentasConfiguracion are the keys of the posting configuration, one
// account each, with what the automatic postings use it for (in the order
// of contabilidad_configuracion's columns).
var CuentasConfiguracion = []struct{ Clave, Uso string }{
	{"cuenta_caja_id", "Cobros y pagos en efectivo (forma de pago 01 o sin forma de pago)."},
	{"cuenta_bancos_id", "Cobros y pagos con tarjeta, transferencia u otro medio."},
	{"cuenta_cuentas_por_cobrar_id", "Ventas a crédito y sus cobros."},
	{"cuenta_inventario_id", "Entradas y salidas de inventario al costo."},
	{"cuenta_iva_acreditable_id", "IVA de las compras recibidas."},
	{"cuenta_cuentas_por_pagar_id", "Compras recibidas y pagos a proveedores."},
	{"cuenta_iva_por_pagar_id", "IVA de las ventas."},
	{"cuenta_ventas_id", "Ingreso de las ventas (subtotal menos descuentos)."},
	{"cuenta_devoluciones_ventas_id", "Notas de crédito."},
	{"cuenta_costo_ventas_id", "Costo FIFO de lo vendido."},
	{"cuenta_ajuste_inventario_ingreso_id", "Ajustes positivos de inventario."},
	{"cuenta_ajuste_inventario_gasto_id", "Ajustes negativos de inventario."},
	{"cuenta_consumo_interno_id", "Consumo interno de inventario."},
	{"cuenta_sobrante_caja_id", "Sobrantes al cerrar caja."},
	{"cuenta_faltante_caja_id", "Faltantes al cerrar caja."},
	{"cuenta_salarios_id", "Gasto de salarios (planilla)."},
	{"cuenta_cargas_sociales_id", "Cargas sociales patronales (planilla)."},
	{"cuenta_salarios_por_pagar_id", "Salarios por pagar (planilla)."},
	{"cuenta_ccss_por_pagar_id", "CCSS por pagar (planilla)."},
	{"cuenta_retenciones_id", "Retenciones de impuesto sobre la renta por pagar."},
	{"cuenta_aguinaldo_gasto_id", "Gasto de aguinaldo."},
	{"cuenta_aguinaldo_provision_id", "Provisión de aguinaldo."},
	{"cuenta_vacaciones_gasto_id", "Gasto de vacaciones."},
	{"cuenta_vacaciones_provision_id", "Provisión de vacaciones."},
	{"cuenta_utilidades_retenidas_id", "Utilidades retenidas (cierre del ejercicio)."},
	{"cuenta_resultado_periodo_id", "Utilidad o pérdida del período (cierre)."},
}

// Configuracion is the mapping as the API shows it: each cuenta_*_id and,
// next to it, the account {id, codigo, nombre} under the key without _id.
type Configuracion map[string]any

// BuscarConfiguracion reads the tenant's mapping with its accounts in one
// query.
func BuscarConfiguracion(ctx context.Context, tx *db.Tx, _ auth.Principal, _ struct{}) (Configuracion, error) {
	var raw []byte
	err := tx.QueryRow(ctx, `select to_jsonb(g) - 'empresa_id' || coalesce((
			select jsonb_object_agg(left(e.key, -3), jsonb_build_object('id', k.id, 'codigo', k.codigo, 'nombre', k.nombre))
			from jsonb_each(to_jsonb(g)) e
			join cuentas_contables k on k.empresa_id = g.empresa_id and k.id = (e.value #>> '{}')::bigint
			where e.key like 'cuenta\_%\_id'), '{}'::jsonb)
		from contabilidad_configuracion g where g.empresa_id = $1`, tx.EmpresaID()).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.NewNotFound("La empresa no tiene configuración contable.")
	}
	if err != nil {
		return nil, fmt.Errorf("contabilidad: configuración: %w", err)
	}
	var out Configuracion
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("contabilidad: configuración: decode: %w", err)
	}
	return out, nil
}

// configuracionIn is the subset of the mapping a PUT changes, in column
// order.
type configuracionIn struct {
	in     *valid.Input
	claves []string
	ids    []int64
}

func decodeConfiguracion(in *valid.Input) (configuracionIn, error) {
	x := configuracionIn{in: in}
	for _, c := range CuentasConfiguracion {
		if !in.Has(c.Clave) {
			continue
		}
		if id, ok := in.Int(c.Clave, valid.Int{Required: true, Min: valid.Min(1)}); ok {
			x.claves = append(x.claves, c.Clave)
			x.ids = append(x.ids, id)
		}
	}
	return x, in.Err()
}

// ActualizarConfiguracion changes the accounts of the keys sent: each must
// be an active leaf account of the company (422 under its key).
func ActualizarConfiguracion(ctx context.Context, tx *db.Tx, p auth.Principal, x configuracionIn) (Configuracion, error) {
	if len(x.claves) > 0 {
		// For share: a deletion or deactivation of one of them waits for
		// this change and then sees it (leerEstado locks the account).
		rows, _ := tx.Query(ctx, `select id from cuentas_contables where empresa_id = $1 and id = any($2)
			and not eliminado and activo and acepta_movimientos order by id for share`, tx.EmpresaID(), x.ids)
		ok, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return nil, fmt.Errorf("contabilidad: configuración: cuentas: %w", err)
		}
		validas := map[int64]bool{}
		for _, id := range ok {
			validas[id] = true
		}
		sets := make([]string, 0, len(x.claves))
		args := []any{tx.EmpresaID()}
		for i, clave := range x.claves {
			if !validas[x.ids[i]] {
				x.in.Fail(clave, "La cuenta debe ser una cuenta de detalle activa de la empresa.")
			}
			args = append(args, x.ids[i])
			// clave is one of CuentasConfiguracion's, never user text.
			sets = append(sets, fmt.Sprintf("%s = $%d", clave, len(args)))
		}
		if err := x.in.Err(); err != nil {
			return nil, err
		}
		tag, err := tx.Exec(ctx, `update contabilidad_configuracion set `+strings.Join(sets, ", ")+` where empresa_id = $1`, args...)
		if err != nil {
			return nil, fmt.Errorf("contabilidad: configuración: actualizar: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil, apperr.NewNotFound("La empresa no tiene configuración contable.")
		}
	}
	return BuscarConfiguracion(ctx, tx, p, struct{}{})
}
