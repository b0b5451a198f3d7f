package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
)

// baselineResult is one scenario's before-change replay: the statements
// the request sent at the baseline commit, under the same pgbench settings.
type baselineResult struct {
	tps        float64
	statements int    // statements in the script
	note       string // "rollback" when the replay ends in ROLLBACK
	err        error  // the replay failed (e.g. a statement no longer valid on today's schema)
	cost       cost   // CPU per transaction: PostgreSQL's and pgbench's
}

// baselineScript reads <dir>/<scenario>.sql, a script kept by -scripts at
// the baseline commit: the statements, then "-- variables:" and one
// "-- name=value" line per pgbench variable. Values that belonged to the
// baseline run are placeholders filled from this run: the token
// ({{token_id}}, {{token_hash}}) and, for a sale, the rows the traced sale
// of this run created ({{venta_id}}, {{movimiento_id}},
// {{detalles_movimiento}}), as today's own replay uses its traced sale's.
// ok is false when the file does not exist.
func baselineScript(dir, name string, fill *strings.Replacer) (script string, vars []string, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, name+".sql"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	script, varText, found := strings.Cut(string(b), "\n-- variables:\n")
	if !found {
		return "", nil, false, fmt.Errorf("%s.sql: no \"-- variables:\" section", name)
	}
	for _, line := range strings.Split(varText, "\n") {
		v, ok := strings.CutPrefix(line, "-- ")
		if !ok || v == "" {
			continue
		}
		v = fill.Replace(v)
		if strings.Contains(v, "{{") {
			return "", nil, false, fmt.Errorf("%s.sql: placeholder not filled in %.80q", name, v)
		}
		vars = append(vars, v)
	}
	return script, vars, true, nil
}

// baselineFill is the replacer of the placeholders: the token the load
// uses and, when answer is a created sale, its id, its stock movement and
// that movement's lines in order.
func baselineFill(ctx context.Context, owner *pgx.Conn, token string, answer []byte, sale bool) (*strings.Replacer, error) {
	id, secret, ok := auth.ParseToken(token)
	if !ok {
		return nil, errors.New("baseline: token malformado")
	}
	pairs := []string{"{{token_id}}", strconv.FormatInt(id, 10), "{{token_hash}}", `\x` + hex.EncodeToString(auth.HashSecret(secret))}
	if sale {
		var r struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(answer, &r); err != nil || r.Data.ID == 0 {
			return nil, fmt.Errorf("baseline: venta sin id: %.200s", answer)
		}
		var mov int64
		var detalles []string
		if err := owner.QueryRow(ctx, `select m.id, array_agg(d.id::text order by d.linea) from movimientos_inventario m
			join detalles_movimiento d on d.movimiento_id = m.id where m.venta_id = $1 group by m.id`, r.Data.ID).Scan(&mov, &detalles); err != nil {
			return nil, fmt.Errorf("baseline: movimiento de la venta %d: %w", r.Data.ID, err)
		}
		pairs = append(pairs, "{{venta_id}}", strconv.FormatInt(r.Data.ID, 10), "{{movimiento_id}}", strconv.FormatInt(mov, 10),
			"{{detalles_movimiento}}", "{"+strings.Join(detalles, ",")+"}")
	}
	return strings.NewReplacer(pairs...), nil
}

// replayBaseline runs scenario name's baseline script with the settings of
// replay: a write ends in ROLLBACK; a read is committed, or ends in
// ROLLBACK if committing fails. A script that fails on today's schema is a
// result (reported in the table), not an error of the run.
func replayBaseline(ctx context.Context, owner *pgx.Conn, dir, appURL, name, title, token string, answer []byte, o options, write bool) (*baselineResult, error) {
	if o.baseline == "" {
		return nil, nil
	}
	fill, err := baselineFill(ctx, owner, token, answer, write)
	if err != nil {
		return nil, err
	}
	script, vars, ok, err := baselineScript(o.baseline, name, fill)
	if err != nil || !ok {
		return nil, err
	}
	secs := int(o.duration.Seconds())
	if secs < 1 {
		secs = 1
	}
	threads := min(runtime.NumCPU(), o.pgClients)
	// pgbenchScript ends each statement with ";\n".
	res := &baselineResult{statements: strings.Count(script, ";\n")}
	var first error
	if !write {
		if res.tps, res.cost, first = pgbenchCost(ctx, dir, appURL, script, vars, o.pgClients, threads, secs, title); first == nil {
			return res, nil
		}
	}
	res.note = "rollback"
	if res.tps, res.cost, err = pgbenchCost(ctx, dir, appURL, rollbackScript(script), vars, o.pgClients, threads, secs, title); err != nil {
		res.tps, res.note, res.err = 0, "", errors.Join(first, err)
	}
	return res, nil
}

// rollbackScript ends the kept script's transaction as pgbenchScript
// does for a write: deferred triggers fired, then ROLLBACK (commitReplay).
func rollbackScript(script string) string {
	lines := strings.Split(script, "\n")
	for i, l := range lines {
		if strings.EqualFold(strings.TrimSpace(l), "commit;") {
			lines[i] = commitReplay + ";"
		}
	}
	return strings.Join(lines, "\n")
}
