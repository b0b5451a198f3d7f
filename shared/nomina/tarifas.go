package nomina

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// Rate kinds of nomina_tarifas.
const (
	TarifaObrero    = "obrero"
	TarifaPatronal  = "patronal"
	TarifaTramo     = "renta_tramo"
	TarifaCredito   = "credito"
	TarifaProvision = "provision"
)

// TiposTarifa are the rate kinds.
var TiposTarifa = []string{TarifaObrero, TarifaPatronal, TarifaTramo, TarifaCredito, TarifaProvision}

const msgTarifaNoEncontrada = "Tarifa de nómina no encontrada."

// tarifaJSON is a rate as the API shows it (alias t).
const tarifaJSON = `jsonb_build_object('id', t.id, 'tipo', t.tipo, 'concepto', t.concepto, 'descripcion', t.descripcion,
	'porcentaje', t.porcentaje, 'monto', t.monto, 'desde', t.desde, 'hasta', t.hasta, 'vigente_desde', t.vigente_desde,
	'vigente_hasta', t.vigente_hasta, 'fuente', t.fuente, 'creado_en', t.creado_en, 'actualizado_en', t.actualizado_en)`

// tablaEn selects the rates in force on the date fecha (an SQL
// expression), ordered for escanearTabla.
func tablaEn(fecha string) string {
	return `select tipo, concepto, porcentaje, monto, desde, hasta from nomina_tarifas
		where vigente_desde <= ` + fecha + ` and (vigente_hasta is null or vigente_hasta >= ` + fecha + `)
		order by tipo, desde nulls first, concepto`
}

// escanearTabla reads tablaSQL's rows into a Tabla.
func escanearTabla(rows pgx.Rows) (Tabla, error) {
	var t Tabla
	defer rows.Close()
	for rows.Next() {
		var (
			tipo, concepto           string
			pct, monto, desde, hasta decimal.NullDecimal
		)
		if err := rows.Scan(&tipo, &concepto, &pct, &monto, &desde, &hasta); err != nil {
			return t, err
		}
		switch tipo {
		case TarifaObrero:
			t.Obrero = append(t.Obrero, Tasa{concepto, pct.Decimal})
		case TarifaPatronal:
			t.Patronal = append(t.Patronal, Tasa{concepto, pct.Decimal})
		case TarifaTramo:
			tr := Tramo{Desde: desde.Decimal, Porcentaje: pct.Decimal}
			if hasta.Valid {
				h := hasta.Decimal
				tr.Hasta = &h
			}
			t.Tramos = append(t.Tramos, tr)
		case TarifaCredito:
			switch concepto {
			case "hijo":
				t.CreditoHijo = monto.Decimal
			case "conyuge":
				t.CreditoConyuge = monto.Decimal
			}
		case TarifaProvision:
			if concepto == "aguinaldo" {
				t.Aguinaldo = pct.Decimal
			}
		}
	}
	return t, rows.Err()
}

// DatosTarifa is a validated rate body; nil fields were not sent.
type DatosTarifa struct {
	Tipo, Concepto, Descripcion, Fuente *string
	Porcentaje, Monto, Desde, Hasta     *decimal.Decimal
	VigenteDesde, VigenteHasta          *time.Time
	limpiar                             map[string]bool // sent as null
}

// BuscarTarifa loads one rate.
func BuscarTarifa(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (json.RawMessage, error) {
	raw, found, err := db.Uno(ctx, tx, fmt.Sprintf("nomina: tarifa %d", id), pgx.RowTo[[]byte], nil,
		`select `+tarifaJSON+` from nomina_tarifas t where t.id = $1`, id)
	return raw, apperr.NotFoundUnless(found, err, msgTarifaNoEncontrada)
}

// CrearTarifa records a rate (platform administrators: the route says so).
// A new rate supersedes the open-ended one of its kind and concept that
// started earlier: that one is closed the day before (the usual case, next
// year's decree). Any other overlap of the two periods is refused (0026),
// since both rates would be applied on the days they share.
func CrearTarifa(ctx context.Context, tx *db.Tx, p auth.Principal, d DatosTarifa) (json.RawMessage, error) {
	var id int64
	// Two statements in one round trip: the insert's overlap check must see
	// the closed period, which a data-modifying CTE of the same statement
	// would not show.
	b := &pgx.Batch{}
	b.Queue(`update nomina_tarifas set vigente_hasta = $3::date - 1
		where tipo = $1::text and concepto = `+conceptoSQL("$1", "$2")+` and vigente_hasta is null and vigente_desde < $3::date`,
		d.Tipo, d.Concepto, d.VigenteDesde)
	b.Queue(`insert into nomina_tarifas (tipo, concepto, descripcion, porcentaje, monto, desde, hasta,
			vigente_desde, vigente_hasta, fuente) values ($1::text, `+conceptoSQL("$1", "$2")+`, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
		d.Tipo, d.Concepto, d.Descripcion, d.Porcentaje, d.Monto, d.Desde, d.Hasta, d.VigenteDesde, d.VigenteHasta, d.Fuente).
		QueryRow(func(row pgx.Row) error { return row.Scan(&id) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, errorTarifa(err)
	}
	return BuscarTarifa(ctx, tx, p, id)
}

// ActualizarTarifa changes the fields sent (an explicit null clears an
// optional one: hasta, vigente_hasta, porcentaje, monto, desde).
func ActualizarTarifa(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, d DatosTarifa) (json.RawMessage, error) {
	tag, err := tx.Exec(ctx, `update nomina_tarifas set tipo = coalesce($2::text, tipo),
			concepto = `+conceptoSQL("coalesce($2, tipo)", "coalesce($3, concepto)")+`,
			descripcion = case when $4::text is not null or $12 then $4 else descripcion end,
			porcentaje = case when $5::numeric is not null or $13 then $5 else porcentaje end,
			monto = case when $6::numeric is not null or $14 then $6 else monto end,
			desde = case when $7::numeric is not null or $15 then $7 else desde end,
			hasta = case when $8::numeric is not null or $16 then $8 else hasta end,
			vigente_desde = coalesce($9, vigente_desde),
			vigente_hasta = case when $10::date is not null or $17 then $10 else vigente_hasta end,
			fuente = coalesce($11, fuente)
		where id = $1`, id, d.Tipo, d.Concepto, d.Descripcion, d.Porcentaje, d.Monto, d.Desde, d.Hasta, d.VigenteDesde,
		d.VigenteHasta, d.Fuente, d.limpiar["descripcion"], d.limpiar["porcentaje"], d.limpiar["monto"], d.limpiar["desde"],
		d.limpiar["hasta"], d.limpiar["vigente_hasta"])
	if err != nil {
		return nil, errorTarifa(err)
	}
	if tag.RowsAffected() == 0 {
		return nil, apperr.NewNotFound(msgTarifaNoEncontrada)
	}
	return BuscarTarifa(ctx, tx, p, id)
}

// conceptoSQL is a concept as stored (0026): the calculation's names of
// credits and provisions (hijo, conyuge, aguinaldo) in lower case, the
// items and brackets (SEM, IVM, T1, ...) in upper case, so one concept is
// never two rows in force side by side for a difference of case.
func conceptoSQL(tipo, concepto string) string {
	return `(case when ` + tipo + `::text in ('credito', 'provision') then lower(` + concepto + `::text) else upper(` + concepto + `::text) end)`
}

// errorTarifa turns the table's constraints into field messages.
func errorTarifa(err error) error {
	if c, ok := db.IsUniqueViolation(err); ok && c == "nomina_tarifas_concepto" {
		return apperr.InvalidField("vigente_desde", "Ya existe una tarifa de ese tipo y concepto con esa fecha de vigencia.")
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23P01" && pg.ConstraintName == "nomina_tarifas_sin_solape" {
		// Two rates of one concept in force the same day would both be
		// applied (0026).
		return apperr.InvalidField("vigente_desde", "Ya hay una tarifa de ese tipo y concepto vigente en parte de ese período: "+
			"cierre la vigencia de la anterior (vigente_hasta) antes de registrar la nueva.")
	}
	if errors.As(err, &pg) && pg.Code == "23514" {
		if pg.ConstraintName == "nomina_tarifas_concepto_conocido" {
			return apperr.InvalidField("concepto", "El concepto de un crédito es hijo o conyuge, y el de una provisión, aguinaldo: "+
				"el cálculo de la planilla no aplica otros.")
		}
		if pg.ConstraintName == "nomina_tarifas_vigencia" {
			return apperr.InvalidField("vigente_hasta", "La fecha vigente_hasta no puede ser anterior a vigente_desde.")
		}
		return apperr.InvalidField("tipo", "Los campos no corresponden al tipo: un crédito lleva monto; un tramo de renta lleva "+
			"porcentaje y desde (y hasta mayor que desde, o ninguno); las cuotas obreras, patronales y provisiones llevan porcentaje.")
	}
	return fmt.Errorf("nomina: tarifa: %w", err)
}

// readTarifa reads a rate body.
func readTarifa(in *valid.Input, creando bool) DatosTarifa {
	d := DatosTarifa{limpiar: map[string]bool{}}
	d.Tipo = valid.Opt(in.OneOf("tipo", creando, TiposTarifa))
	if s, ok := in.String("concepto", valid.Str{Required: creando, Max: 60}); ok {
		d.Concepto = &s
	}
	if s, ok := in.String("descripcion", valid.Str{Max: 255}); ok {
		d.Descripcion = &s
	}
	if s, ok := in.String("fuente", valid.Str{Required: creando, Max: 500}); ok {
		d.Fuente = &s
	}
	dec := func(key string, r valid.Dec) *decimal.Decimal {
		if v, ok := in.Decimal(key, r); ok {
			return &v
		}
		return nil
	}
	d.Porcentaje = dec("porcentaje", valid.Dec{Scale: 4, Max: valid.D("100")})
	d.Monto = dec("monto", valid.Dec{Scale: 2})
	d.Desde = dec("desde", valid.Dec{Scale: 2})
	d.Hasta = dec("hasta", valid.Dec{Scale: 2})
	if t, ok := in.Date("vigente_desde", creando); ok {
		d.VigenteDesde = &t
	}
	if t, ok := in.Date("vigente_hasta", false); ok {
		d.VigenteHasta = &t
	}
	for _, k := range []string{"descripcion", "porcentaje", "monto", "desde", "hasta", "vigente_hasta"} {
		d.limpiar[k] = in.IsNull(k)
	}
	for _, k := range []string{"tipo", "concepto", "fuente", "vigente_desde"} {
		if !creando && in.IsNull(k) {
			in.Fail(k, "El campo "+k+" es obligatorio.")
		}
	}
	return d
}

func decodeTarifaNueva(in *valid.Input) (DatosTarifa, error)  { return readTarifa(in, true), in.Err() }
func decodeTarifaCambio(in *valid.Input) (DatosTarifa, error) { return readTarifa(in, false), in.Err() }
