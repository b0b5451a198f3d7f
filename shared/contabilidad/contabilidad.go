// Package contabilidad is the accounting domain (issue 13): the chart of
// accounts (/api/cuentas-contables), journal entries
// (/api/asientos-contables), accounting periods (/api/periodos-contables),
// the per-company posting configuration (/api/contabilidad/configuracion)
// and exchange rates (/api/tipos-cambio, a declared resource).
//
// The rules that every posting must keep (at least two lines, active leaf
// accounts, balanced, open period, gapless AS-<year>-<n> numbers) live in
// the database (migration 0012: contabilidad_contabilizar and friends), so
// that the automatic postings of sales, stock movements and payments — done
// by deferred triggers in the business write's own transaction — and the
// manual entries of this package obey the same code. This package checks
// in Go what is cheap to check before SQL (line shapes, balance, accounts
// of the company in one query) so that a refused request usually costs no
// write, and relies on the SQL rules (db.Regla turns them into 422s with
// the same keys) for the rest.
package contabilidad

import (
	"context"
	"fmt"

	"github.com/erpcr/erp/shared/db"
)

// Types of account (cuentas_contables.tipo).
const (
	Activo     = "activo"
	Pasivo     = "pasivo"
	Patrimonio = "patrimonio"
	Ingreso    = "ingreso"
	Costo      = "costo"
	Gasto      = "gasto"
)

// Tipos are the account types, in the order of the chart.
var Tipos = []string{Activo, Pasivo, Patrimonio, Ingreso, Costo, Gasto}

// Natures of an account: which side increases it.
const (
	Deudora   = "deudora"
	Acreedora = "acreedora"
)

// Naturalezas are the accepted naturaleza values.
var Naturalezas = []string{Deudora, Acreedora}

// NaturalezaDe is the usual nature of a type: assets, costs and expenses
// grow on the debit side; liabilities, equity and revenue on the credit side.
func NaturalezaDe(tipo string) string {
	switch tipo {
	case Activo, Costo, Gasto:
		return Deudora
	}
	return Acreedora
}

// Monedas are the currencies of accounts and entries.
var Monedas = []string{"CRC", "USD"}

// States of an entry.
const (
	Borrador      = "borrador"
	Contabilizado = "contabilizado"
	Anulado       = "anulado"
)

// EstadosAsiento are the states an entry may be in.
var EstadosAsiento = []string{Borrador, Contabilizado, Anulado}

// Origenes are the sources of an entry (asientos_contables.origen).
var Origenes = []string{"manual", "venta", "anulacion_venta", "compra", "pago_cliente", "pago_proveedor", "inventario",
	"planilla", "cierre", "caja", "anulacion"}

// Ref is a nested account: {id, codigo, nombre}.
type Ref struct {
	ID     int64  `json:"id"`
	Codigo string `json:"codigo"`
	Nombre string `json:"nombre"`
}

// Backfill posts, once, what company empresa recorded before its books
// existed (contabilidad_backfill) and returns the entries it posted. It
// runs on an owner connection (cmd/contabilidad): it is idempotent, so a
// second run posts nothing.
func Backfill(ctx context.Context, q db.Querier, empresa int64) ([]Posteado, error) {
	var desde int64
	if err := q.QueryRow(ctx, `select coalesce(max(id), 0) from asientos_contables`).Scan(&desde); err != nil {
		return nil, fmt.Errorf("contabilidad: backfill %d: last entry: %w", empresa, err)
	}
	if _, err := q.Exec(ctx, `select contabilidad_sembrar($1), contabilidad_backfill($1)`, empresa); err != nil {
		return nil, fmt.Errorf("contabilidad: backfill %d: %w", empresa, err)
	}
	rows, err := q.Query(ctx, `select id, coalesce(numero, ''), to_char(fecha, 'YYYY-MM-DD'), origen, descripcion, total_debe::text
		from asientos_contables where empresa_id = $1 and id > $2 order by id`, empresa, desde)
	if err != nil {
		return nil, fmt.Errorf("contabilidad: backfill %d: list: %w", empresa, err)
	}
	defer rows.Close()
	var out []Posteado
	for rows.Next() {
		var p Posteado
		if err := rows.Scan(&p.ID, &p.Numero, &p.Fecha, &p.Origen, &p.Descripcion, &p.Total); err != nil {
			return nil, fmt.Errorf("contabilidad: backfill %d: scan: %w", empresa, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("contabilidad: backfill %d: rows: %w", empresa, err)
	}
	return out, nil
}

// Posteado is an entry the backfill posted.
type Posteado struct {
	ID                                        int64
	Numero, Fecha, Origen, Descripcion, Total string
}
