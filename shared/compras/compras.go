// Package compras is the purchasing domain: purchase orders (órdenes de
// compra) from draft to receipt, the inventory entries their receipts make
// (through shared/inventario, in the receipt's transaction), and the
// payables (cuentas por pagar) a fully received order leaves, with their
// payments.
//
// Every request costs a constant number of database round trips whatever
// the number of lines or the page size: lines are written with one unnest
// statement, references are checked with one query per table, and the
// views (an order with its supplier, lines, payments and inventory entries;
// a payable with its payments) are built as JSON by PostgreSQL in one query.
package compras

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
)

// Service serves the compras group: purchase orders and payables.
type Service struct {
	DB *db.DB
}

// States of a purchase order (SPEC.md "States and transitions").
const (
	Borrador  = "borrador"
	Pendiente = "pendiente"
	Aprobada  = "aprobada"
	Recibida  = "recibida"
	Cancelada = "cancelada"
)

// Estados lists the states of a purchase order.
var Estados = []string{Borrador, Pendiente, Aprobada, Recibida, Cancelada}

// States of a payable.
var estadosCuenta = []string{"pendiente", "pagada", "anulada"}

func label(key string) string { return strings.ReplaceAll(key, "_", " ") }

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// args collects positional SQL arguments.
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

var (
	cien = decimal.NewFromInt(100)
	// Column limits: numeric(16,3) quantities, numeric(18,2) money,
	// numeric(18,4) unit costs.
	limiteCantidad = decimal.New(1, 13)
	limiteMonto    = decimal.New(1, 16)
	limiteCosto    = decimal.New(1, 14)
	// limiteOrden bounds a line's and an order's subtotal, so that taxes
	// (at most 100%) and totals still fit numeric(18,2).
	limiteOrden = decimal.New(1, 15)
)
