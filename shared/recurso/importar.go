package recurso

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/valid"
)

// Fila is one data row of an imported file: its number in the file (the
// header is row 1, the first data row is row 2) and its cells by column.
type Fila struct {
	Numero int
	Celdas map[string]string
}

// ErrorFila is what one field of one row did wrong, with the API's messages
// ("" as campo for a problem of the whole row).
type ErrorFila struct {
	Fila     int      `json:"fila"`
	Campo    string   `json:"campo"`
	Mensajes []string `json:"mensajes"`
}

// Importacion is the outcome of Importar.
type Importacion struct {
	// Validas counts the rows written without error (in the transaction).
	Validas int
	Errores []ErrorFila
	// Interrumpida: the database refused a row and aborted the transaction,
	// so the rows after it were not checked.
	Interrumpida bool
}

// MsgInterrumpida closes the report of a row the database refused.
const MsgInterrumpida = "La base de datos rechazó esta fila y la importación se detuvo aquí; las filas siguientes no se revisaron."

// Importar creates one record per row inside tx exactly as POST
// /api/<name> does (the same values, Validate, reference and uniqueness
// checks, BeforeSave, insert and AfterCreate), so a row gets the API's
// Spanish messages. Rows run one after another in the caller's
// transaction: a later row sees an earlier one, and a duplicate inside the
// file is reported by the same uniqueness rule as one against a stored
// record. The caller decides to commit (no error) or roll back. A row that
// fails validation writes nothing (validation precedes the insert); a
// database error on a row aborts the transaction: it is reported on that
// row and Importar stops (Interrumpida). Other errors are returned.
//
// Round trips: a row costs save's two (the pipelined checks, the insert).
// AfterCreate receives the record as the API shows it, as on POST; those
// records are reloaded once all rows are saved, a chunk of rows per round
// trip, instead of one reload per row, and AfterCreate then runs for each
// row in file order. A resource without AfterCreate is not reloaded at all
// (an import answers counts, not records).
func (res *Resource) Importar(ctx context.Context, tx *db.Tx, p auth.Principal, filas []Fila) (Importacion, error) {
	var out Importacion
	if res.ReadOnly {
		return out, fmt.Errorf("recurso: %s: import into a read-only resource", res.Name)
	}
	var creadas []importada
	for _, f := range filas {
		in := valid.NewInput(res.Celdas(f.Celdas))
		c := &Call{Ctx: ctx, Principal: p, Tx: tx, In: in}
		var err error
		if res.BeforeRead != nil {
			// The reload depends on per-call state: run POST's path whole.
			_, err = res.crear(ctx, tx, p, in)
		} else {
			err = res.save(c, in.Raw())
		}
		if err == nil {
			creadas = append(creadas, importada{fila: f.Numero, call: c})
			continue
		}
		if parar, err := out.registrar(res, f.Numero, err); parar || err != nil {
			out.Validas = len(creadas) // the rows saved before it
			return out, err
		}
	}
	if res.AfterCreate != nil && res.BeforeRead == nil {
		for i := 0; i < len(creadas); i += recargaLote {
			lote := creadas[i:min(i+recargaLote, len(creadas))]
			rows, err := res.recargar(ctx, tx, lote)
			if err != nil {
				return out, err
			}
			for j, imp := range lote {
				if err := res.AfterCreate(imp.call, rows[j]); err != nil {
					if parar, err := out.registrar(res, imp.fila, err); parar || err != nil {
						return out, err
					}
					continue
				}
				out.Validas++
			}
		}
		return out, nil
	}
	out.Validas = len(creadas)
	return out, nil
}

// recargaLote is how many created rows one reload query loads.
const recargaLote = 1000

// importada is a row saved by Importar, with its call (c.ID is the new id).
type importada struct {
	fila int
	call *Call
}

// recargar loads created records as POST's answer shows them (find with
// detail), a chunk at once: the rows with their relations and aggregates
// in one statement, then the details of every row in one batch.
func (res *Resource) recargar(ctx context.Context, tx *db.Tx, lote []importada) ([]Row, error) {
	ids := make([]int64, len(lote))
	for i, imp := range lote {
		ids[i] = imp.call.ID
	}
	c := &Call{Ctx: ctx, Tx: tx, Principal: lote[0].call.Principal}
	a := &Args{}
	where := res.visible(c, a)
	sh := res.shape(false, "")
	rows, err := tx.Query(ctx, `with pagina as (select t.* from `+res.Table+` t where `+where+` and t.id = any(`+a.Add(ids)+`)) select `+
		sh.cols+` from pagina t`+sh.join, a.Values()...)
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: import reload: %w", res.Name, err)
	}
	list, err := pgx.CollectRows(rows, sh.scanner())
	if err != nil {
		return nil, fmt.Errorf("recurso: %s: import reload: %w", res.Name, err)
	}
	byID := make(map[int64]Row, len(list))
	for _, raw := range list {
		r, err := decodeRow(raw)
		if err != nil {
			return nil, err
		}
		byID[rowID(r)] = r
	}
	out := make([]Row, len(lote))
	for i, id := range ids {
		if out[i] = byID[id]; out[i] == nil {
			return nil, fmt.Errorf("recurso: %s: import reload: row %d not found", res.Name, id)
		}
	}
	if len(res.Details) == 0 {
		return out, nil
	}
	b := &pgx.Batch{}
	for _, id := range ids {
		for _, d := range res.Details {
			b.Queue(d.SQL, id)
		}
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	for i := range ids {
		for _, d := range res.Details {
			var raw []byte
			if err := br.QueryRow().Scan(&raw); err != nil {
				return nil, fmt.Errorf("recurso: %s.%s: import reload: %w", res.Name, d.Name, err)
			}
			var v any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("recurso: %s.%s: import reload: %w", res.Name, d.Name, err)
			}
			if v == nil {
				v = []any{}
			}
			out[i][d.Name] = v
		}
	}
	return out, nil
}

// registrar reports a row's error: Invalid errors by field (declaration
// order), other application errors on the whole row. parar is true when a
// database error aborted the transaction; err is returned for an internal
// error.
func (out *Importacion) registrar(res *Resource, fila int, err error) (parar bool, _ error) {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		e := ErrorFila{Fila: fila, Mensajes: []string{MsgInterrumpida}}
		if ae, ok := apperr.As(err); ok && ae.Kind == apperr.Invalid {
			for campo, msgs := range ae.Fields {
				e.Campo = campo
				e.Mensajes = append(append([]string{}, msgs...), MsgInterrumpida)
			}
		}
		out.Errores = append(out.Errores, e)
		out.Interrumpida = true
		return true, nil
	}
	ae, ok := apperr.As(err)
	switch {
	case ok && ae.Kind == apperr.Invalid:
		campos := make([]string, 0, len(ae.Fields))
		for campo := range ae.Fields {
			campos = append(campos, campo)
		}
		sort.Slice(campos, func(i, j int) bool { return res.orden(campos[i]) < res.orden(campos[j]) })
		for _, campo := range campos {
			out.Errores = append(out.Errores, ErrorFila{Fila: fila, Campo: campo, Mensajes: ae.Fields[campo]})
		}
		return false, nil
	case ok && ae.Kind != apperr.Internal:
		out.Errores = append(out.Errores, ErrorFila{Fila: fila, Mensajes: []string{ae.Message}})
		return false, nil
	}
	return true, fmt.Errorf("recurso: %s: import row %d: %w", res.Name, fila, err)
}

// orden is a field's position in the declaration (unknown keys last).
func (res *Resource) orden(name string) int {
	for i, f := range res.Fields {
		if f.Name == name {
			return i
		}
	}
	return len(res.Fields)
}

// Celdas turns the cells of a file row into the JSON body the API's POST
// would receive, by each field's kind: an empty cell is absent; integers
// and references become JSON numbers; decimals stay strings (read exactly);
// booleans read true/false, verdadero/falso, sí/si/no and 1/0. A value that
// does not convert is passed as a string, so that the field's rule answers
// with its usual message. Cells of unknown columns are ignored (the file
// reader refuses them first).
func (res *Resource) Celdas(celdas map[string]string) map[string]json.RawMessage {
	raw := map[string]json.RawMessage{}
	for _, f := range res.Fields {
		s := strings.TrimSpace(celdas[f.Name])
		if s == "" {
			continue
		}
		texto, _ := json.Marshal(s)
		raw[f.Name] = texto
		switch f.Kind {
		case Integer, Ref:
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				raw[f.Name] = json.RawMessage(strconv.FormatInt(n, 10))
			}
		case Boolean:
			switch strings.ToLower(s) {
			case "true", "verdadero", "sí", "si", "1":
				raw[f.Name] = json.RawMessage("true")
			case "false", "falso", "no", "0":
				raw[f.Name] = json.RawMessage("false")
			}
		}
	}
	return raw
}

// Columnas are the importable columns of the resource: its declared
// fields, in order.
func (res *Resource) Columnas() []string {
	cols := make([]string, len(res.Fields))
	for i, f := range res.Fields {
		cols[i] = f.Name
	}
	return cols
}

// EjemploFila is one example row for an import template: the value extra
// names for a field, else its Ejemplo, else a value its kind accepts
// (references have no better example than 1: ids differ per company; an
// optional field with a format gets an empty cell).
func (res *Resource) EjemploFila(extra map[string]string) []string {
	fila := make([]string, len(res.Fields))
	for i, f := range res.Fields {
		if v, ok := extra[f.Name]; ok {
			fila[i] = v
			continue
		}
		if f.Ejemplo != nil {
			fila[i] = ejemploTexto(f.Ejemplo)
			continue
		}
		switch {
		case len(f.Values) > 0:
			fila[i] = f.Values[0]
		case f.Kind == Integer || f.Kind == Ref:
			fila[i] = "1"
			if f.MinValue == "0" {
				fila[i] = "0"
			}
		case f.Kind == Decimal:
			fila[i] = "0.00"
		case f.Kind == Boolean:
			fila[i] = "sí"
		case f.Kind == Date:
			fila[i] = "2026-01-31"
		case f.Email:
			fila[i] = "contacto@ejemplo.cr"
		case f.URL:
			fila[i] = "https://ejemplo.cr/imagen.png"
		case f.Normalize == nil:
			fila[i] = "Ejemplo de " + label(f.Name)
		}
	}
	return fila
}

func ejemploTexto(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "sí"
		}
		return "no"
	}
	return fmt.Sprint(v)
}
