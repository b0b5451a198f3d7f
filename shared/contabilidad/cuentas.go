package contabilidad

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/montos"
	"github.com/erpcr/erp/shared/valid"
)

const msgCuentaNoEncontrada = "Cuenta contable no encontrada."

// Cuenta is an account of the chart as the API shows it. Saldo is present
// with ?fecha_corte=; Hijos in the tree (?arbol=true), [] for a leaf.
type Cuenta struct {
	ID                int64          `json:"id" db:"id"`
	EmpresaID         int64          `json:"empresa_id" db:"empresa_id"`
	Codigo            string         `json:"codigo" db:"codigo"`
	Nombre            string         `json:"nombre" db:"nombre"`
	Tipo              string         `json:"tipo" db:"tipo"`
	Naturaleza        string         `json:"naturaleza" db:"naturaleza"`
	PadreID           *int64         `json:"padre_id" db:"padre_id"`
	Nivel             int            `json:"nivel" db:"nivel"`
	AceptaMovimientos bool           `json:"acepta_movimientos" db:"acepta_movimientos"`
	Moneda            string         `json:"moneda" db:"moneda"`
	Descripcion       *string        `json:"descripcion" db:"descripcion"`
	Activo            bool           `json:"activo" db:"activo"`
	CreadoEn          time.Time      `json:"creado_en" db:"creado_en"`
	ActualizadoEn     time.Time      `json:"actualizado_en" db:"actualizado_en"`
	Padre             *Ref           `json:"padre,omitzero" db:"-"`
	Saldo             *montos.Numero `json:"saldo,omitzero" db:"-"`
	Hijos             []*Cuenta      `json:"hijos,omitzero" db:"-"`
}

const cuentaCols = `c.id, c.empresa_id, c.codigo, c.nombre, c.tipo, c.naturaleza, c.padre_id, c.nivel, c.acepta_movimientos,
	c.moneda, c.descripcion, c.activo, c.creado_en, c.actualizado_en`

func scanCuenta(r pgx.CollectableRow) (*Cuenta, error) {
	return pgx.RowToAddrOfStructByName[Cuenta](r)
}

// CuentaFiltro is what a list of accounts asks for.
type CuentaFiltro struct {
	// Arbol lists top-level accounts with their subaccounts nested.
	Arbol bool
	// FechaCorte adds each account's balance at that date.
	FechaCorte *time.Time
}

// BuscarCuenta is the account id of the tenant, with its parent.
func BuscarCuenta(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (*Cuenta, error) {
	rows, _ := tx.Query(ctx, `select `+cuentaCols+` from cuentas_contables c where c.empresa_id = $1 and c.id = $2 and not c.eliminado`,
		tx.EmpresaID(), id)
	cs, err := pgx.CollectRows(rows, scanCuenta)
	if err != nil {
		return nil, fmt.Errorf("contabilidad: cuenta %d: %w", id, err)
	}
	if len(cs) == 0 {
		return nil, apperr.NewNotFound(msgCuentaNoEncontrada)
	}
	if err := cargarCuentas(ctx, tx, cs, CuentaFiltro{}, true); err != nil {
		return nil, err
	}
	return cs[0], nil
}

// cargarCuentas completes a page of accounts in one round trip: their
// parents (show), their subtrees (tree) and their balances at the cut-off
// date, each one query of the whole page pipelined in one batch.
func cargarCuentas(ctx context.Context, tx *db.Tx, cs []*Cuenta, f CuentaFiltro, conPadre bool) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]int64, len(cs))
	var padres []int64
	for i, c := range cs {
		ids[i] = c.ID
		if c.PadreID != nil {
			padres = append(padres, *c.PadreID)
		}
	}
	b := &pgx.Batch{}
	var (
		refs     []Ref
		hijos    []*Cuenta
		saldos   = map[int64]montos.Numero{}
		empresa  = tx.EmpresaID()
		wantTree = f.Arbol
	)
	if conPadre && len(padres) > 0 {
		b.Queue(`select id, codigo, nombre from cuentas_contables where empresa_id = $1 and id = any($2)`, empresa, padres).
			Query(func(rows pgx.Rows) error {
				var err error
				refs, err = pgx.CollectRows(rows, pgx.RowToStructByPos[Ref])
				return err
			})
	}
	if wantTree {
		// Every account under the page's roots, in code order.
		b.Queue(`with recursive t as (
				select c.id from cuentas_contables c where c.empresa_id = $1 and c.padre_id = any($2) and not c.eliminado
				union all
				select c.id from cuentas_contables c join t on c.padre_id = t.id where c.empresa_id = $1 and not c.eliminado)
			select `+cuentaCols+` from cuentas_contables c join t on t.id = c.id where c.empresa_id = $1 order by c.codigo`,
			empresa, ids).
			Query(func(rows pgx.Rows) error {
				var err error
				hijos, err = pgx.CollectRows(rows, scanCuenta)
				return err
			})
	}
	if f.FechaCorte != nil {
		// The balance of every account of the page's subtrees (each account
		// once per ancestor on its path, itself included), signed by the
		// ancestor's nature: a parent's balance is its subtree's.
		b.Queue(`with recursive t as (
				select c.id, array[c.id] as camino from cuentas_contables c where c.empresa_id = $1 and c.id = any($2) and not c.eliminado
				union all
				select c.id, t.camino || c.id from cuentas_contables c join t on c.padre_id = t.id where c.empresa_id = $1 and not c.eliminado),
			mov as (
				select l.cuenta_id, sum(l.debe) as debe, sum(l.haber) as haber
				from asiento_lineas l join asientos_contables a on a.empresa_id = l.empresa_id and a.id = l.asiento_id
				where l.empresa_id = $1 and a.estado in ('contabilizado', 'anulado') and not a.eliminado and a.fecha <= $3
				group by l.cuenta_id)
			select k.id, round(case when k.naturaleza = 'deudora' then coalesce(sum(m.debe), 0) - coalesce(sum(m.haber), 0)
					else coalesce(sum(m.haber), 0) - coalesce(sum(m.debe), 0) end, 2)
			from t cross join lateral unnest(t.camino) as a(ancestro)
				join cuentas_contables k on k.empresa_id = $1 and k.id = a.ancestro
				left join mov m on m.cuenta_id = t.id
			group by k.id, k.naturaleza`, empresa, ids, *f.FechaCorte).
			Query(func(rows pgx.Rows) error {
				for rows.Next() {
					var id int64
					var s montos.Numero
					if err := rows.Scan(&id, &s); err != nil {
						return err
					}
					saldos[id] = s
				}
				return rows.Err()
			})
	}
	if b.Len() == 0 {
		return nil
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("contabilidad: cargar cuentas: %w", err)
	}
	porID := map[int64]Ref{}
	for _, r := range refs {
		porID[r.ID] = r
	}
	todas := append(append([]*Cuenta{}, cs...), hijos...)
	for _, c := range todas {
		if conPadre && c.PadreID != nil {
			if r, ok := porID[*c.PadreID]; ok {
				c.Padre = &r
			}
		}
		if f.FechaCorte != nil {
			s := saldos[c.ID]
			c.Saldo = &s
		}
	}
	if wantTree {
		nodos := map[int64]*Cuenta{}
		for _, c := range todas {
			c.Hijos = []*Cuenta{}
			nodos[c.ID] = c
		}
		for _, c := range hijos {
			if c.PadreID != nil {
				if p, ok := nodos[*c.PadreID]; ok {
					p.Hijos = append(p.Hijos, c)
				}
			}
		}
	}
	return nil
}

// cuentaIn is a decoded account body: every field optional (a create
// checks the required ones).
type cuentaIn struct {
	in                                  *valid.Input
	codigo, nombre, tipo, naturaleza    *string
	moneda                              *string
	descripcion                         *string
	descripcionSent                     bool
	padreID                             *int64
	padreSent                           bool
	acepta, activo                      *bool
	codigoSent, tipoSent, naturalezaSet bool
}

// decodeCuenta reads an account body (create and update).
func decodeCuenta(creating bool) func(in *valid.Input) (cuentaIn, error) {
	return func(in *valid.Input) (cuentaIn, error) {
		x := cuentaIn{in: in}
		str := func(key string, r valid.Str) *string {
			if v, ok := in.String(key, r); ok {
				return &v
			}
			return nil
		}
		x.codigoSent = in.Has("codigo")
		if x.codigo = str("codigo", valid.Str{Required: creating, Max: 30}); x.codigo != nil && !codigoRe(*x.codigo) {
			in.Fail("codigo", "El campo codigo debe tener dígitos separados por puntos, por ejemplo 1.1.01.001.")
		}
		x.nombre = str("nombre", valid.Str{Required: creating || in.Has("nombre"), Max: 255})
		x.tipoSent = in.Has("tipo")
		x.tipo = valid.Opt(in.OneOf("tipo", creating, Tipos))
		x.naturalezaSet = in.Has("naturaleza") && !in.IsNull("naturaleza")
		x.naturaleza = valid.Opt(in.OneOf("naturaleza", false, Naturalezas))
		x.moneda = valid.Opt(in.OneOf("moneda", false, Monedas))
		x.descripcionSent = in.Has("descripcion")
		x.descripcion = str("descripcion", valid.Str{Max: 1000})
		x.padreSent = in.Has("padre_id")
		x.padreID = in.OptionalID("padre_id")
		x.acepta = in.OptionalBool("acepta_movimientos")
		x.activo = in.OptionalBool("activo")
		return x, in.Err()
	}
}

// codigoRe reports whether s is a hierarchical code (digits and dots).
func codigoRe(s string) bool {
	if s == "" || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

// cuentaEstado is what the rules of a change need to know about an account
// and its surroundings, read in one query.
type cuentaEstado struct {
	found        bool
	codigoTomado bool
	padreExiste  bool
	padreAcepta  bool
	padreActivo  bool
	padreNivel   int
	padreCodigo  string
	padreTipo    string
	tieneLineas  bool
	tieneHijos   bool
	configurada  *string
	// deTesoreria names the bank account or cash box whose money the
	// account holds (tesoreria): like a configured account, it stays an
	// active leaf while they use it.
	deTesoreria   *string
	presupuestada bool
}

// leerEstado reads, in one round trip, what the rules of a change to
// account id (0: a new one) need. It first locks the account and
// the parent named (for share), each in a statement of its own, so
// that the state query, which READ COMMITTED gives a snapshot of its own,
// sees what the writers it waited for committed: a configuration, bank
// account, cash box or child account that took this account (or parent)
// meanwhile holds its row for share until it commits (the same locks in
// ActualizarConfiguracion and tesoreria), so a deletion or deactivation
// cannot slip between their check and their write. A change that can
// exclude the account from postings (excluye: deactivating, deleting,
// making it a grouping account; also changing its nature, refused once it
// has lines) locks it for update, which also waits for
// the postings in flight on it (migration 0031: they hold their accounts
// for key share from the check of their lines to their commit), so that it
// sees their lines and they see it inactive; any other change locks it for
// no key update and does not wait for postings.
func leerEstado(ctx context.Context, tx *db.Tx, id int64, excluye bool, codigo *string, padre *int64) (cuentaEstado, error) {
	var s cuentaEstado
	b := &pgx.Batch{}
	if id > 0 {
		modo := "no key update"
		if excluye {
			modo = "update"
		}
		b.Queue(`select 1 from cuentas_contables where empresa_id = $1 and id = $2 for `+modo, tx.EmpresaID(), id)
	}
	if padre != nil {
		b.Queue(`select 1 from cuentas_contables where empresa_id = $1 and id = $2 for share`, tx.EmpresaID(), *padre)
	}
	b.Queue(`select
			exists (select 1 from cuentas_contables x where x.empresa_id = $1 and x.id = $2 and not x.eliminado),
			exists (select 1 from cuentas_contables x where x.empresa_id = $1 and x.codigo = $3 and not x.eliminado and x.id <> $2),
			p.id is not null, coalesce(p.acepta_movimientos, false), coalesce(p.activo, false), coalesce(p.nivel, 0),
			coalesce(p.codigo, ''), coalesce(p.tipo, ''),
			exists (select 1 from asiento_lineas l where l.empresa_id = $1 and l.cuenta_id = $2),
			exists (select 1 from cuentas_contables h where h.empresa_id = $1 and h.padre_id = $2 and not h.eliminado),
			(select e.key from contabilidad_configuracion g, jsonb_each(to_jsonb(g)) e
				where g.empresa_id = $1 and e.key like 'cuenta\_%\_id' and e.value = to_jsonb($2::bigint) order by e.key limit 1),
			coalesce((select 'la cuenta bancaria ' || b.banco || ' ' || b.numero from cuentas_bancarias b
					where b.empresa_id = $1 and b.cuenta_contable_id = $2 and not b.eliminado order by b.id limit 1),
				(select 'la caja ' || j.nombre from cajas j where j.empresa_id = $1 and j.cuenta_contable_id = $2 and not j.eliminado order by j.id limit 1)),
			exists (select 1 from presupuestos x where x.empresa_id = $1 and x.cuenta_contable_id = $2 and not x.eliminado)
		from (select 1) one
		left join cuentas_contables p on p.empresa_id = $1 and p.id = $4 and not p.eliminado`,
		tx.EmpresaID(), id, codigo, padre).QueryRow(func(row pgx.Row) error {
		return row.Scan(&s.found, &s.codigoTomado, &s.padreExiste, &s.padreAcepta, &s.padreActivo, &s.padreNivel,
			&s.padreCodigo, &s.padreTipo, &s.tieneLineas, &s.tieneHijos, &s.configurada, &s.deTesoreria, &s.presupuestada)
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return s, fmt.Errorf("contabilidad: reglas de la cuenta: %w", err)
	}
	return s, nil
}

// CrearCuenta adds an account to the tenant's chart: codigo unique in the
// company; padre_id a grouping account (one that takes no postings) of the
// company, whose code prefixes the new one's and whose type it shares;
// nivel = the parent's + 1 (1 without a parent); naturaleza from the type
// unless given.
func CrearCuenta(ctx context.Context, tx *db.Tx, p auth.Principal, x cuentaIn) (*Cuenta, error) {
	s, err := leerEstado(ctx, tx, 0, false, x.codigo, x.padreID)
	if err != nil {
		return nil, err
	}
	in := x.in
	if s.codigoTomado {
		in.Fail("codigo", "El código "+*x.codigo+" ya existe en el catálogo de cuentas.")
	}
	nivel := 1
	if x.padreID != nil {
		switch {
		case !s.padreExiste:
			in.Fail("padre_id", "La cuenta padre no existe.")
		case !s.padreActivo:
			in.Fail("padre_id", "La cuenta padre está inactiva: actívela o elija otra.")
		case s.padreAcepta:
			in.Fail("padre_id", "La cuenta padre debe ser una cuenta de agrupación (que no acepta movimientos).")
		case s.padreNivel >= 10:
			in.Fail("padre_id", "La cuenta padre está en el nivel 10, el último del catálogo.")
		default:
			nivel = s.padreNivel + 1
			if !strings.HasPrefix(*x.codigo, s.padreCodigo+".") {
				in.Fail("codigo", "El código debe comenzar con el de la cuenta padre ("+s.padreCodigo+".).")
			}
			if *x.tipo != s.padreTipo {
				in.Fail("tipo", "El tipo debe ser el de la cuenta padre ("+s.padreTipo+").")
			}
		}
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	naturaleza := NaturalezaDe(*x.tipo)
	if x.naturaleza != nil {
		naturaleza = *x.naturaleza
	}
	moneda := "CRC"
	if x.moneda != nil {
		moneda = *x.moneda
	}
	acepta := true
	if x.acepta != nil {
		acepta = *x.acepta
	}
	activo := x.activo == nil || *x.activo
	var id int64
	err = tx.QueryRow(ctx, `insert into cuentas_contables (empresa_id, codigo, nombre, tipo, naturaleza, padre_id, nivel,
			acepta_movimientos, moneda, descripcion, activo)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
		tx.EmpresaID(), *x.codigo, *x.nombre, *x.tipo, naturaleza, x.padreID, nivel, acepta, moneda, x.descripcion, activo).Scan(&id)
	if err != nil {
		return nil, codigoDuplicado(err, *x.codigo, "crear")
	}
	return BuscarCuenta(ctx, tx, p, id)
}

func codigoDuplicado(err error, codigo, op string) error {
	if c, ok := db.IsUniqueViolation(err); ok && strings.Contains(c, "codigo") {
		return apperr.InvalidField("codigo", "El código "+codigo+" ya existe en el catálogo de cuentas.")
	}
	return fmt.Errorf("contabilidad: %s cuenta: %w", op, err)
}

// ActualizarCuenta changes an account. Its place in the chart (codigo,
// tipo, padre_id) is fixed once created — sending the same values is
// accepted —, the rest may change: an account with postings cannot become
// a grouping account nor change its naturaleza (that would flip the sign
// of its history in every balance), one with subaccounts cannot take
// postings, and an account the posting configuration uses stays an active
// leaf. A change of naturaleza locks like a deactivation, so that it sees
// the lines of postings in flight.
func ActualizarCuenta(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, x cuentaIn) (*Cuenta, error) {
	excluye := (x.activo != nil && !*x.activo) || (x.acepta != nil && !*x.acepta) || x.naturaleza != nil
	s, err := leerEstado(ctx, tx, id, excluye, nil, nil)
	if err != nil {
		return nil, err
	}
	cur, err := BuscarCuenta(ctx, tx, p, id)
	if err != nil {
		return nil, err
	}
	in := x.in
	inmutable := func(key string, sent bool, same bool) {
		if sent && !same {
			in.Fail(key, "El campo "+strings.ReplaceAll(key, "_", " ")+" no se puede modificar: cree otra cuenta y desactive esta.")
		}
	}
	inmutable("codigo", x.codigoSent, x.codigo != nil && *x.codigo == cur.Codigo)
	inmutable("tipo", x.tipoSent, x.tipo != nil && *x.tipo == cur.Tipo)
	inmutable("padre_id", x.padreSent, (x.padreID == nil && cur.PadreID == nil && !in.Failed("padre_id")) ||
		(x.padreID != nil && cur.PadreID != nil && *x.padreID == *cur.PadreID))
	if x.acepta != nil && !*x.acepta && cur.AceptaMovimientos && s.tieneLineas {
		in.Fail("acepta_movimientos", "La cuenta tiene movimientos: no puede convertirse en cuenta de agrupación.")
	}
	if x.naturaleza != nil && *x.naturaleza != cur.Naturaleza && s.tieneLineas {
		in.Fail("naturaleza", "La cuenta tiene movimientos: su naturaleza no se puede cambiar (invertiría el signo de su saldo); cree otra cuenta y desactive esta.")
	}
	if x.acepta != nil && *x.acepta && !cur.AceptaMovimientos && s.tieneHijos {
		in.Fail("acepta_movimientos", "La cuenta tiene subcuentas: solo las cuentas de detalle aceptan movimientos.")
	}
	if s.configurada != nil && x.acepta != nil && !*x.acepta {
		in.Fail("acepta_movimientos", "La cuenta se usa en la configuración contable ("+*s.configurada+"): debe seguir aceptando movimientos.")
	}
	if s.configurada != nil && x.activo != nil && !*x.activo {
		in.Fail("activo", "La cuenta se usa en la configuración contable ("+*s.configurada+"); cambie la configuración antes de desactivarla.")
	}
	if s.deTesoreria != nil && x.acepta != nil && !*x.acepta {
		in.Fail("acepta_movimientos", "La cuenta es la de "+*s.deTesoreria+": debe seguir aceptando movimientos.")
	}
	if s.deTesoreria != nil && x.activo != nil && !*x.activo {
		in.Fail("activo", "La cuenta es la de "+*s.deTesoreria+"; asígnele otra cuenta contable antes de desactivarla.")
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	_, err = tx.Exec(ctx, `update cuentas_contables set
			nombre = coalesce($3, nombre),
			naturaleza = coalesce($4, naturaleza),
			moneda = coalesce($5, moneda),
			descripcion = case when $6 then $7 else descripcion end,
			acepta_movimientos = coalesce($8, acepta_movimientos),
			activo = coalesce($9, activo)
		where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), id, x.nombre, x.naturaleza, x.moneda, x.descripcionSent, x.descripcion, x.acepta, x.activo)
	if err != nil {
		return nil, fmt.Errorf("contabilidad: actualizar cuenta %d: %w", id, err)
	}
	return BuscarCuenta(ctx, tx, p, id)
}

// ErrCuentaConMovimientos refuses deleting an account with postings.
var ErrCuentaConMovimientos = errors.New("contabilidad: la cuenta tiene movimientos")

// EliminarCuenta soft-deletes an account without postings, subaccounts or
// a place in the posting configuration (422 otherwise: an account with
// movements is only deactivated, PUT activo=false).
func EliminarCuenta(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (*struct{}, error) {
	s, err := leerEstado(ctx, tx, id, true, nil, nil)
	if err != nil {
		return nil, err
	}
	switch {
	case !s.found:
		return nil, apperr.NewNotFound(msgCuentaNoEncontrada)
	case s.tieneLineas:
		e := apperr.InvalidField("id", "La cuenta tiene movimientos: no se puede eliminar, solo desactivar (activo: false).")
		e.Err = ErrCuentaConMovimientos
		return nil, e
	case s.tieneHijos:
		return nil, apperr.InvalidField("id", "La cuenta tiene subcuentas: elimínelas o desactívela.")
	case s.configurada != nil:
		return nil, apperr.InvalidField("id", "La cuenta se usa en la configuración contable ("+*s.configurada+"); cambie la configuración antes de eliminarla.")
	case s.deTesoreria != nil:
		return nil, apperr.InvalidField("id", "La cuenta es la de "+*s.deTesoreria+"; asígnele otra cuenta contable antes de eliminarla.")
	case s.presupuestada:
		return nil, apperr.InvalidField("id", "La cuenta tiene presupuestos: elimínelos antes de eliminarla.")
	}
	if _, err := tx.Exec(ctx, `update cuentas_contables set activo = false, eliminado = true where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), id); err != nil {
		return nil, fmt.Errorf("contabilidad: eliminar cuenta %d: %w", id, err)
	}
	return nil, nil
}
