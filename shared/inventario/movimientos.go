package inventario

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
)

// Service serves the inventario group: entries, exits, transfers and stock.
type Service struct {
	DB *db.DB
}

// clase holds what differs between the entries and exits endpoints: the
// class and the Spanish words of their messages.
type clase struct {
	clase   string // Entrada or Salida
	recurso string // path segment
	nombre  string // "entrada"
	titulo  string // "Entrada de inventario"
}

var (
	entradas = clase{clase: Entrada, recurso: "entradas", nombre: "entrada", titulo: "Entrada de inventario"}
	salidas  = clase{clase: Salida, recurso: "salidas", nombre: "salida", titulo: "Salida de inventario"}
)

func (c clase) noEncontrada() error { return apperr.NewNotFound(c.titulo + " no encontrada.") }

// puedeProcesar: applying stock (procesar, or a transfer that is processed
// at once) is inventario.actualizar, as POST .../{id}/procesar is, so that a
// role that only records movements cannot bypass their approval.
func puedeProcesar(p auth.Principal) error {
	if !p.Can("inventario.actualizar") {
		return apperr.NewForbidden("No tiene permiso para procesar movimientos de inventario (inventario.actualizar).")
	}
	return nil
}

// ---- lists ----

var movimientoSorts = map[string]string{
	"id": "m.id", "numero": "m.numero", "fecha": "m.fecha", "tipo": "m.tipo", "estado": "m.estado",
	"creado_en": "m.creado_en", "almacen": "a.nombre",
}

// movimientoWhere uses $1 tenant, $2 clase and the filters $3..$9.
const movimientoWhere = ` where m.empresa_id = $1 and m.clase = $2 and not m.eliminado
	and ($3::bigint is null or m.almacen_id = $3)
	and ($4::text is null or m.tipo = $4)
	and ($5::text is null or m.estado = $5)
	and ($6::date is null or m.fecha >= $6)
	and ($7::date is null or m.fecha <= $7)
	and ($8::bigint is null or exists (select 1 from detalles_movimiento d
	     where d.empresa_id = m.empresa_id and d.movimiento_id = m.id and d.producto_id = $8))
	and ($9::text is null or m.numero ilike $9 or m.observaciones ilike $9)`

// ---- show ----

// ---- create ----

// ---- state changes ----

// bloquear reads a movement of the class for update (so that a concurrent
// procesar or cancelar waits) with the negative-stock setting.
func bloquear(ctx context.Context, tx *db.Tx, c clase, id int64) (estado string, permiteNegativo bool, err error) {
	empresaID := tx.EmpresaID()
	err = tx.QueryRow(ctx, `select m.estado, (`+sqlPermiteNegativo+`) from movimientos_inventario m
		where m.empresa_id = $1 and m.id = $2 and m.clase = $3 and not m.eliminado for update of m`, empresaID, id, c.clase).Scan(&estado, &permiteNegativo)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, c.noEncontrada()
	}
	if err != nil {
		return "", false, fmt.Errorf("inventario: bloquear %d: %w", id, err)
	}
	return estado, permiteNegativo, nil
}

// uno is the detail view of one movement of the class.
func uno(ctx context.Context, tx *db.Tx, p auth.Principal, c clase, id int64) (Vista, error) {
	v, err := buscar(ctx, tx, c.clase, []int64{id})
	if err != nil {
		return Vista{}, err
	}
	if len(v) == 0 {
		return Vista{}, c.noEncontrada()
	}
	return v[0], nil
}

// ---- transfers ----

// Transferencia is the answer of a transfer: its two movements.
type Transferencia struct {
	Salida  Vista `json:"salida"`
	Entrada Vista `json:"entrada"`
}
