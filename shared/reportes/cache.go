package reportes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/erpcr/erp/shared/db"
)

// The cache (migration 0013).
//
// Design: a computed report's JSON is stored in reportes_cache under
// (company, key), the key being the type and the SHA-256 of its
// normalized parameters (Consulta.Parametros: every spelling of a request
// shares one entry, and the format is not part of it — a PDF, an Excel
// file and the JSON of the same parameters are rendered from one entry).
// Each entry carries the company's cache version at the time it was
// computed; triggers bump the version in the very transaction that posts
// or reverses an entry, changes an account, an exchange rate or the
// posting configuration, so an entry is valid exactly while the books it
// was computed from are unchanged: a posting invalidates every report of
// its company at its COMMIT, and no other company's. The version is read
// before the report is computed, in the same transaction: a posting that
// commits meanwhile moves the version past the stored one, so a report
// that might have missed it is never served.
//
// TTL: an entry also expires CacheTTL after it was computed, which bounds
// the table (expired rows of the company are deleted by the next write)
// and anything the version does not track. POST /api/reportes/invalidar-cache
// deletes the company's entries and bumps its version.
//
// Cost: a hit is one round trip (the lookup, which also reads the
// company's name for the exports' header); a miss adds the report's own
// batch and one write.
const CacheTTL = 15 * time.Minute

// clave is the cache key of a report.
func clave(t Tipo, params map[string]any) (string, error) {
	b, err := json.Marshal(params) // map keys are sorted: a canonical form
	if err != nil {
		return "", fmt.Errorf("reportes: clave de caché: %w", err)
	}
	sum := sha256.Sum256(b)
	return t.Clave + ":" + hex.EncodeToString(sum[:]), nil
}

// consultaCache is what the lookup reads in one round trip.
type consultaCache struct {
	version    int64
	datos      []byte
	empresa    string
	cedula     string
	sucursalOK bool
}

const leerCacheSQL = `with v as (select coalesce((select version from reportes_cache_version where empresa_id = $1), 0) as version)
select v.version,
	(select c.datos from reportes_cache c where c.empresa_id = $1 and c.clave = $2 and c.version = v.version and c.expira_en > now()),
	e.nombre, e.nit_ruc,
	($3::bigint is null or exists (select 1 from sucursales s where s.empresa_id = $1 and s.id = $3))
from empresas e, v where e.id = $1`

func leerCache(ctx context.Context, tx *db.Tx, key string, sucursal *int64) (consultaCache, error) {
	var c consultaCache
	err := tx.QueryRow(ctx, leerCacheSQL, tx.EmpresaID(), key, sucursal).Scan(&c.version, &c.datos, &c.empresa, &c.cedula, &c.sucursalOK)
	if err != nil {
		return c, fmt.Errorf("reportes: leer caché: %w", err)
	}
	return c, nil
}

// guardarCache stores a report under the version read before computing
// it, and deletes the company's expired entries in the same statement.
func guardarCache(ctx context.Context, tx *db.Tx, key string, version int64, datos []byte) error {
	_, err := tx.Exec(ctx, `with purga as (
			delete from reportes_cache where empresa_id = $1 and expira_en <= now() and clave <> $2
		)
		insert into reportes_cache (empresa_id, clave, version, datos, expira_en)
		values ($1, $2, $3, $4, now() + make_interval(secs => $5))
		on conflict (empresa_id, clave) do update set version = excluded.version, datos = excluded.datos,
			creado_en = now(), expira_en = excluded.expira_en`,
		tx.EmpresaID(), key, version, datos, CacheTTL.Seconds())
	if err != nil {
		return fmt.Errorf("reportes: guardar caché: %w", err)
	}
	return nil
}

// Invalidar deletes the company's cached reports and bumps its version
// (a report being computed right now is not stored as valid either). It
// returns how many entries were deleted.
func Invalidar(ctx context.Context, tx *db.Tx) (int64, error) {
	var n int64
	err := tx.QueryRow(ctx, `with borrados as (
			delete from reportes_cache where empresa_id = $1 returning 1
		), version as (
			insert into reportes_cache_version (empresa_id, version) values ($1, 1)
			on conflict (empresa_id) do update set version = reportes_cache_version.version + 1, actualizado_en = now()
		)
		select count(*) from borrados`, tx.EmpresaID()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("reportes: invalidar caché: %w", err)
	}
	return n, nil
}
