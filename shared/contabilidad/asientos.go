package contabilidad

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/montos"
	"github.com/erpcr/erp/shared/valid"
)

const msgAsientoNoEncontrado = "Asiento contable no encontrado."

// MaxLineas bounds the lines of one entry.
const MaxLineas = 500

// limiteTotal bounds an entry's total debits and total credits: what its
// numeric(18,2) totals hold (each line is bounded alike by valid.Dec, but
// two lines near the bound already add up past it).
var limiteTotal = decimal.New(1, 16)

// Asiento is a journal entry as the API shows it; Lineas only in a show.
type Asiento struct {
	ID              int64          `json:"id" db:"id"`
	EmpresaID       int64          `json:"empresa_id" db:"empresa_id"`
	Numero          *string        `json:"numero" db:"numero"`
	Fecha           string         `json:"fecha" db:"fecha"`
	Descripcion     string         `json:"descripcion" db:"descripcion"`
	Origen          string         `json:"origen" db:"origen"`
	OrigenID        *int64         `json:"origen_id" db:"origen_id"`
	Estado          string         `json:"estado" db:"estado"`
	Moneda          string         `json:"moneda" db:"moneda"`
	TipoCambio      montos.Monto   `json:"tipo_cambio" db:"tipo_cambio"`
	TotalDebe       montos.Numero  `json:"total_debe" db:"total_debe"`
	TotalHaber      montos.Numero  `json:"total_haber" db:"total_haber"`
	ReversaDeID     *int64         `json:"reversa_de_id" db:"reversa_de_id"`
	ReversadoPorID  *int64         `json:"reversado_por_id" db:"reversado_por_id"`
	UsuarioID       *int64         `json:"usuario_id" db:"usuario_id"`
	ContabilizadoEn *time.Time     `json:"contabilizado_en" db:"contabilizado_en"`
	AnuladoEn       *time.Time     `json:"anulado_en" db:"anulado_en"`
	CreadoEn        time.Time      `json:"creado_en" db:"creado_en"`
	ActualizadoEn   time.Time      `json:"actualizado_en" db:"actualizado_en"`
	Lineas          []AsientoLinea `json:"lineas,omitzero" db:"-"`
}

// AsientoLinea is one line of an entry, with its account.
type AsientoLinea struct {
	ID          int64         `json:"id" db:"id"`
	Linea       int           `json:"linea" db:"linea"`
	CuentaID    int64         `json:"cuenta_id" db:"cuenta_id"`
	Cuenta      Ref           `json:"cuenta" db:"-"`
	Debe        montos.Numero `json:"debe" db:"debe"`
	Haber       montos.Numero `json:"haber" db:"haber"`
	Descripcion *string       `json:"descripcion" db:"descripcion"`
	SucursalID  *int64        `json:"sucursal_id" db:"sucursal_id"`
	AsientoID   int64         `json:"-" db:"asiento_id"`
	Codigo      string        `json:"-" db:"codigo"`
	Nombre      string        `json:"-" db:"nombre"`
}

const asientoCols = `a.id, a.empresa_id, a.numero, to_char(a.fecha, 'YYYY-MM-DD') as fecha, a.descripcion, a.origen, a.origen_id,
	a.estado, a.moneda, a.tipo_cambio, a.total_debe, a.total_haber, a.reversa_de_id, a.reversado_por_id, a.usuario_id,
	a.contabilizado_en, a.anulado_en, a.creado_en, a.actualizado_en`

func scanAsiento(r pgx.CollectableRow) (Asiento, error) { return pgx.RowToStructByName[Asiento](r) }

// BuscarAsiento is the entry id of the tenant with its lines.
func BuscarAsiento(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (Asiento, error) {
	b := &pgx.Batch{}
	var as []Asiento
	var ls []AsientoLinea
	b.Queue(`select `+asientoCols+` from asientos_contables a where a.empresa_id = $1 and a.id = $2 and not a.eliminado`,
		tx.EmpresaID(), id).Query(func(rows pgx.Rows) (err error) {
		as, err = pgx.CollectRows(rows, scanAsiento)
		return err
	})
	b.Queue(`select l.id, l.linea, l.cuenta_id, l.debe, l.haber, l.descripcion, l.sucursal_id, l.asiento_id, c.codigo, c.nombre
		from asiento_lineas l join cuentas_contables c on c.empresa_id = l.empresa_id and c.id = l.cuenta_id
		join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id and not a.eliminado
		where l.empresa_id = $1 and l.asiento_id = $2 order by l.linea`, tx.EmpresaID(), id).Query(func(rows pgx.Rows) (err error) {
		ls, err = pgx.CollectRows(rows, pgx.RowToStructByName[AsientoLinea])
		return err
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Asiento{}, fmt.Errorf("contabilidad: asiento %d: %w", id, err)
	}
	if len(as) == 0 {
		return Asiento{}, apperr.NewNotFound(msgAsientoNoEncontrado)
	}
	a := as[0]
	a.Lineas = make([]AsientoLinea, len(ls))
	for i, l := range ls {
		l.Cuenta = Ref{ID: l.CuentaID, Codigo: l.Codigo, Nombre: l.Nombre}
		a.Lineas[i] = l
	}
	return a, nil
}

// lineaIn is one decoded line.
type lineaIn struct {
	cuentaID    int64
	debe, haber decimal.Decimal
	descripcion *string
	sucursalID  *int64
}

// asientoIn is a decoded entry body (create: fecha, descripcion and lineas
// required; update: every field optional, lineas replace the draft's).
type asientoIn struct {
	in                 *valid.Input
	fecha              *time.Time
	descripcion        *string
	moneda             *string
	tipoCambio         *decimal.Decimal
	estado             *string
	lineas             []lineaIn
	lineasSent         bool
	totalDebe, totHabr decimal.Decimal
}

// decodeAsiento reads an entry body. What needs no database is checked
// here: each line a debit or a credit above zero (lineas.N.debe), and, for
// an entry to be posted now, at least two lines that balance (lineas).
func decodeAsiento(creating bool) func(in *valid.Input) (asientoIn, error) {
	return func(in *valid.Input) (asientoIn, error) {
		x := asientoIn{in: in}
		if d, ok := in.Date("fecha", creating); ok {
			x.fecha = &d
		}
		if v, ok := in.String("descripcion", valid.Str{Required: creating || in.Has("descripcion"), Max: 1000}); ok {
			x.descripcion = &v
		}
		x.moneda = valid.Opt(in.OneOf("moneda", false, Monedas))
		if d, ok := in.Decimal("tipo_cambio", valid.Dec{Scale: 5, Positive: true, Limit: decimal.New(1, 13)}); ok {
			x.tipoCambio = &d
		}
		x.estado = valid.Opt(in.OneOf("estado", false, []string{Borrador, Contabilizado}))
		x.lineasSent = in.Has("lineas")
		items, ok := in.List("lineas", creating || x.lineasSent)
		if ok {
			switch {
			case len(items) == 0:
				in.Fail("lineas", "Un asiento necesita al menos dos líneas.")
			case len(items) > MaxLineas:
				in.Fail("lineas", "Un asiento admite como máximo "+strconv.Itoa(MaxLineas)+" líneas.")
			default:
				x.lineas = make([]lineaIn, 0, len(items))
				for i, raw := range items {
					l, ok := decodeLinea(in, i, raw)
					if ok {
						x.lineas = append(x.lineas, l)
						x.totalDebe = x.totalDebe.Add(l.debe)
						x.totHabr = x.totHabr.Add(l.haber)
					}
				}
			}
		}
		if x.totalDebe.GreaterThanOrEqual(limiteTotal) || x.totHabr.GreaterThanOrEqual(limiteTotal) {
			in.Fail("lineas", "El total del debe y el del haber de un asiento deben ser menores que "+limiteTotal.StringFixed(2)+".")
		}
		if err := in.Err(); err != nil {
			return x, err
		}
		if x.estado != nil && *x.estado == Contabilizado && x.lineasSent {
			if err := cuadra(x.lineas, x.totalDebe, x.totHabr); err != nil {
				return x, err
			}
		}
		return x, nil
	}
}

// cuadra is the rule of an entry to be posted: two lines or more whose
// debits equal their credits (the database checks it again when posting).
func cuadra(lineas []lineaIn, debe, haber decimal.Decimal) error {
	if len(lineas) < 2 {
		return apperr.InvalidField("lineas", "Un asiento necesita al menos dos líneas.")
	}
	if !debe.Equal(haber) {
		return apperr.InvalidField("lineas", fmt.Sprintf("El asiento no cuadra: el debe suma %s y el haber %s.",
			debe.StringFixed(2), haber.StringFixed(2)))
	}
	return nil
}

func decodeLinea(in *valid.Input, i int, raw json.RawMessage) (lineaIn, bool) {
	prefix := "lineas." + strconv.Itoa(i) + "."
	li, ok := in.Elemento("lineas", i, raw, "Cada línea debe ser un objeto.")
	if !ok {
		return lineaIn{}, false
	}
	var l lineaIn
	l.cuentaID, _ = li.Int("cuenta_id", valid.Int{Required: true, Min: valid.Min(1)})
	debe, _ := li.Decimal("debe", valid.Dec{Scale: 2})
	haber, _ := li.Decimal("haber", valid.Dec{Scale: 2})
	l.debe, l.haber = debe, haber
	if v, ok := li.String("descripcion", valid.Str{Max: 1000}); ok {
		l.descripcion = &v
	}
	if n, ok := li.Int("sucursal_id", valid.Int{Min: valid.Min(1)}); ok {
		l.sucursalID = &n
	}
	if !li.Failed("debe") && !li.Failed("haber") && debe.IsPositive() == haber.IsPositive() {
		li.Fail("debe", "Cada línea lleva un monto mayor que 0 en debe o en haber, no en ambos.")
	}
	failed := li.Err() != nil
	in.Merge(prefix, li)
	return l, !failed
}

// asientoActual is the state of an entry a change needs, read locked.
type asientoActual struct {
	estado, origen, moneda string
	fecha                  time.Time
}

func bloquear(ctx context.Context, tx *db.Tx, id int64) (asientoActual, error) {
	var a asientoActual
	err := tx.QueryRow(ctx, `select estado, origen, moneda, fecha from asientos_contables
		where empresa_id = $1 and id = $2 and not eliminado for update`, tx.EmpresaID(), id).Scan(&a.estado, &a.origen, &a.moneda, &a.fecha)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, apperr.NewNotFound(msgAsientoNoEncontrado)
	}
	if err != nil {
		return a, fmt.Errorf("contabilidad: asiento %d: %w", id, err)
	}
	return a, nil
}

// verificarReferencias checks, in one round trip, that every line's
// account is an active leaf account of the company and its branch one of
// the company's, and finds the exchange rate of fecha for an entry in
// dollars without one.
func verificarReferencias(ctx context.Context, tx *db.Tx, x *asientoIn, fecha time.Time, moneda string) error {
	in := x.in
	cuentas := make([]int64, len(x.lineas))
	var sucursales []int64
	for i, l := range x.lineas {
		cuentas[i] = l.cuentaID
		if l.sucursalID != nil {
			sucursales = append(sucursales, *l.sucursalID)
		}
	}
	type cuenta struct {
		activa, hoja bool
	}
	found := map[int64]cuenta{}
	branches := map[int64]bool{}
	var tc *decimal.Decimal
	b := &pgx.Batch{}
	if len(cuentas) > 0 {
		b.Queue(`select id, activo, acepta_movimientos from cuentas_contables where empresa_id = $1 and id = any($2) and not eliminado`,
			tx.EmpresaID(), cuentas).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var id int64
				var c cuenta
				if err := rows.Scan(&id, &c.activa, &c.hoja); err != nil {
					return err
				}
				found[id] = c
			}
			return rows.Err()
		})
	}
	if len(sucursales) > 0 {
		b.Queue(`select id from sucursales where empresa_id = $1 and id = any($2) and not eliminado`, tx.EmpresaID(), sucursales).
			Query(func(rows pgx.Rows) error {
				for rows.Next() {
					var id int64
					if err := rows.Scan(&id); err != nil {
						return err
					}
					branches[id] = true
				}
				return rows.Err()
			})
	}
	buscarTC := moneda == "USD" && x.tipoCambio == nil
	if buscarTC {
		b.Queue(`select venta from tipos_cambio where empresa_id = $1 and moneda = 'USD' and fecha = $2 and not eliminado`,
			tx.EmpresaID(), fecha).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var d decimal.Decimal
				if err := rows.Scan(&d); err != nil {
					return err
				}
				tc = &d
			}
			return rows.Err()
		})
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("contabilidad: verificar líneas: %w", err)
		}
	}
	for i, l := range x.lineas {
		key := "lineas." + strconv.Itoa(i) + "."
		c, ok := found[l.cuentaID]
		switch {
		case !ok || !c.activa:
			in.Fail(key+"cuenta_id", "La cuenta contable no existe o está inactiva.")
		case !c.hoja:
			in.Fail(key+"cuenta_id", "La cuenta contable es de agrupación: solo las cuentas de detalle aceptan movimientos.")
		}
		if l.sucursalID != nil && !branches[*l.sucursalID] {
			in.Fail(key+"sucursal_id", "La sucursal seleccionada no existe.")
		}
	}
	if buscarTC {
		if tc == nil {
			in.Fail("tipo_cambio", "No hay tipo de cambio registrado para el "+fecha.Format("2006-01-02")+
				": indíquelo o regístrelo en /api/tipos-cambio.")
		} else {
			x.tipoCambio = tc
		}
	}
	return in.Err()
}

// lineasArgs are the lines as the arrays the insert unnests.
func lineasArgs(ls []lineaIn) (cuentas []int64, debes, haberes []string, descs []*string, sucs []*int64) {
	for _, l := range ls {
		cuentas = append(cuentas, l.cuentaID)
		debes = append(debes, l.debe.String())
		haberes = append(haberes, l.haber.String())
		descs = append(descs, l.descripcion)
		sucs = append(sucs, l.sucursalID)
	}
	return
}

const insertarLineas = `insert into asiento_lineas (empresa_id, asiento_id, linea, cuenta_id, debe, haber, descripcion, sucursal_id)
	select $1, $2, x.n, x.cuenta, x.debe, x.haber, x.descripcion, x.sucursal
	from unnest($3::bigint[], $4::text[]::numeric[], $5::text[]::numeric[], $6::text[], $7::bigint[]) with ordinality
		as x(cuenta, debe, haber, descripcion, sucursal, n)`

// tipoCambio is the rate an entry stores: 1 in colones; in dollars the
// one given, else the registered rate of its date.
func tipoCambio(in *valid.Input, moneda string, tc *decimal.Decimal) decimal.Decimal {
	if moneda == "CRC" {
		if tc != nil && !tc.Equal(decimal.NewFromInt(1)) {
			in.Fail("tipo_cambio", "En colones el tipo de cambio es 1.")
		}
		return decimal.NewFromInt(1)
	}
	if tc == nil {
		return decimal.Zero
	}
	return *tc
}

// CrearAsiento records a manual entry: a draft (estado borrador, the
// default) or posted at once (estado contabilizado, numbered by
// contabilidad_contabilizar in the same transaction). Line amounts are in
// colones, the books' currency; moneda and tipo_cambio record the
// currency of the document behind the entry.
func CrearAsiento(ctx context.Context, tx *db.Tx, p auth.Principal, x asientoIn) (Asiento, error) {
	moneda := "CRC"
	if x.moneda != nil {
		moneda = *x.moneda
	}
	tipoCambio(x.in, moneda, x.tipoCambio)
	if err := x.in.Err(); err != nil {
		return Asiento{}, err
	}
	if err := verificarReferencias(ctx, tx, &x, *x.fecha, moneda); err != nil {
		return Asiento{}, err
	}
	tc := tipoCambio(x.in, moneda, x.tipoCambio)
	cuentas, debes, haberes, descs, sucs := lineasArgs(x.lineas)
	var id int64
	err := tx.QueryRow(ctx, `with a as (
			insert into asientos_contables (empresa_id, fecha, descripcion, origen, moneda, tipo_cambio, total_debe, total_haber, usuario_id)
			values ($1, $2, $8, 'manual', $9, $10, $11, $12, nullif($13, 0)) returning id),
		l as (`+insertarLineas2+`)
		select id from a`,
		tx.EmpresaID(), *x.fecha, cuentas, debes, haberes, descs, sucs, *x.descripcion, moneda, tc.String(),
		x.totalDebe.String(), x.totHabr.String(), p.UsuarioID).Scan(&id)
	if err != nil {
		return Asiento{}, fmt.Errorf("contabilidad: crear asiento: %w", err)
	}
	if x.estado != nil && *x.estado == Contabilizado {
		return contabilizar(ctx, tx, p, id)
	}
	return BuscarAsiento(ctx, tx, p, id)
}

// insertarLineas2 is insertarLineas inside the entry's insert (the id
// comes from the CTE a).
const insertarLineas2 = `insert into asiento_lineas (empresa_id, asiento_id, linea, cuenta_id, debe, haber, descripcion, sucursal_id)
	select $1, a.id, x.n, x.cuenta, x.debe, x.haber, x.descripcion, x.sucursal
	from a, unnest($3::bigint[], $4::text[]::numeric[], $5::text[]::numeric[], $6::text[], $7::bigint[]) with ordinality
		as x(cuenta, debe, haber, descripcion, sucursal, n)`

// msgSoloBorrador refuses changing a posted entry.
const msgSoloBorrador = "Solo un asiento en borrador se puede modificar; un asiento contabilizado se anula (POST /api/asientos-contables/{id}/anular)."

// ActualizarAsiento changes a draft: its header fields, and its lines when
// lineas is sent (they replace the old ones). estado contabilizado posts it
// after the change.
func ActualizarAsiento(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x asientoIn) (Asiento, error) {
	cur, err := bloquear(ctx, tx, id)
	if err != nil {
		return Asiento{}, err
	}
	if cur.estado != Borrador {
		return Asiento{}, apperr.InvalidField("estado", msgSoloBorrador)
	}
	moneda := cur.moneda
	if x.moneda != nil {
		moneda = *x.moneda
	}
	fecha := cur.fecha
	if x.fecha != nil {
		fecha = *x.fecha
	}
	var tc *decimal.Decimal
	if x.moneda != nil || x.tipoCambio != nil {
		tipoCambio(x.in, moneda, x.tipoCambio)
		if err := x.in.Err(); err != nil {
			return Asiento{}, err
		}
		if err := verificarReferencias(ctx, tx, &x, fecha, moneda); err != nil {
			return Asiento{}, err
		}
		t := tipoCambio(x.in, moneda, x.tipoCambio)
		tc = &t
	} else if err := verificarReferencias(ctx, tx, &x, fecha, "CRC"); err != nil {
		return Asiento{}, err
	}
	var tcArg *string
	if tc != nil {
		s := tc.String()
		tcArg = &s
	}
	b := &pgx.Batch{}
	b.Queue(`update asientos_contables set fecha = coalesce($3, fecha), descripcion = coalesce($4, descripcion),
			moneda = coalesce($5, moneda), tipo_cambio = coalesce($6::numeric, tipo_cambio)
		where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, x.fecha, x.descripcion, x.moneda, tcArg)
	if x.lineasSent {
		cuentas, debes, haberes, descs, sucs := lineasArgs(x.lineas)
		b.Queue(`delete from asiento_lineas where empresa_id = $1 and asiento_id = $2`, tx.EmpresaID(), id)
		b.Queue(insertarLineas, tx.EmpresaID(), id, cuentas, debes, haberes, descs, sucs)
		b.Queue(`update asientos_contables set total_debe = $3, total_haber = $4 where empresa_id = $1 and id = $2`,
			tx.EmpresaID(), id, x.totalDebe.String(), x.totHabr.String())
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Asiento{}, fmt.Errorf("contabilidad: actualizar asiento %d: %w", id, err)
	}
	if x.estado != nil && *x.estado == Contabilizado {
		return contabilizar(ctx, tx, p, id)
	}
	return BuscarAsiento(ctx, tx, p, id)
}

// EliminarAsiento deletes a draft (soft); a posted entry is never deleted
// (422: it is annulled).
func EliminarAsiento(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	cur, err := bloquear(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if cur.estado != Borrador {
		return nil, apperr.InvalidField("estado",
			"Un asiento contabilizado no se elimina: se anula (POST /api/asientos-contables/{id}/anular).")
	}
	if _, err := tx.Exec(ctx, `update asientos_contables set eliminado = true where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), id); err != nil {
		return nil, fmt.Errorf("contabilidad: eliminar asiento %d: %w", id, err)
	}
	return nil, nil
}

// Contabilizar posts a draft: the database checks its lines, balance and
// period and gives it the next AS-<year>-<n> number of the company.
func Contabilizar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (Asiento, error) {
	if _, err := bloquear(ctx, tx, id); err != nil {
		return Asiento{}, err
	}
	return contabilizar(ctx, tx, p, id)
}

func contabilizar(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (Asiento, error) {
	if _, err := tx.Exec(ctx, `select contabilidad_contabilizar($1)`, id); err != nil {
		return Asiento{}, fmt.Errorf("contabilidad: contabilizar %d: %w", id, err)
	}
	return BuscarAsiento(ctx, tx, p, id)
}

// anularIn is the body of an annulment: the reversing entry's date
// (default: today in Costa Rica, or the entry's date when later).
type anularIn struct{ fecha *time.Time }

func decodeAnular(in *valid.Input) (anularIn, error) {
	var x anularIn
	if d, ok := in.Date("fecha", false); ok {
		x.fecha = &d
	}
	return x, in.Err()
}

// Anular reverses a posted manual entry: a new posted entry with every
// debit a credit and back (reversa_de_id names the original), and the
// original becomes anulado (reversado_por_id). The answer is the reversing
// entry. Automatic entries are reversed by cancelling their document.
func Anular(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x anularIn) (Asiento, error) {
	cur, err := bloquear(ctx, tx, id)
	if err != nil {
		return Asiento{}, err
	}
	if cur.estado != Contabilizado {
		return Asiento{}, apperr.InvalidField("estado", "Solo un asiento contabilizado y no anulado se puede anular.")
	}
	if cur.origen != "manual" {
		return Asiento{}, apperr.InvalidField("origen", "Este asiento se generó automáticamente ("+cur.origen+
			"): se revierte anulando o cancelando su documento de origen.")
	}
	fecha := horacr.Hoy()
	if cur.fecha.After(fecha) {
		fecha = cur.fecha
	}
	if x.fecha != nil {
		if x.fecha.Before(cur.fecha) {
			return Asiento{}, apperr.InvalidField("fecha", "La fecha de la anulación no puede ser anterior a la del asiento ("+
				cur.fecha.Format("2006-01-02")+").")
		}
		fecha = *x.fecha
	}
	var nuevo int64
	if err := tx.QueryRow(ctx, `select contabilidad_reversar($1, 'anulacion', $1, $2)`, id, fecha).Scan(&nuevo); err != nil {
		return Asiento{}, fmt.Errorf("contabilidad: anular %d: %w", id, err)
	}
	return BuscarAsiento(ctx, tx, p, nuevo)
}
